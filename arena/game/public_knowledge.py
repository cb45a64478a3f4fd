"""What every seat of one game knows alike, followed once for all of them: :class:`PublicKnowledge`.

Nearly every event is public: plays, cleans, pick-ups, the trump, outs (and
faults, forfeits and the end, which change no knowledge). Rather than each
in-process seat (:class:`arena.game.knowledge.SeatKnowledge` following the
game's tuples) taking every one of them in itself, four times an event at four
players, a :class:`PublicKnowledge` takes them in once, into the
:class:`~arena.game.knowledge.SeatKnowledge` of nobody's seat it holds
(``common``); a seat *attached* to it takes its snapshots from there, with its
own hand (worked out for every seat: it changes only through the seat's own
plays and pick-ups, both public) and its own dealt cards (what it has seen
beyond the public events).

A seat's knowledge differs from the others' only through draws and takes
(their cards shown to some seats only, a hand emptied by a take) and a
position's drawn card (shown to its leader). At each such event the seats
concerned *part*: a copy of their knowledge just before it is kept
(:attr:`PublicKnowledge.parted`), which each takes over to carry on alone, as
if it had followed every event itself; ``common`` goes on for the others with
what they see of it. What a seat knows is the same either way:
tests/game/test_follow.py compares it with the view rebuilt from the seat's
own event dicts at every decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.game import events as ev
from arena.game.cards import mask_of, parse_card
from arena.game.knowledge import READS, SeatKnowledge, take_in_public

if TYPE_CHECKING:
    from arena.game.engine import Game

_DEAL, _DRAW, _TAKE = ev.DEAL, ev.DRAW, ev.TAKE


class PublicKnowledge:
    """The public part of every seat's knowledge of ``game`` (``common``), and each seat's dealt cards."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.common = SeatKnowledge(None, game.players, game.rules)
        self.dealt = [0] * game.players
        self.parted: list[tuple[int, SeatKnowledge] | None] = [None] * game.players
        """For each seat parted from the others, the event where it parted and its knowledge just
        before it (a knowledge of its own, which it takes over: :meth:`take_over`)."""
        self.all_parted = False

    @property
    def taken(self) -> int:
        """How many of the game's events it has taken in."""
        return self.common.taken

    def follow(self, stop: int) -> int:
        """Take in the game's events up to ``stop`` as every seat not parted sees them (once all have
        parted, no more); how many it has taken in."""
        common, game, parted = self.common, self.game, self.parted
        i, events = common.taken, game.events
        while i < stop and not self.all_parted:
            i = take_in_public(common, events, i, stop)
            if i == stop:
                break
            e = events[i]
            kind = e[0]
            if kind in READS:   # a deal, a draw or a take
                for seat in _parting(game, e):
                    self._part(seat, i)
                self.all_parted = None not in parted
                if kind is _DEAL:
                    self._deal(ev.to_json(game, e))
                elif None in parted:    # what the others see of it (all alike)
                    common.take_dict(ev.to_json(game, e, parted.index(None)))
            i += 1                      # (a fault, a forfeit, the end: nobody learns anything)
        common.taken = i
        return i

    def _part(self, seat: int, at: int) -> None:
        if self.parted[seat] is None:
            alone = SeatKnowledge(seat, self.common.players, self.common.rules)
            self.copy_to(alone)
            alone.taken = at
            self.parted[seat] = (at, alone)

    def _deal(self, e: ev.EventDict) -> None:
        e = {k: v for k, v in e.items() if k != "drawn"}   # (the leader's only: it parted)
        self.common.take_dict({**e, "hand": ()})   # the discard pile, trump, outs, the leader; no hand
        self.dealt = [mask_of(map(parse_card, hand)) for hand in e["hands"]]

    def hand_of(self, seat: int) -> int:
        """``seat``'s hand while it has not parted: the cards it picked up and has not played since
        (``known_masks``: public), and those dealt to it that nobody has seen played. (Until a seat draws,
        is drawn from, takes or is taken from, it loses cards only by playing them, and gains them
        only by picking up.)"""
        return self.common.known_masks[seat] | (self.dealt[seat] & ~self.common.seen_mask)

    def copy_to(self, seat: SeatKnowledge) -> None:
        """Make ``seat``'s knowledge what it would be had it taken in every event so far itself."""
        # (a seat's own knowledge, never the public's: its seat is an int; the same in take_over)
        seat.adopt(self.common)
        seat.hand_mask = self.hand_of(seat.seat)  # type: ignore[arg-type]
        seat.seen_mask = self.common.seen_mask | self.dealt[seat.seat]  # type: ignore[index]

    def take_over(self, seat: SeatKnowledge) -> int:
        """Give a parted seat its knowledge from where it parted (which it then carries on from alone:
        returned)."""
        at, alone = self.parted[seat.seat]  # type: ignore[index,misc]  # a parted seat's entry is set
        seat.adopt(alone, copy=False)
        return at


def _parting(game: Game, e: ev.Event) -> tuple[int, ...]:
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
