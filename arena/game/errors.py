"""The exceptions the library raises.

Every error a user can cause is an :class:`ArenaError`; each also subclasses the
built-in it behaves like, so ``except ValueError`` still works. Messages name
the culprit and say what was expected and what came.
"""

from __future__ import annotations

from collections.abc import Iterable


class ArenaError(Exception):
    """Base class of every error the arena raises on purpose."""


class RulesError(ArenaError, ValueError):
    """A rule option, preset or seat count that is not allowed."""


class CardError(ArenaError, ValueError):
    """A card text that does not name a card."""


class IllegalAction(ArenaError, ValueError):
    """An action the rules do not allow in the current position."""

    def __init__(self, message: str, *, seat: int | None = None, action: object = None,
                 legal: Iterable[object] = ()) -> None:
        super().__init__(message)
        self.seat = seat
        self.action = action
        self.legal = tuple(legal)


class ReplayError(ArenaError, ValueError):
    """A game record that the engine does not reproduce step by step."""


class PositionError(ArenaError, ValueError):
    """A hand-made position that is not a consistent game state."""


class SeedError(ArenaError, ValueError):
    """A secret that cannot be read, written or parsed."""


class MatchError(ArenaError, ValueError):
    """A match option (``match_points``, ``match_score``) or a match record that is not valid."""


class SolverError(ArenaError, ValueError):
    """A position or rule set the solver cannot handle."""


class SolverBudget(ArenaError, RuntimeError):
    """The search went past its node or time budget (the position is too big for it)."""
