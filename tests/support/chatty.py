"""A bot package that talks, installed for a test: ``chatty-printer`` prints, ``chatty-raiser`` raises.

Built and pip-installed like a user's bot (its own entry point, not trusted,
so every game runs it sandboxed), then a small real tournament is run with it
in a fresh interpreter (:data:`support.install.RUN_ARENA`): what ``arena
logs`` and the report's fault rows show comes from there.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from support.install import RUN_ARENA, pip_install

MODULE = '''
"""Two bots that talk: one prints at every step, one prints and then raises."""

import sys

from arena import Bot, PlayerSpec, hookimpl


class Printer(Bot):
    def new_game(self, view):
        self.n = 0
        print(f"printer: new game at seat {view.seat}")

    def play(self, view):
        self.n += 1
        print(f"printer: decision {self.n}")
        if self.n == 3:
            print("printer: a word on stderr", file=sys.stderr)
        return view.legal[0]

    def take(self, view):
        return False

    def end_game(self, result):
        print(f"printer: game over after {self.n} decisions")


class Raiser(Bot):
    def new_game(self, view):
        self.n = 0

    def play(self, view):
        self.n += 1
        print(f"raiser: decision {self.n}")
        if self.n == 2:
            self.give_up()
        return view.legal[0]

    def take(self, view):
        return False

    def give_up(self):
        raise ValueError("raiser gives up on purpose")


@hookimpl
def arena_players():
    return [PlayerSpec("chatty-printer", Printer, "prints at every step"),
            PlayerSpec("chatty-raiser", Raiser, "prints, then raises on its second play")]
'''

PYPROJECT = '''
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "arena-chatty"
version = "0.1.0"
requires-python = ">=3.11"

[project.entry-points."arena.plugins"]
arena-chatty = "arena_chatty"

[tool.setuptools]
packages = ["arena_chatty"]
'''

TOURNAMENT = '''
name = "chatty"
seed = 5
rules = ["getaway"]
players = ["chatty-printer", "chatty-raiser", "random"]
table_sizes = [3]
deals = 2
jobs = 1
'''
"""Six games: one table of the three players, two deals, each in three seat rotations."""


def install_chatty(root: Path) -> Path:
    """The chatty package built in ``root`` and installed into ``root/site``; the site folder."""
    source = root / "src"
    (source / "arena_chatty").mkdir(parents=True)
    (source / "arena_chatty" / "__init__.py").write_text(textwrap.dedent(MODULE))
    (source / "pyproject.toml").write_text(textwrap.dedent(PYPROJECT))
    site = root / "site"
    pip_install(source, site)
    return site


def arena(site: Path, *args: str, cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """``arena ARGS`` in a fresh interpreter with ``site`` (the chatty package) importable."""
    return subprocess.run([sys.executable, "-c", RUN_ARENA, str(site), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd)


def chatty_results(root: Path) -> tuple[Path, Path]:
    """(the site folder, the results folder of a real tournament run with the chatty bots)."""
    site = install_chatty(root)
    spec = root / "chatty.toml"
    spec.write_text(TOURNAMENT)
    done = arena(site, "tournament", "run", str(spec), "--quiet", "--results", str(root / "results"), cwd=root)
    assert done.returncode == 0, done.stderr[-3000:]
    return site, root / "results" / "chatty"
