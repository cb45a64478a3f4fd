"""What every seat of one game knows alike, followed once for all of them.

Nearly every event is public: plays, cleans, pick-ups, the trump, outs (and
faults, forfeits and the end, which change no knowledge). Each in-process
seat (:class:`arena.game.follow.GameSeat`) used to take every one of them in
itself: four times an event at four players. A :class:`PublicTracker` takes
them in once, from the engine's event tuples, for every seat of the game; a
seat *attached* to it reads its view from it, with its own hand (kept here
for every seat: it changes only through the seat's own plays and pick-ups, both
public) and its own dealt cards (what it has seen beyond the public events).

A seat's knowledge differs from the others' only through draws and takes
(their cards shown to some seats only, a hand emptied by a take) and a
position's drawn card (shown to its leader). At each such event the seats
concerned *part*: the tracker keeps a copy of their knowledge just before it
(:attr:`parted`), which each takes over to carry on alone, as if it had
followed every event itself; the tracker goes on for the others with what
they see of it. What a seat knows is the same either way:
tests/game/test_follow.py compares it with the view rebuilt from the seat's
own event dicts at every decision.
"""

from __future__ import annotations

from arena.game import events as ev
from arena.game.cards import mask_of, parse_card
from arena.game.views import SeatTracker

_PLAY, _CLEAN, _PICKUP, _TRUMP, _OUT = ev.PLAY, ev.CLEAN, ev.PICKUP, ev.TRUMP, ev.OUT
_DEAL, _DRAW, _TAKE = ev.DEAL, ev.DRAW, ev.TAKE

_LISTS = ("sizes", "active", "out", "trick", "known", "voids", "hidden")
_VALUES = ("led", "trump", "first_trick", "pile", "lead_from", "as_holder", "seen_events")
"""The tracker state a seat takes over when it carries on alone (besides its hand and what it has seen)."""


def take_in_public(tracker: SeatTracker, events: list[tuple], start: int, stop: int) -> int:
    """Feed ``tracker`` the public events ``start`` to ``stop`` (tuples, card ids) as far as they go;
    the index of the first event that is not one of them (``stop`` when all are)."""
    # (the kinds read as globals and the methods called directly, rather than bound to
    # locals first: a call takes in one to four events, and binding made ten objects a call;
    # compared with ==, not is: a sandboxed seat's kinds come from JSON, and in-process the two
    # measured the same)
    for i in range(start, stop):
        e = events[i]
        kind = e[0]
        if kind == _PLAY:
            tracker._play(e[1], e[2])
        elif kind == _CLEAN:
            tracker._clean(e[1], e[2])
        elif kind == _PICKUP:
            tracker._pickup(e[1], e[2])
        elif kind == _TRUMP:
            tracker._trump(e[1])
        elif kind == _OUT:
            tracker._out(e[1])
        else:
            return i
    return stop


class PublicTracker(SeatTracker):
    """The public part of every seat's knowledge of ``game``, and each seat's dealt cards.

    A :class:`SeatTracker` of nobody's seat (``seat`` -1: it holds no hand of its
    own; ``seen`` is what everyone has seen), plus ``dealt`` for every seat.
    Fed by :meth:`follow`, never with dicts.
    """

    def __init__(self, game) -> None:
        super().__init__(-1, game.players, game.rules)
        self.game = game
        self.dealt = [0] * game.players
        self.parted: list[tuple[int, SeatTracker] | None] = [None] * game.players
        """For each seat parted from the others, the event where it parted and its knowledge just
        before it (a tracker of its own, which it takes over: :meth:`take_over`)."""
        self.all_parted = False

    def feed(self, e: dict) -> None:
        raise ValueError("a public tracker follows its game's event tuples; it takes no event dicts")

    def follow(self, stop: int) -> int:
        """Take in the game's events up to ``stop`` as every seat not parted sees them (once all have
        parted, no more); how many it has taken in."""
        i, game, parted = self.seen_events, self.game, self.parted
        events = game.events
        while i < stop and not self.all_parted:
            i = take_in_public(self, events, i, stop)
            if i == stop:
                break
            e = events[i]
            kind = e[0]
            if getattr(SeatTracker, "_on_" + kind, None) is not None:   # a deal, a draw or a take
                seats = _parting(game, e)
                for seat in seats:
                    self._part(seat, i)
                self.all_parted = None not in parted
                if kind is _DEAL:
                    self._deal(ev.to_json(game, e))
                elif None in parted:    # what the others see of it (all alike)
                    getattr(self, "_on_" + kind)(ev.to_json(game, e, parted.index(None)))
            i += 1                      # (a fault, a forfeit, the end: nobody learns anything)
        self.seen_events = i
        return i

    def _part(self, seat: int, at: int) -> None:
        if self.parted[seat] is None:
            alone = SeatTracker(seat, self.players, self.rules)
            self.copy_to(alone)
            alone.seen_events = at
            self.parted[seat] = (at, alone)

    def _deal(self, e: dict) -> None:
        e = {k: v for k, v in e.items() if k != "drawn"}   # (the leader's only: it parted)
        self._on_deal({**e, "hand": ()})   # the discard pile, trump, outs, the leader; no hand
        self.dealt = [mask_of(map(parse_card, hand)) for hand in e["hands"]]

    def hand_of(self, seat: int) -> int:
        """``seat``'s hand while it has not parted: the cards it picked up and has not played since
        (``known``: public), and those dealt to it that nobody has seen played. (Until a seat draws,
        is drawn from, takes or is taken from, it loses cards only by playing them, and gains them
        only by picking up.)"""
        return self.known[seat] | (self.dealt[seat] & ~self.seen)

    def copy_to(self, seat: SeatTracker) -> None:
        """Make ``seat``'s tracker what it would be had it taken in every event so far itself."""
        for name in _LISTS:
            setattr(seat, name, list(getattr(self, name)))
        for name in _VALUES:
            setattr(seat, name, getattr(self, name))
        seat.hand = self.hand_of(seat.seat)
        seat.seen = self.seen | self.dealt[seat.seat]

    def take_over(self, seat: SeatTracker) -> int:
        """Give a parted seat's tracker its knowledge from where it parted (which it then carries on
        from alone: returned)."""
        at, alone = self.parted[seat.seat]
        for name in _LISTS + _VALUES + ("hand", "seen"):
            setattr(seat, name, getattr(alone, name))
        return at


def _parting(game, e: tuple) -> tuple[int, ...]:
    """The seats that see event ``e`` (a deal, draw or take) otherwise than the rest of the table,
    or whose hand it changes without a play or a pick-up (see :mod:`arena.game.events`)."""
    kind = e[0]
    if kind is _DEAL:     # a position's drawn card: shown to its leader
        return (game.start["leader"],) if "drawn" in game.start else ()
    if kind is _DRAW:     # the card: to the drawer and the seat it came from (-1: the pile)
        return (e[1],) if e[3] < 0 else (e[1], e[3])
    if kind is _TAKE:     # the cards: to the taker; the seat taken from is left with none
        return (e[1], e[3]) if e[2] else ()
    raise ValueError(f"expected a deal, draw or take event, got {kind!r}")
