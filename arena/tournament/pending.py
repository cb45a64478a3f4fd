"""The games still to play, made as they are sent: the play order without the stored games, in batches.

A resumed run asks the store which of the next :data:`CHUNK` games of the
play order it holds (one query), so neither the schedule nor the set of
stored games is ever held whole; a run with nothing stored asks nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice

from arena.tournament.schedule import GameSpec

CHUNK = 500
"""Games of the play order looked up in the store at a time (under SQLite's 999 parameters)."""


def unstored(order: Iterable[GameSpec], stored: Callable[[list[int]], set[int]] | None) -> Iterator[GameSpec]:
    """The games of ``order`` that ``stored`` (indices -> those stored) does not hold; every game when
    ``stored`` is None."""
    games = iter(order)
    if stored is None:
        yield from games
        return
    while chunk := list(islice(games, CHUNK)):
        done = stored([g.index for g in chunk])
        yield from (g for g in chunk if g.index not in done)


def batched(games: Iterable[GameSpec], size: int) -> Iterator[list[GameSpec]]:
    """``games`` in lists of ``size`` (at least 1), the last one shorter."""
    it = iter(games)
    while batch := list(islice(it, max(1, size))):
        yield batch
