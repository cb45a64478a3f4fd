"""The built-in players' own errors (the rest they raise are the game layer's)."""

from __future__ import annotations

from arena.game.errors import ArenaError


class WeightsError(ArenaError, ValueError):
    """A weights file that does not fit the learned player's feature set, or shipped weights not the ones
    its code names."""


class DrawAsked(Exception):
    """Control flow of the ending search (players/endgame.py), never seen outside it: a play asked for a draw
    from the pile and the search is to branch on each card it might draw."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


class PlayerOptionError(ArenaError, ValueError):
    """A built-in player asked for something outside what it offers (an unknown mode, a decision it does not
    score)."""
