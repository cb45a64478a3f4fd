"""An exact solver for positions with two active players.

With one pack and perfect memory each of the last two players can deduce the
other's hand (every card not yet played and not in their own hand), so the
two-player ending is a game of perfect information. This module solves it by
expectiminimax with memoisation over hand bitmasks. The search steps through
whole tricks on the two hands (a rules state per node would cost several times
as much: a copy and a play for every move and every card a draw can bring).
Every decision a rule takes is a call to the same function of
:mod:`arena.game.rulings` that the rules core (:class:`arena.game.state.State`)
calls: the cards that may be led and played (``lead_mask``, ``follow_mask``),
the trick step (``STEP``, the table of ``follow_step``: who wins a trick, and
whether a card cuts it, the holder of the led card then picking it up),
``drawn_cut_loses`` (``drawn_cut_ends``), the escape rule with ``simultaneous``
(``winner_without_cards``) and the shootout (``no_common_suit``). What is
written here is how a trick's cards move between the two masks and that a
player left alone holding cards is the Bhabhi (value 1).
``tests/game/test_solver_core.py`` checks the values under every escape,
shootout, drawn_cut_loses and simultaneous option against an expectiminimax
over ``State``, ``tests/game/test_solver.py`` against one over the engine.

A position at the start of a trick is ``(L, F, must)``: the leader's hand, the
other player's hand (bitmasks of card ids, as in :mod:`arena.game.cards`) and the
card the leader must lead (a drawn card, ``-1`` for none). The discard pile
is not part of the state: cards never leave the set *universe* = both hands +
pile (a clean trick moves cards from the hands to the pile, a draw moves one
back), so the pile is ``universe & ~(L | F)``. The universe is fixed per
:class:`Solver` (by default the whole pack, as in a real game).

Values are the **expected loss of the player to move**: 1 = certain to be the
Bhabhi, 0 = certain to get away; a drawn game (``simultaneous = "draw"``)
counts ``draw_value`` (default 0.5), so the game is zero-sum. Random draws
(``escape = "draw"`` from the pile, ``"draw_next_hand"`` from the other
player's hand) are chance nodes: the value there is the mean over the cards
that can be drawn. ``pass_if_3plus`` is ``draw`` with two players.

Rules covered: every ``escape`` rule, ``shootout``, ``drawn_cut_loses`` and
``simultaneous``. Not covered (refused with :class:`SolverError`): two packs,
trumps (Donkey), and the first trick (``first_trick_done`` must hold).
``neighbour_take`` (with any ``take_from`` and ``take_order``) and ``direction``
do not matter with two players: nobody is asked to take with fewer than three.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena.game.cards import CARDS, PACK, PACK_MASK, bit_list, cards_of, sort_hand
from arena.game.errors import SolverBudget, SolverError
from arena.game.rules import Rules
from arena.game.rulings import (
    CUTS,
    DRAW,
    DRAW_NEXT,
    HOLDS,
    PASS,
    STEP,
    TAKES,
    TIED,
    drawn_cut_ends,
    escape_mode,
    follow_mask,
    lead_mask,
    no_common_suit,
    rule_flags,
    winner_without_cards,
)


@dataclass(frozen=True, slots=True)
class Solution:
    """A solved position: the value for the player to move and each legal move's value."""

    value: float
    moves: tuple[tuple[int, float], ...]
    """(card id, value for the player to move after choosing it), best first."""

    @property
    def best(self) -> tuple[int, ...]:
        """Every move that reaches the value (ties included), lowest card id first."""
        return tuple(sorted(c for c, v in self.moves if abs(v - self.value) < 1e-12))


def unsupported(rules: Rules) -> str:
    """Why the solver cannot solve games under ``rules`` ('' when it can): it models one pack without trumps.

    The one answer to "which rules does the exact endgame model hold for": the solver refuses the others
    with this message, and the players built on the same model (the sampler, its opponent models, the
    learned player) fall back to the heuristic under them."""
    if rules.decks != 1:
        return f"the solver needs one pack (got decks={rules.decks})"
    if rules.trumps:
        return f"the solver expects rules without trumps (got {rules.name or 'custom'}, with trumps)"
    return ""


def supports(rules: Rules) -> bool:
    """Can the solver (and the players built on its model) handle ``rules``? (:func:`unsupported` says why not.)"""
    return not unsupported(rules)


class Solver:
    """Solves two-player positions under one rule set, sharing one memo across calls.

    ``universe`` is the set of cards in play (hands + pile); positions solved by
    one solver must all lie inside it with the pile equal to the rest of it.
    ``max_states`` and ``deadline`` (a ``time.thread_time()`` value) bound a
    search: past them it raises :class:`SolverBudget` (the memo keeps what was
    solved, so a retry with a bigger budget goes on from there). So does a line
    of play deeper than Python's recursion limit (about 200 frames were the
    deepest seen, 26 cards each; the default limit is 1000): the solver never
    changes the limit.
    """

    _settle_one: Callable[[int, int, int, bool, int], float]   # set by _build

    def __init__(self, rules: Rules, universe: int = PACK_MASK, draw_value: float = 0.5,
                 canonical: bool = True) -> None:
        why = unsupported(rules)
        if why:
            raise SolverError(why)
        self.rules = rules
        self.universe = universe
        self.draw_value = draw_value
        self.memo: dict[int, float] = {}
        self.max_states: int | None = None
        self.deadline: float | None = None
        slices = {universe >> (13 * k) & 0x1FFF for k in range(4)}
        self.canonical = canonical and len(slices) == 1
        """Memo keys up to suit permutation (and, where the pile never comes back, rank gaps)."""
        self._lead, self._reply = _build(self, rules, universe, draw_value)

    # ---------------------------------------------------------------- API
    def value(self, leader: int, other: int, must: int = -1) -> float:
        """Expected loss of the leader at the start of a trick."""
        self._check(leader, other, must)
        return _within_limit(self._lead, leader, other, must)

    def solve(self, leader: int, other: int, must: int = -1) -> Solution:
        """The leader's value and the value of each card it may lead."""
        self._check(leader, other, must)
        if self.rules.shootout and no_common_suit(leader, other):
            return Solution(1.0, tuple((c, 1.0) for c in _bits(lead_mask(leader, must))))
        drawn = must >= 0
        moves = [(c, _within_limit(self._reply, leader ^ (1 << c), other, c, drawn)) for c in
                 _bits(lead_mask(leader, must))]
        return _solution(moves)

    def solve_reply(self, leader_rest: int, follower: int, led: int, drawn: bool = False) -> Solution:
        """The follower's view after the leader led ``led`` (``leader_rest``: the leader's other cards).

        Values are the follower's expected loss.
        """
        self._check(leader_rest | 1 << led, follower, led if drawn else -1)
        moves = [(f, 1.0 - v) for f, v in self._reply_moves(leader_rest, follower, led, drawn)]
        return _solution(moves)

    def _reply_moves(self, rest: int, fol: int, led: int, drawn: bool) -> list[tuple[int, float]]:
        """(reply, leader's value) for each legal reply."""
        legal = follow_mask(fol, led // 13)
        return [(f, _within_limit(self._settle_one, rest, fol, led, drawn, f)) for f in _bits(legal)]

    def _check(self, leader: int, other: int, must: int) -> None:
        if not leader or not other:
            raise SolverError(f"both players must hold cards (got {leader.bit_count()} and {other.bit_count()})")
        if leader & other:
            raise SolverError(f"a card is in both hands: {mask_text(leader & other)}")
        if (leader | other) & ~self.universe:
            raise SolverError(f"cards outside the solver's universe: {mask_text((leader | other) & ~self.universe)}")
        if must >= 0 and not leader >> must & 1:
            raise SolverError(f"the drawn card {CARDS[must]} must be in the leader's hand")


def _within_limit(search: Callable[..., float], *args: Any) -> float:
    """Run one search; a line deeper than the recursion limit is a :class:`SolverBudget`, like a budget."""
    try:
        return search(*args)
    except RecursionError:
        raise SolverBudget(f"expected a line of play within the recursion limit {sys.getrecursionlimit()}, "
                           f"got a deeper one") from None


def _solution(moves: list[tuple[int, float]]) -> Solution:
    moves = sorted(moves, key=lambda m: (m[1], m[0]))
    return Solution(moves[0][1], tuple(moves))


_bits = bit_list


def mask_text(mask: int) -> str:
    """A mask's cards as text, as a player holds them."""
    return " ".join(str(c) for c in sort_hand(cards_of(mask)))


def _build(solver: Solver, rules: Rules, universe: int,
           draw_value: float) -> tuple[Callable[[int, int, int], float], Callable[[int, int, int, bool], float]]:
    """The recursive search as closures over the rule flags (fast local lookups)."""
    memo = solver.memo
    flags = rule_flags(rules)
    shootout, cut_loses, mode, highest_loses = flags.shootout, flags.cut_loses, flags.escape, flags.highest_loses
    suit_index = [c // 13 for c in range(PACK)]
    thread_time = time.thread_time

    canonical = solver.canonical
    compress = escape_mode(mode, 2, True) != DRAW       # the pile never comes back: rank gaps do not matter
    squeezed: dict[int, tuple[int, int, list[int]]] = {}

    def squeeze(l: int, f: int) -> tuple[int, int, list[int]]:
        """One suit's two hands with the ranks nobody holds taken out (and each held rank's new place)."""
        got = squeezed.get(l << 13 | f)
        if got is None:
            u, i, l2, f2, place = l | f, 0, 0, 0, [0] * 13
            for r in range(13):
                if u >> r & 1:
                    if l >> r & 1:
                        l2 |= 1 << i
                    else:
                        f2 |= 1 << i
                    place[r] = i
                    i += 1
            got = squeezed[l << 13 | f] = (l2, f2, place)
        return got

    def canon(L: int, F: int, must: int) -> int:
        """A key shared by every position equal to this one up to suit permutation (and rank gaps)."""
        ms = must // 13 if must >= 0 else -1
        parts = []
        for s in range(4):
            l, f = L >> (13 * s) & 0x1FFF, F >> (13 * s) & 0x1FFF
            mark = 0
            if compress:
                l, f, place = squeeze(l, f)
                if s == ms:
                    mark = 1 + place[must % 13]
            elif s == ms:
                mark = 1 + must % 13
            parts.append(l << 17 | f << 4 | mark)
        parts.sort()
        return parts[0] | parts[1] << 30 | parts[2] << 60 | parts[3] << 90

    def lead(L: int, F: int, must: int) -> float:
        key = canon(L, F, must) if canonical else L | F << 52 | (must + 1) << 104
        v = memo.get(key)
        if v is not None:
            return v
        if shootout and no_common_suit(L, F):
            v = 1.0
        else:
            v = 2.0
            drawn = must >= 0
            moves = lead_mask(L, must)
            while moves:
                low = moves & -moves
                moves ^= low
                x = reply(L ^ low, F, low.bit_length() - 1, drawn)
                if x < v:
                    v = x
                    if v <= 0.0:
                        break
        memo[key] = v
        n = len(memo)
        if n & 63 == 0:
            _budget(n)
        return v

    def _budget(n: int) -> None:
        if solver.max_states is not None and n > solver.max_states:
            raise SolverBudget(f"more than {solver.max_states} states")
        if solver.deadline is not None and thread_time() > solver.deadline:
            raise SolverBudget("out of time")

    def reply(L: int, F: int, c: int, drawn: bool) -> float:
        """Leader's value after leading ``c`` (``L`` without it); the follower maximises it."""
        legal = follow_mask(F, suit_index[c])
        step = STEP[c]                      # the trick step: every legal reply follows suit, or every one cuts
        worst = -1.0
        if step[(legal & -legal).bit_length() - 1] != CUTS:
            while legal:
                low = legal & -legal
                legal ^= low
                F2 = F ^ low
                f = low.bit_length() - 1
                if step[f] == TAKES:
                    x = 1.0 - settle(F2, L, c, f)
                else:
                    x = settle(L, F2, c, f)
                if x > worst:
                    worst = x
                    if worst >= 1.0:
                        break
            return worst
        if drawn_cut_ends(cut_loses, drawn, 2, 1, 0):
            return 1.0                      # the follower (seat 1) cut the drawn lead: the leader loses
        if F & (F - 1) == 0:
            return 1.0                      # the thrower's last card: out, the leader is left
        L2 = L | 1 << c                     # the leader picks up the trick and leads again
        while legal:
            low = legal & -legal
            legal ^= low
            x = lead(L2 | low, F ^ low, -1)
            if x > worst:
                worst = x
                if worst >= 1.0:
                    break
        return worst

    def settle(W: int, O: int, c: int, f: int) -> float:
        """Value for the winner ``W`` of a clean trick of ``c`` and ``f`` (hands after it)."""
        if W:
            if not O:
                return 1.0                  # the other got out: the winner is left
            return lead(W, O, -1)
        pile = universe & ~(O | 1 << c | 1 << f)
        m = winner_without_cards(mode, 1 if O else 0, bool(pile), highest_loses)
        if m == PASS:
            return 0.0                      # the winner is out, the other is left
        if m == TIED:
            return draw_value
        if m != DRAW and m != DRAW_NEXT:
            return 1.0                      # SIMULTANEOUS, ALONE: the winner is the Bhabhi
        total = 0.0
        if m == DRAW:
            n = 0
            while pile:
                low = pile & -pile
                pile ^= low
                p = low.bit_length() - 1
                total += lead(low, O, p)
                n += 1
            return total / n
        n = 0
        src = O
        while src:
            low = src & -src
            src ^= low
            O2 = O ^ low
            total += lead(low, O2, low.bit_length() - 1) if O2 else 1.0
            n += 1
        return total / n

    def settle_one(rest: int, F: int, c: int, drawn: bool, f: int) -> float:
        """Leader's value when the follower plays ``f`` to ``c``."""
        F2 = F ^ 1 << f
        step = STEP[c][f]
        if step == TAKES:
            return 1.0 - settle(F2, rest, c, f)
        if step == HOLDS:
            return settle(rest, F2, c, f)
        if drawn_cut_ends(cut_loses, drawn, 2, 1, 0):
            return 1.0
        if not F2:
            return 1.0
        return lead(rest | 1 << c | 1 << f, F2, -1)

    solver._settle_one = settle_one
    return lead, reply
