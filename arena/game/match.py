"""A match: hands played one after another until someone reaches a points total.

The "Penalty points" house rule of the Getaway source (docs/rules.md, "Matches"):
each hand scores 0 for the first player out, 1 for the second, 2 for anyone
else who gets away and 3 for the Bhabhi (``score = "places"``, the hand's
:attr:`Result.penalty`), or a point for each card left in the Bhabhi's hand
(``score = "cards"``). The match ends after the hand in which someone reaches
``points``; the lowest total wins. Ties at the end go to the seat that was the
Bhabhi fewer times; seats still tied share the place.

The dealer moves one seat in the direction of play after each hand. Every
value here is frozen; :meth:`MatchState.after` returns the next state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from arena.game.errors import MatchError
from arena.game.result import Result

SCORES = ("places", "cards")
"""The ways a hand scores: ``places`` (0/1/2/3 by finishing place) or ``cards`` (the Bhabhi's cards left)."""
DEFAULT_POINTS = 6
MAX_HANDS = 100
"""A match stops after this many hands whatever the scores (``cards`` scoring gives a drawn hand no
points, so a match of draws would never end); it is then ranked as it stands."""


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class MatchRules:
    """How a match is scored and when it ends: ``points`` (the total that ends it), ``score``
    (``places`` or ``cards``) and ``max_hands`` (the safety stop)."""

    points: int = DEFAULT_POINTS
    score: str = "places"
    max_hands: int = MAX_HANDS

    def __post_init__(self) -> None:
        if not _whole(self.points) or self.points < 1:
            raise MatchError(f"match_points must be a positive whole number (got {self.points!r})")
        if self.score not in SCORES:
            raise MatchError(f"match_score must be one of {', '.join(SCORES)} (got {self.score!r})")
        if not _whole(self.max_hands) or self.max_hands < 1:
            raise MatchError(f"a match's max_hands must be a positive whole number (got {self.max_hands!r})")

    def to_dict(self) -> dict[str, Any]:
        return {"points": self.points, "score": self.score, "max_hands": self.max_hands}

    @classmethod
    def from_dict(cls, data: Any) -> MatchRules:
        if not isinstance(data, dict):
            raise MatchError(f"match rules must be a table of points and score (got {type(data).__name__})")
        return cls(data.get("points", DEFAULT_POINTS), data.get("score", "places"), data.get("max_hands", MAX_HANDS))


def hand_points(result: Result, score: str) -> tuple[int, ...]:
    """The points each seat scores for one hand.

    ``places``: the hand's penalty (0 first out, 1 second, 2 any other who got
    away, 3 the Bhabhi; a drawn hand's tied seats score as placed). ``cards``:
    the Bhabhi scores a point for each card left in hand, everyone else 0 (a
    drawn hand scores nothing).
    """
    if score == "places":
        return tuple(result.penalty)
    if score == "cards":
        return tuple(len(result.loser_cards) if seat == result.loser else 0 for seat in range(len(result.order)))
    raise MatchError(f"match_score must be one of {', '.join(SCORES)} (got {score!r})")


def dealer_of(hand: int, players: int, first_dealer: int = 0, direction: str = "clockwise") -> int:
    """The dealer of hand ``hand`` (0, 1, ...): one seat on in the direction of play each hand."""
    step = 1 if direction == "clockwise" else -1
    return (first_dealer + step * hand) % players


@dataclass(frozen=True, slots=True)
class MatchView:
    """What every seat is told before a hand: public information.

    ``hand`` is the hand about to be played (0 first), ``scores`` and
    ``bhabhis`` the totals before it (per seat), ``dealer`` its dealer.
    """

    hand: int
    points: int
    score: str
    scores: tuple[int, ...]
    bhabhis: tuple[int, ...]
    dealer: int

    def to_event(self) -> dict[str, Any]:
        """The ``match`` event a seat is sent before the hand's own events."""
        return {"type": "match", "hand": self.hand, "points": self.points, "score": self.score,
                "scores": list(self.scores), "bhabhis": list(self.bhabhis), "dealer": self.dealer}

    @classmethod
    def from_event(cls, e: dict[str, Any]) -> MatchView:
        return cls(int(e["hand"]), int(e["points"]), str(e["score"]), tuple(e["scores"]), tuple(e["bhabhis"]),
                   int(e["dealer"]))

    def to_dict(self) -> dict[str, Any]:
        data = self.to_event()
        del data["type"]
        return data


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended.

    ``order`` lists the seats best first; ``ranks[seat]`` is its place (0 =
    winner; seats tied on points and Bhabhis share the rank of the first of
    them); ``winners`` are the seats ranked 0. ``reason`` is ``points`` (someone
    reached the total) or ``hand_limit`` (:data:`MAX_HANDS`).
    """

    order: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    bhabhis: tuple[int, ...]
    hands: int
    reason: str

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s for s in self.order if self.ranks[s] == 0)

    def to_dict(self) -> dict[str, Any]:
        return {"order": list(self.order), "ranks": list(self.ranks), "scores": list(self.scores),
                "bhabhis": list(self.bhabhis), "hands": self.hands, "reason": self.reason,
                "winners": list(self.winners)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchResult:
        return cls(tuple(data["order"]), tuple(data["ranks"]), tuple(data["scores"]), tuple(data["bhabhis"]),
                   int(data["hands"]), str(data["reason"]))


def standings(scores: Sequence[int], bhabhis: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(order, ranks)``: lowest total first, then fewest Bhabhis; seats equal on both share a rank."""
    n = len(scores)
    order = sorted(range(n), key=lambda s: (scores[s], bhabhis[s], s))
    ranks = [0] * n
    for place, seat in enumerate(order):
        prev = order[place - 1] if place else None
        if prev is not None and (scores[prev], bhabhis[prev]) == (scores[seat], bhabhis[seat]):
            ranks[seat] = ranks[prev]
        else:
            ranks[seat] = place
    return tuple(order), tuple(ranks)


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match between hands: the totals so far and each hand's points.

    Start one with :meth:`start`; :meth:`after` adds a finished hand. ``over``
    once someone has ``rules.points`` or more (or after ``rules.max_hands``).
    """

    rules: MatchRules
    players: int
    first_dealer: int
    direction: str
    scores: tuple[int, ...]
    bhabhis: tuple[int, ...]
    hand_points: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def start(cls, rules: MatchRules, players: int, first_dealer: int = 0,
              direction: str = "clockwise") -> MatchState:
        if not _whole(players) or players < 1:
            raise MatchError(f"a match needs a whole number of players (got {players!r})")
        if not _whole(first_dealer) or not 0 <= first_dealer < players:
            raise MatchError(f"the first dealer must be a seat 0..{players - 1} (got {first_dealer!r})")
        zero = (0,) * players
        return cls(rules, players, first_dealer, direction, zero, zero)

    @property
    def hand(self) -> int:
        """The number of the next hand (= hands played so far)."""
        return len(self.hand_points)

    @property
    def dealer(self) -> int:
        """The dealer of the next hand."""
        return dealer_of(self.hand, self.players, self.first_dealer, self.direction)

    @property
    def over(self) -> bool:
        return max(self.scores) >= self.rules.points or self.hand >= self.rules.max_hands

    def after(self, result: Result) -> MatchState:
        """The state once ``result``'s hand is scored."""
        if self.over:
            raise MatchError(f"the match is over after hand {self.hand - 1}; no more hands are scored")
        if len(result.order) != self.players:
            raise MatchError(f"a hand of this match has {self.players} seats (got {len(result.order)})")
        points = hand_points(result, self.rules.score)
        bhabhis = tuple(b + (seat == result.loser) for seat, b in enumerate(self.bhabhis))
        return replace(self, scores=tuple(a + b for a, b in zip(self.scores, points)), bhabhis=bhabhis,
                       hand_points=self.hand_points + (points,))

    def view(self) -> MatchView:
        """What every seat is told before the next hand."""
        return MatchView(self.hand, self.rules.points, self.rules.score, self.scores, self.bhabhis, self.dealer)

    def result(self) -> MatchResult:
        """The final standings (:func:`standings`); only once the match is over."""
        if not self.over:
            raise MatchError(f"the match is not over: the highest total is {max(self.scores)} "
                             f"of {self.rules.points} after {self.hand} hands")
        order, ranks = standings(self.scores, self.bhabhis)
        reason = "points" if max(self.scores) >= self.rules.points else "hand_limit"
        return MatchResult(order, ranks, self.scores, self.bhabhis, self.hand, reason)
