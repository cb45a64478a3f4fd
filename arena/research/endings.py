"""How games end: seed 002's shootout share, from games played here or from a tournament's results.

Seed 002 says a shootout (the last two players holding no suit in common) ends
a real share of games between strong players; :func:`shootout_share` plays
such games in-process and :func:`endings_from_results` counts the endings of a
stored tournament, each with a 95% Wilson interval on the share.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable
from pathlib import Path

from arena.bots.errors import PluginError
from arena.bots.player_spec import check_in_process
from arena.bots.referee import InProcessClient, play_game
from arena.game.rules import Rules
from arena.game.seeds import numbered_seed
from arena.plugins.registry import Registry
from arena.results.stats.intervals import wilson
from arena.results.store.database import Store


def shootout_share(registry: Registry, players: list[str], games: int, seed: int = 2, preset: str = "champions",
                   progress: Callable[[int], None] | None = None, options: dict | None = None,
                   first: int = 0) -> tuple[list[str], dict]:
    """Seed 002's other claim: the share of games that end in a shootout, with strong players at every seat.

    Plays ``games`` games in-process (the named built-in players of ``registry``,
    which may repeat, seated as given and rotated one seat per game), deal
    ``seed * 1_000_003 + g`` for ``g`` from ``first``. ``options`` are keyword
    options for every player's factory (e.g. ``{"budget_ms": 20}`` for the sampler).
    """
    specs = {}
    for name in set(players):
        spec = registry.get(name)
        check_in_process(spec)
        if options:
            if spec.factory is None:  # check_in_process refuses a player without one
                raise PluginError(f"player {name!r} has no factory to take the options {options}")
            spec = dataclasses.replace(spec, factory=functools.partial(spec.factory, **options))
        specs[name] = spec
    rules = Rules.preset(preset)
    start = time.perf_counter()
    reasons: dict[str, int] = {}
    for g in range(first, first + games):
        k = g % len(players)
        seats = players[k:] + players[:k]
        clients = [InProcessClient(specs[name]) for name in seats]
        record = play_game(rules, clients, numbered_seed(seed, g), names=seats)  # trusted: open bot seeds
        reason = record["result"]["reason"]
        reasons[reason] = reasons.get(reason, 0) + 1
        if progress is not None:
            progress(g + 1 - first)
    took = time.perf_counter() - start
    shown = ", ".join(players) + (f"; options {options}" if options else "")
    lines, stats = _share_lines(f"{preset}, {len(players)} players ({shown}), {games} games", reasons)
    return [*lines, f"wall time {took:.0f} s"], {**stats, "seconds": took}


def endings_from_results(folder: str | Path) -> tuple[list[str], dict]:
    """How the games stored in a tournament's results folder ended (shootout share with its interval)."""
    reasons: dict[str, int] = {}
    with Store(folder) as store:
        for _, record in store.records():
            reason = record["result"]["reason"]
            reasons[reason] = reasons.get(reason, 0) + 1
    return _share_lines(f"{folder}: {sum(reasons.values())} games", reasons)


def _share_lines(title: str, reasons: dict[str, int]) -> tuple[list[str], dict]:
    """The title, the shootout share with its 95% interval, and every ending's count (most first)."""
    games = sum(reasons.values())
    shoot = reasons.get("shootout", 0)
    lo, hi = wilson(shoot, games)
    share = shoot / games if games else 0.0
    lines = [title,
             (f"ended in a shootout: {shoot} of {games} = {100 * share:.1f}% "
              f"(95% Wilson interval {100 * lo:.1f}-{100 * hi:.1f}%)"),
             "endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]))]
    return lines, {"games": games, "shootouts": shoot, "low": lo, "high": hi, "reasons": reasons}
