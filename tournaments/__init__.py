"""The ready tournaments: the TOML files beside this module, installed with arena.

``arena tournament run quick`` finds ``quick.toml`` here; in a checkout the same
files are the top-level ``tournaments/`` folder (``arena tournament run
tournaments/quick.toml``).
"""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).resolve().parent


def names() -> list[str]:
    """The ready events' names, sorted (each the stem of its file)."""
    return sorted(p.stem for p in FOLDER.glob("*.toml"))


def path(name: str) -> Path | None:
    """The file of the ready event ``name``, or None when there is none of that name."""
    return FOLDER / f"{name}.toml" if name in names() else None
