"""An exact solver for positions with two active players.

With one pack and perfect memory each of the last two players can deduce the
other's hand (every card not yet played and not in their own hand), so the
two-player ending is a game of perfect information. This module solves it by
expectiminimax with memoisation over hand bitmasks, on its own compact
two-player transition (the full :class:`arena.Game` is far too slow for an
inner loop; ``tests/game/test_solver.py`` checks the two against each other).

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
from dataclasses import dataclass

from arena.game.cards import CARDS, PACK, bit_list, cards_of, parse_cards, sort_hand
from arena.game.errors import ArenaError
from arena.game.rules import Rules

FULL = (1 << PACK) - 1
SUIT13 = tuple(0x1FFF << (13 * s) for s in range(4))
PASS, DRAW, DRAW_NEXT = 0, 1, 2
_MODES = {"pass": PASS, "draw": DRAW, "pass_if_3plus": DRAW, "draw_next_hand": DRAW_NEXT}


class SolverError(ArenaError, ValueError):
    """A position or rule set the solver cannot handle."""


class SolverBudget(ArenaError, RuntimeError):
    """The search went past its node or time budget (the position is too big for it)."""


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


class Solver:
    """Solves two-player positions under one rule set, sharing one memo across calls.

    ``universe`` is the set of cards in play (hands + pile); positions solved by
    one solver must all lie inside it with the pile equal to the rest of it.
    ``max_states`` and ``deadline`` (a ``time.thread_time()`` value) bound a
    search: past them it raises :class:`SolverBudget` (the memo keeps what was
    solved, so a retry with a bigger budget goes on from there).
    """

    def __init__(self, rules: Rules, universe: int = FULL, draw_value: float = 0.5,
                 canonical: bool = True) -> None:
        if rules.decks != 1:
            raise SolverError(f"the solver needs one pack (got decks={rules.decks})")
        if rules.trumps:
            raise SolverError("the solver does not handle trumps (Donkey)")
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
        if sys.getrecursionlimit() < 20000:
            sys.setrecursionlimit(20000)

    # ---------------------------------------------------------------- API
    def value(self, leader: int, other: int, must: int = -1) -> float:
        """Expected loss of the leader at the start of a trick."""
        self._check(leader, other, must)
        return self._lead(leader, other, must)

    def solve(self, leader: int, other: int, must: int = -1) -> Solution:
        """The leader's value and the value of each card it may lead."""
        self._check(leader, other, must)
        if self.rules.shootout and not _share(leader, other):
            return Solution(1.0, tuple((c, 1.0) for c in _bits(leader if must < 0 else 1 << must)))
        drawn = must >= 0
        moves = [(c, self._reply(leader ^ (1 << c), other, c, drawn)) for c in
                 _bits(1 << must if drawn else leader)]
        return _solution(moves)

    def solve_reply(self, leader_rest: int, follower: int, led: int, drawn: bool = False) -> Solution:
        """The follower's view after the leader led ``led`` (``leader_rest``: the leader's other cards).

        Values are the follower's expected loss.
        """
        self._check(leader_rest | 1 << led, follower, led if drawn else -1)
        moves = [(f, 1.0 - v) for f, v in self._reply_moves(leader_rest, follower, led, drawn)]
        return _solution(moves)

    def _reply_moves(self, rest: int, fol: int, led: int, drawn: bool):
        """(reply, leader's value) for each legal reply."""
        legal = fol & SUIT13[led // 13] or fol
        return [(f, self._settle_one(rest, fol, led, drawn, f)) for f in _bits(legal)]

    def _check(self, leader: int, other: int, must: int) -> None:
        if not leader or not other:
            raise SolverError("both players must hold cards")
        if leader & other:
            raise SolverError(f"a card is in both hands: {_text(leader & other)}")
        if (leader | other) & ~self.universe:
            raise SolverError(f"cards outside the solver's universe: {_text((leader | other) & ~self.universe)}")
        if must >= 0 and not leader >> must & 1:
            raise SolverError(f"the drawn card {CARDS[must]} must be in the leader's hand")


def _solution(moves) -> Solution:
    moves = sorted(moves, key=lambda m: (m[1], m[0]))
    return Solution(moves[0][1], tuple(moves))


_bits = bit_list


def _share(a: int, b: int) -> bool:
    return any(a & m and b & m for m in SUIT13)


def _text(mask: int) -> str:
    return " ".join(str(c) for c in sort_hand(cards_of(mask)))


def _build(solver: Solver, rules: Rules, universe: int, draw_value: float):
    """The recursive search as closures over the rule flags (fast local lookups)."""
    memo = solver.memo
    shootout = rules.shootout
    cut_loses = rules.drawn_cut_loses
    mode = _MODES[rules.escape]
    highest_loses = rules.simultaneous == "highest_loses"
    m0, m1, m2, m3 = SUIT13
    suit_of = [SUIT13[c // 13] for c in range(PACK)]
    rank_of = [c % 13 for c in range(PACK)]
    thread_time = time.thread_time

    canonical = solver.canonical
    compress = mode != DRAW
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
        if shootout and not (L & m0 and F & m0 or L & m1 and F & m1 or L & m2 and F & m2
                             or L & m3 and F & m3):
            v = 1.0
        else:
            v = 2.0
            drawn = must >= 0
            moves = 1 << must if drawn else L
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
        follow = F & suit_of[c]
        worst = -1.0
        if follow:
            rc = rank_of[c]
            while follow:
                low = follow & -follow
                follow ^= low
                F2 = F ^ low
                if rank_of[low.bit_length() - 1] > rc:
                    x = 1.0 - settle(F2, L, c, low.bit_length() - 1)
                else:
                    x = settle(L, F2, c, low.bit_length() - 1)
                if x > worst:
                    worst = x
                    if worst >= 1.0:
                        break
            return worst
        if drawn and cut_loses:
            return 1.0
        if F & (F - 1) == 0:
            return 1.0                      # the thrower's last card: out, the leader is left
        L2 = L | 1 << c
        rest = F
        while rest:
            low = rest & -rest
            rest ^= low
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
        m = mode
        if m == DRAW and not pile:
            m = PASS
        if m == PASS:
            if O:
                return 0.0                  # the winner is out, the other is left
            return 1.0 if highest_loses else draw_value
        if not O:
            return 1.0                      # every other player is out: the drawer is left
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
        if F & suit_of[c]:
            if rank_of[f] > rank_of[c]:
                return 1.0 - settle(F2, rest, c, f)
            return settle(rest, F2, c, f)
        if drawn and cut_loses:
            return 1.0
        if not F2:
            return 1.0
        return lead(rest | 1 << c | 1 << f, F2, -1)

    solver._settle_one = settle_one
    return lead, reply


# ------------------------------------------------------------------ text form
def parse_position(text: str) -> dict:
    """Parse ``"leader: AS KS 2H / other: 3C 4C"`` (parts split by ``/``, ``;`` or lines).

    Keys: ``leader`` and ``other`` (hands), optional ``pile`` (default: every
    other card), ``drawn`` (a card in the leader's hand it must lead) and ``led``
    (the leader has already led this card, listed in its hand or not; the
    other player is to move).
    """
    parts = [p.strip() for p in text.replace(";", "/").replace("\n", "/").split("/") if p.strip()]
    found: dict[str, list] = {}
    for part in parts:
        key, sep, cards = part.partition(":")
        key = key.strip().lower()
        key = {"follower": "other", "discard": "pile"}.get(key, key)
        if not sep or key not in ("leader", "other", "pile", "drawn", "led"):
            raise SolverError(f"position part {part!r}: expected 'leader:', 'other:', 'pile:', 'drawn:' "
                              f"or 'led:' followed by cards")
        if key in found:
            raise SolverError(f"position gives {key!r} twice")
        found[key] = parse_cards(cards)
    for key in ("leader", "other"):
        if key not in found:
            raise SolverError(f"position needs {key!r} (e.g. 'leader: AS KS 2H / other: 3C 4C')")
    out = {k: _mask(v, k) for k, v in found.items()}
    for key in ("drawn", "led"):
        if key in found and len(found[key]) != 1:
            raise SolverError(f"{key!r} must be one card (got {len(found[key])})")
    if "drawn" in out and "led" in out and out["drawn"] != out["led"]:
        raise SolverError("with 'led', 'drawn' must be the led card (a drawn card is led at once)")
    return out


def _mask(cards, key: str) -> int:
    m = 0
    for c in cards:
        if c >= PACK:
            raise SolverError(f"{key}: the solver needs one pack (got {c})")
        m |= 1 << c
    return m


def solve_text(text: str, rules: Rules, draw_value: float = 0.5) -> list[str]:
    """Solve a position given as text; lines for the CLI (``arena solve``)."""
    pos = parse_position(text)
    leader, other = pos["leader"], pos["other"]
    led = pos.get("led")
    if led:
        leader &= ~led                  # the led card may be listed in the leader's hand or not
    held = leader | other | (led or 0)
    if leader & other or (led and led & other):
        raise SolverError("a card appears twice in the position")
    pile = pos.get("pile", FULL & ~held)
    if pile & held:
        raise SolverError(f"the pile holds cards that are in a hand: {_text(pile & held)}")
    solver = Solver(rules, universe=held | pile, draw_value=draw_value)
    start = time.perf_counter()
    if led is not None:
        c = led.bit_length() - 1
        drawn = "drawn" in pos
        sol = solver.solve_reply(leader, other, c, drawn)
        who = f"other to play to {CARDS[c]}"
    else:
        must = pos["drawn"].bit_length() - 1 if "drawn" in pos else -1
        sol = solver.solve(leader, other, must)
        who = "leader to lead" + (f" (must lead the drawn {CARDS[must]})" if must >= 0 else "")
    took = time.perf_counter() - start
    lines = [(f"rules: {rules.name} (escape={rules.escape}, shootout={str(rules.shootout).lower()}, "
              f"drawn_cut_loses={str(rules.drawn_cut_loses).lower()}, simultaneous={rules.simultaneous})"),
             f"position: leader {_text(leader) or '-'} / other {_text(other)}"
             + (f" / led {CARDS[led.bit_length() - 1]}" if led else "")
             + f" / pile {pile.bit_count()} cards",
             f"to move: {who}",
             f"value: {_pct(sol.value)} chance that the player to move is the Bhabhi"
             + _verdict(sol.value),
             "best: " + " ".join(str(CARDS[c]) for c in sol.best),
             "moves: " + ", ".join(f"{CARDS[c]} {_pct(v)}" for c, v in sol.moves),
             f"solved {len(solver.memo)} states in {took:.3f} s"]
    return lines


def _pct(v: float) -> str:
    return f"{100 * v:.4g}%"


def _verdict(v: float) -> str:
    if v >= 1 - 1e-12:
        return " (lost whatever it does)"
    if v <= 1e-12:
        return " (it gets away with best play)"
    return ""
