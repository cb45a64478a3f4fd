"""A bot package that talks, installed for a test: ``chatty-printer`` prints, ``chatty-raiser`` raises.

Built and pip-installed like a user's bot (its own entry point, not trusted,
so every game runs it sandboxed), then a small real tournament is run with it
in a process of its own (forked from the worker's :class:`support.zygote.Zygote`,
as RUN_ARENA would run it): what ``arena logs`` and the report's fault rows show
comes from there.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from support.install import pip_install
from support.zygote import Zygote

MODULE = (Path(__file__).parents[1] / "sandbox_bots" / "chatty.py").read_text() + '''

@arena.hookimpl
def arena_players():
    return [arena.PlayerSpec("chatty-printer", Printer, "prints at every step"),
            arena.PlayerSpec("chatty-raiser", Raiser, "prints, then raises on its second decision")]
'''
"""The bots of tests/sandbox_bots/chatty.py, offered as a plugin's players."""

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
    (source / "arena_chatty" / "__init__.py").write_text(MODULE)
    (source / "pyproject.toml").write_text(PYPROJECT)
    site = root / "site"
    pip_install(source, site)
    return site


def arena(zygote: Zygote, site: Path, *args: str, cwd: Path | None = None,
          timeout: float = 600) -> subprocess.CompletedProcess:
    """``arena ARGS`` in a process of its own with ``site`` (the chatty package) importable: forked from
    ``zygote`` (what ``python -c RUN_ARENA SITE ARGS`` would be, without importing the arena again)."""
    return zygote.run(list(args), cwd=cwd or Path.cwd(), env=dict(os.environ), site=site, timeout=timeout)


def chatty_results(zygote: Zygote, root: Path) -> tuple[Path, Path]:
    """(the site folder, the results folder of a real tournament run with the chatty bots)."""
    site = install_chatty(root)
    spec = root / "chatty.toml"
    spec.write_text(TOURNAMENT)
    done = arena(zygote, site, "tournament", "run", str(spec), "--quiet", "--results", str(root / "results"),
                 cwd=root)
    assert done.returncode == 0, done.stderr[-3000:]
    return site, root / "results" / "chatty"
