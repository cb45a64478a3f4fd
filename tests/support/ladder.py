"""Ladder test helpers: a small ladder, wheels of scaffolded bots (built with ``pip wheel --no-deps``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from arena.ladder.ladder import Ladder
from arena.plugins.scaffold import new_bot

CRASHER = '''
from arena import Bot, PlayerSpec, hookimpl


class Crasher(Bot):
    def play(self, view):
        raise RuntimeError("broken on purpose")

    def take(self, view):
        raise RuntimeError("broken on purpose")


@hookimpl
def arena_players():
    return [PlayerSpec("{name}", Crasher, "crashes on every decision")]
'''


def bot_folder(tmp: Path, name: str, body: str | None = None, strategy: str = "min") -> Path:
    """A scaffolded bot package (its code replaced by ``body`` if given, else plays min or max)."""
    folder = new_bot(name, tmp / f"src-{name}-{strategy}-{bool(body)}")
    module = folder / name.replace("-", "_") / "__init__.py"
    text = body.format(name=name) if body else module.read_text().replace("min(view.legal", f"{strategy}(view.legal")
    module.write_text(text)
    return folder


def build_wheel(folder: Path, out: Path) -> Path:
    """``pip wheel --no-deps`` of a bot folder (offline), the wheel's path."""
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                           "--quiet", "--disable-pip-version-check", "-w", str(out), str(folder)],
                          check=False, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return max(out.glob("*.whl"), key=lambda p: p.stat().st_mtime)


def make_ladder(folder: Path, registry, **kw) -> Ladder:
    opts = dict(rules=["getaway"], table_sizes=[3, 4], house=["random", "low", "high", "heuristic"], seed=3)
    opts.update(kw)
    return Ladder.create(folder, registry, **opts)
