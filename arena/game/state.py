"""The rules core: one game's state on plain ints and lists, with ``legal``, ``play``, ``take`` and ``copy``.

This is the one implementation of the rules (docs/rules.md). The
engine (:class:`arena.game.engine.Game`) wraps a :class:`State` with checks,
faults, records and views; the sampler's playouts copy a state and play it out
with the heuristic policy (:mod:`players.playout`, :mod:`players.policy`); the
two-player solver (:mod:`arena.game.solver`) steps through tricks on two hand
masks with the same rule decisions: both call the pure functions of
:mod:`arena.game.rulings` (which cards may be played, the trick step,
``drawn_cut_loses``, the escape rule and ``simultaneous``, the shootout). docs/engine.md shows how they
fit together.

Hands are bitmasks of card ids (:mod:`arena.game.cards`). A state records
what happens as compact event tuples (:mod:`arena.game.events`) in ``log``
when it has one (the engine's); playouts run with ``log = None``. The plays
themselves are logged by the caller (the engine knows who chose a card).
Randomness (draws) comes from ``rng.randrange``, the caller's generator.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Self

from arena.game import events as ev
from arena.game.cards import ACE_OF_SPADES, BIT, CARDS, SUIT_OF, mask_of
from arena.game.errors import PositionError
from arena.game.rules import Rules
from arena.game.rulings import (
    ALONE,
    CUTS,
    DRAW,
    PASS,
    SIMULTANEOUS,
    STEP,
    TAKES,
    TIED,
    drawn_cut_ends,
    follow_mask,
    lead_mask,
    no_common_suit,
    rule_flags,
    winner_without_cards,
)
from arena.game.lookup import legal_tuple

PLAY, TAKE = "play", "take"
AS = int(ACE_OF_SPADES)
SUIT = SUIT_OF
"""Each card id's suit (:data:`arena.game.cards.SUIT_OF`, under the name the rules core's loops use)."""


class State:
    """One game in progress. Mutable; :meth:`copy` gives an independent one (sharing ``rng``, not logging).

    ``hands[s]`` (masks), ``active[s]``, ``after[s]`` (the next seat still in after ``s``), ``out``
    (finishing order so far), ``pile`` (the discard pile, in draw order), ``tseats``/``tcards`` (the
    trick), ``cur`` (the seat to act, None when over), ``decision`` (``PLAY`` or ``TAKE``), ``led``
    (suit, -1 before the lead), ``best_seat``/``best`` (who wins the trick so far, with which card),
    ``trump`` (-1: none yet), ``first`` (trick 1), ``must`` (a card the leader must lead, -1: none),
    ``drawn_lead`` (this trick's lead was drawn). When over: ``loser`` (None for a draw), ``reason``
    and ``tied``. ``flags``: the rules as the core tests them (:class:`arena.game.rulings.RuleFlags`);
    ``nxt[s]``: the next seat after ``s`` in play order, out or not.
    """

    __slots__ = ("n", "flags", "nxt", "dealer", "rng", "hands", "active", "after", "out", "pile", "tcards",
                 "asked", "n_active", "emptied", "led", "trump", "best_seat", "best", "leader", "cur",
                 "decision", "first", "must", "drawn_lead", "loser", "reason", "tied", "log")

    cur: int | None                 # the seat to act; None once the game is over
    loser: int | None
    reason: str | None

    def __init__(self, rules: Rules, players: int, rng: random.Random, dealer: int = 0,
                 hands: Iterable[int] | None = None, pile: Iterable[int] = (), out: Sequence[int] = (),
                 trump: int = -1) -> None:
        self.n = players
        self.flags = flags = rule_flags(rules)
        self.nxt = flags.next_seat[players]
        self.dealer = dealer
        self.rng = rng
        self.hands = list(hands) if hands is not None else [0] * players
        self.active = [s not in out for s in range(players)] if out else [True] * players
        self.after = self._links()
        self.n_active = players - len(out)
        self.out, self.pile = list(out), list(pile)
        self.tcards: list[int] = []
        self.emptied = False            # did a seat play its last card in this trick?
        self.led = self.best_seat = self.best = self.must = -1
        self.drawn_lead = False
        self.trump, self.leader, self.cur, self.decision, self.first = trump, 0, 0, PLAY, True
        self.loser = self.reason = None
        self.tied: tuple[int, ...] = ()
        self.asked: set[int] = set()
        self.log: list[ev.Event] | None = None

    def copy(self) -> Self:
        """An independent state in the same position, with the same ``rng`` and no ``log``."""
        new = object.__new__(type(self))
        # the table and the rules (never change in a game)
        new.n, new.flags, new.nxt, new.dealer, new.rng = self.n, self.flags, self.nxt, self.dealer, self.rng
        # the position
        new.hands, new.active, new.out, new.pile = self.hands[:], self.active[:], self.out[:], self.pile[:]
        new.after = self.after          # a tuple, replaced (never changed) when a seat goes out
        new.tcards, new.asked = self.tcards[:], set(self.asked)
        new.n_active, new.emptied, new.led, new.trump = self.n_active, self.emptied, self.led, self.trump
        new.best_seat, new.best = self.best_seat, self.best
        new.leader, new.cur, new.decision, new.first = self.leader, self.cur, self.decision, self.first
        new.must, new.drawn_lead = self.must, self.drawn_lead
        new.loser, new.reason, new.tied, new.log = self.loser, self.reason, self.tied, None
        return new

    # ------------------------------------------------------------ queries
    @property
    def over(self) -> bool:
        return self.cur is None

    def legal_mask(self) -> int:
        """The cards the seat to act may play (a mask; meaningful for a ``PLAY`` decision)."""
        # (asked while a seat is to act: cur is a seat; the same in play and take_answer)
        if not self.tcards:
            return lead_mask(self.hands[self.cur], self.must)  # type: ignore[index]
        return follow_mask(self.hands[self.cur], self.led, self.trump)  # type: ignore[index]

    @property
    def tseats(self) -> list[int]:
        """The seats that played ``tcards``: the leader, then each next seat still in (nobody goes
        out during a trick), so no list is kept; only the rare settling paths and readers ask."""
        seats, s, after = [], self.leader, self.after
        for _ in self.tcards:
            seats.append(s)
            s = after[s]
        return seats

    def next_active(self, seat: int) -> int:
        """The next seat after ``seat`` in play order that is still in the game."""
        return self.after[seat]

    def _links(self) -> tuple[int, ...]:
        """``after``: each seat's next seat in play order still in the game, worked out when a seat
        goes out (a few times a game), so that a play finds it with one lookup, not a walk."""
        nxt, active, after = self.nxt, self.active, []
        for seat in range(self.n):
            s = nxt[seat]
            while not active[s] and s != seat:
                s = nxt[s]
            after.append(s)
        return tuple(after)

    def holder(self, c: int) -> int:
        for seat, hand in enumerate(self.hands):
            if hand >> c & 1:
                return seat
        raise PositionError(f"expected a seat holding {CARDS[c]}, got none")

    # ------------------------------------------------------------ actions
    def begin(self, leader: int, first_trick: bool, drawn: int = -1) -> None:
        """Start play: trick 1 (the holder of AS leads it) or a later trick (``drawn``: a card to lead)."""
        self.first, self.leader = first_trick, leader
        if first_trick:
            self.must = AS
            if self.flags.take and self.n_active >= 3 and self.flags.take_first:
                self._ask_takes(leader)
            else:
                self._start_play(leader)
        else:
            self.must = drawn
            self._next_trick(leader, drawn >= 0)

    def resume(self, leader: int, trick: Iterable[tuple[int, int]], first_trick: bool, drawn_lead: bool = False,
               must: int = -1) -> None:
        """Start play in the middle of a trick: ``leader`` leads (``must``: the card it must lead), then
        the (seat, card) plays of ``trick`` are made again (their cards not in ``hands``; no take
        phase, no shootout check)."""
        self.first, self.drawn_lead, self.must = first_trick, drawn_lead, must
        self._start_play(leader)
        for seat, c in trick:
            self.hands[seat] |= BIT[c]
            self.play(c)

    def play(self, c: int) -> None:
        """The seat to act plays card ``c`` (no checks: see :meth:`legal_mask`)."""
        s: int                                          # (a declaration: no code)
        s, hands = self.cur, self.hands                 # type: ignore[assignment]
        hand = hands[s] ^ BIT[c]
        hands[s] = hand
        self.tcards.append(c)
        if not hand:
            self.emptied = True
        if self.led < 0:                                # the lead
            self.led, self.best_seat, self.best, self.must = SUIT[c], s, c, -1
        else:
            step = STEP[self.best][c]                   # the trick step (rulings.follow_step)
            if step == TAKES:
                self.best_seat, self.best = s, c
            elif step == CUTS and SUIT[c] != self.led:  # (under a trump, the led suit holds)
                suit = SUIT[c]
                if self.flags.trumps and (self.trump < 0 or suit == self.trump):
                    if self.trump < 0:                  # the first cut fixes the trumps
                        self.trump = suit
                        if self.log is not None:
                            self.log.append((ev.TRUMP, suit))
                    self.best_seat, self.best = s, c    # the winning card was not a trump
                elif not (self.first and self.flags.free_first):
                    self._settle_pickup(s)
                    return
        s = self.after[s]
        if s == self.leader:
            self._settle_clean()
        else:
            self.cur = s

    def take_answer(self, take: bool) -> None:
        """The seat to act answers a take decision: take its left neighbour's cards or not."""
        asker: int = self.cur  # type: ignore[assignment]
        self.asked.add(asker)
        if take:
            victim = self.next_active(asker)
            taken = self.hands[victim]
            self.hands[asker] |= taken
            self.hands[victim] = 0
            self._log((ev.TAKE, asker, True, victim, legal_tuple(taken)))
            self._go_out([victim])
            if victim == self.leader:
                self.leader = self.next_active(victim)
                self.must, self.drawn_lead = -1, False
        else:
            self._log((ev.TAKE, asker, False))
        nxt = self.next_active(asker)
        if self.n_active >= 3 and nxt not in self.asked:
            self.cur = nxt
        else:
            self._start_trick()

    def penalty_pickup(self, seat: int) -> None:
        """A following seat's fault (``fault_policy = "penalty"``): it picks up the trick and leads."""
        cards = tuple(self.tcards)
        self.hands[seat] |= mask_of(cards)
        self._log((ev.PICKUP, seat, cards, ev.BY_FAULT))
        emptied = self._emptied(seat) if self.emptied else ()
        self._clear_trick()
        self._go_out(emptied)
        if not self._maybe_over(seat):
            self._next_trick(seat)

    # --------------------------------------------------------- settling
    def _log(self, event: ev.Event) -> None:
        if self.log is not None:
            self.log.append(event)

    def _emptied(self, skip: int) -> list[int]:
        """The seats of this trick (but ``skip``) that played their last card in it."""
        hands = self.hands
        return [s for s in self.tseats if s != skip and not hands[s]]

    def _clear_trick(self) -> None:
        self.tcards = []
        self.emptied = self.drawn_lead = self.first = False
        self.led = -1

    def _settle_pickup(self, thrower: int) -> None:
        picker, cards = self.best_seat, self.tcards
        self.hands[picker] |= mask_of(cards)
        if self.log is not None:
            self.log.append((ev.PICKUP, picker, tuple(cards)))
        if not (self.emptied or self.drawn_lead):   # most tricks: nobody goes out, the picker leads
            self._lead_next(picker)
            return
        # drawn_cut_ends is False unless the lead was drawn: the call only then
        drawn_cut = self.drawn_lead and drawn_cut_ends(self.flags.cut_loses, True, self.n_active, thrower, picker)
        emptied = self._emptied(picker) if self.emptied else ()
        self._clear_trick()
        if emptied:
            self._go_out(emptied)
        if drawn_cut:
            if self.active[thrower]:
                self._go_out([thrower])
            self._finish(picker, "drawn_cut")
        elif self.n_active > 1 or not self._maybe_over(picker):
            self._next_trick(picker)

    def _settle_clean(self) -> None:
        winner, cards = self.best_seat, self.tcards
        if self.log is not None:
            self.log.append((ev.CLEAN, winner, tuple(cards)))
        if not self.emptied:        # most tricks: nobody goes out, the winner leads
            self.pile.extend(cards)
            self._lead_next(winner)
            return
        emptied = self._emptied(-1)
        self._clear_trick()
        if self.hands[winner]:
            self.pile.extend(cards)
            self._go_out(emptied)
            if self.n_active > 1 or not self._maybe_over(winner):
                self._next_trick(winner)
            return
        self._winner_escapes(winner, cards, emptied)    # the pile as before this trick

    def _winner_escapes(self, winner: int, cards: list[int], emptied: list[int]) -> None:
        """The escape rule (docs/rules.md, ``escape``, ``simultaneous``): a clean trick's winner played their
        last card, ``emptied`` the trick's seats that did (the winner among them); the trick's ``cards``
        not yet on the pile. A draw from the pile or the next hand, the lead passed on, or the end."""
        others = [s for s in emptied if s != winner]
        holders = [s for s in range(self.n) if self.active[s] and self.hands[s]]
        flags = self.flags
        mode = winner_without_cards(flags.escape, len(holders), bool(self.pile), flags.highest_loses)
        if mode == TIED:                            # every hand emptied on this trick
            self.pile.extend(cards)
            self._finish(None, "draw", tied=emptied)
            return
        if mode == SIMULTANEOUS or mode == ALONE:   # the winner is the last player: the Bhabhi
            self.pile.extend(cards)
            self._go_out(others)
            self._finish(winner, "simultaneous" if mode == SIMULTANEOUS else "last_player")
            return
        if mode == PASS:
            self.pile.extend(cards)
            self._go_out(emptied)
            if not self._maybe_over(None):
                self._next_trick(self.next_active(winner))
            return
        if mode == DRAW:
            self._draw_from_pile(winner)
            self.pile.extend(cards)
            self._go_out(others)
        else:
            self.pile.extend(cards)
            self._go_out(others)
            self._draw_from_next_hand(winner)
        if not self._maybe_over(winner):
            self._next_trick(winner, True)

    def _draw_from_pile(self, seat: int) -> None:
        pile = self.pile
        i = self.rng.randrange(len(pile))
        c = pile[i]
        pile[i] = pile[-1]
        pile.pop()
        self.hands[seat] |= BIT[c]
        self.must = c
        self._log((ev.DRAW, seat, c, -1))

    def _draw_from_next_hand(self, seat: int) -> None:
        victim = self.next_active(seat)
        held = legal_tuple(self.hands[victim])
        c = int(held[self.rng.randrange(len(held))])
        self.hands[victim] ^= BIT[c]
        self.hands[seat] |= BIT[c]
        self.must = c
        self._log((ev.DRAW, seat, c, victim))
        if not self.hands[victim]:
            self._go_out([victim])

    def _lead_next(self, leader: int) -> None:
        """Nobody went out of this trick: ``_clear_trick`` and ``_next_trick(leader)`` (the latter's
        last branch written out when there is no take phase and no shootout)."""
        self._clear_trick()
        if self.flags.plain:
            self.leader = self.cur = leader
            self.must = -1
        else:
            self._next_trick(leader)

    def _go_out(self, seats: Iterable[int]) -> None:
        for s in seats:
            if self.active[s]:
                self.active[s] = False
                self.n_active -= 1
                self.out.append(s)
                self.after = self._links()
                if self.log is not None:
                    self.log.append((ev.OUT, s, len(self.out) - 1))

    def _maybe_over(self, leader: int | None) -> bool:
        """End the game if at most one player is left; True when it ended."""
        if self.n_active > 1:
            return False
        left = [s for s in range(self.n) if self.active[s]]
        self._finish(left[0] if left else leader, "last_player")
        return True

    def _finish(self, loser: int | None, reason: str, tied: Iterable[int] = ()) -> None:
        # (led: already -1, every trick is cleared first; Game.legal_actions relies on it)
        self.loser, self.reason, self.tied, self.led = loser, reason, tuple(tied), -1
        self.active = [False] * self.n
        self.n_active = 0
        self.cur = None
        self._log((ev.END,))

    # ---------------------------------------------------- starting a trick
    def _next_trick(self, leader: int, drawn: bool = False) -> None:
        self.leader, self.drawn_lead = leader, drawn
        if not drawn:
            self.must = -1
        flags = self.flags
        if flags.take and self.n_active >= 3:
            self._ask_takes(leader)
        elif flags.shootout and self.n_active == 2:
            self._start_trick()
        else:
            self.decision, self.cur = PLAY, leader

    def _ask_takes(self, leader: int) -> None:
        """Start the take phase: the first seat asked follows ``take_order``."""
        self.asked = set()
        self.decision = TAKE
        self.cur = self.next_active(self.dealer) if self.flags.take_dealer else leader

    def _start_trick(self) -> None:
        if self.first:              # after takes before trick 1 (take_from="first_trick")
            self.must = AS          # whoever holds AS now leads it
            self._start_play(self.holder(AS))
            return
        leader = self.leader
        if self.flags.shootout and self.n_active == 2:
            other = self.next_active(leader)
            if no_common_suit(self.hands[leader], self.hands[other]):
                self._go_out([other])
                self._finish(leader, "shootout")
                return
        self._start_play(leader)

    def _start_play(self, leader: int) -> None:
        self.decision, self.leader, self.cur = PLAY, leader, leader
