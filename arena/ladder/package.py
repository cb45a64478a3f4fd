"""What a submission says it is, read as data before anything of it is installed."""

from __future__ import annotations

from dataclasses import dataclass

DIST_INFO_MAX = 1 << 20
"""The largest METADATA, entry_points.txt, pyproject.toml or bot.toml read, in bytes."""


@dataclass(frozen=True, slots=True)
class Package:
    """A submission's distribution name and version and its plugin's name (a program bot's: its bot.toml name)."""

    distribution: str
    version: str
    plugin: str
