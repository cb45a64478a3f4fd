"""Budgets and balanced samples: which tables a schedule too large for its budget keeps.

:func:`allocate` shares a budget of games among the cells of a format;
:func:`sample` picks that many distinct tables of one cell, balancing the
seats each player takes and the pairs that meet. Both are deterministic from
their seed (:func:`arena.game.seeds.sample_seed`).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from arena.game.seeds import sample_seed
from arena.tournament.errors import ScheduleError
from arena.tournament.schedule import Cell

# ---------------------------------------------------------------- budget


def allocate(cells: Sequence[Cell], deals: int, budget: int | None) -> list[int]:
    """Combinations per cell: all of them, or a near-equal share of ``budget`` games.

    Water-filling on games: find the highest level ``L`` at which giving each
    cell ``min(capacity, max(1, L // cost))`` combinations fits the budget
    (every cell gets at least one), then top up one combination at a time, to
    the cell with the fewest games so far (ties: the earlier cell), while any
    fits. The caller checks that the budget covers one combination per cell.
    """
    caps = [c.capacity for c in cells]
    costs = [deals * c.cost for c in cells]
    if budget is None or sum(t * g for t, g in zip(caps, costs)) <= budget:
        return caps

    def level(games: int) -> list[int]:
        return [min(cap, max(1, games // cost)) for cap, cost in zip(caps, costs)]

    low, high = 0, budget
    while low < high:
        mid = (low + high + 1) // 2
        fits = sum(t * g for t, g in zip(level(mid), costs)) <= budget
        low, high = (mid, high) if fits else (low, mid - 1)
    tables = level(low)
    remaining = budget - sum(t * g for t, g in zip(tables, costs))
    while True:
        open_ = [i for i in range(len(cells)) if tables[i] < caps[i] and costs[i] <= remaining]
        if not open_:
            return tables
        i = min(open_, key=lambda j: (tables[j] * costs[j], j))
        tables[i] += 1
        remaining -= costs[i]


# ---------------------------------------------------------------- balanced sample


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


@dataclass(slots=True)
class _Sampler:
    """Chooses distinct tables of one cell, balancing seats taken and pairs met.

    Mutable working state of one :func:`sample` call; never escapes it.
    ``pairs`` maps a sorted name pair to the tables it shared so far (all
    cells); ``seen`` counts each player's tables in this cell.
    """

    cell: Cell
    rng: random.Random
    pairs: dict
    seen: Counter
    used: set
    dead: set

    def met(self, a: str, b: str) -> int:
        return self.pairs.get(_pair(a, b), 0)

    def extend(self, chosen: tuple[str, ...], met: dict, ctx: tuple) -> tuple[str, ...] | None:
        """Depth-first in greedy order: the first unused table below ``chosen``.

        ``met[p]`` is how often ``p`` met the players in ``chosen`` so far;
        ``ctx`` is (tie-break ranks, the players allowed, the memo of fully
        used subsets for this allowance).
        """
        tie, allowed, dead = ctx
        key = frozenset(chosen)
        if len(chosen) == self.cell.choose:
            return None if key in self.used else chosen
        if key in dead:
            return None
        rest = [p for p in self.cell.pool if p not in key and p in allowed]
        for p in sorted(rest, key=lambda p: (self.seen[p], met[p], tie[p])):
            below = {q: met[q] + self.met(p, q) for q in rest if q != p}
            found = self.extend(chosen + (p,), below, ctx)
            if found is not None:
                return found
        dead.add(key)  # every table below is used
        return None

    def take(self) -> frozenset[str]:
        """Greedily choose the next table; ties go by a seeded shuffle.

        First try to keep seat counts within one table: take every player below
        the level of the ``choose``-th fewest tables and fill up from those at
        that level. If all such tables are used already, search every player.
        """
        pool, k = self.cell.pool, self.cell.choose
        order = list(pool)
        self.rng.shuffle(order)
        tie = {p: i for i, p in enumerate(order)}
        level = sorted(self.seen[p] for p in pool)[k - 1]
        must = tuple(p for p in order if self.seen[p] < level)
        met = {q: sum(self.met(q, m) for m in must) for q in pool}
        at_level = frozenset(p for p in pool if self.seen[p] == level)
        found = self.extend(must, met, (tie, at_level, set()))
        if found is None:
            found = self.extend((), dict.fromkeys(pool, 0), (tie, frozenset(pool), self.dead))
        if found is None:
            raise ScheduleError(f"every table of {k} from {len(pool)} players is used already")
        chosen = frozenset(found)
        self.used.add(chosen)
        self.seen.update(chosen)
        for pair in itertools.combinations(sorted(chosen), 2):
            self.pairs[pair] = self.pairs.get(pair, 0) + 1
        return chosen

    def replace(self, tables: list[frozenset], i: int, old: str, new: str) -> bool:
        """Put ``new`` in ``old``'s place at table ``i`` if that table is unused."""
        table = tables[i] - {old} | {new}
        if table in self.used:
            return False
        self.move(tables[i] - {old}, old, new)
        self.used.discard(tables[i])
        self.used.add(table)
        self.seen.update({old: -1, new: 1})
        tables[i] = table
        return True

    def rebalance(self, tables: list[frozenset]) -> None:
        """Repair the rare greedy dead end: move a seat from a player with the
        most tables to one with the fewest until counts differ by at most one
        (or no unused table allows it)."""
        pool = self.cell.pool
        while True:
            low, high = min(self.seen[p] for p in pool), max(self.seen[p] for p in pool)
            if high - low <= 1:
                return
            moves = (
                (i, hi, lo)
                for hi in pool if self.seen[hi] == high
                for lo in pool if self.seen[lo] == low
                for i, t in enumerate(tables) if hi in t and lo not in t
            )
            if not any(self.replace(tables, i, hi, lo) for i, hi, lo in moves):
                return

    def swap_change(self, only1: frozenset, only2: frozenset, a: str, b: str) -> int:
        """Change of the sum of squared pair counts if ``a`` (only in table 1)
        and ``b`` (only in table 2) swap tables; shared players cancel out."""
        change = 0
        for x in only1 - {a}:  # (a, x) loses one, (b, x) gains one
            change += 2 * (self.met(b, x) - self.met(a, x)) + 2
        for y in only2 - {b}:
            change += 2 * (self.met(a, y) - self.met(b, y)) + 2
        return change

    def move(self, others: frozenset, old: str, new: str) -> None:
        """Pair counts when ``new`` takes ``old``'s seat among ``others``."""
        for x in others:
            self.pairs[_pair(old, x)] -= 1
            self.pairs[_pair(new, x)] = self.met(new, x) + 1

    def improve(self, tables: list[frozenset], attempts: int) -> None:
        """Seeded local search: swap two players between two tables of the cell
        when that lowers the sum of squared pair counts and both new tables are
        unused. Seat counts stay as they are."""
        n = len(tables)
        for _ in range(attempts if n > 1 else 0):
            i, j = self.rng.randrange(n), self.rng.randrange(n - 1)
            j += j >= i
            only1, only2 = tables[i] - tables[j], tables[j] - tables[i]
            if not only1:
                continue
            a, b = self.rng.choice(sorted(only1)), self.rng.choice(sorted(only2))
            new1, new2 = tables[i] - {a} | {b}, tables[j] - {b} | {a}
            if self.swap_change(only1, only2, a, b) < 0 and not {new1, new2} & self.used:
                self.move(only1 - {a}, a, b)
                self.move(only2 - {b}, b, a)
                self.used -= {tables[i], tables[j]}
                self.used |= {new1, new2}
                tables[i], tables[j] = new1, new2


IMPROVE_ATTEMPTS = 20  # local-search attempts per sampled table (at most 50000 per cell)


def _pick(cell: Cell, count: int, rng: random.Random, pairs: dict) -> list[frozenset[str]]:
    sampler = _Sampler(cell, rng, pairs, Counter(), set(), set())
    tables = [sampler.take() for _ in range(count)]
    sampler.rebalance(tables)
    sampler.improve(tables, min(max(IMPROVE_ATTEMPTS * count, 5_000), 50_000))
    return tables


def sample(cell: Cell, count: int, seed: int, pairs: dict) -> list[tuple[str, ...]]:
    """``count`` distinct combinations of the cell's pool, balanced.

    Greedy first: each table takes the players with the fewest tables in this
    cell so far, then those who have met the players already chosen the fewest
    times (``pairs``, shared across cells and updated here), then a seeded
    tie-break; so seat counts within a cell differ by at most one table. Then a
    seeded local search swaps players between tables to even out the pair
    counts (seat counts unchanged). When more than half of the combinations
    are wanted, the same method picks the ones to leave out instead (the full
    set is exactly balanced, so a balanced complement leaves a balanced rest).
    Deterministic from ``seed``.
    """
    rng = random.Random(sample_seed(seed, cell.label))
    if 2 * count <= cell.capacity:
        return [tuple(p for p in cell.pool if p in t) for t in _pick(cell, count, rng, pairs)]
    left_out = set(_pick(cell, cell.capacity - count, rng, {}))
    chosen = [c for c in itertools.combinations(cell.pool, cell.choose) if frozenset(c) not in left_out]
    for combo in chosen:
        for pair in itertools.combinations(sorted(combo), 2):
            pairs[pair] = pairs.get(pair, 0) + 1
    return chosen
