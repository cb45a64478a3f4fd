"""The exceptions of the plugins layer, all :class:`~arena.game.errors.ArenaError`.

A plugin's own faults are :class:`~arena.plugins.registry.PluginProblem` data;
these are raised for what the caller asked (a check, a scaffold). An unknown or
broken player is :class:`arena.bots.errors.PluginError`, a layer down, as the
player spec a bot author writes raises it.
"""

from __future__ import annotations

from arena.game.errors import ArenaError


class CheckError(ArenaError, ValueError):
    """A check-bot request that cannot be run (unknown preset, bad number of games)."""


class ScaffoldError(ArenaError, ValueError):
    """A bot name or target folder that cannot be used."""
