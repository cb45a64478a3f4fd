"""Tournament formats: which games an event plays, in what order, with which seeds.

A format is a small frozen class over :class:`Format`, registered by name and
made with :func:`make_format`. It yields :class:`GameSpec` values: one game of
one table (a tuple of player names, seat 0 first) under one rule set, with the
deal seed and the seat rotation. Everything is a pure function of the
parameters: every seed comes from :func:`arena.game.seeds.derive_seed` (blake2b, never
Python's ``hash()``), so the same parameters give the same schedule on any machine.
The seeds the bots get are keyed with the tournament's secret
(:meth:`GameSpec.bot_seeds`).

Rotation groups (duplicate deals): every deal of a table is played once in each
cyclic rotation of its players, in an order round the table shuffled per deal
(:func:`seating`). Rotation ``r`` seats the circle's player ``i`` at
seat ``(i + r) % n``; the deal seed is the same for all rotations, so every
player holds every hand of the deal.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from arena.game.errors import ArenaError
from arena.game.seeds import Secret, bot_seeds, canonical, derive_seed

MIN_SEATS = 3
MAX_SEATS = 8
DEFAULT_HOUSE = ("random",)
MAX_GAMES = 1_000_000  # a schedule without a budget may not be larger


class ScheduleError(ArenaError, ValueError):
    """A format name or parameter that cannot make a schedule."""


# ---------------------------------------------------------------- seating


def seating(players: Sequence[str], deal_seed: int) -> tuple[str, ...]:
    """The order round the table for one deal: a seeded shuffle of the table's players.

    Rotations of one deal keep who sits next to whom; shuffling the circle per
    deal varies the neighbours (in this game the player on your left matters),
    so no player is stuck behind the same opponent for a whole event.
    """
    circle = list(players)
    random.Random(derive_seed(deal_seed, "seating")).shuffle(circle)
    return tuple(circle)


# ---------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game to play: who sits where, under which rules, with which deal.

    ``index`` is the game's position in the schedule (the order ratings use);
    ``game_id`` names the table, deal and rotation, e.g. ``rr-0-4p-0003-d1-r2``
    (format, rule set number, table size, table number, deal, rotation);
    ``rules`` is the rule set exactly as given to the format; ``seats[s]`` is
    the player at seat ``s``; ``seed_names``, when given, are the names the bot
    seeds are keyed with instead of ``seats`` (the paired format keys both
    candidates' seat alike, so they get the same seeds).
    """

    index: int
    game_id: str
    rules: Any
    seats: tuple[str, ...]
    deal_seed: int
    rotation: int
    dealer: int = 0
    seed_names: tuple[str, ...] = ()

    @property
    def table_size(self) -> int:
        """The number of seats."""
        return len(self.seats)

    def bot_seeds(self, secret: Secret) -> tuple[int, ...]:
        """Every seat's bot seed in this game, keyed with the tournament's secret (distinct per rotation)."""
        return bot_seeds(secret, self.deal_seed, self.rotation, self.seed_names or self.seats)


@dataclass(frozen=True, slots=True)
class Table:
    """Players at one table under one rule set (before rotations).

    ``drawn`` is the part of ``players`` chosen from the pool; the deal seeds
    depend on it (not on a gauntlet's candidate), so every candidate meets the
    same field with the same deals.
    """

    label: str
    rules: Any
    players: tuple[str, ...]
    drawn: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Cell:
    """Where tables come from: one rule set, one table size, one pool.

    Each chosen combination of ``size - len(head)`` pool players makes one
    table per head: ``heads`` is ``((),)`` in a round robin and one
    ``(candidate,)`` per candidate in a gauntlet.
    """

    label: str
    rules: Any
    size: int
    pool: tuple[str, ...]
    heads: tuple[tuple[str, ...], ...] = ((),)

    @property
    def choose(self) -> int:
        """How many pool players each table takes."""
        return self.size - len(self.heads[0])

    @property
    def capacity(self) -> int:
        """How many distinct combinations the pool has."""
        return math.comb(len(self.pool), self.choose)

    @property
    def cost(self) -> int:
        """Tables (one rotation group per deal each) per combination."""
        return self.size * len(self.heads)

    def tables(self, number: int, combo: tuple[str, ...]) -> Iterator[Table]:
        """The tables of one combination, one per head."""
        for hi, head in enumerate(self.heads):
            suffix = f"-c{hi}" if head else ""
            yield Table(f"{self.label}-{number:04d}{suffix}", self.rules, head + combo, combo)


# ---------------------------------------------------------------- validation


def _fail(fmt: str, param: str, expected: str, got: Any) -> ScheduleError:
    return ScheduleError(f"{fmt}: {param} must be {expected} (got {got!r})")


def _names(fmt: str, param: str, value: Any, *, empty: bool = False) -> tuple[str, ...]:
    expected = "a list of distinct non-empty names"
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise _fail(fmt, param, expected, value)
    names = tuple(value)
    if not all(isinstance(n, str) and n.strip() for n in names) or len(set(names)) < len(names):
        raise _fail(fmt, param, expected, value)
    if not names and not empty:
        raise _fail(fmt, param, "a non-empty list of distinct names", value)
    return names


def _sizes(fmt: str, value: Any) -> tuple[int, ...]:
    expected = f"distinct integers from {MIN_SEATS} to {MAX_SEATS}"
    sizes = (value,) if isinstance(value, int) and not isinstance(value, bool) else value
    if isinstance(sizes, (str, bytes)) or not isinstance(sizes, Sequence) or not sizes:
        raise _fail(fmt, "table_sizes", expected, value)
    ok = all(type(n) is int and MIN_SEATS <= n <= MAX_SEATS for n in sizes)
    if not ok or len(set(sizes)) < len(sizes):
        raise _fail(fmt, "table_sizes", expected, value)
    return tuple(sizes)


def _integer(fmt: str, param: str, value: Any, minimum: int | None) -> int:
    if type(value) is not int or (minimum is not None and value < minimum):
        expected = "an integer" if minimum is None else f"an integer >= {minimum}"
        raise _fail(fmt, param, expected, value)
    return value


def _rule_sets(fmt: str, value: Any) -> tuple[Any, ...]:
    """A bare name or mapping is one rule set; a list or tuple is several."""
    sets = (value,) if isinstance(value, (str, Mapping)) else value
    if not isinstance(sets, Sequence) or not sets:
        raise _fail(fmt, "rules", "a rule set or a non-empty list of rule sets", value)
    keys = [canonical(r) for r in sets]
    if len(set(keys)) < len(keys):
        raise _fail(fmt, "rules", "a list of distinct rule sets", value)
    return tuple(sets)


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
    rng = random.Random(derive_seed(seed, "sample", cell.label))
    if 2 * count <= cell.capacity:
        return [tuple(p for p in cell.pool if p in t) for t in _pick(cell, count, rng, pairs)]
    left_out = set(_pick(cell, cell.capacity - count, rng, {}))
    chosen = [c for c in itertools.combinations(cell.pool, cell.choose) if frozenset(c) not in left_out]
    for combo in chosen:
        for pair in itertools.combinations(sorted(combo), 2):
            pairs[pair] = pairs.get(pair, 0) + 1
    return chosen


# ---------------------------------------------------------------- formats


FORMATS: dict[str, type[Format]] = {}


def register(cls: type[Format]) -> type[Format]:
    """Class decorator: make a format available to :func:`make_format`."""
    FORMATS[cls.name] = cls
    return cls


def make_format(name: str, **params: Any) -> Format:
    """The format registered as ``name``, made with ``params``."""
    cls = FORMATS.get(name)
    if cls is None:
        raise ScheduleError(f"format must be one of {', '.join(sorted(FORMATS))} (got {name!r})")
    allowed = [f.name for f in fields(cls)]
    for param in params:
        if param not in allowed:
            raise ScheduleError(f"{name}: unknown parameter {param!r}; expected one of {', '.join(allowed)}")
    for f in fields(cls):
        if f.default is MISSING and f.default_factory is MISSING and f.name not in params:
            raise ScheduleError(f"{name}: parameter {f.name!r} is required (got nothing)")
    return cls(**params)


@dataclass(frozen=True, slots=True, kw_only=True)
class Format:
    """Base of the tournament formats: cells of tables, rotations, deals.

    A subclass names itself (``name``, ``prefix``), validates its own
    parameters and says which :class:`Cell` values it has; the base turns them
    into tables (all, or a balanced sample when ``budget`` games is less than
    the full schedule) and the tables into games.
    """

    name: ClassVar[str] = ""
    prefix: ClassVar[str] = ""

    table_sizes: tuple[int, ...]
    rules: tuple[Any, ...]
    seed: int
    deals: int = 1
    budget: int | None = None
    house: tuple[str, ...] = DEFAULT_HOUSE

    def __post_init__(self) -> None:
        self._set("table_sizes", _sizes(self.name, self.table_sizes))
        self._set("rules", _rule_sets(self.name, self.rules))
        self._set("seed", _integer(self.name, "seed", self.seed, None))
        self._set("deals", _integer(self.name, "deals", self.deals, 1))
        if self.budget is not None:
            self._set("budget", _integer(self.name, "budget", self.budget, 1))
        self._set("house", _names(self.name, "house", self.house, empty=True))
        self._validate()
        self._check_size()

    def _set(self, attr: str, value: Any) -> None:
        object.__setattr__(self, attr, value)

    def _validate(self) -> None:
        """Subclass hook: check and normalise the format's own parameters."""

    def _check_size(self) -> None:
        minimum = sum(self.deals * c.cost for c in self.cells())
        if self.budget is not None and self.budget < minimum:
            expected = f">= {minimum} (one table of every size and rule set)"
            raise _fail(self.name, "budget", expected, self.budget)
        total = self.count()
        if self.budget is None and total > MAX_GAMES:
            raise ScheduleError(
                f"{self.name}: budget must be set when the full schedule has more than "
                f"{MAX_GAMES} games (got none; the full schedule has {total})"
            )

    def cells(self) -> list[Cell]:
        """Where the tables come from, in schedule order."""
        raise NotImplementedError

    def _allocation(self) -> list[int]:
        return allocate(self.cells(), self.deals, self.budget)

    @property
    def sampled(self) -> bool:
        """True when the budget cuts the full schedule down to a sample."""
        return any(t < c.capacity for t, c in zip(self._allocation(), self.cells()))

    def tables(self) -> Iterator[Table]:
        """Every table in schedule order, each one rotation group per deal."""
        pairs: dict = {}
        for cell, count in zip(self.cells(), self._allocation()):
            if count == cell.capacity:
                combos = list(itertools.combinations(cell.pool, cell.choose))
            else:
                combos = sample(cell, count, self.seed, pairs)
            for number, combo in enumerate(combos):
                yield from cell.tables(number, combo)

    def games(self) -> list[GameSpec]:
        """The whole schedule, in order."""
        specs: list[GameSpec] = []
        for table in self.tables():
            specs.extend(self._table_games(table, len(specs)))
        return specs

    def _table_games(self, table: Table, start: int) -> Iterator[GameSpec]:
        n = len(table.players)
        for deal in range(self.deals):
            deal_seed = derive_seed(self.seed, "deal", canonical(table.rules), n, *table.drawn, deal)
            circle = seating(table.players, deal_seed)
            for r in range(n):
                seats = tuple(circle[(s - r) % n] for s in range(n))
                index = start + deal * n + r
                yield GameSpec(index, f"{table.label}-d{deal}-r{r}", table.rules, seats, deal_seed, r)

    def count(self) -> int:
        """The number of games, without building them."""
        return sum(t * self.deals * c.cost for t, c in zip(self._allocation(), self.cells()))

    def describe(self) -> str:
        """One line: the format, its parameters and the size of the schedule."""
        how = f"sampled to a budget of {self.budget}" if self.sampled else "full"
        sizes = ",".join(map(str, self.table_sizes))
        return (
            f"{self.name}: {self._who()}; table sizes {sizes}; {len(self.rules)} rule set(s); "
            f"{self.deals} deal(s) per table; seed {self.seed}: {self.count()} games ({how})"
        )

    def _who(self) -> str:
        raise NotImplementedError

    def _fill(self, pool: tuple[str, ...], need: int, exclude: tuple[str, ...], what: str,
              size: int) -> tuple[str, ...]:
        """``pool``, topped up from the house list to ``need`` players."""
        if len(pool) >= need:
            return pool
        house = tuple(h for h in self.house if h not in pool and h not in exclude)
        if len(pool) + len(house) < need:
            raise ScheduleError(
                f"{self.name}: table size {size} needs {need} distinct {what}; "
                f"{len(pool)} {what} and {len(house)} house player(s) available "
                f"(house: {', '.join(self.house) or 'none'})"
            )
        return pool + house[: need - len(pool)]


@register
@dataclass(frozen=True, slots=True, kw_only=True)
class RoundRobin(Format):
    """Every combination of distinct players at every table size and rule set."""

    name: ClassVar[str] = "round-robin"
    prefix: ClassVar[str] = "rr"

    players: tuple[str, ...]

    def _validate(self) -> None:
        self._set("players", _names(self.name, "players", self.players))

    def cells(self) -> list[Cell]:
        cells = []
        for ri, rules in enumerate(self.rules):
            for n in self.table_sizes:
                pool = self._fill(self.players, n, (), "players", n)
                cells.append(Cell(f"{self.prefix}-{ri}-{n}p", rules, n, pool))
        return cells

    def _who(self) -> str:
        return f"{len(self.players)} players"


@register
@dataclass(frozen=True, slots=True, kw_only=True)
class Gauntlet(Format):
    """Each candidate at every table, against combinations of the field."""

    name: ClassVar[str] = "gauntlet"
    prefix: ClassVar[str] = "g"

    candidates: tuple[str, ...]
    field: tuple[str, ...]

    def _validate(self) -> None:
        self._set("candidates", _names(self.name, "candidates", self.candidates))
        self._set("field", _names(self.name, "field", self.field, empty=True))
        both = [c for c in self.candidates if c in self.field]
        if both:
            raise _fail(self.name, "field", "a list without the candidates", list(self.field))

    def cells(self) -> list[Cell]:
        cells = []
        for ri, rules in enumerate(self.rules):
            for n in self.table_sizes:
                pool = self._fill(self.field, n - 1, self.candidates, "field players", n)
                heads = tuple((c,) for c in self.candidates)
                cells.append(Cell(f"{self.prefix}-{ri}-{n}p", rules, n, pool, heads))
        return cells

    def _who(self) -> str:
        return f"{len(self.candidates)} candidate(s) against {len(self.field)} field players"
