"""A seat following a game in-process: its knowledge kept from the engine's event tuples, lazy views.

:class:`GameSeat` is a :class:`arena.game.views.SeatTracker` fed the game's
own event tuples (:class:`arena.game.events.SeatEvents`) instead of their
dicts: the public events (plays, cleans, pick-ups, trump, outs) go straight to
the tracker's methods on card ids; draws, takes and the deal, which differ
from seat to seat, go through this seat's dict as before. The history's
dicts are made only when a view's ``history`` is first read (each once).
Seats of one game fed with the same
:class:`~arena.game.public_tracker.PublicTracker` (as the referee's are) leave
the public events to it, taken in once for all of them, until the first
draw or take: from there each carries on alone.

Its views are :class:`PlayerView` objects whose fields are computed when first
read, from a snapshot of the tracker taken at :meth:`GameSeat.view` (the
tracker goes on changing; a view never does). :class:`FramedSeat` (the
sandbox's host) goes further: it takes its events in only when a view's field
needs them, so a bot that reads only its legal actions costs no tracking.
They equal, field for field, the view :class:`~arena.game.views.SeatTracker`
builds from the seat's event dicts (tests/game/test_follow.py checks it at
every decision of many games).
"""

from __future__ import annotations

from collections import deque
from operator import itemgetter
from typing import Any, NamedTuple

from arena.game import events as ev
from arena.game.cards import CARDS
from arena.game.tables import held_order
from arena.game.public_tracker import PublicTracker, take_in_public
from arena.game.views import PlayerView, SeatTracker, next_leader


class GameSeat(SeatTracker):
    """One seat's knowledge of one game, followed from the game's event tuples."""

    def __init__(self, seat: int, players: int, rules) -> None:
        super().__init__(seat, players, rules)
        self._game = None
        self._public: PublicTracker | None = None   # while attached: the public events are taken in there

    def feed_many(self, events) -> None:
        if type(events) is not ev.SeatEvents:
            super().feed_many(events)
            return
        public, stop = self._public, events.stop
        if (public is not None and events.public is public and events.game is self._game   # attached, in step:
                and events.seat == self.seat and events.start == self.seen_events):          # the common case
            if public.seen_events < stop:
                public.follow(stop)
            if public.seen_events == stop and public.parted[self.seat] is None:
                self.seen_events = stop
                return
        self._feed_tuples(events)

    def feed(self, e: dict) -> None:
        if self._game is not None:
            raise ValueError(f"seat {self.seat} follows a game's event tuples; it takes no event dicts")
        super().feed(e)

    def _feed_tuples(self, batch: ev.SeatEvents) -> None:
        game, seat, start, stop = batch.game, self.seat, batch.start, batch.stop
        if batch.seat != seat or start != self.seen_events or self._game not in (None, game):
            raise ValueError(f"seat {seat} has taken in {self.seen_events} events of its game; "
                             f"expected them to go on from there, got seat {batch.seat}'s from {start}")
        if self.history and self._game is None:
            raise ValueError(f"seat {seat} was fed event dicts; it cannot follow a game's tuples")
        self._game = game
        public = self._public
        if public is None and start == 0 and batch.public is not None:
            public = self._public = _attach(batch.public, game)
        if public is not None:   # the public tracker takes the events in, once for every seat
            upto = public.follow(stop)
            if public.parted[seat] is None:
                if upto != stop:
                    raise ValueError(f"seat {seat} is fed up to event {stop}, but the public tracker it "
                                     f"shares is at event {upto}: seats sharing one are fed up to the "
                                     f"game's present")
                self.seen_events = stop
                return
            start = public.take_over(self)   # a draw or take parted it from the others: alone from there
            self._public = None
        self._take_in(game.events, start, stop)

    def _take_in(self, events, start: int, stop: int) -> None:
        """Take in ``events[start:stop]``: the public ones through the tracker's card-id methods
        (take_in_public), every other one through :meth:`_take_other`."""
        while start < stop:
            start = take_in_public(self, events, start, stop)
            if start < stop:     # a deal, draw, take, fault, forfeit or the end
                self._take_other(events[start])
                start += 1
        self.seen_events = stop

    def _take_other(self, e) -> None:
        """An event take_in_public does not read, through this seat's dict (made only for a handler)."""
        handler = getattr(self, "_on_" + e[0], None)
        if handler is not None:
            handler(self._as_dict(e))

    def _as_dict(self, e) -> dict:
        """One of the followed game's events as this seat's dict."""
        return ev.to_json(self._game, e, self.seat)

    def history_upto(self, upto: int) -> tuple[dict, ...]:
        """The first ``upto`` events as this seat's dicts (made once, when first asked for)."""
        history, game = self.history, self._game
        if game is not None and len(history) < upto:
            history.extend(self._as_dict(e) for e in game.events[len(history):upto])
        return tuple(history[:upto])

    def view(self, legal=(), decision: str | None = None, time_left: float | None = None) -> PlayerView:
        """The view now; the fields bots read most are set, the others worked out when first read."""
        public, seat = self._public, self.seat
        if public is None:
            t, hand, dealt = self, self.hand, 0
        elif public.seen_events == self.seen_events:   # its hand worked out when read (PublicTracker.hand_of)
            t, hand, dealt = public, None, public.dealt[seat]
        else:
            raise ValueError(f"seat {seat} has taken in {self.seen_events} events, but the public tracker "
                             f"it shares is at event {public.seen_events}: feed it up to there first")
        view = _NEW(LazyView)
        fields = view.__dict__   # (a dict item costs a tenth of setting a slot of a frozen dataclass)
        fields["_snapshot"] = (   # what the lazy fields are made of; _FIELDS reads it by position
            self, hand, tuple(t.trick), tuple(t.sizes), tuple(t.out), self.seen_events, time_left,
            t.first_trick, tuple(t.active), t.seen, tuple(t.known), tuple(t.voids), t.pile, tuple(t.hidden),
            t.lead_from, t.as_holder, decision, dealt)
        fields["seat"] = seat
        fields["legal"] = legal if type(legal) is tuple else tuple(legal)
        fields["decision"] = decision
        fields["led_suit"] = t.led if t.led >= 0 else None
        fields["trump"] = t.trump if t.trump >= 0 else None
        return view


class FramedSeat(GameSeat):
    """A :class:`GameSeat` fed compact batches (:func:`arena.game.events.for_seat_compact`) as decoded
    from JSON: the sandbox's host, which follows its seat through a pipe, with no game at hand.

    It takes its events in only when they are needed: :meth:`feed_many` keeps a
    batch, and a view is made with its seat, legal actions and decision (and the led
    suit and the trump when the harness sends them: ``table``). The first read of any
    other field takes the events in up to that view's point, through the tracker's
    methods on card ids as in-process (the deal, draws and takes through their dicts);
    on the way, every earlier view not yet read is given its snapshot, so a view read
    late still shows its own moment. A bot that reads nothing else (a random player, a
    lowest-card player) costs its seat no tracking at all; once a bot has read a view's
    field, the events are taken in when each view is made, as a :class:`GameSeat` does.

    A batch of plain event dicts (which a client wrapped by another is handed:
    :func:`~arena.game.events.as_compact` makes it ``(None, dict)`` each) is taken the same way.
    The seat's own log of what it was sent stands in for the game's events: its
    ``history`` dicts are made from it when a view's ``history`` is first read, equal
    to :func:`~arena.game.events.for_seat`'s.
    """

    def __init__(self, seat: int, players: int, rules) -> None:
        super().__init__(seat, players, rules)
        self._game = _Sent()
        self._unread: deque[LazyView] = deque()   # views made, their events not yet taken in
        self._reader = False    # has the bot read such a view's field this game?

    @property
    def fed(self) -> int:
        """How many events it was fed (it has taken in :attr:`seen_events` of them so far)."""
        return len(self._game.events)

    def feed_many(self, events) -> None:
        self._game.events.extend(events)   # taken in when a view is made or read (view, _settle)

    def settle(self) -> None:
        """Take in every event fed so far (the views made before keep their own moment)."""
        if self._unread:
            self._settle(self._unread[-1])
        self._take_in(self._game.events, self.seen_events, self.fed)

    def view(self, legal=(), decision: str | None = None, time_left: float | None = None,
             table=None) -> PlayerView:
        """The view at the last event fed. ``table``: the trick's led suit and the trump as suit numbers
        (-1: none yet), as the harness sends them; without it they are worked out when read."""
        events = self._game.events
        if self._reader:   # it reads its views: take the events in now (no wait at the first read)
            if self._unread:
                self._settle(self._unread[-1])
            if self.seen_events < len(events):
                self._take_in(events, self.seen_events, len(events))
            return GameSeat.view(self, legal, decision, time_left)
        view = _NEW(_UnreadView)
        fields = view.__dict__
        fields["_snapshot"] = _NEW_TUPLE(_Unread, (self, len(events), time_left, decision))
        fields["seat"] = self.seat
        fields["legal"] = legal if type(legal) is tuple else tuple(legal)
        fields["decision"] = decision
        if table is not None:
            led, trump = table
            fields["led_suit"] = led if led >= 0 else None
            fields["trump"] = trump if trump >= 0 else None
        self._unread.append(view)
        return view

    def _settle(self, view: LazyView) -> tuple:
        """``view``'s snapshot: the events taken in up to its point, each view made before it
        given its own on the way (views are made in order, each at or after the last)."""
        unread, events = self._unread, self._game.events
        self._reader = True
        while True:
            waiting = unread.popleft()
            fields = waiting.__dict__
            at = fields["_snapshot"]
            self._take_in(events, self.seen_events, at.upto)
            made = GameSeat.view(self, (), at.decision, at.time_left).__dict__
            fields["_snapshot"] = made["_snapshot"]
            if "led_suit" not in fields:   # (made without a table)
                fields["led_suit"], fields["trump"] = made["led_suit"], made["trump"]
            if waiting is view:
                return made["_snapshot"]

    def _take_other(self, e) -> None:
        handler = getattr(self, "_on_" + e[1]["type"], None)   # (kind, dict), or (None, dict) for a plain event dict
        if handler is not None:
            handler(e[1])

    def _as_dict(self, e) -> dict:
        return ev.from_compact(e, self.seat)


class _Unread(NamedTuple):
    """An unread :class:`FramedSeat` view's stand-in for its snapshot: where its events end."""

    seat: FramedSeat
    upto: int
    time_left: float | None
    decision: str | None


class _Sent:
    """What a :class:`FramedSeat` was sent, in its compact form: its stand-in for a game."""

    __slots__ = ("events",)

    def __init__(self) -> None:
        self.events: list[list] = []


def _attach(public: PublicTracker, game) -> PublicTracker:
    if public.game is not game:
        raise ValueError("a seat's public tracker follows another game than its events")
    return public


def _hand(s) -> int:
    """The seat's hand: kept (alone), or from the public tracker's known cards and its dealt ones."""
    return s[1] if s[1] is not None else s[10][s[0].seat] | (s[17] & ~s[9])


def _known(s) -> tuple[int, ...]:
    known = list(s[10])
    known[s[0].seat] = _hand(s)
    return tuple(known)


class _LeaderFacts(NamedTuple):
    """What :func:`~arena.game.views.next_leader` reads of a tracker, as a snapshot kept it."""

    trick: tuple
    first_trick: bool
    as_holder: int
    active: tuple
    lead_from: int
    rules: Any
    players: int


def _next_leader(s) -> int | None:
    facts = _LeaderFacts(s[2], s[7], s[15], s[8], s[14], s[0].rules, s[0].players)
    return next_leader(facts, s[0].seat, _hand(s), s[16])


_FIELDS = {
    "players": lambda s: s[0].players,
    "rules": lambda s: s[0].rules,
    "hand": lambda s: held_order(_hand(s)),
    "trick": lambda s: tuple((seat, CARDS[c]) for seat, c in s[2]),
    "hand_sizes": itemgetter(3),
    "out": itemgetter(4),
    "history": lambda s: s[0].history_upto(s[5]),
    "time_left": itemgetter(6),
    "first_trick": itemgetter(7),
    "active": itemgetter(8),
    "seen_mask": lambda s: s[9] | s[17],   # (the public tracker's and the seat's dealt cards)
    "known_masks": _known,
    "void_masks": itemgetter(11),
    "pile_mask": itemgetter(12),
    "hidden_draws": itemgetter(13),
    "next_leader": _next_leader,
    "match": lambda s: s[0].match,
}
"""How each lazy field of a view comes from its snapshot (see :meth:`GameSeat.view`)."""

_EAGER = ("seat", "legal", "decision", "led_suit", "trump")
"""The fields :meth:`GameSeat.view` sets at once (cheap, and read by nearly every bot)."""


class _Field:
    """A field of a lazy view, kept in the view's ``__dict__``, where a read finds it first (a
    descriptor without ``__set__``, shadowing PlayerView's slot of that name). A lazy field is not
    there until first read: then it is worked out from the view's snapshot and kept (as
    ``functools.cached_property`` does, without its lock)."""

    __slots__ = ("name", "make")

    def __init__(self, name: str, make) -> None:
        self.name, self.make = name, make

    def __get__(self, view, owner=None):
        if view is None:
            return self
        if self.make is None:    # an eager field is always there
            raise AttributeError(f"'PlayerView' object has no attribute {self.name!r}")
        fields = view.__dict__
        value = fields[self.name] = self.make(fields["_snapshot"])
        return value


class LazyView(PlayerView):
    """A :class:`PlayerView` whose fields are filled in when first read (then kept).

    Equal to the eagerly built view with the same fields; ``repr`` and pickling
    give the plain :class:`PlayerView`; ``dataclasses.replace`` and ``asdict``
    see the fields alone. Its fields live in its ``__dict__`` (which
    ``__setattr__``, frozen, never writes), read through :class:`_Field`
    descriptors over PlayerView's slots.
    """

    __slots__ = ("__dict__",)

    def __eq__(self, other):
        if not isinstance(other, PlayerView):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in PlayerView.__dataclass_fields__)

    __hash__ = PlayerView.__hash__

    def _eager(self) -> PlayerView:
        return PlayerView(*(getattr(self, f) for f in PlayerView.__dataclass_fields__))

    def __repr__(self) -> str:
        return repr(self._eager())

    def __reduce__(self):
        return self._eager().__reduce__()


class _UnreadField(_Field):
    """A field of an :class:`_UnreadView`: its first read takes the seat's events in up to the view's
    point (:meth:`FramedSeat._settle`), then it is read as a :class:`_Field`."""

    __slots__ = ()

    def __get__(self, view, owner=None):
        if view is not None and type(view.__dict__["_snapshot"]) is _Unread:
            view.__dict__["_snapshot"].seat._settle(view)
            if self.name in view.__dict__:   # led_suit and trump, set by _settle
                return view.__dict__[self.name]
        return _Field.__get__(self, view, owner)


class _UnreadView(LazyView):
    """A :class:`FramedSeat`'s view made before its events were taken in (a :class:`LazyView` once read)."""

    __slots__ = ()


if set(_FIELDS) | set(_EAGER) != set(PlayerView.__dataclass_fields__):
    raise TypeError(f"expected every PlayerView field set at once or lazily, got {sorted(_FIELDS)} and {_EAGER}")
for _name in PlayerView.__dataclass_fields__:
    setattr(LazyView, _name, _Field(_name, _FIELDS.get(_name)))
    setattr(_UnreadView, _name, _UnreadField(_name, _FIELDS.get(_name)))
_NEW, _NEW_TUPLE = object.__new__, tuple.__new__   # (a NamedTuple without its Python-level __new__)
