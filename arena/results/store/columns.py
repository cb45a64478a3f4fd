"""A clean store's games as ratings Outcomes, read column by column and checked whole columns at a time.

:func:`clean_outcomes` reads the ``games`` rows and the ``seats`` rows in
two queries (no join: a game's table size, rules and loser come once, not
once a seat; the four fault counts come as one flag, SQLite checking their
types and signs), turns each into columns, and checks every column in one go
with functions that loop in C: types, ranges, each game's seats numbered
0..n-1 in order with exactly ``table_size`` of them, every rank under its
game's table size. Each game's fields are then cut from the columns, again
by C loops (``map`` of a column's slicing over the games' slices), and two
checks that need a game at a time follow (distinct players, the loser alone
in last place): a game that fails them is built through ``Outcome``'s own
checks (its one-line error), the others with ``Outcome.checked_elsewhere``.
If a whole-column check fails, :func:`clean_outcomes` returns None and the
caller reads the store the careful way (:mod:`arena.results.store.outcomes`),
so a damaged store reads as it always did.
"""

from __future__ import annotations

import sqlite3
from itertools import accumulate, chain, compress, repeat
from operator import lt

from arena.game.status import FAULT_KINDS
from arena.results.stats.outcome import Outcome

_GAMES = "SELECT idx, table_size, rules, loser FROM games ORDER BY idx"
_NO_FAULTS = " AND ".join(f"{k} = 0" for k in FAULT_KINDS)
_FAULTS_OK = " AND ".join(f"typeof({k}) = 'integer' AND {k} >= 0" for k in FAULT_KINDS)
_SEATS = (f"SELECT idx, seat, player, rank, penalty, {{plays}}, CASE WHEN {_NO_FAULTS} THEN 0 WHEN {_FAULTS_OK} "
          f"THEN 1 END FROM seats ORDER BY idx, seat")
"""The seats, the last column 0 for a seat without faults, 1 with, NULL when a count is not a count (an
integer column holds a zero as the integer 0: text, a fraction or a negative number is not ``= 0``)."""
_FAULTY = f"SELECT idx, seat, {', '.join(FAULT_KINDS)} FROM seats WHERE {' OR '.join(FAULT_KINDS)}"
_NONE = type(None)
_CHUNK = 20_000


def clean_outcomes(db: sqlite3.Connection, plays: str) -> list[Outcome] | None:
    """Every stored game as an Outcome, in game order, or None if a whole-column check fails. ``plays``:
    the ``plays`` and ``play_cpu_ms`` columns to select (``NULL, NULL`` in a database from before them)."""
    g_idx, g_size, g_rules, g_loser = _columns(db.execute(_GAMES), 4)
    idx, seat, player, rank, penalty, plays_col, ms_col, faulty = _columns(db.execute(_SEATS.format(plays=plays)), 8)
    if not g_idx or not idx:
        return [] if not g_idx and not idx else None
    if not (_types(g_size, int) and min(g_size) >= 2 and _types(g_rules, str) and _types(g_loser, int, _NONE)
            and _types(rank, int) and min(rank) >= 0 and _types(penalty, int) and 0 <= min(penalty)
            and max(penalty) <= 3 and set(faulty) <= {0, 1}
            and _types(plays_col, int, _NONE) and _types(ms_col, int, float, _NONE)
            and min(filter(None, plays_col), default=0) >= 0 and min(filter(None, ms_col), default=0) >= 0
            and idx == tuple(chain.from_iterable(map(repeat, g_idx, g_size)))
            and seat == tuple(chain.from_iterable(map(range, g_size)))
            and all(map(lt, rank, chain.from_iterable(map(repeat, g_size, g_size))))):
        return None
    decision_ms = tuple([None if not p or ms is None else ms / p for p, ms in zip(plays_col, ms_col)])
    plays_col = tuple([p or 0 for p in plays_col])
    cuts = list(map(slice, accumulate(g_size, initial=0), accumulate(g_size)))
    seats, ranks = list(map(player.__getitem__, cuts)), list(map(rank.__getitem__, cuts))
    faults = _faults(db, g_idx, g_size, set(compress(idx, faulty)))
    out = Outcome.columns_checked_elsewhere(g_idx, seats, ranks, g_loser, g_size, g_rules,
                                            map(penalty.__getitem__, cuts), faults,
                                            map(decision_ms.__getitem__, cuts), map(plays_col.__getitem__, cuts))
    for g in _refused(seats, ranks, g_size, g_loser):
        o = out[g]
        out[g] = Outcome(o.index, o.seats, o.ranks, o.loser, o.table_size, o.rules, o.penalty, o.faults,
                         o.decision_ms, o.plays)
    return out


def _columns(cursor: sqlite3.Cursor, width: int) -> list[tuple]:
    """A query's result as one tuple a column, fetched in chunks (the rows are never all held at once)."""
    columns: list[list] = [[] for _ in range(width)]
    while chunk := cursor.fetchmany(_CHUNK):
        for column, values in zip(columns, zip(*chunk)):
            column.extend(values)
    return [tuple(column) for column in columns]


def _types(column: tuple, *kinds: type) -> bool:
    """Whether every value of ``column`` is of one of ``kinds`` (exactly: a bool is not an int)."""
    return set(map(type, column)) <= set(kinds)


def _faults(db: sqlite3.Connection, g_idx: tuple, g_size: tuple, faulty: set[int]) -> list[tuple[dict, ...]]:
    """Each game's ``faults``: a dict of kind to count a seat, fresh empty ones for a seat without
    faults; the counts of the ``faulty`` games read apart."""
    counts = {(i, s): {k: c for k, c in zip(FAULT_KINDS, rest) if c}
              for i, s, *rest in (db.execute(_FAULTY) if faulty else ())}
    return [tuple([counts.get((i, s), {}) for s in range(size)]) if i in faulty else tuple([{} for _ in range(size)])
            for i, size in zip(g_idx, g_size)]


def _refused(seats: list[tuple], ranks: list[tuple], g_size: tuple, g_loser: tuple) -> list[int]:
    """The positions of the games ``Outcome`` would refuse although their columns passed: a player
    twice, or the loser not a seat alone in last place."""
    bad = [g for g, (names, size) in enumerate(zip(seats, g_size)) if len(set(names)) != size]
    for g, (r, size, loser) in enumerate(zip(ranks, g_size, g_loser)):
        if loser is not None and not (0 <= loser < size and r.count(r[loser]) == 1 and r[loser] == max(r)):
            bad.append(g)
    return bad
