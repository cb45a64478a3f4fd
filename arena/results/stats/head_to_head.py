"""Head to head: for every pair of players that met, the share of shared games one finished ahead of the other."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from arena.results.stats.intervals import wilson
from arena.results.stats.ratings import Outcome, in_order


@dataclass(frozen=True, slots=True)
class PairRecord:
    """How ``row`` fared against ``col`` in the games they shared.

    ``wins`` counts games where row finished strictly ahead (better rank),
    plus half of those where they tied; ``share`` is wins / games, with its
    95% Wilson interval ``low``..``high``.
    """

    row: str
    col: str
    games: int
    wins: float
    share: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Every ordered pair of players that shared at least one game."""

    players: tuple[str, ...]
    pairs: tuple[PairRecord, ...]

    def get(self, row: str, col: str) -> PairRecord | None:
        """The record of ``row`` against ``col``, or None if they never met."""
        for p in self.pairs:
            if p.row == row and p.col == col:
                return p
        return None


def head_to_head(outcomes: Iterable[Outcome]) -> HeadToHead:
    """Pairwise shares of games finished ahead, for every pair that met."""
    games: dict[tuple[str, str], int] = {}
    wins: dict[tuple[str, str], float] = {}
    for o in in_order(outcomes):
        for a in range(o.table_size):
            for b in range(o.table_size):
                if a == b:
                    continue
                pair = (o.seats[a], o.seats[b])
                games[pair] = games.get(pair, 0) + 1
                ahead = 1.0 if o.ranks[a] < o.ranks[b] else 0.5 if o.ranks[a] == o.ranks[b] else 0.0
                wins[pair] = wins.get(pair, 0.0) + ahead
    pairs = tuple(
        PairRecord(r, c, n, wins[r, c], wins[r, c] / n, *wilson(wins[r, c], n))
        for (r, c), n in sorted(games.items())
    )
    players = tuple(sorted({p for pair in games for p in pair}))
    return HeadToHead(players, pairs)
