"""What one seat may know: :class:`PlayerView`, rebuilt from that seat's events.

A :class:`SeatTracker` consumes the events one seat is shown (see
:func:`arena.game.events.for_seat`) and keeps what a player with perfect memory
would know. The engine builds views this way and so does a sandboxed bot's
host process, from the same events, so both see exactly the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.game.cards import (ACE_OF_SPADES, BIT, CARDS, DECK_MASK, SUIT_MASK, SUIT_OF, SUITS, Card, cards_of, mask_of,
                              parse_card)
from arena.game.match import MatchView
from arena.game.rules import Rules
from arena.game.rulings import STEP, TAKES
from arena.game.tables import held_order

_SUIT = {s: i for i, s in enumerate(SUITS)}


def _suits_in(mask: int) -> int:
    """A 4-bit set of the suits present in a card mask."""
    c, d, h, s = SUIT_MASK
    return (mask & c != 0) | (mask & d != 0) << 1 | (mask & h != 0) << 2 | (mask & s != 0) << 3


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
    legal: tuple
    decision: str | None
    trick: tuple[tuple[int, Card], ...]
    led_suit: int | None
    trump: int | None
    hand_sizes: tuple[int, ...]
    out: tuple[int, ...]
    history: tuple[dict, ...]
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
        step = 1 if self.rules.direction == "clockwise" else -1
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


class SeatTracker:
    """Keeps one seat's knowledge up to date from the events it is shown.

    Each event is O(1) work: the handlers ``_on_<type>`` read an event dict and
    call the ``_<type>`` methods on card ids, which
    :class:`arena.game.follow.GameSeat` calls straight from the engine's event
    tuples (in-process, no dicts).
    """

    def __init__(self, seat: int, players: int, rules: Rules) -> None:
        self.seat, self.players, self.rules = seat, players, rules
        self.hand = 0
        self.sizes = [0] * players
        self.active = [True] * players
        self.out: list[int] = []
        self.trick: list[tuple[int, int]] = []
        self.led = -1
        self.trump = -1
        self.first_trick = True
        self.seen = 0
        self.known = [0] * players
        self.voids = [0] * players
        self.pile = 0
        self.hidden = [0] * players
        self.history: list[dict] = []
        self.seen_events = 0
        self.lead_from = -1     # the last trick's winner (or a position's leader): who leads next, if still in
        self.as_holder = -1     # before trick 1: the seat publicly known to hold AS (the first asked, take_order="leader")
        self.match: MatchView | None = None

    def feed_many(self, events) -> None:
        for e in events:
            self.feed(e)

    def feed(self, e: dict) -> None:
        """Take in one event (a dict as produced by :func:`arena.game.events.for_seat`)."""
        self.seen_events += 1
        self.history.append(e)
        handler = _HANDLERS.get(e["type"])
        if handler is not None:
            handler(self, e)

    # ------------------------------------------------------------- handlers
    def _on_deal(self, e: dict) -> None:
        self.hand = mask_of(map(parse_card, e["hand"]))
        self.sizes = list(e["sizes"])
        self.seen |= self.hand
        for s in e.get("out", ()):
            self.active[s] = False
            self.out.append(s)
        self.pile = mask_of(map(parse_card, e.get("discard", ())))
        self.seen |= self.pile
        if e.get("trump"):
            self.trump = _SUIT[e["trump"]]
        if e.get("first_trick_done"):
            self.first_trick = False
        if e.get("drawn"):
            self.pile &= ~BIT[parse_card(e["drawn"])]
        self.lead_from = e.get("leader", -1)
        if self.first_trick:
            self.as_holder = self.lead_from   # a position before trick 1: its leader holds AS

    def _on_play(self, e: dict) -> None:
        self._play(e["seat"], parse_card(e["card"]))

    def _play(self, s: int, c: int) -> None:
        bit = BIT[c]
        self.sizes[s] -= 1
        self.seen |= bit
        if s == self.seat:
            self.hand &= ~bit
        known = self.known
        if known[s] & bit:
            known[s] &= ~bit
        if self.pile & bit:
            self.pile &= ~bit
            self.hidden[s] = max(0, self.hidden[s] - 1)
        trick = self.trick
        if trick:
            suit = SUIT_OF[c]
            if suit != self.led:
                self._infer_void(s, suit)
        else:
            self.led = SUIT_OF[c]
        trick.append((s, c))

    def _infer_void(self, s: int, suit: int) -> None:
        if suit == self.led:
            return
        self.voids[s] |= 1 << self.led
        if self.trump >= 0 and suit != self.trump:
            self.voids[s] |= 1 << self.trump

    def _on_trump(self, e: dict) -> None:
        self._trump(_SUIT[e["suit"]])

    def _trump(self, suit: int) -> None:
        self.trump = suit
        s, c = self.trick[-1]
        self.voids[s] &= ~(1 << SUIT_OF[c])

    def _end_trick(self) -> None:
        self.trick = []
        self.led = -1
        self.first_trick = False

    def _on_clean(self, e: dict) -> None:
        self._clean(e["seat"], map(parse_card, e["cards"]))

    def _clean(self, winner: int, cards) -> None:
        self.pile |= mask_of(cards)
        self.lead_from = winner
        self._end_trick()

    def _on_pickup(self, e: dict) -> None:
        self._pickup(e["seat"], tuple(map(parse_card, e["cards"])))

    def _pickup(self, s: int, cards: tuple) -> None:
        m = mask_of(cards)
        self.sizes[s] += len(cards)
        self.known[s] |= m
        self.voids[s] &= ~_suits_in(m)
        if s == self.seat:
            self.hand |= m
        self.lead_from = s
        self._end_trick()

    def _on_draw(self, e: dict) -> None:
        s, source = e["seat"], e["from"]
        self.sizes[s] += 1
        if source != "pile":
            self.sizes[source] -= 1
        if e["card"] is None:
            self.hidden[s] += 1
            self.voids[s] = 0
            if source != "pile":
                self.known[source] = 0
            return
        bit = BIT[parse_card(e["card"])]
        self.seen |= bit
        self.pile &= ~bit
        self.known[s] |= bit
        self.voids[s] &= ~_suits_in(bit)
        if source != "pile":
            self.known[source] &= ~bit
        if s == self.seat:
            self.hand |= bit
        elif source == self.seat:
            self.hand &= ~bit

    def _on_take(self, e: dict) -> None:
        if self.first_trick and self.as_holder < 0 and self.rules.take_order == "leader":
            self.as_holder = e["seat"]     # before trick 1 the AS holder is asked first
        if not e["take"]:
            return
        s, t = e["seat"], e["from"]
        if t == self.as_holder:
            self.as_holder = s
        self.sizes[s] += e["count"]
        self.sizes[t] = 0
        self.known[s] |= self.known[t]
        self.voids[s] &= self.voids[t]
        self.hidden[s] += self.hidden[t]
        self.known[t] = self.hidden[t] = 0
        if "cards" in e:
            m = mask_of(map(parse_card, e["cards"]))
            self.seen |= m
            self.known[s] |= m
            if s == self.seat:
                self.hand |= m
        if t == self.seat:
            self.hand = 0

    def _on_match(self, e: dict) -> None:
        self.match = MatchView.from_event(e)

    def _on_out(self, e: dict) -> None:
        self._out(e["seat"])

    def _out(self, s: int) -> None:
        self.active[s] = False
        self.out.append(s)

    # ------------------------------------------------------------------ view
    def view(self, legal=(), decision: str | None = None, time_left: float | None = None) -> PlayerView:
        known = list(self.known)
        known[self.seat] = self.hand
        return PlayerView(
            seat=self.seat, players=self.players, rules=self.rules,
            hand=held_order(self.hand), legal=tuple(legal), decision=decision,
            trick=tuple((s, CARDS[c]) for s, c in self.trick),
            led_suit=self.led if self.led >= 0 else None,
            trump=self.trump if self.trump >= 0 else None,
            hand_sizes=tuple(self.sizes), out=tuple(self.out), history=tuple(self.history),
            time_left=time_left, first_trick=self.first_trick, active=tuple(self.active),
            seen_mask=self.seen, known_masks=tuple(known), void_masks=tuple(self.voids),
            pile_mask=self.pile, hidden_draws=tuple(self.hidden), next_leader=self._next_leader(decision),
            match=self.match,
        )

    def _next_leader(self, decision: str | None) -> int | None:
        """Who leads the next trick as this seat can tell (:func:`next_leader`)."""
        return next_leader(self, self.seat, self.hand, decision)


def next_leader(t: SeatTracker, seat: int, hand: int, decision: str | None) -> int | None:
    """Who leads the next trick as ``seat`` (holding ``hand``) can tell from what ``t`` keeps
    (None mid-trick or when it cannot know)."""
    if t.trick:
        return None
    if decision == "play":
        return seat
    if t.first_trick:              # asking before trick 1: whoever holds AS leads it
        if hand & BIT[ACE_OF_SPADES]:
            return seat
        return t.as_holder if t.as_holder >= 0 and t.active[t.as_holder] else None
    if t.lead_from < 0:
        return None
    s, step = t.lead_from, 1 if t.rules.direction == "clockwise" else -1
    while not t.active[s]:
        s = (s + step) % t.players
        if s == t.lead_from:
            return None
    return s


_HANDLERS = {name[4:]: getattr(SeatTracker, name) for name in dir(SeatTracker) if name.startswith("_on_")}
"""Event type -> the tracker's handler (``_on_play`` for ``play``, ...); other types are only kept."""


def view_from_events(seat: int, players: int, rules: Rules | dict[str, Any], events, legal=(),
                     decision=None, time_left=None) -> PlayerView:
    """Rebuild a view from a seat's events (what a sandboxed bot's host does)."""
    if isinstance(rules, dict):
        rules = Rules.from_dict(rules)
    tracker = SeatTracker(seat, players, rules)
    tracker.feed_many(events)
    return tracker.view(legal, decision, time_left)
