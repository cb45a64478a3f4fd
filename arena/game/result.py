"""The result of a finished game: finishing order, the Bhabhi, scores."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.game.cards import TEXTS, Card, card


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended.

    ``order`` lists every seat, first out first, the Bhabhi (or the tied seats of
    a draw) last. ``ranks[seat]`` is its finishing rank (0 = first out; tied
    seats share the rank of the first of them). ``penalty[seat]`` is 0 for the
    first out, 1 for the second, 2 for any other who got away, 3 for the Bhabhi.
    ``loser_cards`` are the cards in the Bhabhi's hand at the end (Donkey's legs).
    ``reason`` says why it ended: ``last_player``, ``simultaneous``, ``draw``,
    ``shootout``, ``drawn_cut`` or ``forfeit`` (docs/rules.md).
    """

    order: tuple[int, ...]
    loser: int | None
    draw: bool
    tied: tuple[int, ...]
    reason: str
    ranks: tuple[int, ...]
    penalty: tuple[int, ...]
    loser_cards: tuple[Card, ...]

    @classmethod
    def build(cls, order: Sequence[int], loser: int | None, reason: str, loser_cards: Iterable[Card] = (),
              tied: Sequence[int] = ()) -> Result:
        """Derive ranks and penalties from the finishing order."""
        n = len(order)
        ranks = [0] * n
        for place, seat in enumerate(order):
            ranks[seat] = place
        if tied:
            first_tied = min(order.index(s) for s in tied)
            for seat in tied:
                ranks[seat] = first_tied
        penalty = [0 if r == 0 else 1 if r == 1 else 2 for r in ranks]
        if loser is not None:
            penalty[loser] = 3
        return cls(tuple(order), loser, bool(tied), tuple(tied), reason, tuple(ranks),
                   tuple(penalty), tuple(loser_cards))

    @property
    def legs(self) -> int:
        """Donkey's "donkey with x legs": the cards the loser held at the end."""
        return len(self.loser_cards)

    def to_dict(self) -> dict[str, Any]:
        return {
            "order": list(self.order), "loser": self.loser, "draw": self.draw,
            "tied": list(self.tied), "reason": self.reason, "ranks": list(self.ranks),
            "penalty": list(self.penalty), "loser_cards": list(map(TEXTS.__getitem__, self.loser_cards)),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        return cls(tuple(data["order"]), data["loser"], bool(data["draw"]), tuple(data["tied"]),
                   data["reason"], tuple(data["ranks"]), tuple(data["penalty"]),
                   tuple(card(c) for c in data["loser_cards"]))
