"""The ready events (top-level ``tournaments/``) are installed with arena and run by their bare name.

``arena tournament run quick`` finds the installed ``quick.toml`` wherever it is
run; a path still means that file; an unknown bare name is one error line
listing the ready events. The last test builds a wheel from a copy of the
source, installs it into a fresh folder and runs the event from outside the
checkout with nothing else of arena importable.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import tournaments
from arena.cli.app import main
from arena.plugins.registry import DISABLE_ENV
from arena.results.store.database import Store

ROOT = Path(__file__).resolve().parents[2]
FAST = ["--deals", "1", "--table-sizes", "3", "--jobs", "1", "-q"]
QUICK_GAMES = 4 * 3  # quick's four players at 3-seat tables: four tables, three rotations each


@pytest.fixture(autouse=True)
def elsewhere(tmp_path, monkeypatch):
    """Built-in players only, run from an empty folder (no file there is named like an event)."""
    monkeypatch.setenv(DISABLE_ENV, "1")
    monkeypatch.chdir(tmp_path)


def test_every_file_in_tournaments_is_a_ready_event():
    """The package's names are exactly the TOML files of the checkout's tournaments/ folder."""
    assert tournaments.names() == sorted(p.stem for p in (ROOT / "tournaments").glob("*.toml"))
    assert "quick" in tournaments.names()
    assert tournaments.path("quick").read_text() == (ROOT / "tournaments" / "quick.toml").read_text()
    assert tournaments.path("nope") is None


def test_run_a_ready_event_by_name(capsys, tmp_path):
    """`tournament run quick` plays the installed quick.toml into results/quick."""
    assert main(["tournament", "run", "quick", *FAST]) == 0
    _out, err = capsys.readouterr()
    assert err.splitlines()[0] == f"quick: {QUICK_GAMES} games scheduled, {QUICK_GAMES} to play -> results/quick"
    with Store(tmp_path / "results" / "quick") as store:
        assert store.count() == QUICK_GAMES and store.meta("spec")["name"] == "quick"


def test_a_path_is_still_a_path(capsys, tmp_path):
    """A file named like a ready event is the file given, not the ready event."""
    (tmp_path / "quick").write_text('name = "mine"\nplayers = ["low", "high", "random"]\n')
    assert main(["tournament", "run", "quick", *FAST]) == 0
    assert capsys.readouterr().err.startswith("mine: 3 games scheduled")


def test_unknown_name_lists_the_ready_events(capsys):
    """An unknown bare name: one error line naming every ready event."""
    assert main(["tournament", "run", "quik"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith("error: no tournament file 'quik' here and no ready event of that name")
    assert err.rstrip().endswith(", ".join(tournaments.names()))


def _wheel(tmp: Path) -> Path:
    """A wheel of arena built from a copy of the source (the checkout gets no build folders)."""
    source = tmp / "src"
    for name in ("arena", "players", "tournaments"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                           "--quiet", "--disable-pip-version-check", "-w", str(tmp / "dist"), str(source)],
                          check=False, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return next((tmp / "dist").glob("bhabhi_arena-*.whl"))


@pytest.mark.skipif(importlib.util.find_spec("wheel") is None, reason="building a wheel offline needs `wheel`")
def test_ready_event_from_an_installed_wheel(tmp_path):
    """From a wheel installed outside the checkout: `arena tournament run quick` finds the installed event."""
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
                           "--disable-pip-version-check", "--target", str(site), str(_wheel(tmp_path))],
                          check=False, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (site / "tournaments" / "quick.toml").is_file()
    run_dir = tmp_path / "elsewhere"
    run_dir.mkdir()
    # -S: no .pth files, so the checkout's editable install is not importable; the wheel and the deps are.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), sysconfig.get_paths()["purelib"]]),
           DISABLE_ENV: "1"}
    script = ("import json, sys, arena, tournaments; from arena.cli.app import main; "
              "print(json.dumps([arena.__file__, tournaments.__file__])); sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-S", "-c", script, "tournament", "run", "quick", *FAST,
                           "--table-format", "json"], capture_output=True, text=True, timeout=300, cwd=run_dir,
                          env=env, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    first, table = done.stdout.split("\n", 1)
    assert all(Path(f).is_relative_to(site) for f in json.loads(first))
    assert {row["player"] for row in json.loads(table)} == {"heuristic", "random", "low", "high"}
    assert (run_dir / "results" / "quick" / "results.sqlite").is_file()
