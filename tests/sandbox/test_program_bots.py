"""Program bots (docs/protocol.md): seated by name, played in the sandbox, judged as Python bots are.

The bots are plain Python scripts run by the system's interpreter as programs
(tests/program_bots/: no arena import, exec'd as any program would be): one
that plays its lowest card, and one that misbehaves as its ``bot.toml``'s
``mode`` option says. Each misdeed is judged with its fault kind and the game
and the harness go on.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.bots.errors import PluginError
from arena.bots.referee import InProcessClient
from arena.game.rules import Rules
from arena.plugins import program_bots
from arena.plugins.registry import load
from arena.plugins.runner import play_one, play_seeded, standalone_secret
from arena.sandbox.layers import Limits
from arena.sandbox.limits import detect
from arena.sandbox.limits_spec import LimitsSpec
from arena.sandbox.program_client import ProgramClient

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "tests" / "program_bots"
pytestmark = pytest.mark.skipif(not detect().available("forkserver") or not os.path.exists("/usr/bin/python3"),
                                reason="program bots need the fork server and /usr/bin/python3")


@pytest.fixture(scope="module")
def registry():
    return load(autoload=False)


def _hostile(tmp_path: Path, mode: str, **options) -> str:
    folder = tmp_path / mode
    folder.mkdir()
    shutil.copy(BOTS / "hostile" / "bot.py", folder / "bot.py")
    table = "".join(f'{k} = "{v}"\n' for k, v in {"mode": mode, **options}.items())
    (folder / "bot.toml").write_text(f'command = ["/usr/bin/python3", "-S", "bot.py"]\n[options]\n{table}')
    return f"program:{folder}"


def _play(registry, seat: str, seed: int = 1, rules: str = "getaway", decision_ms: int = 1000) -> dict:
    return play_one(registry, Rules.preset(rules), [seat, "random", "low"], seed,
                    limits=LimitsSpec(decision_ms=decision_ms, startup_ms=20000))


def test_a_program_bot_plays_legal_games_and_its_stderr_is_its_log(registry):
    seat = f"program:{BOTS / 'lowest'}"
    for rules, seed in (("getaway", 1), ("bhabho", 2), ("donkey", 3)):
        record = _play(registry, seat, seed, rules)
        assert record["faults"][0] == [], record["faults"][0]
        assert record["timings"][0]["decisions"] > 5
        assert "new game, seed" in record["logs"][0]


def test_a_program_bot_in_a_tournament(tmp_path):
    spec = tmp_path / "t.toml"
    spec.write_text(f'name = "t"\nseed = 3\nrules = ["getaway"]\n'
                    f'players = ["program:{BOTS / "lowest"}", "random", "low"]\ntable_sizes = [3]\ndeals = 2\n'
                    f'sealed = true\n')
    arena = str(Path(sys.executable).parent / "arena")
    run = subprocess.run([arena, "tournament", "run", str(spec), "--jobs", "1"], capture_output=True, text=True,
                         timeout=300, cwd=tmp_path, env={**os.environ, "ARENA_DISABLE_PLUGIN_AUTOLOAD": "1"},
                         check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    ratings = subprocess.run([arena, "ratings", str(tmp_path / "results" / "t")],
                             check=False, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert "program:" in ratings.stdout, ratings.stdout + ratings.stderr


@pytest.mark.parametrize("mode,kind,words", [
    ("garbage", "malformed", "line 4 is not JSON: 'thinking...'"),
    ("exit", "crash", "exited with status 3"),
    ("flood", "malformed", "is longer than 64 KiB"),
    ("sleep", "timeout", "wall-clock"),
    ("spin", "timeout", "stopped waiting"),
    ("illegal", "illegal", "a card not in the hand"),
    ("notcard", "malformed", "answered 'XX', not a card"),
    ("error", "crash", "the program reported an error: boom"),
    ("protocol2", "crash", "speaks protocol 2, expected 1"),
])
def test_a_misbehaving_program_is_judged_with_its_fault_kind(registry, tmp_path, mode, kind, words):
    record = _play(registry, _hostile(tmp_path, mode), decision_ms=200)
    faults = record["faults"][0]
    assert faults and faults[0]["kind"] == kind, faults
    assert words in faults[0]["detail"], faults[0]["detail"]
    assert record["result"]["order"] if "result" in record else record["events"][-1]["type"] == "end"


def test_a_line_not_asked_for_is_a_fault(registry, tmp_path):
    """Caught as "written before it was asked for" when it is there by the next message; one that comes later
    is read as the next answer, so judged as that (docs/protocol.md, section 8)."""
    faults = _play(registry, _hostile(tmp_path, "twice"))["faults"][0]
    assert faults and faults[0]["kind"] in ("malformed", "illegal"), faults
    assert all("was written before it was asked for" in f["detail"] or f["kind"] == "illegal" for f in faults)


@pytest.mark.parametrize("os_limits", [None, Limits(disable={"forkserver"})], ids=["forked", "exec'd"])
def test_a_program_is_confined(registry, tmp_path, os_limits):
    """Cloned from its fork server or, where there is none, in an exec'd process: the same refusals."""
    secret = tmp_path / "secret.txt"
    secret.write_text("the deal")
    seat = _hostile(tmp_path, "probe", secret=str(secret))
    record = _play_with(registry, seat, os_limits)
    log = record["logs"][0]
    for refused in ("fork", "socket", "read secret", "read passwd", "write folder", "new file in folder",
                    "exec written"):
        assert f"{refused}: refused" in log, log
    assert "write tmp: allowed" in log
    assert record["faults"][0] == []
    assert (tmp_path / "probe" / "bot.py").read_text().endswith("main()\n")   # the folder itself untouched


def test_bad_program_names_are_one_line(registry, tmp_path):
    (tmp_path / "plain.txt").write_text("x")
    (tmp_path / "empty").mkdir()
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "bot.toml").write_text('command = "bot"\n')
    for name, words in ((f"program:{tmp_path / 'none'}", "does not exist"),
                        (f"program:{tmp_path / 'plain.txt'}", "without execute permission"),
                        (f"program:{tmp_path / 'empty'}", "expected a bot.toml"),
                        (f"program:{tmp_path / 'bad'}", "key 'command': expected a list of strings")):
        with pytest.raises(PluginError, match=words):
            registry.get(name)


def test_without_the_fork_server_a_program_bot_plays_in_an_exec_d_process(registry):
    """As a Python bot does there: a fresh process a game, confined by rlimits, Landlock (execute only in its
    folder and the system's) and the process-stage seccomp filter but exec."""
    seat = f"program:{BOTS / 'lowest'}"
    for rules, seed in (("getaway", 1), ("bhabho", 2)):
        record = _play_with(registry, seat, Limits(disable={"forkserver"}), rules, seed)
        assert record["faults"][0] == [], record["faults"][0]
        assert record["timings"][0]["decisions"] > 5 and "new game, seed" in record["logs"][0]


def _play_with(registry, seat: str, os_limits, rules: str = "getaway", seed: int = 1) -> dict:
    """One game, the program at seat 0 run with ``os_limits`` (None: this machine's defaults)."""
    if os_limits is None:
        return _play(registry, seat, seed, rules)
    bot = ProgramClient(registry.get(seat), LimitsSpec(decision_ms=1000, startup_ms=20000), os_limits=os_limits)
    clients = [bot, InProcessClient(registry.get("random")), InProcessClient(registry.get("low"))]
    try:
        record = play_seeded(Rules.preset(rules), clients, seed, standalone_secret([registry.get(seat)]), 0,
                             [seat, "random", "low"])
        assert bot.processes >= 1 and bot.confinement is not None
        assert [s["status"] for s in bot.confinement["steps"] if s["name"] in ("landlock", "seccomp")] == \
            ["applied", "applied"]
        return record
    finally:
        for c in clients:
            c.close()


def test_a_pip_package_ships_a_program(tmp_path, monkeypatch):
    """An entry point of group arena.programs names a package whose folder holds bot.toml; found, never imported."""
    package = tmp_path / "shipped_bot"
    package.mkdir()
    (package / "__init__.py").write_text("raise SystemExit('never imported')\n")
    shutil.copy(BOTS / "lowest" / "bot.py", package / "bot.py")
    (package / "bot.toml").write_text('name = "shipped"\ncommand = ["/usr/bin/python3", "-S", "bot.py"]\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    point = importlib.metadata.EntryPoint(name="shipped", value="shipped_bot", group=program_bots.ENTRY_POINT_GROUP)
    monkeypatch.setattr(program_bots.metadata, "entry_points",
                        lambda group=None, name=None: [point] if name in (None, "shipped") else [])
    registry = load(autoload=True)
    assert registry.players["shipped"].source.program == ("/usr/bin/python3", "-S", "bot.py")
    record = _play(registry, "shipped")
    assert record["faults"][0] == [] and "new game, seed" in record["logs"][0]
