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
(their cards shown to some seats only) and a position's drawn card (shown to
its leader). The tracker stops at the first such event (:attr:`halted`);
each seat then carries on alone from a copy of the state there
(:meth:`copy_to`), as if it had followed every event itself. What a seat
knows is the same either way: tests/game/test_follow.py compares it with the
view rebuilt from the seat's own event dicts at every decision.
"""

from __future__ import annotations

from arena.game import events as ev
from arena.game.views import SeatTracker, _mask

_PLAY, _CLEAN, _PICKUP, _TRUMP, _OUT, _DEAL = ev.PLAY, ev.CLEAN, ev.PICKUP, ev.TRUMP, ev.OUT, ev.DEAL

_LISTS = ("sizes", "active", "out", "trick", "known", "voids", "hidden")
_VALUES = ("led", "trump", "first_trick", "pile", "lead_from", "as_holder", "seen_events")
"""The tracker state a seat takes over when it carries on alone (besides its hand and what it has seen)."""


def take_in_public(tracker: SeatTracker, events: list[tuple], start: int, stop: int) -> int:
    """Feed ``tracker`` the public events ``start`` to ``stop`` (tuples, card ids) as far as they go;
    the index of the first event that is not one of them (``stop`` when all are)."""
    # (the kinds read as globals and the methods called directly, rather than bound to
    # locals first: a call takes in one to four events, and binding made ten objects a call)
    for i in range(start, stop):
        e = events[i]
        kind = e[0]
        if kind is _PLAY:
            tracker._play(e[1], e[2])
        elif kind is _CLEAN:
            tracker._clean(e[1], e[2])
        elif kind is _PICKUP:
            tracker._pickup(e[1], e[2])
        elif kind is _TRUMP:
            tracker._trump(e[1])
        elif kind is _OUT:
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
        self.halted = False
        """True once it stopped at an event that not every seat sees alike (at ``seen_events``)."""

    def feed(self, e: dict) -> None:
        raise ValueError("a public tracker follows its game's event tuples; it takes no event dicts")

    def follow(self, stop: int) -> int:
        """Take in the game's events up to ``stop`` (or up to the first one some seats see differently,
        where it halts for good); how many it has taken in."""
        i, game = self.seen_events, self.game
        events = game.events
        while i < stop and not self.halted:
            i = take_in_public(self, events, i, stop)
            if i == stop:
                break
            kind = events[i][0]
            if kind is _DEAL and i == 0 and "drawn" not in game.start:
                self._deal(ev.to_json(game, events[i]))
            elif getattr(SeatTracker, "_on_" + kind, None) is not None:
                self.halted = True   # a draw, a take, a drawn card: seats' knowledge parts here
                break
            i += 1                   # a fault, a forfeit, the end: nobody learns anything
        self.seen_events = i
        return i

    def _deal(self, e: dict) -> None:
        self._on_deal({**e, "hand": ()})   # the discard pile, trump, outs, the leader; no hand
        self.dealt = [_mask(hand) for hand in e["hands"]]

    def hand_of(self, seat: int) -> int:
        """``seat``'s hand: the cards it picked up and has not played since (``known``: public), and
        those dealt to it that nobody has seen played. (Before a draw or a take, the only ways a card
        leaves a hand are its holder's play, and comes in, a pick-up.)"""
        return self.known[seat] | (self.dealt[seat] & ~self.seen)

    def copy_to(self, seat: SeatTracker) -> None:
        """Make ``seat``'s tracker what it would be had it taken in every event so far itself."""
        for name in _LISTS:
            setattr(seat, name, list(getattr(self, name)))
        for name in _VALUES:
            setattr(seat, name, getattr(self, name))
        seat.hand = self.hand_of(seat.seat)
        seat.seen = self.seen | self.dealt[seat.seat]
