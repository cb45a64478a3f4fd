"""Test helpers: a small results folder, and a registry with the broken bots.

The results folder is built without the tournament machinery: games are
played in-process with :func:`arena.bots.referee.play_game` and stored with
:class:`arena.results.store.database.Store`, so the folder holds what a tournament writes.
One player, ``cheat`` (:class:`TrumpCheatBot`), plays illegal cards in
Donkey, so the report has faults to show.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from arena import PlayerSpec
from arena.bots.referee import InProcessClient, play_game
from arena.game.rules import Rules
from arena.plugins.registry import load
from arena.results.store.database import Store

from . import FlakyBot, GlobalRandomBot, HogBot, NoTakeBot, SlowBot, SometimesFlakyBot, TrumpCheatBot

PLAYERS = ("heuristic", "random", "low", "high", "cheat")
REPORT_GAMES = 36
REPORT_SEED = 4084665165901889882
"""The report tests' first deal seed: JavaScript showed it as 4084665165901890000 (issue 14)."""
RULES = ("getaway", "donkey", "bhabho")


@dataclass(frozen=True)
class StoredGame:
    """What :meth:`Store.add_game` needs of a scheduled game besides its record."""

    index: int
    game_id: str
    deal_seed: int
    rotation: int


def registry_with_broken():
    """The built-in players plus the deliberately broken ones under test names."""
    reg = load(autoload=False)
    for name, cls in (("cheat", TrumpCheatBot), ("trump-cheat", TrumpCheatBot), ("flaky", FlakyBot),
                      ("sometimes-flaky", SometimesFlakyBot), ("global-random", GlobalRandomBot),
                      ("slow", SlowBot), ("hog", HogBot), ("no-take", NoTakeBot)):
        reg.players[name] = PlayerSpec(name, cls, f"broken test bot {cls.__name__}", "0", "broken_bot")
    return reg


def make_results(folder: Path, games: int = 36, seed_base: int = 1000) -> Path:
    """Play ``games`` games (3 rule sets, tables of 3 and 4) into a fresh results folder.

    Game ``i`` is dealt with seed ``seed_base + i`` (a tournament's deal seeds are 64-bit).
    """
    reg = registry_with_broken()
    with Store(folder, create=True) as store:
        store.set_meta("spec", {"name": "report-test", "seed": 7, "format": "round-robin", "deals": 1,
                                "limits": {"decision_ms": 1000, "memory_mb": 1024}})
        store.save_roster([{"name": p, "plugin": reg.get(p).plugin, "version": reg.get(p).version,
                             "code_hash": ""} for p in PLAYERS])
        for i in range(games):
            n = 3 + i % 2
            seats = [PLAYERS[(i + 2 * k) % len(PLAYERS)] for k in range(n)]
            rules = Rules.preset(RULES[i % len(RULES)])
            clients = [InProcessClient(reg.get(s)) for s in seats]
            record = play_game(rules, clients, seed_base + i, 0, names=seats,
                               schedule={"index": i, "id": f"test-{i}", "rotation": 0})
            store.add_game(StoredGame(i, f"test-{i}", seed_base + i, 0), record)
    return folder
