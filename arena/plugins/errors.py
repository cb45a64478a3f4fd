"""The exceptions of the plugins layer, all :class:`~arena.game.errors.ArenaError`.

A plugin's own faults are :class:`~arena.plugins.registry.PluginProblem` data;
these are raised for what the caller asked (a player, a check, a scaffold).
"""

from __future__ import annotations

from arena.game.errors import ArenaError


class PluginError(ArenaError, LookupError):
    """An unknown player, or a player whose plugin is broken."""


class CheckError(ArenaError, ValueError):
    """A check-bot request that cannot be run (unknown preset, bad number of games)."""


class ScaffoldError(ArenaError, ValueError):
    """A bot name or target folder that cannot be used."""
