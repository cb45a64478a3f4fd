"""Shared fixtures: building positions, playing actions, random play, invariant checks; and how
the suite runs in parallel.

The suite runs on pytest-xdist workers (``-n auto --maxprocesses 3 --dist loadgroup`` in
pyproject.toml): one more than the cores (:func:`pytest_xdist_auto_num_workers`), at most three, so
three on a 2-core machine; ``-n 0`` runs it in one process, for ``--pdb`` or ``-s``. Rules for a
test, so that it passes whichever worker runs it, next to whichever other tests:

- Each test module is one unit of work (:func:`pytest_collection_modifyitems` gives it the
  ``xdist_group`` of its file): its tests run in order on one worker and its module- and
  session-scoped fixtures are made once. Tests of several files that share an expensive session
  fixture name one group with ``pytestmark = pytest.mark.xdist_group("NAME")``.
- A module that takes tens of seconds says ``pytestmark = pytest.mark.long``: long modules are
  handed out first, so the workers finish together (the groups go out in the order collected,
  ``--no-loadscope-reorder``; xdist would otherwise send the groups of most tests first).
- A group needs pytest below 9.2 (pyproject.toml): pytest 9.2's node ids no longer take the group
  suffix xdist writes, and every test became a unit of its own (pytest-dev/pytest-xdist#1386).
- Files only under ``tmp_path`` / ``tmp_path_factory`` (never the checkout, the current folder,
  ``~`` or a fixed /tmp name); ports from the system (port 0); cgroups, users and the like named
  per process. Other workers run at the same time.
- The harness's own sources are byte-compiled once, before the workers start
  (:func:`pytest_configure`), into their ``__pycache__`` folders, as an interpreter does on
  import by default: the suite starts some hundreds of fresh interpreters (``arena`` commands,
  pool and Dask workers, sandbox keepers), and where ``PYTHONDONTWRITEBYTECODE`` is set (as on
  the CI machines) each of them would compile the arena again, 0.1 s of the 0.2 s an
  ``arena`` command takes to start. The test modules' assertion-rewritten bytecode is written
  then too (:mod:`support.rewrite_cache`): each worker reads it instead of rewriting them all.
- No fixed sleep where an event can be awaited: ``support.processes.wait_for`` polls a condition
  with a deadline (PATIENCE, spent only when the test is failing). No assertion on how long
  something took (timings belong in benchmarks/); a deadline a test waits for is generous, a
  limit under test is checked in the sandbox's own CPU clock where it can be.
"""

from __future__ import annotations

import compileall
import gc
import os
import random
import sys
import textwrap
from pathlib import Path

import pytest

from arena import Game, Rules
from arena.game.cards import PACK
from arena.plugins.registry import DISABLE_ENV, ENTRY_POINT_GROUP
from support import rewrite_cache
from support.legality import expected_legal_mask
from support.zygote import Zygote
from arena.game.seeds import Secret, user_secret_path, write_secret

PLUGIN_HEADER = "from arena import Bot, PlayerSpec, Rules, hookimpl\nfrom players.simple import LowBot\n"

TEST_SECRET = Secret(bytes(range(32)))
"""The per-user secret every test's standalone games (arena play, check-bot) are keyed with."""


@pytest.fixture(scope="session", autouse=True)
def user_data_home(tmp_path_factory):
    """A temporary XDG_DATA_HOME holding TEST_SECRET: tests never touch ~/.local/share, and
    `arena play --seed N` deals the same game in every test run."""
    home = tmp_path_factory.mktemp("xdg-data")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(home))
        user_secret_path().parent.mkdir(parents=True)
        write_secret(user_secret_path(), TEST_SECRET)
        yield home


def play_out(game: Game, rng: random.Random, limit: int | None = None, each=None) -> Game:
    """Apply uniformly random legal actions until the game ends (or ``limit`` actions)."""
    steps = 0
    while game.current is not None and (limit is None or steps < limit):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        steps += 1
        if each is not None:
            each(game)
    return game


def check_step(game: Game) -> None:
    """Every card in exactly one place; the legal actions are the ones the rules allow."""
    total = PACK * game.rules.decks
    seen = 0
    count = 0
    for h in game.state.hands:
        assert not seen & h, "a card is in two hands"
        seen |= h
        count += h.bit_count()
    for c in list(game.state.tcards) + list(game.state.pile):
        assert not seen >> c & 1, f"card {c} is in two places"
        seen |= 1 << c
        count += 1
    assert count == total and seen == (1 << total) - 1, "a card is missing or duplicated"
    if game.current is None:
        return
    assert game.state.active[game.current], "the seat to act is out"
    legal = game.legal_actions()
    if game.decision == "take":
        assert tuple(legal) == (False, True)
        return
    mask = 0
    for c in legal:
        mask |= 1 << c
    assert len(legal) == mask.bit_count(), "a legal card is listed twice"
    assert mask == expected_legal_mask(game)
    assert mask == game.state.legal_mask(), "the engine offers other cards than the rules core allows"


def check_result(game: Game) -> None:
    """The finishing order is a permutation of the seats; the loser last, or a named draw."""
    res = game.result
    n = game.players
    assert game.is_over and game.current is None
    assert sorted(res.order) == list(range(n))
    if res.draw:
        assert res.loser is None and res.tied
        assert set(res.order[-len(res.tied):]) == set(res.tied)
        assert res.reason == "draw"
    else:
        assert res.order[-1] == res.loser and not res.tied
        assert res.penalty[res.loser] == 3
        assert res.legs == len(res.loser_cards)
        held = game.state.hands[res.loser]
        assert sum(1 << c for c in res.loser_cards) == held


@pytest.fixture(scope="session")
def rules():
    """``rules(name, **overrides)``: a preset with overrides."""
    return Rules.preset


@pytest.fixture(scope="session")
def position():
    """``position(preset, hands, leader=0, **kw)``: Game.from_position with a preset name and overrides."""
    def make(preset: str | Rules, hands, leader: int = 0, *, overrides=None, **kw) -> Game:
        r = preset if isinstance(preset, Rules) else Rules.preset(preset, **(overrides or {}))
        return Game.from_position(r, hands=hands, leader=leader, **kw)
    return make


@pytest.fixture(scope="session")
def play():
    """``play(game, "AH", "2H", ...)``: apply actions in order, checking the seat to act when given as
    (seat, action)."""
    def apply(game: Game, *actions) -> Game:
        for a in actions:
            if isinstance(a, tuple):
                seat, a = a
                assert game.current == seat, f"expected seat {seat} to act, got {game.current}"
            game.apply(a)
        return game
    return apply


@pytest.fixture(scope="session")
def random_game():
    """``random_game(rules, players, seed, steps=None)``: a dealt game after random legal play."""
    def make(r: Rules, players: int, seed: int, steps: int | None = None, dealer: int = 0) -> Game:
        game = Game.deal(r, players, seed, dealer)
        return play_out(game, random.Random(seed * 7919 + players), steps)
    return make


@pytest.fixture(scope="session")
def hand_of():
    """``hand_of(game, seat)``: the set of card texts a seat holds."""
    return lambda game, seat: {str(c) for c in game.hand(seat)}


@pytest.fixture(scope="session", name="play_out")
def _play_out():
    """``play_out(game, rng, limit=None, each=None)``: random legal play, calling ``each(game)`` after every action."""
    return play_out


@pytest.fixture(scope="session", name="check_step")
def _check_step():
    """``check_step(game)``: card conservation and legal-action invariants."""
    return check_step


@pytest.fixture(scope="session", name="check_result")
def _check_result():
    """``check_result(game)``: the finished game's result is well formed."""
    return check_result


@pytest.fixture
def builtin_players_only(monkeypatch):
    """Built-in players only: plugin autoload off (each `main` call loads its own registry).

    A test module that wants it for every test says
    ``pytestmark = pytest.mark.usefixtures("builtin_players_only")``.
    """
    monkeypatch.setenv(DISABLE_ENV, "1")


@pytest.fixture
def fake_plugins(tmp_path, monkeypatch):
    """``add(name, source, version="1.0")``: a plugin as a real (if tiny) installed distribution.

    Writes the module ``fakeplug_<name>`` (``PLUGIN_HEADER`` + ``source``;
    none when source is None) and a ``.dist-info`` naming it as the
    ``arena.plugins`` entry point ``name`` into one folder on sys.path, so
    discovery finds it in the metadata exactly as it finds a pip-installed
    plugin. ``version=None`` writes no Version. Returns the module's path;
    ``add.folder`` is the folder. Autoloading is on for the test.
    """
    folder = tmp_path / "fake_plugins"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delenv(DISABLE_ENV, raising=False)

    def add(name: str, source: str | None, version: str | None = "1.0"):
        module = "fakeplug_" + name.replace("-", "_")
        path = folder / f"{module}.py"
        if source is not None:
            path.write_text(PLUGIN_HEADER + textwrap.dedent(source))
        dist = folder / f"{module}-{version or '0'}.dist-info"
        dist.mkdir()
        (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\n"
                                       + (f"Version: {version}\n" if version else ""))
        (dist / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{name} = {module}\n")
        return path

    add.folder = folder
    yield add
    for name in [m for m in sys.modules if m.startswith("fakeplug_")]:
        del sys.modules[name]


def pytest_configure(config: pytest.Config) -> None:
    """Dask's local clusters fork their workers from a forkserver; and in the run's first process (not
    in each xdist worker): byte-compile ``arena/`` and ``players/`` (only what changed since the last
    time), so that the run's fresh interpreters read bytecode, and write the test modules' and
    plugins' assertion-rewritten bytecode (:mod:`support.rewrite_cache`), so that each worker reads it."""
    # Before any test module imports dask, which reads its config from the environment then. A spawned
    # Dask worker started an interpreter and imported distributed, about 0.8 s of CPU each; forked from
    # a server that imported distributed once, far less (Dask's own suite does the same). The tests'
    # Dask workers are still processes of their own, as on a cluster.
    os.environ.setdefault("DASK_DISTRIBUTED__WORKER__MULTIPROCESSING_METHOD", "forkserver")
    if hasattr(config, "workerinput"):
        return
    root = Path(__file__).resolve().parents[1]
    for package in ("arena", "players"):
        compileall.compile_dir(root / package, quiet=2)
    rewrite_cache.write(config, rewrite_cache.sources(config, root / "tests"))


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one worker more than the cores this process may run on (``--maxprocesses`` caps
    it). Many tests wait on something at some point (a page's refresh, a bot's wall-clock cap, a
    killed process's end) and a worker's core would idle then: on 2 cores the suite left about a
    tenth of the CPU idle with two workers and 2% with three (vmstat, one run each; the suite's
    times are in docs/design.md). ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return len(os.sched_getaffinity(0)) + 1 if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1) + 1


@pytest.fixture(scope="session")
def zygote():
    """This worker's :class:`support.zygote.Zygote`: `arena` commands forked from one interpreter that
    imported the command line once (a fresh interpreter spends 0.2-0.3 s of CPU on that)."""
    started = Zygote()
    yield started
    started.close()


@pytest.fixture(scope="session")
def playwright():
    """This worker's one Playwright (sync API), shared by every browser test (report, ladder page)."""
    from support.browser import start_playwright
    started = start_playwright()
    yield started
    started.stop()


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the xdist_group markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each module one xdist group unless it names its own; ``long`` modules first (stable order)."""
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection made (the test modules, the arena, hypothesis, Dask, matplotlib: some
    225,000 objects a worker in a full run): the collector's full passes, which the tests'
    allocations trigger, then walk only what the tests made (over tests/game, tests/results and
    tests/players, 4.2 s of a run's collections became 2.7 s). The tests' objects are collected
    as before."""
    gc.collect()
    gc.freeze()
