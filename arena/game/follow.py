"""A seat following a game in-process: its knowledge kept from the engine's event tuples, lazy views.

:class:`GameSeat` is a :class:`arena.game.views.SeatTracker` fed the game's
own event tuples (:class:`arena.game.events.SeatEvents`) instead of their
dicts: the public events (plays, cleans, pick-ups, trump, outs) go straight to
the tracker's methods on card ids; draws, takes and the deal, which differ
from seat to seat, go through this seat's dict as before. The history's
dicts are made only when a view's ``history`` is first read (each once).

Its views are :class:`PlayerView` objects whose fields are computed when first
read, from a snapshot of the tracker taken at :meth:`GameSeat.view` (the
tracker goes on changing; a view never does). They equal, field for field,
the view :class:`~arena.game.views.SeatTracker` builds from the seat's event
dicts (tests/game/test_follow.py checks it at every decision of many games).
"""

from __future__ import annotations

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
        if type(events) is ev.SeatEvents:
            self._feed_tuples(events)
        else:
            super().feed_many(events)

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
            if upto == stop:
                self.seen_events = stop
                return
            if upto < start or not public.halted:
                raise ValueError(f"seat {seat} is fed up to event {stop}, but the public tracker it shares "
                                 f"is at event {upto}: seats sharing one are fed up to the game's present")
            public.copy_to(self)   # it halted (a draw, a take): this seat carries on alone from there
            self._public = None
            start = upto
        events = game.events
        while start < stop:
            start = take_in_public(self, events, start, stop)
            if start < stop:     # a deal, draw, take, fault, forfeit or the end: through this seat's dict
                e = events[start]
                handler = getattr(self, "_on_" + e[0], None)
                if handler is not None:
                    handler(ev.to_json(game, e, seat))
                start += 1
        self.seen_events = stop

    def history_upto(self, upto: int) -> tuple[dict, ...]:
        """The first ``upto`` events as this seat's dicts (made once, when first asked for)."""
        history, game = self.history, self._game
        if game is not None and len(history) < upto:
            history.extend(ev.to_json(game, e, self.seat) for e in game.events[len(history):upto])
        return tuple(history[:upto])

    def view(self, legal=(), decision: str | None = None, time_left: float | None = None) -> PlayerView:
        """The view now; the fields bots read most are set, the others worked out when first read."""
        public, seat = self._public, self.seat
        if public is None:
            t, hand, seen = self, self.hand, self.seen
        elif public.seen_events == self.seen_events:
            t, hand, seen = public, public.hands[seat], public.seen | public.dealt[seat]
        else:
            raise ValueError(f"seat {seat} has taken in {self.seen_events} events, but the public tracker "
                             f"it shares is at event {public.seen_events}: feed it up to there first")
        view = _NEW(LazyView)
        _SET_SNAPSHOT(view, (
            self, hand, tuple(t.trick), tuple(t.sizes), tuple(t.out), self.seen_events, time_left,
            t.first_trick, tuple(t.active), seen, tuple(t.known), tuple(t.voids), t.pile, tuple(t.hidden)))
        _SET_SEAT(view, seat)
        _SET_LEGAL(view, legal if type(legal) is tuple else tuple(legal))
        _SET_DECISION(view, decision)
        _SET_LED(view, t.led if t.led >= 0 else None)
        _SET_TRUMP(view, t.trump if t.trump >= 0 else None)
        _SET_NEXT_LEADER(view, next_leader(t, seat, hand, decision))
        return view


def _attach(public: PublicTracker, game) -> PublicTracker:
    if public.game is not game:
        raise ValueError("a seat's public tracker follows another game than its events")
    return public


def _known(s) -> tuple[int, ...]:
    known = list(s[10])
    known[s[0].seat] = s[1]
    return tuple(known)


_FIELDS = {
    "players": lambda s: s[0].players,
    "rules": lambda s: s[0].rules,
    "hand": lambda s: held_order(s[1]),
    "trick": lambda s: tuple((seat, CARDS[c]) for seat, c in s[2]),
    "hand_sizes": lambda s: s[3],
    "out": lambda s: s[4],
    "history": lambda s: s[0].history_upto(s[5]),
    "time_left": lambda s: s[6],
    "first_trick": lambda s: s[7],
    "active": lambda s: s[8],
    "seen_mask": lambda s: s[9],
    "known_masks": _known,
    "void_masks": lambda s: s[11],
    "pile_mask": lambda s: s[12],
    "hidden_draws": lambda s: s[13],
    "match": lambda s: s[0].match,
}
"""How each field of a lazy view comes from its snapshot (see :meth:`GameSeat.view`)."""


class LazyView(PlayerView):
    """A :class:`PlayerView` whose fields are filled in when first read (then read as plain slots).

    Equal to the eagerly built view with the same fields; ``repr`` and pickling
    give the plain :class:`PlayerView`; ``dataclasses.replace`` and ``asdict``
    see the fields alone.
    """

    __slots__ = ("_snapshot",)

    def __getattr__(self, name: str):
        make = _FIELDS.get(name)
        if make is None:
            raise AttributeError(f"'PlayerView' object has no attribute {name!r}")
        value = make(_GET_SNAPSHOT(self))
        _SET_FIELD(self, name, value)
        return value

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


_EAGER = ("seat", "legal", "decision", "led_suit", "trump", "next_leader")
"""The fields :meth:`GameSeat.view` sets at once (cheap scalars, most read by nearly every bot)."""
if set(_FIELDS) | set(_EAGER) != set(PlayerView.__dataclass_fields__):
    raise TypeError(f"expected a lazy maker for every PlayerView field, got {sorted(_FIELDS)}")
_NEW = object.__new__
_SET_FIELD = object.__setattr__
_GET_SNAPSHOT = LazyView.__dict__["_snapshot"].__get__
_SET_SNAPSHOT = LazyView.__dict__["_snapshot"].__set__
_SET_SEAT, _SET_LEGAL, _SET_DECISION, _SET_LED, _SET_TRUMP, _SET_NEXT_LEADER = (
    PlayerView.__dict__[f].__set__ for f in _EAGER)
