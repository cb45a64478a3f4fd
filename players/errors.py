"""The built-in players' own errors (the rest they raise are the game layer's)."""

from __future__ import annotations

from arena.game.errors import ArenaError


class WeightsError(ArenaError, ValueError):
    """A weights file that does not fit the learned player's feature set, or shipped weights not the ones
    its code names."""
