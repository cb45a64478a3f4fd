"""Seeds: one module derives them; a bot's seed is keyed with a secret it cannot read.

The attack these tests stop: a bot that searches small game seeds for the one
its own seed comes from (or the one whose deal gives its hand), then deals
that game with arena's own engine and knows every hand at its first decision.
Sandboxed runs happen in a child process (starting a sandboxed bot hardens
the harness process, which must not leak into pytest's).
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from typing import ClassVar

import pytest

from arena import Bot, Game, PlayerSpec, Rules
from arena.bots.referee import InProcessClient, play_game
from arena.game.errors import SeedError
from arena.plugins.registry import load
from arena.plugins.runner import play_one
from arena.tournament.executors import SerialExecutor
from arena.tournament.spec import spec_from_dict
from arena.game.seeds import (OPEN, SECRET_FILE, Secret, bot_seed, derive_seed, open_bot_seed, play_seeds,
                         read_secret, user_secret, user_secret_path, write_secret)
from arena.results.store.database import DB_NAME, Store
from arena.tournament.errors import TournamentError
from arena.tournament.event import Tournament, schedule
from support.tournaments import StopAfter, records

SEARCH = range(10_001)
SPEC = {"name": "spied", "seed": 3, "players": ["spy", "random", "low", "high"], "table_sizes": [3, 4],
        "deals": 1, "sandbox": "never", "batch": 4}


# ------------------------------------------------------------ the attacking bot
def _old_tournament_seed(game, seat: int) -> int:
    """What GameSpec.bot_seed gave before bot seeds had a secret."""
    return derive_seed(game.deal_seed, "bot", game.rotation, seat, game.seats[seat])


class SpyBot(Bot):
    """At its first view, searches for the game it is in; writes what it found to FOUND."""

    FOUND: ClassVar[list[dict]] = []

    def new_game(self, view) -> None:
        found = {"seed": self.seed, "by_seed": None, "by_hand": None, "in_schedule": None}
        hand = set(view.hand)
        for n in SEARCH:
            if found["by_seed"] is None and open_bot_seed(n, view.seat, "spy") == self.seed:
                found["by_seed"] = n
            if found["by_hand"] is None and set(Game.deal(view.rules, view.players, n, 0).hand(view.seat)) == hand:
                found["by_hand"] = n
        for g in schedule(spec_from_dict(SPEC, "public")):  # the bot knows the published spec
            for seat in range(len(g.seats)):
                if _old_tournament_seed(g, seat) == self.seed:
                    found["in_schedule"] = g.game_id
        self.FOUND.append(found)

    def play(self, view):
        return view.legal[0]


@pytest.fixture()
def spy_registry():
    """The built-in players plus the spy (in-process); a serial executor is given it."""
    SpyBot.FOUND.clear()
    reg = load(autoload=False)
    reg.players["spy"] = PlayerSpec("spy", SpyBot, "searches for its deal", "0", "tests")
    return reg


def test_the_attack_works_on_open_seeds(spy_registry):
    """Control: with the pre-secret scheme (the referee's default, for trusted players only) the spy finds 4711."""
    names = ["spy", "random", "low", "high"]
    play_game(Rules.preset("getaway"), [InProcessClient(spy_registry.get(n)) for n in names], 4711, names=names)
    assert SpyBot.FOUND[0]["by_seed"] == 4711 and SpyBot.FOUND[0]["by_hand"] == 4711


def test_spy_cannot_find_the_deal_of_arena_play(spy_registry):
    """`arena play --seed 4711`: neither the spy's seed nor its hand leads it to the game seed."""
    record = play_one(spy_registry, Rules.preset("getaway"), ["spy", "random", "low", "high"], 4711,
                      sandbox=False)
    found = SpyBot.FOUND[0]
    assert found["by_seed"] is None and found["by_hand"] is None
    assert record["play_seed"] == 4711 and record["seed"] != 4711
    assert record["bot_seeds"][0] == found["seed"]


def test_spy_cannot_find_its_tournament_game(spy_registry, tmp_path):
    """In a tournament whose spec the spy knows, its seed names no game of the schedule."""
    t = Tournament.create(spec_from_dict(SPEC, "test"), tmp_path / "spied", spy_registry)
    t.run(SerialExecutor(spy_registry))
    assert len(SpyBot.FOUND) == sum("spy" in g.seats for g in t.games) > 0
    assert all(f["by_seed"] is None and f["in_schedule"] is None for f in SpyBot.FOUND)


# ------------------------------------------------------------ standalone games
def _untimed(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "timings"}


def test_same_seed_and_secret_same_game(spy_registry):
    """`arena play`: the same seed and secret give identical records; another secret another deal; among
    built-in players the default is open (the seed alone: the same game on any machine), with --sealed
    the per-user secret; the record says which."""
    reg, names = load(autoload=False), ["heuristic", "random", "low", "high"]
    one, two = Secret(bytes(range(32))), Secret(bytes(range(1, 33)))
    first = play_one(reg, Rules.preset("getaway"), names, 5, secret=one)
    assert _untimed(play_one(reg, Rules.preset("getaway"), names, 5, secret=one)) == _untimed(first)
    other = play_one(reg, Rules.preset("getaway"), names, 5, secret=two)
    assert other["start"] != first["start"] and set(other["bot_seeds"]).isdisjoint(first["bot_seeds"])
    default = play_one(reg, Rules.preset("getaway"), names, 5)
    assert _untimed(default) == _untimed(play_one(reg, Rules.preset("getaway"), names, 5, secret=OPEN))
    assert default["sealed"] is False and first["sealed"] is True
    assert default["seed"] == play_seeds(OPEN, 5, names).deal != 5  # still not the seed itself
    assert _untimed(play_one(reg, Rules.preset("getaway"), names, 5, sealed=True)) == \
        _untimed(play_one(reg, Rules.preset("getaway"), names, 5, secret=user_secret()))
    Game.from_record(first)


def test_a_third_party_seat_is_always_sealed(spy_registry):
    """A game with a bot that is not built-in is keyed with the per-user secret, not the open key."""
    names = ["spy", "random", "low", "high"]
    record = play_one(spy_registry, Rules.preset("getaway"), names, 5, sandbox=False)
    assert record["sealed"] is True
    assert record["bot_seeds"] == list(play_seeds(user_secret(), 5, names).bots)


def test_keyed_seeds_depend_on_every_input():
    """Bot seeds change with the secret, deal, rotation, seat and name; all fit 63 bits."""
    a, b = Secret(bytes(32)), Secret(bytes([1]) * 32)
    base = bot_seed(a, 10, 0, 1, "x")
    assert base == bot_seed(a, 10, 0, 1, "x") and 0 <= base < 2**63
    assert len({base, bot_seed(b, 10, 0, 1, "x"), bot_seed(a, 11, 0, 1, "x"), bot_seed(a, 10, 1, 1, "x"),
                bot_seed(a, 10, 0, 2, "x"), bot_seed(a, 10, 0, 1, "y")}) == 6
    seeds = play_seeds(a, 4711, ["x", "y", "z"])
    assert seeds == play_seeds(a, 4711, ["x", "y", "z"]) and seeds.deal != play_seeds(b, 4711, ["x"]).deal
    assert seeds.bots == tuple(bot_seed(a, seeds.deal, 0, s, n) for s, n in enumerate("xyz"))


def test_secret_text_and_files(tmp_path):
    """Secrets are written 0600 once (a second write keeps the first), read back, and never shown by repr."""
    s = Secret.generate()
    assert len(s.key) == 32 and s.hex() not in repr(s) and s.check() in repr(s)
    path = tmp_path / "secret"
    assert write_secret(path, s) == s and write_secret(path, Secret.generate()) == s
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and read_secret(path) == s == read_secret(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["secret"]
    (tmp_path / "bad").write_text("not hex")
    with pytest.raises(SeedError, match="bad: expected 32-128 hex digits"):
        read_secret(tmp_path / "bad")
    with pytest.raises(SeedError, match="cannot read a secret from"):
        read_secret(tmp_path / "none")
    with pytest.raises(SeedError, match="16-64 bytes"):
        Secret(b"short")


def test_user_secret_made_once(tmp_path, monkeypatch):
    """The per-user secret is made under XDG_DATA_HOME (folder 0700, file 0600) and then reused."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = user_secret_path()
    assert path == tmp_path / "bhabhi-arena" / SECRET_FILE and not path.exists()
    first = user_secret()
    assert user_secret() == first == read_secret(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700


# ------------------------------------------------------------ tournaments
SMALL = {"name": "small", "seed": 5, "players": ["heuristic", "random", "low"], "table_sizes": [3, 4],
         "house": ["high"], "deals": 2, "batch": 3, "sealed": True}


def test_resume_gives_the_bots_the_same_seeds(tmp_path):
    """Interrupted, then resumed from its folder alone: the records of an unbroken run with that secret."""
    reg, spec = load(autoload=False), spec_from_dict(SMALL, "test")
    t = Tournament.create(spec, tmp_path / "a" / "small", reg)
    with pytest.raises(KeyboardInterrupt):
        t.run(StopAfter(3))
    with Store(t.folder) as store:
        assert 0 < store.count() < len(t.games)
    Tournament.open(t.folder, reg).run(SerialExecutor(reg))
    whole = Tournament.create(spec, tmp_path / "b" / "small", reg, read_secret(t.folder))
    whole.run(SerialExecutor(reg))
    assert records(t.folder) == records(whole.folder)
    assert all(r["bot_seeds"] == list(g.bot_seeds(whole.secret)) for (_, r), g in zip(records(t.folder), t.games))


def test_tournament_secret_is_kept_and_checked(tmp_path):
    """The folder's secret file is 0600; the store keeps only its check; another, lost or swapped one is refused."""
    reg, spec = load(autoload=False), spec_from_dict({**SMALL, "table_sizes": [3], "deals": 1}, "test")
    t = Tournament.create(spec, tmp_path / "small", reg)
    path = t.folder / SECRET_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and read_secret(path) == t.secret
    assert Tournament.create(spec, t.folder, reg, t.secret).secret == t.secret
    with pytest.raises(TournamentError, match="already has its own secret"):
        Tournament.create(spec, t.folder, reg, Secret.generate())
    t.run(SerialExecutor(reg))
    with Store(t.folder) as store:
        assert store.meta("secret_check") == t.secret.check()
    path.unlink()
    with pytest.raises(TournamentError, match="secret is missing"):
        Tournament.open(t.folder, reg).run(SerialExecutor(reg))
    write_secret(path, Secret.generate())
    with pytest.raises(TournamentError, match="is not the secret"):
        Tournament.open(t.folder, reg).run(SerialExecutor(reg))


def test_cli_secret_from(tmp_path, capsys):
    """`arena tournament run --secret-from FOLDER` replays a sealed folder's games; `arena play` takes one too."""
    from arena.cli.app import main
    base = ["tournament", "run", "--players", "heuristic,random,low", "--table-sizes", "3", "--quiet",
            "--jobs", "1", "--deals", "1", "--sealed"]
    assert main([*base, "--name", "one", "--results", str(tmp_path)]) == 0
    assert main([*base, "--name", "one", "--results", str(tmp_path / "again"),
                 "--secret-from", str(tmp_path / "one")]) == 0
    assert records(tmp_path / "again" / "one") == records(tmp_path / "one")
    capsys.readouterr()
    args = ["play", "--seats", "heuristic,random,low", "--seed", "9", "--json"]
    assert main([*args, "--secret-from", str(tmp_path / "one")]) == 0
    mine = json.loads(capsys.readouterr().out)
    assert mine["bot_seeds"] == list(play_seeds(read_secret(tmp_path / "one"), 9, mine["names"]).bots)
    assert main([*args, "--secret-from", str(tmp_path / "none")]) == 2
    assert "error: cannot read a secret from" in capsys.readouterr().err


# ------------------------------------------------------------ nothing carries the secret
_CHILD = """
import json, sys
from arena.game.rules import Rules
from arena.plugins.registry import load
from arena.plugins.runner import play_one
from arena.sandbox import botproc
from arena.tournament.event import Tournament
from arena.tournament.executors import SerialExecutor
from arena.tournament.spec import spec_from_dict

out, folder = {"frames": [], "env": [], "argv": []}, sys.argv[1]
encode, env, popen = botproc.wire.encode, botproc.BotProcess._env, botproc.subprocess.Popen

def spy_encode(obj):   # every frame the harness makes for a bot process
    data = encode(obj)
    out["frames"].append(bytes(data).decode("latin-1"))
    return data

def spy_env(self):
    out["env"].append(env(self))
    return out["env"][-1]

class SpyPopen(popen):
    def __init__(self, argv, *args, **kwargs):
        out["argv"].append(list(map(str, argv)))
        super().__init__(argv, *args, **kwargs)

botproc.wire.encode, botproc.BotProcess._env, botproc.subprocess.Popen = spy_encode, spy_env, SpyPopen
reg = load(autoload=False)
spec = spec_from_dict({"name": "boxed", "seed": 2, "players": ["heuristic", "random", "low"],
                       "table_sizes": [3], "sandbox": "always", "batch": 2, "sealed": True}, "test")
executor = SerialExecutor(reg)
Tournament.create(spec, folder + "/boxed", reg).run(executor)
executor.shutdown()
out["play"] = play_one(reg, Rules.preset("getaway"), ["random", "low", "high"], 4711, sandbox=True, sealed=True)
print(json.dumps(out))
"""


def test_secret_never_reaches_a_bot_or_a_record(tmp_path):
    """Sandboxed bots: no frame, argv or environment they get, and no stored record, holds a secret."""
    done = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path)], check=False, capture_output=True, text=True,
                          timeout=600, env=dict(os.environ))
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    folder = tmp_path / "boxed"
    secrets = [read_secret(folder).hex(), user_secret().hex()]
    every = [r for _, r in records(folder)] + [seen["play"]]
    games = [json.loads(f[4:]) for f in seen["frames"] if '"op":"game"' in f]
    sent = {g["seed"] for g in games}
    assert sent == {s for r in every for s in r["bot_seeds"]} and len(sent) == 3 * len(every)
    stored = b"".join(p.read_bytes() for p in folder.iterdir() if p.name.startswith(DB_NAME))
    for secret in secrets:
        for text in (secret, secret.upper()):
            assert not any(text in f for f in seen["frames"]), "a frame sent to a bot holds the secret"
            assert text not in json.dumps(seen["env"]) + json.dumps(seen["argv"])
            assert text not in json.dumps(every) and text.encode() not in stored
        assert bytes.fromhex(secret) not in stored
