"""Bot: the base class every bot author subclasses.

A bot gets a :class:`~arena.game.views.PlayerView` at each decision and answers
with a card (``play``) or a bool (``take``). It is constructed with a seed and
must take all its randomness from it (``self.rng`` is a ``random.Random``
seeded with it), so that the same tournament seed gives the same games.
"""

from __future__ import annotations

import random
from typing import Any

from arena.game.cards import Card
from arena.game.result import Result
from arena.game.views import PlayerView


class Bot:
    """Subclass this and implement :meth:`play`.

    Optional hooks: :meth:`take` (``bhabho`` rules: take the left neighbour's
    cards?), :meth:`new_game` and :meth:`end_game`. The same bot object plays
    many games in a row; reset per-game state in :meth:`new_game`.
    """

    name: str = "bot"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.options = options

    def play(self, view: PlayerView) -> Card:
        """Choose a card from ``view.legal``."""
        raise NotImplementedError(f"{type(self).__name__} must implement play(view)")

    def take(self, view: PlayerView) -> bool:
        """Take every card of the left neighbour? (only asked under ``neighbour_take``). Default: no."""
        return False

    def new_game(self, view: PlayerView) -> None:
        """Called before each game with the view of the deal."""

    def end_game(self, result: Result) -> None:
        """Called after each game with its result."""

    def act(self, view: PlayerView) -> Card | bool:
        """Answer the decision in ``view``: a card to play or a take bool."""
        if view.decision == "take":
            return bool(self.take(view))
        return self.play(view)
