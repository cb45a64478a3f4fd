"""The example program bots of examples/ (issue 36, item 4), driven only through the ``arena``
command as a bot author would: each is copied to a temporary folder, built there with the
``build`` line of its bot.toml, passes ``arena check-bot`` and plays a game with no fault of its
seat.

A missing toolchain fails the test rather than skipping it: .ci/run installs gcc, nodejs and
rustc, and sets no variable a skip could key on, so a skip would pass CI silently.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.long

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BOTS = ["c-bot", "js-bot", "rust-bot", "python-client"]
SANDBOX_PATH = "/usr/bin:/bin"  # a program's PATH in its sandbox (docs/protocol.md, section 1)


def arena_command() -> list[str]:
    beside = Path(sys.executable).with_name("arena")
    return [str(beside)] if beside.exists() else [shutil.which("arena") or "arena"]


def arena(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_DATA_HOME=str(cwd / "data"))  # the secret of a game with a program
    return subprocess.run(
        arena_command() + list(args),
        check=False,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.fixture(params=BOTS)
def bot(request, tmp_path: Path) -> Path:
    """The example copied to tmp_path and built there; fails naming a missing toolchain."""
    folder = shutil.copytree(EXAMPLES / request.param, tmp_path / request.param)
    spec = tomllib.loads((folder / "bot.toml").read_text())
    build, command = spec.get("build"), spec["command"]
    if "/" not in command[0]:
        assert shutil.which(command[0], path=SANDBOX_PATH), (
            f"{command[0]} is not in {SANDBOX_PATH}: install it"
        )
    if build:
        assert shutil.which(build[0]), f"{build[0]} is missing: install it (.ci/run does)"
        done = subprocess.run(
            build, check=False, cwd=folder, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr
    return folder


def test_check_bot_passes(bot: Path) -> None:
    done = arena("check-bot", f"program:{bot.name}", cwd=bot.parent)
    assert done.returncode == 0, done.stdout + done.stderr


def test_plays_a_game_without_faults(bot: Path) -> None:
    seat = f"program:{bot.name}"
    done = arena(
        "play",
        "--seats",
        f"{seat},random,low,heuristic",
        "--seed",
        "1",
        "--json",
        "--no-logs",
        cwd=bot.parent,
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["names"][0] == seat
    assert record["result"] is not None and record["result"]["reason"] != "forfeit"
    faults = [event for event in record["events"] if event["type"] in ("fault", "forfeit")]
    assert faults == [], faults
    assert any(
        event["type"] == "play" and event["seat"] == 0 and "by" not in event
        for event in record["events"]
    )
