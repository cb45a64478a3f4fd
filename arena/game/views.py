"""What one seat may know at a decision: :class:`PlayerView`, and the snapshot views are made from.

A seat's knowledge is kept by :class:`arena.game.knowledge.SeatKnowledge`, fed
the events that seat is shown. At a decision it takes a :class:`Snapshot` of
itself (named fields: what the seat knows at that moment), and the view's
fields are made from the snapshot by :data:`FIELDS`, one function a field:
all at once (:func:`eager_view`), or each when first read (:class:`LazyView`,
what in-process and sandboxed seats hand their bots). Either way the fields
are the same, so the engine, the referee's in-process seats and a sandboxed
bot's host see exactly the same view.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from arena.game.cards import ACE_OF_SPADES, BIT, CARDS, DECK_MASK, Card, cards_of
from arena.game.match import MatchView
from arena.game.rules import Rules
from arena.game.rulings import STEP, TAKES, rule_flags
from arena.game.lookup import held_order

if TYPE_CHECKING:
    from arena.game.knowledge import SeatKnowledge

_AS = BIT[ACE_OF_SPADES]

Action: TypeAlias = Card | bool
"""What a seat does at a decision: a card to play, or the answer to a take decision."""


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything one seat may know at a decision, and nothing more.

    ``history`` holds this seat's events as JSON-ready dicts (the game-record
    schema, filtered: hidden draws have ``card: None``, others' takes only a
    ``count``). The helper methods answer what bot authors would otherwise all
    compute themselves from it. ``match`` is the match score before this hand
    (:class:`arena.game.match.MatchView`: hand number, totals, Bhabhis, dealer;
    public) when the game is a hand of a match, else None.
    """

    seat: int
    players: int
    rules: Rules
    hand: tuple[Card, ...]
    legal: tuple[Action, ...]
    decision: str | None
    trick: tuple[tuple[int, Card], ...]
    led_suit: int | None
    trump: int | None
    hand_sizes: tuple[int, ...]
    out: tuple[int, ...]
    history: tuple[dict[str, Any], ...]
    time_left: float | None
    first_trick: bool
    active: tuple[bool, ...]
    seen_mask: int
    known_masks: tuple[int, ...]
    void_masks: tuple[int, ...]
    pile_mask: int
    hidden_draws: tuple[int, ...]
    next_leader: int | None = None
    match: MatchView | None = None

    # ---------------------------------------------------------------- helpers
    def unseen(self) -> tuple[Card, ...]:
        """Cards this seat has never seen: they are in other players' hands."""
        return tuple(cards_of(DECK_MASK[self.rules.decks] & ~self.seen_mask))

    def known_cards(self, seat: int) -> tuple[Card, ...]:
        """Cards ``seat`` is known to hold (picked up in public, not played since)."""
        return tuple(cards_of(self.known_masks[seat]))

    def void_suits(self, seat: int) -> frozenset[int]:
        """Suits ``seat`` is known to hold none of (from its thullas and trump plays)."""
        return frozenset(s for s in range(4) if self.void_masks[seat] >> s & 1)

    def is_void(self, seat: int, suit: int) -> bool:
        return bool(self.void_masks[seat] >> suit & 1)

    def discarded(self) -> tuple[Card, ...]:
        """Cards known to have gone to the discard pile (and not seen coming back)."""
        return tuple(cards_of(self.pile_mask))

    def active_seats(self) -> tuple[int, ...]:
        """Seats still in the game, in seat order."""
        return tuple(s for s in range(self.players) if self.active[s])

    def next_seat(self, seat: int) -> int:
        """The next seat after ``seat`` in play order that is still in the game."""
        step = rule_flags(self.rules).step
        s = (seat + step) % self.players
        while not self.active[s] and s != seat:
            s = (s + step) % self.players
        return s

    @property
    def leader(self) -> int | None:
        """The seat that led the current trick (None before the lead)."""
        return self.trick[0][0] if self.trick else None

    def still_to_play(self) -> tuple[int, ...]:
        """Seats after this one that would still play to the current trick."""
        if not self.trick:
            first = self.seat
        else:
            first = self.trick[0][0]
        seats, s = [], self.next_seat(self.seat)
        while s != first and s != self.seat:
            seats.append(s)
            s = self.next_seat(s)
        return tuple(seats)

    def winning(self) -> tuple[int, Card] | None:
        """The (seat, card) that currently wins the trick: highest trump, else highest of the led suit
        (the trick step, :func:`arena.game.rulings.follow_step`)."""
        best = None
        for seat, c in self.trick:
            if best is None or STEP[best[1]][c] == TAKES or c.suit == self.trump != best[1].suit:
                best = (seat, c)
        return best

    def suit_cards(self, suit: int) -> tuple[Card, ...]:
        """This seat's cards of one suit, lowest first."""
        return tuple(c for c in sorted(self.hand, key=lambda c: (c.rank, c.copy)) if c.suit == suit)


class Snapshot(NamedTuple):
    """What a seat knew at one moment, as :meth:`arena.game.knowledge.SeatKnowledge.snapshot` took it: the
    view's facts under the view's names, as the knowledge keeps them (card ids and masks; None for "none")."""

    knowledge: SeatKnowledge  # the SeatKnowledge it was taken from (its seat, table size, rules, history, match)
    hand_mask: int | None     # None while the seat shares public knowledge: then known_masks and dealt give it
    trick: tuple[tuple[int, int], ...]   # (seat, card id) each, in play order
    hand_sizes: tuple[int, ...]
    out: tuple[int, ...]
    taken: int                # how many events the seat had taken in: its history's length
    time_left: float | None
    first_trick: bool
    active: tuple[bool, ...]
    seen_mask: int            # while shared: what everyone has seen (the seat's dealt cards not included)
    known_masks: tuple[int, ...]   # the seat's own entry: its picked-up cards only (the view's is its hand)
    void_masks: tuple[int, ...]
    pile_mask: int
    hidden_draws: tuple[int, ...]
    lead_from: int | None     # the last trick's winner, or a position's leader: leads next if still in
    as_holder: int | None     # before trick 1: the seat publicly known to hold the ace of spades
    decision: str | None
    dealt: int                # while shared: the seat's dealt cards (0 otherwise)

    def hand(self) -> int:
        """The seat's hand, a mask: kept, or (shared) its picked-up cards and the dealt ones nobody has seen."""
        if self.hand_mask is not None:
            return self.hand_mask
        # (shared knowledge is a seat's own: its seat is an int)
        return self.known_masks[self.knowledge.seat] | (self.dealt & ~self.seen_mask)  # type: ignore[index]


def leads_next(seat: int, hand: int, decision: str | None, trick: Sequence[tuple[int, int]], first_trick: bool,
               as_holder: int | None, active: Sequence[bool], lead_from: int | None, players: int,
               step: int) -> int | None:
    """Who leads the next trick as ``seat`` (holding ``hand``, at ``decision``) can tell, from what it knows
    (None mid-trick or when it cannot know). ``step``: +1 clockwise, -1 anticlockwise.
    :meth:`arena.game.knowledge.SeatKnowledge.next_leader` asks it of a seat's knowledge, a view's
    ``next_leader`` of its snapshot."""
    if trick:
        return None
    if decision == "play":
        return seat
    if first_trick:              # asking before trick 1: whoever holds AS leads it
        if hand & _AS:
            return seat
        return as_holder if as_holder is not None and active[as_holder] else None
    if lead_from is None:
        return None
    s = lead_from
    while not active[s]:
        s = (s + step) % players
        if s == lead_from:
            return None
    return s


def _get(name: str) -> itemgetter[Any]:
    """A snapshot's field, read as fast as a tuple's item."""
    return itemgetter(Snapshot._fields.index(name))


def _known(s: Snapshot) -> tuple[int, ...]:
    known = list(s.known_masks)
    known[s.knowledge.seat] = s.hand()  # type: ignore[index]  # a seat's own knowledge: an int
    return tuple(known)


def _next_leader(s: Snapshot) -> int | None:
    k = s.knowledge
    return leads_next(k.seat, s.hand(), s.decision,  # type: ignore[arg-type]  # a seat's own knowledge: an int
                      s.trick, s.first_trick, s.as_holder, s.active, s.lead_from, k.players, k.step)


FIELDS: dict[str, Callable[[Snapshot], Any]] = {
    "players": lambda s: s.knowledge.players,
    "rules": lambda s: s.knowledge.rules,
    "hand": lambda s: held_order(s.hand()),
    "trick": lambda s: tuple((seat, CARDS[c]) for seat, c in s.trick),
    "hand_sizes": _get("hand_sizes"),
    "out": _get("out"),
    "history": lambda s: s.knowledge.history_upto(s.taken),
    "time_left": _get("time_left"),
    "first_trick": _get("first_trick"),
    "active": _get("active"),
    "seen_mask": lambda s: s.seen_mask | s.dealt,   # (shared: the public cards seen and the seat's dealt ones)
    "known_masks": _known,
    "void_masks": _get("void_masks"),
    "pile_mask": _get("pile_mask"),
    "hidden_draws": _get("hidden_draws"),
    "next_leader": _next_leader,
    "match": lambda s: s.knowledge.match,
}
"""How each field of a view, but those set when it is made (:data:`EAGER`), comes from its :class:`Snapshot`."""

EAGER = ("seat", "legal", "decision", "led_suit", "trump")
"""The fields a view is made with (cheap, and read by nearly every bot): the seat, what it may do and how the
trick stands."""


def eager_view(snapshot: Snapshot, legal: tuple[Action, ...], led_suit: int | None, trump: int | None) -> PlayerView:
    """The view of ``snapshot`` with every field made at once (what a lazy view equals)."""
    made = {name: make(snapshot) for name, make in FIELDS.items()}
    return PlayerView(seat=snapshot.knowledge.seat,  # type: ignore[arg-type]  # a seat's own knowledge: an int
                      legal=legal, decision=snapshot.decision, led_suit=led_suit, trump=trump, **made)


class Pending(NamedTuple):
    """An unread view's stand-in for its snapshot, while its seat has not yet taken its events in
    (:meth:`arena.game.knowledge.SeatKnowledge.view` of a framed seat): where its events end."""

    knowledge: SeatKnowledge
    upto: int
    time_left: float | None
    decision: str | None


class _Field:
    """A field of a lazy view, kept in the view's ``__dict__``, where a read finds it first (a
    descriptor without ``__set__``, shadowing PlayerView's slot of that name). A lazy field is not
    there until first read: then it is made from the view's snapshot and kept (as
    ``functools.cached_property`` does, without its lock)."""

    __slots__ = ("name", "make")

    def __init__(self, name: str, make: Callable[[Snapshot], Any] | None) -> None:
        self.name, self.make = name, make

    def __get__(self, view: LazyView | None, owner: type | None = None) -> Any:
        if view is None:
            return self
        fields = view.__dict__
        snapshot = fields["_snapshot"]
        if type(snapshot) is Pending:     # its seat takes its events in up to the view's point first
            snapshot.knowledge.settle(view)
            if self.name in fields:   # led_suit and trump, set on the way
                return fields[self.name]
            snapshot = fields["_snapshot"]
        if self.make is None:    # an eager field is always there
            raise AttributeError(f"'PlayerView' object has no attribute {self.name!r}")
        value = fields[self.name] = self.make(snapshot)
        return value


class LazyView(PlayerView):
    """A :class:`PlayerView` whose fields are made when first read (then kept), from a :class:`Snapshot`
    (or, until its seat has taken its events in, a :class:`Pending`).

    Equal to the eagerly made view with the same fields; ``repr`` and pickling
    give the plain :class:`PlayerView`; ``dataclasses.replace`` and ``asdict``
    see the fields alone. Its fields live in its ``__dict__`` (which
    ``__setattr__``, frozen, never writes), read through :class:`_Field`
    descriptors over PlayerView's slots.
    """

    __slots__ = ("__dict__",)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerView):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in PlayerView.__dataclass_fields__)

    __hash__ = PlayerView.__hash__

    def _eager(self) -> PlayerView:
        return PlayerView(*(getattr(self, f) for f in PlayerView.__dataclass_fields__))

    def __repr__(self) -> str:
        return repr(self._eager())

    def __reduce__(self) -> str | tuple[Any, ...]:
        return self._eager().__reduce__()


if set(FIELDS) | set(EAGER) != set(PlayerView.__dataclass_fields__):
    raise TypeError(f"expected every PlayerView field made at once or from the snapshot, got {sorted(FIELDS)} "
                    f"and {EAGER}")
for _name in PlayerView.__dataclass_fields__:
    setattr(LazyView, _name, _Field(_name, FIELDS.get(_name)))
