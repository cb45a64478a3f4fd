"""Player and plugin names: aliases (``random#2``) and the packages that provide a plugin.

A seat name may be an alias, ``name#tag``: a second, separately named (and
separately rated) seat-holder playing as the installed player ``name``. A
plugin is an entry point in :data:`ENTRY_POINT_GROUP`; messages about two
plugins offering one name name the packages (what ``pip`` installed) as well.
"""

from __future__ import annotations

import importlib.metadata as metadata

ENTRY_POINT_GROUP = "arena.plugins"
BUILTIN_PLUGIN = "players"
DISTRIBUTION = "bhabhi-arena"
ALIAS_MARK = "#"
"""``random#2`` is a second, separately rated seat-holder playing as ``random`` (see :func:`base_player`)."""


def base_player(name: str) -> str:
    """The installed player a seat name plays as: ``random#2`` -> ``random``; ``random`` -> ``random``.

    An alias lets one bot hold more than one seat of a table as separately
    named (and separately rated) players, e.g. to fill 7-8 seat tables from a
    few built-in bots: ``house = ["random#2", "low#2"]``, or
    ``arena play --seats random,random#2,low``.
    """
    return name.split(ALIAS_MARK, 1)[0]


def package_of(plugin: str) -> str:
    """The distribution (what ``pip install`` names) that provides the entry point ``plugin``."""
    if plugin == BUILTIN_PLUGIN:
        return DISTRIBUTION
    names = [ep.dist.name for ep in metadata.entry_points(group=ENTRY_POINT_GROUP, name=plugin)
             if getattr(ep, "dist", None) is not None and ep.dist.name != DISTRIBUTION]
    return names[0] if names else "unknown"


def packages_of(plugins: list[str]) -> str:
    """``packages a and b``: the packages of the plugins named."""
    return "packages " + joined([package_of(p) for p in plugins])


def joined(names: list[str]) -> str:
    """``a, b and c``."""
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)
