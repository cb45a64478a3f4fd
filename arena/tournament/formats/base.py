"""The base of every tournament format: cells of tables, rotations, deals, a budget.

A format is a small frozen class over :class:`Format` in its own file of this
package, listed in :data:`arena.tournament.formats.FORMATS`. It validates its
own parameters, says which :class:`~arena.tournament.schedule.Cell` values it
has and how a tournament spec fills its parameters (:meth:`Format.entrants`);
the base turns cells into tables (all, or a balanced sample when ``budget``
games is less than the full schedule) and tables into games.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import Any, ClassVar

from arena.game.rules import MAX_PLAYERS, MIN_PLAYERS
from arena.game.seeds import canonical, schedule_deal_seed
from arena.tournament.errors import ScheduleError
from arena.tournament.interleave import Stream, interleave, interleaved, stream_key
from arena.tournament.sampling import allocate, sample
from arena.tournament.schedule import Cell, GameSpec, Table, seating

DEFAULT_HOUSE = ("random",)
MAX_GAMES = 1_000_000  # a schedule without a budget may not be larger

# ---------------------------------------------------------------- validation


def fail(fmt: str, param: str, expected: str, got: Any) -> ScheduleError:
    """The error for a parameter that is not what ``expected`` says."""
    return ScheduleError(f"{param} must be {expected} (got {got!r})", fmt=fmt, param=param)


def check_names(fmt: str, param: str, value: Any, *, empty: bool = False) -> tuple[str, ...]:
    """A list of distinct non-empty names (``empty``: it may be empty)."""
    expected = "a list of distinct non-empty names"
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise fail(fmt, param, expected, value)
    names = tuple(value)
    if not all(isinstance(n, str) and n.strip() for n in names) or len(set(names)) < len(names):
        raise fail(fmt, param, expected, value)
    if not names and not empty:
        raise fail(fmt, param, "a non-empty list of distinct names", value)
    return names


def _sizes(fmt: str, value: Any) -> tuple[int, ...]:
    expected = f"distinct integers from {MIN_PLAYERS} to {MAX_PLAYERS}"
    sizes = (value,) if isinstance(value, int) and not isinstance(value, bool) else value
    if isinstance(sizes, (str, bytes)) or not isinstance(sizes, Sequence) or not sizes:
        raise fail(fmt, "table_sizes", expected, value)
    ok = all(type(n) is int and MIN_PLAYERS <= n <= MAX_PLAYERS for n in sizes)
    if not ok or len(set(sizes)) < len(sizes):
        raise fail(fmt, "table_sizes", expected, value)
    return tuple(sizes)


def _integer(fmt: str, param: str, value: Any, minimum: int | None) -> int:
    if type(value) is not int or (minimum is not None and value < minimum):
        expected = "an integer" if minimum is None else f"an integer >= {minimum}"
        raise fail(fmt, param, expected, value)
    return value


def _rule_sets(fmt: str, value: Any) -> tuple[Any, ...]:
    """A bare name or mapping is one rule set; a list or tuple is several."""
    sets = (value,) if isinstance(value, (str, Mapping)) else value
    if not isinstance(sets, Sequence) or not sets:
        raise fail(fmt, "rules", "a rule set or a non-empty list of rule sets", value)
    keys = [canonical(r) for r in sets]
    if len(set(keys)) < len(keys):
        raise fail(fmt, "rules", "a list of distinct rule sets", value)
    return tuple(sets)


# ---------------------------------------------------------------- the base


@dataclass(frozen=True, slots=True, kw_only=True)
class Format:
    """Base of the tournament formats: cells of tables, rotations, deals.

    A subclass names itself (``name``, ``prefix``), says which spec keys
    fill its own parameters (``reads``, :meth:`entrants`), validates them
    (:meth:`_validate`) and makes the :class:`Cell` of one rule set and table
    size (:meth:`_cell`); the base turns cells into tables (all, or a
    balanced sample when ``budget`` games is less than the full schedule) and
    the tables into games.
    """

    name: ClassVar[str] = ""
    prefix: ClassVar[str] = ""
    reads: ClassVar[tuple[str, ...]] = ("players",)
    """The spec keys :meth:`entrants` reads (besides those every format takes)."""
    spec_keys: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """A parameter -> the spec key it comes from, where the two names differ."""

    table_sizes: tuple[int, ...]
    rules: tuple[Any, ...]
    seed: int
    deals: int = 1
    budget: int | None = None
    house: tuple[str, ...] = DEFAULT_HOUSE

    @classmethod
    def from_spec(cls, spec) -> Format:
        """The format a tournament spec (:class:`~arena.tournament.spec.TournamentSpec`) describes."""
        return cls(table_sizes=spec.table_sizes, rules=spec.rules, seed=spec.seed, deals=spec.deals,
                   budget=spec.budget, house=spec.house, **cls.entrants(spec))

    @classmethod
    def entrants(cls, spec) -> dict[str, Any]:
        """This format's own parameters, from the spec's keys named in :attr:`reads`."""
        raise NotImplementedError

    def __post_init__(self) -> None:
        self._set("table_sizes", _sizes(self.name, self.table_sizes))
        self._set("rules", _rule_sets(self.name, self.rules))
        self._set("seed", _integer(self.name, "seed", self.seed, None))
        self._set("deals", _integer(self.name, "deals", self.deals, 1))
        if self.budget is not None:
            self._set("budget", _integer(self.name, "budget", self.budget, 1))
        self._set("house", check_names(self.name, "house", self.house, empty=True))
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
            raise fail(self.name, "budget", expected, self.budget)
        total = self.count()
        if self.budget is None and total > MAX_GAMES:
            raise ScheduleError(
                f"budget must be set when the full schedule has more than "
                f"{MAX_GAMES} games (got none; the full schedule has {total})", fmt=self.name, param="budget"
            )

    def cells(self) -> list[Cell]:
        """Where the tables come from, in schedule order: each rule set, each table size."""
        return [self._cell(f"{self.prefix}-{ri}-{n}p", rules, n)
                for ri, rules in enumerate(self.rules) for n in self.table_sizes]

    def _cell(self, label: str, rules: Any, size: int) -> Cell:
        """Subclass hook: the cell of one rule set and table size."""
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
        """The whole schedule, in order (:meth:`iter_games` makes it a game at a time)."""
        return list(self.iter_games())

    def iter_games(self) -> Iterator[GameSpec]:
        """Every game in index order, each made when it is taken."""
        for table, start in self._numbered_tables():
            yield from self._table_games(table, start)

    def play_order(self, games: Sequence[GameSpec]) -> list[GameSpec]:
        """``games`` (this format's :meth:`games`) in the order to play them: tables, deals and
        cells interleaved so every prefix is balanced (:mod:`arena.tournament.interleave`)."""
        return interleave(games)

    def ordered(self) -> Iterator[GameSpec]:
        """Every game in play order (``play_order(games())``), each made when it is taken: what it
        holds grows with the tables, not with the games."""
        streams: dict[tuple, list[tuple[Table, int]]] = {}
        for table, start in self._numbered_tables():
            streams.setdefault(stream_key(table.rules, table.players), []).append((table, start))
        return interleaved([Stream(key, sum(self.deals * len(t.players) for t, _ in parts),
                                   partial(self._parts_games, parts)) for key, parts in streams.items()])

    def player_names(self) -> list[str]:
        """Every player who has a seat in the schedule, sorted (without making its games)."""
        return sorted({name for table in self.tables() for name in table.players})

    def _numbered_tables(self) -> Iterator[tuple[Table, int]]:
        """Every table with the index of its first game."""
        start = 0
        for table in self.tables():
            yield table, start
            start += self.deals * len(table.players)

    def _parts_games(self, parts: list[tuple[Table, int]]) -> Iterator[GameSpec]:
        for table, start in parts:
            yield from self._table_games(table, start)

    def _table_games(self, table: Table, start: int) -> Iterator[GameSpec]:
        n = len(table.players)
        for deal in range(self.deals):
            deal_seed = schedule_deal_seed(self.seed, table.rules, n, table.drawn, deal)
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
                f"table size {size} needs {need} distinct {what}; "
                f"{len(pool)} {what} and {len(house)} house player(s) available "
                f"(house: {', '.join(self.house) or 'none'})", fmt=self.name, param="house"
            )
        return pool + house[: need - len(pool)]
