"""One finished game as the ratings need it: :class:`Outcome`, checked when made, and ranks from an order."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any

from arena.game.status import FAULT_KINDS
from arena.results.errors import RatingsError


def check(ok: bool, what: str, expected: str, got: Any) -> None:
    """A :class:`RatingsError` saying what was expected and what came, unless ``ok``."""
    if not ok:
        raise RatingsError(f"{what} must be {expected} (got {got!r})")


DECISION_MS_HELP = ("mean CPU time per play decision, in ms: the CPU time of all the player's play decisions "
                    "over their number (take decisions are not counted)")
"""What the ``ms/dec`` column of a rating table means."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of one finished game, as the ratings need it.

    ``seats[s]`` played seat ``s``; ``ranks[s]`` is its finishing rank (0 =
    first out, the Bhabhi has the largest; seats tied in a draw share one);
    ``loser`` is the Bhabhi's seat, or None for a draw; ``penalty[s]`` is 0..3;
    ``faults[s]`` maps fault kind to count; ``decision_ms[s]`` is the seat's
    mean CPU time per play decision in the game (ms), or None, and
    ``plays[s]`` the number of play decisions it is the mean of (its weight
    in :attr:`PlayerRow.decision_ms`; 1 each when left empty). ``faults``,
    ``decision_ms`` and ``plays`` may be left empty (no faults, no timings).
    """

    index: int
    seats: tuple[str, ...]
    ranks: tuple[int, ...]
    loser: int | None
    table_size: int
    rules: str
    penalty: tuple[int, ...]
    faults: tuple[Mapping[str, int], ...] = ()
    decision_ms: tuple[float | None, ...] = ()
    plays: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        n, where = self.table_size, f"game {self.index}:"
        check(type(self.index) is int, "game index", "an integer", self.index)
        check(isinstance(self.rules, str), f"{where} rules", "a label string", self.rules)
        check(type(n) is int and n >= 2 and len(self.seats) == n, f"{where} seats", f"{n} names", self.seats)
        check(len(set(self.seats)) == n, f"{where} seats", "distinct names", self.seats)
        for name in ("seats", "ranks", "penalty", "decision_ms", "plays"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        faults = tuple(dict(f) if isinstance(f, Mapping) else f for f in self.faults)
        object.__setattr__(self, "faults", faults)
        if not self.faults:
            object.__setattr__(self, "faults", tuple({} for _ in range(n)))
        if not self.decision_ms:
            object.__setattr__(self, "decision_ms", (None,) * n)
        if not self.plays:
            object.__setattr__(self, "plays", (1,) * n)
        self._check_ranks()
        self._check_per_seat()

    @classmethod
    def checked_elsewhere(cls, index: int, seats: tuple[str, ...], ranks: tuple[int, ...], loser: int | None,
                          table_size: int, rules: str, penalty: tuple[int, ...],
                          faults: tuple[Mapping[str, int], ...], decision_ms: tuple[float | None, ...],
                          plays: tuple[int, ...]) -> "Outcome":
        """An Outcome of fields already checked and in their final form (tuples of ``table_size``,
        ``faults`` as dicts), given in field order or by name, built without checking them again: for
        a reader that checked a whole store at once (:mod:`arena.results.store.outcomes`)."""
        outcome = _new(cls)
        _set(outcome, "index", index)
        _set(outcome, "seats", seats)
        _set(outcome, "ranks", ranks)
        _set(outcome, "loser", loser)
        _set(outcome, "table_size", table_size)
        _set(outcome, "rules", rules)
        _set(outcome, "penalty", penalty)
        _set(outcome, "faults", faults)
        _set(outcome, "decision_ms", decision_ms)
        _set(outcome, "plays", plays)
        return outcome

    @classmethod
    def columns_checked_elsewhere(cls, index: Sequence[int], *columns: Iterable) -> list["Outcome"]:
        """:meth:`checked_elsewhere` for many games given as columns, one a field in field order (the
        first a sized sequence of indices): the slots are set a field at a time by ``map``, a loop in C,
        with no Python call a game."""
        outcomes = list(map(_new, repeat(cls, len(index))))
        for name, column in zip(cls.__dataclass_fields__, (index, *columns), strict=True):
            deque(map(_set, outcomes, repeat(name), column), maxlen=0)
        return outcomes

    def _check_ranks(self) -> None:
        where, n, ranks = f"game {self.index}:", self.table_size, self.ranks
        ok = len(ranks) == n and all(type(r) is int and 0 <= r < n for r in ranks)
        check(ok, f"{where} ranks", f"{n} integers from 0 to {n - 1}", ranks)
        if self.loser is not None:
            ok = type(self.loser) is int and 0 <= self.loser < n
            check(ok, f"{where} loser", f"a seat 0..{n - 1} or None", self.loser)
            alone = ranks.count(ranks[self.loser]) == 1 and ranks[self.loser] == max(ranks)
            check(alone, f"{where} ranks", f"the loser (seat {self.loser}) alone in last place", ranks)

    def _check_per_seat(self) -> None:
        where, n = f"game {self.index}:", self.table_size
        ok = len(self.penalty) == n and all(type(p) is int and 0 <= p <= 3 for p in self.penalty)
        check(ok, f"{where} penalty", f"{n} integers from 0 to 3", self.penalty)
        check(len(self.faults) == n and all(isinstance(f, Mapping) for f in self.faults),
               f"{where} faults", f"{n} mappings of kind to count", self.faults)
        for f in self.faults:
            ok = all(k in FAULT_KINDS and type(c) is int and c >= 0 for k, c in f.items())
            check(ok, f"{where} faults", f"counts of {', '.join(FAULT_KINDS)}", dict(f))
        ok = len(self.decision_ms) == n and all(
            d is None or (isinstance(d, (int, float)) and d >= 0) for d in self.decision_ms
        )
        check(ok, f"{where} decision_ms", f"{n} times in ms or None", self.decision_ms)
        ok = len(self.plays) == n and all(type(p) is int and p >= 0 for p in self.plays)
        check(ok, f"{where} plays", f"{n} counts of play decisions", self.plays)


_new, _set = object.__new__, object.__setattr__


def ranks_from_order(order: Sequence[int | Sequence[int]]) -> tuple[int, ...]:
    """Ranks per seat from a finishing order of seats (first out first).

    An entry may be a group of seats that tie (a drawn game's shared last
    place); they share the rank of the group's position: ``[2, 0, (1, 3)]``
    gives ``(1, 2, 0, 2)``.
    """
    ranks: dict[int, int] = {}
    for entry in order:
        group = (entry,) if isinstance(entry, int) else tuple(entry)
        rank = len(ranks)
        ranks.update((seat, rank) for seat in group)
    check(sorted(ranks) == list(range(len(ranks))), "finishing order", "every seat once", list(order))
    return tuple(ranks[s] for s in range(len(ranks)))
