"""Hostile plugins: a third-party plugin's code never runs in the harness.

Each plugin is a real tiny distribution (the ``fake_plugins`` fixture of
tests/conftest.py). The marker plugin's top-level code tries to write a file
naming the process that imported it and to change that process's
environment: ``arena players``, ``arena play`` and tournaments (serial and
with a worker pool) must list and seat its bot while no harness process ever
imports it. The others hang, crash, print garbage or too much, or fill their
text with terminal escapes: each is a PluginProblem naming it, never a
harness crash, and nothing they say reaches the terminal unstripped.
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
import time

import pytest
from hostile_support import needs

from arena.plugins.discovery import MAX_REPORT
from arena.plugins.registry import load
from support.cli import run
from support.plugins import FINE, problems_of

MARKER = """
    import os, sys

    def _mark():
        try:
            with open(os.path.join({folder!r}, f"imported-by-{{os.getpid()}}"), "w") as f:
                f.write(sys.argv[0])
        except OSError as exc:
            return type(exc).__name__
        return "written"

    MARK = _mark()
    os.environ["ARENA_MARKER_IMPORTED"] = str(os.getpid())

    @hookimpl
    def arena_players():
        return [PlayerSpec("marker-bot", LowBot, f"plays low; marker write: {{MARK}}")]
"""
CONFINED = ("arena/plugins/host.py", "arena/sandbox/host.py")


@pytest.fixture
def marker(fake_plugins, tmp_path, monkeypatch):
    """The marker plugin, installed; yields a check that no unconfined process imported it."""
    folder = tmp_path / "marks"
    folder.mkdir()
    monkeypatch.delenv("ARENA_MARKER_IMPORTED", raising=False)
    fake_plugins("marker", MARKER.format(folder=str(folder)))

    def never_imported_by_the_harness() -> None:
        assert "fakeplug_marker" not in sys.modules
        assert "ARENA_MARKER_IMPORTED" not in os.environ
        for mark in folder.iterdir():  # only a confined process may have got this far (it cannot, here)
            assert mark.read_text().endswith(CONFINED), (mark.name, mark.read_text())

    yield never_imported_by_the_harness
    never_imported_by_the_harness()


# ------------------------------------------------------------ never in the harness
@needs("landlock")
def test_players_lists_it_from_a_confined_import(marker, capsys):
    """`arena players` lists the bot and its description; the import happened confined (its write refused)."""
    code, out, err = run(capsys, "players", "--format", "plain")  # one line per player
    assert code == 0 and err == ""
    [row] = [line for line in out.splitlines() if line.startswith("marker-bot")]
    assert "marker" in row and "no" in row.split()
    assert "plays low; marker write: PermissionError" in row
    marker()


def test_play_seats_it_sandboxed(marker, capsys):
    """`arena play` with the plugin's bot: a clean game, played from its sandbox."""
    code, out, err = run(capsys, "play", "--seats", "marker-bot,random,low", "--seed", "4", "--json")
    assert code == 0, err
    record = json.loads(out)
    assert record["names"][0] == "marker-bot" and record["faults"][0] == []
    assert record["timings"][0]["decisions"] > 0
    marker()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_tournament_never_imports_it(marker, capsys, tmp_path, jobs):
    """A small tournament (in this process, and with a pool of workers) plays it; no harness process imports it."""
    code, out, err = run(capsys, "tournament", "run", "--name", f"mark{jobs}", "--players", "marker-bot,random,low",
                         "--table-sizes", "3", "--deals", "1", "--jobs", jobs, "-q", "--results", tmp_path)
    assert code == 0, err
    assert "marker-bot" in out
    from arena.results.store.database import Store
    with Store(tmp_path / f"mark{jobs}") as store:
        assert store.count() == 3
        players = {p["name"]: p for p in store.roster()}
        assert all(not faults for _, r in store.records() for faults in r["faults"])
    assert players["marker-bot"]["plugin"] == "marker" and len(players["marker-bot"]["code_hash"]) == 16
    marker()


def test_tournament_without_sandbox_is_refused(marker, capsys, tmp_path):
    """`--sandbox never` with a third-party player: one error line, nothing played."""
    code, out, err = run(capsys, "tournament", "run", "--players", "marker-bot,random,low", "--table-sizes", "3",
                         "--deals", "1", "--jobs", "1", "--sandbox", "never", "-q", "--results", tmp_path)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and "key 'players'" in err and "sandboxed only" in err
    marker()


@needs("landlock", "namespaces")
def test_discovery_is_confined(fake_plugins):
    """What a plugin's discovery may do: no writes, no network, none of the harness's environment."""
    fake_plugins("prober", """
        import json, os, socket

        def _try(action):
            try:
                action()
            except OSError as exc:
                return type(exc).__name__
            return "allowed"

        def _connect():
            socket.create_connection(("127.0.0.1", 22), timeout=1)

        FOUND = {"write": _try(lambda: open("/tmp/arena-prober", "w")), "net": _try(_connect),
                 "env": sorted(os.environ)}

        @hookimpl
        def arena_players():
            return [PlayerSpec("prober", LowBot, json.dumps(FOUND))]
    """)
    os.environ["ARENA_HARNESS_SECRET"] = "x"
    try:
        found = json.loads(load().get("prober").description)
    finally:
        del os.environ["ARENA_HARNESS_SECRET"]
    assert found["write"] == "PermissionError"
    assert found["net"] != "allowed"
    assert "ARENA_HARNESS_SECRET" not in found["env"] and set(found["env"]) <= {
        "PATH", "LANG", "LC_ALL", "HOME", "PYTHONHASHSEED", "PYTHONPATH", "PYTHONUNBUFFERED", "LC_CTYPE"}


# --------------------------------------------------------- broken discovery
def test_discovery_crash_is_a_problem(fake_plugins):
    """A plugin whose import exits or segfaults: a problem naming it, the exit said; the others load."""
    fake_plugins("quitter", "import os\nos._exit(3)\n")
    fake_plugins("segv", "import ctypes\nctypes.string_at(0)\n")
    fake_plugins("fine", FINE)
    registry = load()
    problems = problems_of(registry)
    assert problems["quitter"] == "its discovery process exited with status 3"
    assert problems["segv"].startswith("its discovery process was killed by SIGSEGV")
    assert "fine-bot" in registry.players and "fakeplug_quitter" not in sys.modules


def test_discovery_hang_is_a_problem_after_the_timeout(fake_plugins):
    """A plugin whose import never ends is stopped at the timeout: a problem naming it; the others load."""
    fake_plugins("hang", "while True:\n    pass\n")
    fake_plugins("sleeper", "import time\ntime.sleep(600)\n")
    fake_plugins("fine", FINE)
    start = time.monotonic()
    registry = load(timeout=2)
    took = time.monotonic() - start  # the hung imports were given their whole 2 s
    problems = problems_of(registry)
    assert problems == {"hang": "its discovery did not finish within 2 s (stopped)",
                        "sleeper": "its discovery did not finish within 2 s (stopped)"}
    assert "fine-bot" in registry.players
    assert took >= 2


def test_discovery_garbage_or_too_much_is_a_problem(fake_plugins):
    """A plugin that writes over its report, or floods it, is a problem naming it; prints are harmless."""
    flood = textwrap.dedent("""
        import os
        for fd in range(3, 12):
            try:
                os.write(fd, {payload})
            except OSError:
                pass
    """)
    fake_plugins("garbage", flood.format(payload=repr(b"\x1b[2J not json")))
    fake_plugins("flood",
                 "import os\nblock = b'x' * 65536\n" + flood.format(payload=f"block * {MAX_REPORT // 65536 + 2}"))
    fake_plugins("chatty", """
        import sys
        print("hello from the plugin", flush=True)
        print("and its stderr", file=sys.stderr)

        @hookimpl
        def arena_players():
            return [PlayerSpec("chatty-bot", LowBot)]
    """)
    registry = load()
    problems = problems_of(registry)
    assert problems["garbage"].startswith("its discovery printed something that is not a report: '")
    assert "\x1b" not in problems["garbage"]
    assert problems["flood"] == "its discovery answered more than 1 MiB (stopped)"
    assert "chatty" not in problems and "chatty-bot" in registry.players


@needs("rlimit_as")
def test_discovery_memory_is_capped(fake_plugins):
    """A plugin that allocates 4 GiB at import: a MemoryError, reported as a failure to load."""
    fake_plugins("hog", "HOG = bytearray(4 << 30)\n")
    [problem] = load().problems
    assert (problem.plugin, problem.message) == ("hog", "failed to load: MemoryError:")


# ------------------------------------------------------ text reaching the terminal
ESCAPES = "\x1b[2J\x1b[31m\x1b]0;owned\x07\r\x08\x9b\u202e"
DESCRIPTION, VERSION = "red" + ESCAPES + "text", "1.0" + ESCAPES
IMPORT_ERROR = "boom" + ESCAPES + "\nwarning: fake line"
MOVE_ERROR = "bad" + ESCAPES + "move"


def test_control_characters_are_stripped(fake_plugins, capsys):
    """Descriptions, versions and problem messages reach the terminal without escapes or controls."""
    fake_plugins("painter", f"""
        @hookimpl
        def arena_players():
            return [PlayerSpec("painter", LowBot, {DESCRIPTION!r}, version={VERSION!r})]
    """)
    fake_plugins("shouter", f"raise RuntimeError({IMPORT_ERROR!r})\n")
    code, out, err = run(capsys, "players")
    assert code == 0
    for text in (out, err):
        assert not any(ch in text for ch in "\x1b\x07\r\x08\x9b\u202e")
    [row] = [line for line in out.splitlines() if line.startswith("painter")]
    assert "redtext" in row and " 1.0 " in row
    assert err.splitlines() == ["warning: plugin shouter: failed to load: RuntimeError: boom warning: fake line"]


def test_bot_fault_details_are_stripped_in_check_bot(fake_plugins, capsys):
    """A bot's exception text (a fault detail) is stripped in `arena check-bot`'s table."""
    fake_plugins("faulty", f"""
        class Faulty(LowBot):
            def play(self, view):
                raise RuntimeError({MOVE_ERROR!r})

        @hookimpl
        def arena_players():
            return [PlayerSpec("faulty", Faulty)]
    """)
    code, out, err = run(capsys, "check-bot", "faulty", "--rules", "getaway", "--table-sizes", "3", "--games", "1",
                         "--table-format", "plain")  # one line per check
    assert code == 1
    assert "crash: RuntimeError: badmove" in out
    assert not any(ch in out + err for ch in "\x1b\x07\r\x08\x9b\u202e")
