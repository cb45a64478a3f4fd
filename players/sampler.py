"""The sampler: determinised playouts, and the exact solver with two players left.

At each decision with a choice it first models each opponent from the public
play history (:mod:`players.opponents`): the first of the reference policies
``heuristic``, ``high``, ``low`` that none of its plays contradicts, ``random``
for a seat that breaks them all often. Then it repeats, for a fixed number of
worlds:

1. deal the cards it cannot see to the other players at random, consistent with
   everything its seat knows: hand sizes, cards known to be held (public
   pick-ups), suits a player is known to be void in, cards played or
   discarded, hidden draws (a hidden drawn card comes from the pile), and the
   cards an opponent's model says it cannot hold (a ``low`` player that led a
   7 holds no lower card);
2. for each legal card, play the game out from there on the rules core
   (:mod:`players.playout`), each opponent with its model's policy and the
   sampler's own seat with the heuristic policy (:mod:`players.policy`);

and scores each card by how often it became the Bhabhi (the finishing place
counts a little, see ``PLACE_WEIGHT``); every legal card is scored on the same
sampled deals. It plays the heuristic player's own card unless another card
scores lower by more than ``GATE_Z`` standard errors of the paired difference
(a Bhabhi is a rare event, and with 120 worlds noise alone would otherwise
decide many moves).

With two players left the game is one of perfect information (one pack): it
asks the exact solver (:mod:`arena.game.solver`) for the best cards within a
budget of states (``SOLVER_STATES`` new positions a search), keeping the
solver's memo for the rest of the game; if the solver runs out of states it
falls back to playouts. Among cards the solver rates equal it picks by
playouts too (a lost position against perfect play may still be won against a
fallible opponent).

Reproducible by default: ``sampler`` plays out a fixed 120 worlds a decision
(about what 50 ms of CPU gave early in a game here) and gives the solver a fixed
number of states, so the same seeds give the same moves on any machine; time is
only a safety cap (``cap_ms``, 500 ms, or a quarter of ``view.time_left``; the
solver may use ``solver_share`` of it). :class:`TimedSamplerBot` (not
registered) is the anytime version: it stops within ``budget_ms`` of CPU time
per decision (default 50 ms, a twentieth of the default decision limit of
1000 ms), or within a quarter of ``view.time_left`` when the harness gives one,
and gives the solver 60% of that time instead of a count of states. Trumps
(Donkey) and two packs (which the sampled worlds do not model) are left to the
heuristic player.
Nobody takes in a playout (every seat declines, as the heuristic player does).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from arena import Bot
from arena.game.cards import CARDS, PACK, PACK_MASK, PACK_SUIT_MASK, bit_list, mask_of
from arena.game.errors import SolverBudget
from arena.game.solver import Solver, supports

from players.heuristic import HeuristicBot
from players.opponents import Models, infer
from players.playout import SeededLater, play_out, playout_state
from players.policy import HEURISTIC

GATE_Z = 1.0
"""The sampler plays the heuristic player's card unless another card scores lower by more
than ``GATE_Z`` standard errors of the paired difference over the same worlds."""

SOLVER_STATES = 1500
"""New positions a two-left search may add to the solver's memo before the sampler falls back to playouts.
A count, not a time, so whether a search finishes does not depend on the machine. Here the solver adds
5-18 thousand states a CPU second (the median ending about 14 thousand), so 1500 take 0.1-0.3 s, within
the 0.45 s safety cap (90% of ``cap_ms``). (Until session 23 the search had 300 ms of CPU time instead,
so whether it finished, and the card, could differ on a faster or a busier machine.)"""

MEMO_LIMIT = 1_500_000
"""Solver states kept between decisions (about 200 MB at most)."""


def _popcount(m: int) -> int:
    return m.bit_count()


class Worlds:
    """What the seat's view leaves open, in bitmasks, under the view's names where they are the view's facts:
    the cards no one is known to hold (``floating``), how many each seat still needs; ready for dealing worlds."""

    def __init__(self, view) -> None:
        self.seat = view.seat
        self.players = view.players
        self.active = list(view.active)
        self.n_active = sum(self.active)
        self.hand = mask_of(view.hand)
        self.trick = [(s, int(c)) for s, c in view.trick]
        self.trick_mask = mask_of(c for _, c in self.trick)
        self.known_masks = list(view.known_masks)   # (the view's own entry is its hand)
        self.void_masks = list(view.void_masks)
        self.void_cards = [sum(PACK_SUIT_MASK[u] for u in range(4) if v >> u & 1) for v in self.void_masks]
        self.hand_sizes = list(view.hand_sizes)
        located = self.hand | self.trick_mask | view.pile_mask
        for s in range(self.players):
            located |= self.known_masks[s]
        self.floating = PACK_MASK & ~located
        self.pile_mask = view.pile_mask
        self.need = [0] * self.players
        for s in range(self.players):
            if s != self.seat and self.hand_sizes[s] > 0:
                self.need[s] = max(0, self.hand_sizes[s] - _popcount(self.known_masks[s] & ~self.trick_mask))
        self.extra = sum(self.need) - _popcount(self.floating)
        self.leader = self.trick[0][0] if self.trick else self.seat
        self.drawn_lead = _drawn_lead(view)
        self.first_trick = view.first_trick
        self.floating_cards, self.pile_cards = _cards(self.floating), _cards(self.pile_mask)
        self.seats = [s for s in range(self.players) if self.need[s] > 0]
        self._tiers: tuple[list[int] | None, list[tuple[list[list[int]], list[int]]]] = (None, [])

    def other_hand(self) -> tuple[int, int] | None:
        """With two players in (one pack): the other seat and its hand, every card neither played nor the
        seat's own; None when the counts do not add up (a view this reading does not fit)."""
        other = next(s for s in range(self.players) if self.active[s] and s != self.seat)
        hand = self.known_masks[other] | self.floating
        if _popcount(hand) != self.hand_sizes[other] or hand & self.hand:
            return None
        return other, hand

    def deal(self, rng: random.Random, forbid: list[int] | None = None) -> list[int]:
        """Every hand in one world consistent with this knowledge.

        ``forbid`` (per seat, a card mask) adds cards a seat cannot hold (see
        :mod:`players.opponents`); if no deal satisfies it in 20 tries, the known
        voids alone are used, and if those fail too, nothing but the hand sizes.
        """
        pool = self.floating_cards
        if self.extra > 0:
            pool = pool + rng.sample(self.pile_cards, min(self.extra, len(self.pile_cards)))
        for takers, order in self._tiers_of(forbid):
            for _ in range(20):
                hands = self._try_deal(pool, rng, takers, order)
                if hands is not None:
                    return hands
        return self._try_deal(pool, rng, [self.seats] * PACK, None)  # type: ignore[return-value]  # (never None)

    def _tiers_of(self, forbid: list[int] | None) -> list[tuple[list[list[int]], list[int]]]:
        """For each set of cards the seats may not take, strictest first: the seats that may take each card,
        and how many (the deal's order: the most constrained cards first); worked out once a decision."""
        if self._tiers[1] and self._tiers[0] is forbid:
            return self._tiers[1]
        tiers = [self.void_cards] if forbid is None else [
            [v | f for v, f in zip(self.void_cards, forbid)], self.void_cards]
        made = []
        for banned in tiers:
            takers = [[s for s in self.seats if not banned[s] >> c & 1] for c in range(PACK)]
            made.append((takers, [len(t) for t in takers]))
        self._tiers = (forbid, made)
        return made

    def _try_deal(self, pool: list[int], rng: random.Random, takers: list[list[int]],
                  order: list[int] | None) -> list[int] | None:
        """One deal of ``pool``'s cards, each to one of its ``takers`` with room, at random by the room
        each has; with an ``order`` (the cards' constraints), None when a card has no taker with room."""
        cap, seats = self.need[:], self.seats
        hands = [self.known_masks[s] if s != self.seat else self.hand for s in range(self.players)]
        cards = pool[:]
        rng.shuffle(cards)
        if order is not None:
            cards.sort(key=order.__getitem__)    # the most constrained cards first: those few seats may take
        for c in cards:
            total = 0
            for s in takers[c]:
                total += cap[s]
            if not total:
                if order is not None:
                    return None
                continue                     # more cards than places: the rest stay unplaced
            r = rng.random() * total
            for s in takers[c]:
                if cap[s]:
                    r -= cap[s]
                    if r < 0:
                        break
            else:
                s = seats[-1]                # (never, but for rounding: the last seat, as ever)
            hands[s] |= 1 << c
            cap[s] -= 1
        return hands


_cards = bit_list


def _drawn_lead(view) -> bool:
    """Was the card leading the current trick one its leader had just drawn?"""
    if not view.trick:
        return False
    leader = view.trick[0][0]
    plays = 0
    for e in reversed(view.history):
        kind = e["type"]
        if kind == "play":
            plays += 1
            if plays > len(view.trick):
                return False
        elif kind == "draw":
            return plays == len(view.trick) and e["seat"] == leader
        elif kind == "deal":
            return plays == len(view.trick) and e.get("drawn") is not None
        elif kind in ("clean", "pickup"):
            return False
    return False


class SamplerBot(Bot):
    """Determinised playouts with the heuristic policy; the exact solver with two left."""

    name = "sampler"

    def __init__(self, seed: int = 0, budget_ms: float = 50.0, max_worlds: int = 2000,
                 solver_share: float = 0.9, worlds: int | None = 120, cap_ms: float = 500.0,
                 model: bool = True, gate_z: float | None = GATE_Z, solver_states: int | None = SOLVER_STATES,
                 **options) -> None:
        super().__init__(seed, **options)
        if worlds is not None:
            # Deterministic: a fixed number of worlds a decision; time is only a safety cap.
            budget_ms, max_worlds = cap_ms, worlds
        self.budget = budget_ms / 1000.0
        self.max_worlds = max_worlds
        self.solver_share = solver_share
        self.solver_states = None if solver_states is None else int(solver_states)
        self.model = model
        self.gate_z = gate_z
        self.models: Models | None = None
        self.fallback = HeuristicBot(seed)
        self.solver: Solver | None = None
        self.last: dict = {}

    def new_game(self, view) -> None:
        self.solver = None

    def take(self, view) -> bool:
        return self.fallback.take(view)

    def play(self, view):
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if not supports(view.rules):
            return self.fallback.play(view)
        return self._decide(view, solve=True)

    def sampled_card(self, view):
        """The card the playouts choose at a play decision with a choice (never the solver), for a player
        that asks the sampler at some of its decisions; under rules the sampler does not model, the heuristic
        player's card."""
        if not supports(view.rules):
            return self.fallback.play(view)
        return self._decide(view, solve=False)

    def _decide(self, view, solve: bool):
        """A play decision with a choice: with two players left the solver first (``solve``), then playouts."""
        legal = view.legal
        start = time.thread_time()
        budget = self.budget if view.time_left is None else min(self.budget, 0.25 * view.time_left)
        deadline = start + budget
        worlds = Worlds(view)
        moves = [int(c) for c in legal]
        self.last = {"worlds": 0, "solver": None}
        self.models = infer(view) if self.model else None
        if solve and worlds.n_active == 2:
            moves = self._solve(view, worlds, moves, start + self.solver_share * budget)
            if len(moves) == 1:
                return CARDS[moves[0]]
        return CARDS[self._sample(view, worlds, moves, deadline)]

    # ---------------------------------------------------------- two players
    def _solve(self, view, worlds: Worlds, moves: list[int], deadline: float) -> list[int]:
        """The solver's best moves (all of ``moves`` if it cannot finish in time)."""
        known = worlds.other_hand()
        if known is None:
            return moves
        other_hand = known[1]
        if self.solver is None or self.solver.rules != view.rules:
            self.solver = Solver(view.rules)
        solver = self.solver
        if len(solver.memo) > MEMO_LIMIT:
            solver.memo.clear()
        solver.deadline = deadline
        solver.max_states = None if self.solver_states is None else len(solver.memo) + self.solver_states
        try:
            if not worlds.trick:
                sol = solver.solve(worlds.hand, other_hand)
            else:
                led = worlds.trick[0][1]
                sol = solver.solve_reply(other_hand, worlds.hand, led, worlds.drawn_lead)
        except SolverBudget as budget:
            self.last["solver"] = f"unfinished: {budget}"     # (states, time or the recursion limit)
            return moves
        finally:
            solver.deadline = solver.max_states = None
        self.last["solver"] = sol.value
        best = [c for c in sol.best if c in moves]
        return best or moves

    # ------------------------------------------------------------ playouts
    def _sample(self, view, worlds: Worlds, moves: list[int], deadline: float) -> int:
        me = worlds.seat
        scores: list[list[float]] = [[] for _ in moves]
        dealt = 0
        clock = time.thread_time
        n = worlds.players
        kinds, forbid = self._playout_models(n)
        while True:
            base, seed = self._world(view, worlds, forbid)
            for i, m in enumerate(moves):
                state = _first(base, seed, m)
                play_out(state, kinds, seat=me)
                scores[i].append(seat_score(state, me, n))
            dealt += 1
            if dealt >= self.max_worlds or clock() >= deadline:
                break
        self.last["worlds"] = dealt
        return self._pick(view, moves, scores)

    def _world(self, view, worlds: Worlds, forbid: list[int] | None):
        """One sampled deal as a playout state of the position, and the seed of its playouts' draws."""
        rng = self.rng
        hands = worlds.deal(rng, forbid)
        held = worlds.trick_mask
        for h in hands:
            held |= h
        seed = rng.random()
        base = playout_state(view.rules, worlds.players, hands, list(view.out), _cards(PACK_MASK & ~held),
                             worlds.leader, worlds.trick, worlds.first_trick, worlds.drawn_lead, rng)
        return base, seed

    def _playout_models(self, n: int) -> tuple[Sequence[int], list[int] | None]:
        """Each seat's policy in the playouts, and the cards each may not hold (None when no seat has any)."""
        if self.models is None:
            return (HEURISTIC,) * n, None
        forbid = self.models.forbid
        return self.models.kinds, forbid if any(forbid) else None

    def _pick(self, view, moves: list[int], scores: list[list[float]]) -> int:
        """The move of least total score over the worlds (``scores``: per move, one per world), gated
        towards the heuristic player's card (``GATE_Z``)."""
        totals = [sum(x) for x in scores]
        self.last["totals"] = totals
        best = min(range(len(moves)), key=lambda i: totals[i])
        if self.gate_z is not None:
            plain = int(self.fallback.play(view))
            if plain in moves and moves[best] != plain:
                h = moves.index(plain)
                if not _clearly_better(scores[best], scores[h], self.gate_z):
                    best = h
        return moves[best]


def _first(base, seed: float, move: int):
    """A copy of a world's playout state with ``move`` played, its draws seeded by ``seed`` (the same for
    every move of the world)."""
    state = base.copy()
    state.rng = SeededLater(seed)  # (what a playout calls of a Random)
    state.play(move)
    return state


def _clearly_better(a: list[float], b: list[float], z: float) -> bool:
    """Is ``a`` lower than ``b`` by more than ``z`` standard errors of the paired mean difference?"""
    k = len(a)
    d = [y - x for x, y in zip(a, b)]
    mean = sum(d) / k
    if mean <= 0:
        return False
    if k < 2:
        return z <= 0
    var = sum((x - mean) ** 2 for x in d) / (k - 1)
    return mean > z * (var / k) ** 0.5


class TimedSamplerBot(SamplerBot):
    """The anytime sampler: as many worlds as ``budget_ms`` of CPU allow (not reproducible under load)."""

    name = "sampler-timed"

    def __init__(self, seed: int = 0, budget_ms: float = 50.0, solver_share: float = 0.6, **options) -> None:
        super().__init__(seed, budget_ms=budget_ms, worlds=None, solver_share=solver_share, solver_states=None,
                         **options)


PLACE_WEIGHT = 0.05
"""Weight of the finishing place beside the Bhabhi (1). Measured on the same 102 deals x 4
rotations against three heuristic players, 0.05 and 0.01 lost exactly as often (63 of 408
games); with 0.05 the sampler also gets out first far more often (docs/ladder.md)."""


def seat_score(state, me: int, n: int) -> float:
    """1 for the Bhabhi, plus a small term for a worse finishing place (a tie-break, mostly)."""
    if state.loser == me:
        return 1.0
    if me in state.out:
        return PLACE_WEIGHT * state.out.index(me) / max(1, n - 1)
    return PLACE_WEIGHT
