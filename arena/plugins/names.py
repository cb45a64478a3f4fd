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
    names = [dist.name for ep in metadata.entry_points(group=ENTRY_POINT_GROUP, name=plugin)
             if (dist := getattr(ep, "dist", None)) is not None and dist.name != DISTRIBUTION]
    return names[0] if names else "unknown"


def packages_of(plugins: list[str]) -> str:
    """``packages a and b``: the packages of the plugins named."""
    return "packages " + joined([package_of(p) for p in plugins])


def joined(names: list[str]) -> str:
    """``a, b and c``."""
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


OPTIONS_OPEN, OPTIONS_CLOSE = "(", ")"
"""``sampler(budget_ms=20,worlds=40)``: the player ``sampler`` built with those options (see :func:`player_options`)."""


def split_names(text: str) -> list[str]:
    """``"sampler(budget_ms=20,worlds=40), random"`` -> the names, split at commas outside parentheses."""
    names, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == OPTIONS_OPEN) - (ch == OPTIONS_CLOSE)
        if ch == "," and depth == 0:
            names.append(text[start:i])
            start = i + 1
    names.append(text[start:])
    return [n.strip() for n in names if n.strip()]


def player_options(name: str) -> tuple[str, dict[str, str]]:
    """``sampler(budget_ms=20, worlds=40)`` -> ``("sampler", {"budget_ms": "20", "worlds": "40"})``: the
    player and its options as texts (typed against what its factory accepts by
    :func:`arena.bots.options.typed_options`); a name without options -> ``(name, {})``.
    Raises ValueError, saying what was expected, for a malformed list."""
    base, mark, rest = name.partition(OPTIONS_OPEN)
    if not mark:
        return name, {}
    if not rest.endswith(OPTIONS_CLOSE):
        raise ValueError(f"player {name!r}: expected NAME(OPTION=VALUE, ...) ending with ')'")
    options: dict[str, str] = {}
    for item in split_names(rest[:-1]):
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not key.isidentifier() or not value or set(value) & set("()#,=\"'"):
            raise ValueError(f"player {name!r}: expected OPTION=VALUE, e.g. budget_ms=20 (got {item!r})")
        if key in options:
            raise ValueError(f"player {name!r}: option {key!r} is given twice")
        options[key] = value
    if not base.strip() or not options:
        raise ValueError(f"player {name!r}: expected NAME(OPTION=VALUE, ...) with at least one option")
    return base.strip(), options


def canonical_name(name: str) -> str:
    """A seat name with its options sorted and spaces dropped (one name per player: the store's identity);
    an alias tag (``#2``) is kept. Raises ValueError as :func:`player_options`."""
    seat, mark, tag = name.partition(ALIAS_MARK)     # option values hold no '#': the first one is the alias's
    player, options = player_options(seat)
    if not options:
        return name
    listed = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{player}{OPTIONS_OPEN}{listed}{OPTIONS_CLOSE}{mark}{tag}"
