"""What one seat knows of one game: :class:`SeatKnowledge`, kept up to date from the events it is shown.

One class, fed one of three ways, with the same knowledge and the same views
(tests/game/test_follow.py compares them at every decision of many games):

- **event dicts** (:func:`arena.game.events.for_seat`): :meth:`SeatKnowledge.feed`;
  the engine's :meth:`arena.Game.view` and check-bot's own count of the game;
- **the game's own event tuples** (:class:`arena.game.events.SeatEvents`), in
  process: the referee's in-process seats and the learning environment's. The
  public events (plays, cleans, pick-ups, trump, outs) go straight to the
  card-id methods (:meth:`played`, ...); seats that share a
  :class:`~arena.game.public_knowledge.PublicKnowledge` leave those to it, taken in
  once for all of them, until a draw or a take parts them;
- **frames** (``framed=True``): compact batches as decoded from JSON
  (:func:`arena.game.events.for_seat_compact`), the sandbox's host. It takes its
  events in only when a view's field needs them, so a bot that reads only its
  legal actions costs no tracking.

Its attributes are named as the view's fields (``hand_sizes``, ``led_suit``,
``known_masks``...), in card ids and masks, None for "none"; a view is made from
a :class:`~arena.game.views.Snapshot` of them (:meth:`snapshot`, :meth:`view`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from arena.game import events as ev
from arena.game.cards import BIT, SUIT_MASK, SUIT_OF, SUIT_OF_TEXT, mask_of, parse_card
from arena.game.match import MatchView
from arena.game.rules import Rules
from arena.game.rulings import rule_flags
from arena.game.views import Action, LazyView, Pending, PlayerView, Snapshot, eager_view, leads_next

if TYPE_CHECKING:
    from arena.game.public_knowledge import PublicKnowledge

_NEW, _NEW_TUPLE = object.__new__, tuple.__new__   # (a NamedTuple without its Python-level __new__)

LISTS = ("hand_sizes", "active", "out", "trick", "known_masks", "void_masks", "hidden_draws")
VALUES = ("led_suit", "trump", "first_trick", "pile_mask", "lead_from", "as_holder", "taken")
"""The knowledge a seat takes over from another (:meth:`SeatKnowledge.adopt`), besides its hand and what it
has seen: every attribute the events change."""


def _suits_in(mask: int) -> int:
    """A 4-bit set of the suits present in a card mask."""
    c, d, h, s = SUIT_MASK
    return (mask & c != 0) | (mask & d != 0) << 1 | (mask & h != 0) << 2 | (mask & s != 0) << 3


class SeatKnowledge:
    """What ``seat`` knows of a game at ``players`` seats under ``rules``, as a player with perfect memory
    would; ``seat`` None: nobody's (what every seat knows alike, :mod:`arena.game.public_knowledge`).

    Each event is O(1) work. ``taken``: how many events it has taken in.
    """

    seat: int | None
    players: int
    rules: Rules

    def __init__(self, seat: int | None, players: int, rules: Rules, framed: bool = False) -> None:
        self.seat, self.players, self.rules = seat, players, rules
        flags = rule_flags(rules)
        self.step = flags.step
        self._leader_asked = not flags.take_dealer   # before trick 1, the AS holder is asked first
        self.hand_mask = 0
        self.hand_sizes = [0] * players
        self.active = [True] * players
        self.out: list[int] = []
        self.trick: list[tuple[int, int]] = []
        self.led_suit: int | None = None
        self.trump: int | None = None
        self.first_trick = True
        self.seen_mask = 0
        self.known_masks = [0] * players
        self.void_masks = [0] * players
        self.pile_mask = 0
        self.hidden_draws = [0] * players
        self.lead_from: int | None = None   # the last trick's winner (or a position's leader): leads next, if in
        self.as_holder: int | None = None   # before trick 1: the seat publicly known to hold AS
        self.match: MatchView | None = None
        self.history: list[ev.EventDict] = []
        self.taken = 0
        self._framed = framed
        self._game: Any = _Frames() if framed else None   # the events followed: a game's, or those sent
        self._public: PublicKnowledge | None = None        # while attached: the public events are taken in there
        self._unread: deque[LazyView] = deque()            # framed: views made, their events not yet taken in
        self._reader = False                               # framed: has the bot read such a view's field?

    # ------------------------------------------------------------ feeding
    def feed(self, e: ev.EventDict) -> None:
        """Take in one event dict (as :func:`arena.game.events.for_seat` makes them)."""
        if self._game is not None:
            raise ValueError(f"seat {self.seat} follows a game's events or frames; it takes no event dicts")
        self.taken += 1
        self.history.append(e)
        self.take_dict(e)

    def take_dict(self, e: ev.EventDict) -> None:
        """What one event dict tells (not kept in the history, not counted)."""
        handler = _HANDLERS.get(e["type"])
        if handler is not None:
            handler(self, e)

    def feed_many(self, events: Iterable[ev.EventDict] | ev.SeatEvents | list[ev.Event]) -> None:
        """Take in a batch: event dicts, a :class:`~arena.game.events.SeatEvents`, or (framed) a compact batch,
        kept until a view needs it."""
        if self._framed:
            self._game.events.extend(events)
            return
        if type(events) is not ev.SeatEvents:
            for e in events:
                self.feed(e)  # type: ignore[arg-type]  # event dicts: not a SeatEvents, which type() tells
            return
        public, stop = self._public, events.stop
        if (public is not None and events.public is public and events.game is self._game   # attached, in step:
                and events.seat == self.seat and events.start == self.taken):                # the common case
            if public.taken < stop:
                public.follow(stop)
            if public.taken == stop and public.parted[self.seat] is None:
                self.taken = stop
                return
        self._feed_tuples(events)

    def _feed_tuples(self, batch: ev.SeatEvents) -> None:
        game, seat, start, stop = batch.game, self.seat, batch.start, batch.stop
        if batch.seat != seat or start != self.taken or self._game not in (None, game):
            raise ValueError(f"seat {seat} has taken in {self.taken} events of its game; "
                             f"expected them to go on from there, got seat {batch.seat}'s from {start}")
        if self.history and self._game is None:
            raise ValueError(f"seat {seat} was fed event dicts; it cannot follow a game's tuples")
        self._game = game
        public = self._public
        if public is None and start == 0 and batch.public is not None:
            if batch.public.game is not game:
                raise ValueError("a seat's public knowledge follows another game than its events")
            public = self._public = batch.public
        if public is not None:   # the public knowledge takes the events in, once for every seat
            upto = public.follow(stop)
            if public.parted[seat] is None:
                if upto != stop:
                    raise ValueError(f"seat {seat} is fed up to event {stop}, but the public knowledge it "
                                     f"shares is at event {upto}: seats sharing one are fed up to the "
                                     f"game's present")
                self.taken = stop
                return
            start = public.take_over(self)   # a draw or take parted it from the others: alone from there
            self._public = None
        self._take_in(game.events, start, stop)

    def _take_in(self, events: list[ev.Event], start: int, stop: int) -> None:
        """Take in ``events[start:stop]`` (tuples): the public ones through the card-id methods
        (:func:`take_in_public`), every other one through its dict."""
        while start < stop:
            start = take_in_public(self, events, start, stop)
            if start < stop:     # a deal, draw, take, fault, forfeit or the end
                e = events[start]
                if self._framed:     # (kind, dict), or (None, dict) for a plain event dict
                    self.take_dict(e[1])
                elif e[0] in _HANDLERS:
                    self.take_dict(ev.to_json(self._game, e, self.seat))
                start += 1
        self.taken = stop

    @property
    def fed(self) -> int:
        """Framed: how many events it was fed (it has taken in :attr:`taken` of them so far)."""
        return len(self._game.events) if self._framed else self.taken

    def settle(self, view: LazyView | None = None) -> None:
        """Framed: take the events in up to ``view``'s point (every event fed, without one), each view made
        before it given its own snapshot on the way (views are made in order, each at or after the last)."""
        unread, events = self._unread, self._game.events
        if view is None:
            if unread:
                self.settle(unread[-1])
            self._take_in(events, self.taken, len(events))
            return
        self._reader = True
        while True:
            waiting = unread.popleft()
            fields = waiting.__dict__
            at = fields["_snapshot"]
            self._take_in(events, self.taken, at.upto)
            fields["_snapshot"] = self._snapshot(at.decision, at.time_left)
            if "led_suit" not in fields:   # (made without a table)
                fields["led_suit"], fields["trump"] = self.led_suit, self.trump
            if waiting is view:
                return

    def history_upto(self, upto: int) -> tuple[ev.EventDict, ...]:
        """The first ``upto`` events as this seat's dicts (made once, when first asked for)."""
        history, game = self.history, self._game
        if game is not None and len(history) < upto:
            if self._framed:
                history.extend(ev.from_compact(e, self.seat) for e in game.events[len(history):upto])  # type: ignore[arg-type]
            else:
                history.extend(ev.to_json(game, e, self.seat) for e in game.events[len(history):upto])
        return tuple(history[:upto])

    # ------------------------------------------------------- the public events, on card ids
    def played(self, s: int, c: int) -> None:
        bit = BIT[c]
        self.hand_sizes[s] -= 1
        self.seen_mask |= bit
        if s == self.seat:
            self.hand_mask &= ~bit
        known = self.known_masks
        if known[s] & bit:
            known[s] &= ~bit
        if self.pile_mask & bit:
            self.pile_mask &= ~bit
            self.hidden_draws[s] = max(0, self.hidden_draws[s] - 1)
        trick = self.trick
        if trick:
            suit = SUIT_OF[c]
            led = self.led_suit
            if suit != led:       # a thulla: void in the led suit (and, under trumps, in the trump)
                self.void_masks[s] |= 1 << led  # type: ignore[operator]  # a trick under way has its led suit
                if self.trump is not None and suit != self.trump:
                    self.void_masks[s] |= 1 << self.trump
        else:
            self.led_suit = SUIT_OF[c]
        trick.append((s, c))

    def trump_called(self, suit: int) -> None:
        self.trump = suit
        s, c = self.trick[-1]
        self.void_masks[s] &= ~(1 << SUIT_OF[c])

    def cleaned(self, winner: int, cards: Iterable[int]) -> None:
        self.pile_mask |= mask_of(cards)
        self.lead_from = winner
        self._end_trick()

    def picked_up(self, s: int, cards: tuple[int, ...]) -> None:
        m = mask_of(cards)
        self.hand_sizes[s] += len(cards)
        self.known_masks[s] |= m
        self.void_masks[s] &= ~_suits_in(m)
        if s == self.seat:
            self.hand_mask |= m
        self.lead_from = s
        self._end_trick()

    def went_out(self, s: int) -> None:
        self.active[s] = False
        self.out.append(s)

    def _end_trick(self) -> None:
        self.trick = []
        self.led_suit = None
        self.first_trick = False

    # ------------------------------------------------------- the event dicts
    def _on_deal(self, e: ev.EventDict) -> None:
        self.hand_mask = mask_of(map(parse_card, e["hand"]))
        self.hand_sizes = list(e["sizes"])
        self.seen_mask |= self.hand_mask
        for s in e.get("out", ()):
            self.went_out(s)
        self.pile_mask = mask_of(map(parse_card, e.get("discard", ())))
        self.seen_mask |= self.pile_mask
        if e.get("trump"):
            self.trump = SUIT_OF_TEXT[e["trump"]]
        if e.get("first_trick_done"):
            self.first_trick = False
        if e.get("drawn"):
            self.pile_mask &= ~BIT[parse_card(e["drawn"])]
        self.lead_from = e.get("leader")
        if self.first_trick:
            self.as_holder = self.lead_from   # a position before trick 1: its leader holds AS

    def _on_play(self, e: ev.EventDict) -> None:
        self.played(e["seat"], parse_card(e["card"]))

    def _on_trump(self, e: ev.EventDict) -> None:
        self.trump_called(SUIT_OF_TEXT[e["suit"]])

    def _on_clean(self, e: ev.EventDict) -> None:
        self.cleaned(e["seat"], map(parse_card, e["cards"]))

    def _on_pickup(self, e: ev.EventDict) -> None:
        self.picked_up(e["seat"], tuple(map(parse_card, e["cards"])))

    def _on_out(self, e: ev.EventDict) -> None:
        self.went_out(e["seat"])

    def _on_draw(self, e: ev.EventDict) -> None:
        s, source = e["seat"], e["from"]
        self.hand_sizes[s] += 1
        if source != "pile":
            self.hand_sizes[source] -= 1
        if e["card"] is None:
            self.hidden_draws[s] += 1
            self.void_masks[s] = 0
            if source != "pile":
                self.known_masks[source] = 0
            return
        bit = BIT[parse_card(e["card"])]
        self.seen_mask |= bit
        self.pile_mask &= ~bit
        self.known_masks[s] |= bit
        self.void_masks[s] &= ~_suits_in(bit)
        if source != "pile":
            self.known_masks[source] &= ~bit
        if s == self.seat:
            self.hand_mask |= bit
        elif source == self.seat:
            self.hand_mask &= ~bit

    def _on_take(self, e: ev.EventDict) -> None:
        if self.first_trick and self.as_holder is None and self._leader_asked:
            self.as_holder = e["seat"]     # before trick 1 the AS holder is asked first
        if not e["take"]:
            return
        s, t = e["seat"], e["from"]
        if t == self.as_holder:
            self.as_holder = s
        self.hand_sizes[s] += e["count"]
        self.hand_sizes[t] = 0
        self.known_masks[s] |= self.known_masks[t]
        self.void_masks[s] &= self.void_masks[t]
        self.hidden_draws[s] += self.hidden_draws[t]
        self.known_masks[t] = self.hidden_draws[t] = 0
        if "cards" in e:
            m = mask_of(map(parse_card, e["cards"]))
            self.seen_mask |= m
            self.known_masks[s] |= m
            if s == self.seat:
                self.hand_mask |= m
        if t == self.seat:
            self.hand_mask = 0

    def _on_match(self, e: ev.EventDict) -> None:
        self.match = MatchView.from_event(e)

    def adopt(self, other: SeatKnowledge, copy: bool = True) -> None:
        """Take over ``other``'s knowledge (copies of its lists with ``copy``), hand and seen cards included."""
        for name in LISTS:
            setattr(self, name, list(getattr(other, name)) if copy else getattr(other, name))
        for name in VALUES:
            setattr(self, name, getattr(other, name))
        self.hand_mask, self.seen_mask = other.hand_mask, other.seen_mask

    # ------------------------------------------------------- what it knows
    def next_leader(self, decision: str | None = None) -> int | None:
        """Who leads the next trick, as this seat can tell now (None mid-trick or when it cannot know)."""
        t, hand = self, self.hand_mask
        if self._public is not None:
            t, hand = self._public.common, self._public.hand_of(self.seat)  # type: ignore[arg-type]
        # (a seat's own knowledge asks this, never the public's: seat is an int here; the same below)
        return leads_next(self.seat, hand, decision,  # type: ignore[arg-type]
                          t.trick, t.first_trick, t.as_holder, t.active, t.lead_from, self.players, self.step)

    def snapshot(self, decision: str | None = None, time_left: float | None = None) -> Snapshot:
        """What the seat knows now, named (framed: its events taken in first)."""
        if self._framed:
            self.settle()
        return self._snapshot(decision, time_left)

    def _snapshot(self, decision: str | None, time_left: float | None) -> Snapshot:
        public, seat = self._public, self.seat
        if public is None:
            t, hand, dealt = self, self.hand_mask, 0
        elif public.taken == self.taken:   # its hand worked out when read (Snapshot.hand)
            t, hand, dealt = public.common, None, public.dealt[seat]  # type: ignore[index]
        else:
            raise ValueError(f"seat {seat} has taken in {self.taken} events, but the public knowledge "
                             f"it shares is at event {public.taken}: feed it up to there first")
        return _NEW_TUPLE(Snapshot, (
            self, hand, tuple(t.trick), tuple(t.hand_sizes), tuple(t.out), self.taken, time_left,
            t.first_trick, tuple(t.active), t.seen_mask, tuple(t.known_masks), tuple(t.void_masks), t.pile_mask,
            tuple(t.hidden_draws), t.lead_from, t.as_holder, decision, dealt))

    def view(self, legal: Iterable[Action] = (), decision: str | None = None, time_left: float | None = None,
             table: tuple[int, int] | None = None) -> PlayerView:
        """The view now: a :class:`~arena.game.views.LazyView`, its seat, legal actions, decision, led suit and
        trump set, the other fields made when first read. ``table`` (framed): the trick's led suit and the
        trump as suit numbers (-1: none yet), as the harness sends them; without it they are worked out
        when read."""
        view = _NEW(LazyView)
        fields = view.__dict__   # (a dict item costs a tenth of setting a slot of a frozen dataclass)
        fields["seat"] = self.seat
        fields["legal"] = legal if type(legal) is tuple else tuple(legal)
        fields["decision"] = decision
        if self._framed:
            events = self._game.events
            if not self._reader:   # nothing read yet: no tracking until a field needs it
                fields["_snapshot"] = _NEW_TUPLE(Pending, (self, len(events), time_left, decision))
                if table is not None:
                    led, trump = table
                    fields["led_suit"] = led if led >= 0 else None
                    fields["trump"] = trump if trump >= 0 else None
                self._unread.append(view)
                return view
            if self._unread:   # it reads its views: take the events in now (no wait at the first read)
                self.settle(self._unread[-1])
            if self.taken < len(events):
                self._take_in(events, self.taken, len(events))
        fields["_snapshot"] = self._snapshot(decision, time_left)
        t = self if self._public is None else self._public.common
        fields["led_suit"] = t.led_suit
        fields["trump"] = t.trump
        return view


_HANDLERS = {name[4:]: getattr(SeatKnowledge, name) for name in dir(SeatKnowledge) if name.startswith("_on_")}
"""Event type -> what reads its dict (``_on_play`` for ``play``, ...); other types are only kept."""

READS = frozenset(_HANDLERS)
"""The event types that tell a seat something (a fault, a forfeit or the end tells nobody anything)."""

_PLAY, _CLEAN, _PICKUP, _TRUMP, _OUT = ev.PLAY, ev.CLEAN, ev.PICKUP, ev.TRUMP, ev.OUT


def take_in_public(k: SeatKnowledge, events: list[ev.Event], start: int, stop: int) -> int:
    """Feed ``k`` the public events ``start`` to ``stop`` (tuples, card ids) as far as they go; the index of
    the first event that is not one of them (``stop`` when all are)."""
    # (the kinds read as globals and the methods called directly: a call takes in one to four events;
    # compared with ==, not is: a framed seat's kinds come from JSON)
    for i in range(start, stop):
        e = events[i]
        kind = e[0]
        if kind == _PLAY:
            k.played(e[1], e[2])
        elif kind == _CLEAN:
            k.cleaned(e[1], e[2])
        elif kind == _PICKUP:
            k.picked_up(e[1], e[2])
        elif kind == _TRUMP:
            k.trump_called(e[1])
        elif kind == _OUT:
            k.went_out(e[1])
        else:
            return i
    return stop


class _Frames:
    """What a framed seat was sent, in its compact form: its stand-in for a game."""

    __slots__ = ("events",)

    def __init__(self) -> None:
        self.events: list[ev.Event] = []


def view_from_events(seat: int, players: int, rules: Rules | dict[str, Any], events: Iterable[ev.EventDict],
                     legal: Iterable[Action] = (), decision: str | None = None,
                     time_left: float | None = None) -> PlayerView:
    """A seat's view, every field made, rebuilt from its event dicts."""
    if isinstance(rules, dict):
        rules = Rules.from_dict(rules)
    k = SeatKnowledge(seat, players, rules)
    k.feed_many(events)
    return eager_view(k.snapshot(decision, time_left), tuple(legal), k.led_suit, k.trump)
