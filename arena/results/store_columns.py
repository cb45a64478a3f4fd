"""A clean store's games as ratings Outcomes, read column by column and checked whole columns at a time.

:func:`clean_outcomes` reads the ``games`` rows and the ``seats`` rows in
two queries (no join: a game's table size, rules and loser come once, not
once a seat), turns each into columns, and checks every column in one go
with functions that loop in C: types, ranges, each game's seats numbered
0..n-1 in order with exactly ``table_size`` of them, every rank under its
game's table size. Two checks need a game at a time (distinct players, the
loser alone in last place) and are made as each game is cut from the
columns; a game that fails them is built through ``Outcome``'s own checks
(its one-line error). If a whole-column check fails, it returns None and the
caller reads the store the careful way (:mod:`arena.results.store_outcomes`),
so a damaged store reads as it always did; a clean one, every store the
arena writes, costs a slice a column per game.
"""

from __future__ import annotations

import sqlite3
from itertools import chain, compress, repeat
from operator import lt

from arena.game.status import FAULT_KINDS
from arena.results.outcome import Outcome

_GAMES = "SELECT idx, table_size, rules, loser FROM games ORDER BY idx"
_SEATS = f"SELECT idx, seat, player, rank, penalty, {', '.join(FAULT_KINDS)}, {{plays}} FROM seats ORDER BY idx, seat"
_NONE = type(None)


def clean_outcomes(db: sqlite3.Connection, plays: str) -> list[Outcome] | None:
    """Every stored game as an Outcome, in game order, or None if a whole-column check fails. ``plays``:
    the ``plays`` and ``play_cpu_ms`` columns to select (``NULL, NULL`` in a database from before them)."""
    games = db.execute(_GAMES).fetchall()
    rows = db.execute(_SEATS.format(plays=plays)).fetchall()
    if not games or not rows:
        return [] if not games and not rows else None
    g_idx, g_size, g_rules, g_loser = zip(*games)
    idx, seat, player, rank, penalty, *counts, plays_col, ms_col = zip(*rows)
    del rows
    if not (_types(g_size, int) and min(g_size) >= 2 and _types(g_rules, str) and _types(g_loser, int, _NONE)
            and _types(plays_col, int, _NONE) and _types(ms_col, int, float, _NONE)
            and all(_types(c, int) and min(c) >= 0 for c in (rank, penalty, *counts)) and max(penalty) <= 3
            and min(filter(None, plays_col), default=0) >= 0 and min(filter(None, ms_col), default=0) >= 0
            and idx == tuple(chain.from_iterable(map(repeat, g_idx, g_size)))
            and seat == tuple(chain.from_iterable(map(range, g_size)))
            and all(map(lt, rank, chain.from_iterable(map(repeat, g_size, g_size))))):
        return None
    faulty = {idx[i] for i in compress(range(len(idx)), map(any, zip(*counts)))}
    decision_ms = tuple([None if not p or ms is None else ms / p for p, ms in zip(plays_col, ms_col)])
    plays_col = tuple([p or 0 for p in plays_col])
    out, start, make = [], 0, Outcome.checked_elsewhere
    for index, size, rules, loser in games:
        end = start + size
        seats, ranks = player[start:end], rank[start:end]
        if index in faulty:
            faults = tuple([{k: c for k, c in zip(FAULT_KINDS, row) if c}
                            for row in zip(*(c[start:end] for c in counts))])
        else:
            faults = tuple([{} for _ in seats])
        fine = len(set(seats)) == size and (loser is None or (
            0 <= loser < size and ranks.count(ranks[loser]) == 1 and ranks[loser] == max(ranks)))
        out.append((make if fine else Outcome)(
            index=index, seats=seats, ranks=ranks, loser=loser, table_size=size, rules=rules,
            penalty=penalty[start:end], faults=faults, decision_ms=decision_ms[start:end],
            plays=plays_col[start:end]))
        start = end
    return out


def _types(column: tuple, *kinds: type) -> bool:
    """Whether every value of ``column`` is of one of ``kinds`` (exactly: a bool is not an int)."""
    return set(map(type, column)) <= set(kinds)
