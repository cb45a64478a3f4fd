"""The OpenSpiel game's and player's own errors, all :class:`~arena.game.errors.ArenaError`."""

from __future__ import annotations

from arena.game.errors import ArenaError


class OpenSpielError(ArenaError, ValueError):
    """Something the OpenSpiel game cannot do: rules it does not deal, a resample it cannot make, a
    draw's outcome out of range."""
