"""Every stored game as a ratings :class:`~arena.results.stats.outcome.Outcome`, in game order, checked all at once.

:func:`outcomes` reads a store the arena wrote column by column (about twice
as fast); when one of the whole-column checks fails, it reads the store the
careful way, so a damaged store reads as it always did.

**Column by column** (:func:`clean_outcomes`): the ``games`` rows and the
``seats`` rows come in two queries (no join: a game's table size, rules and
loser come once, not once a seat; the four fault counts come as one flag,
SQLite checking their types and signs), each turned into columns, and every
column is checked in one go with functions that loop in C: types, ranges,
each game's seats numbered 0..n-1 in order with exactly ``table_size`` of
them, every rank under its game's table size. Each game's fields are then cut
from the columns, again by C loops (``map`` of a column's slicing over the
games' slices), and two checks that need a game at a time follow (distinct
players, the loser alone in last place): a game that fails them is built
through ``Outcome``'s own checks (its one-line error), the others with
``Outcome.checked_elsewhere``. If a whole-column check fails,
:func:`clean_outcomes` returns None.

**The careful way** (:func:`careful_outcomes`): the seats of all games come in
one query, in game and seat order, as plain rows (no dict per row), and each
game's fields are cut from its rows as tuples. Checking each ``Outcome`` one
by one costs more than reading it, so one SQL query (:data:`_SUSPECT`) first
finds every game whose rows an ``Outcome`` might refuse: a wrong type or a
value out of range in any field it checks, seats not numbered 0..n-1 or not n
of them, a repeated player, a loser not alone in last place. It may name a
game that is in fact fine, never miss one that is not: those games are built
through ``Outcome``'s own checks (so a damaged row gives the same one-line
:class:`RatingsError` as ever), the others with
:meth:`Outcome.checked_elsewhere`, equal field for field.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from itertools import accumulate, chain, compress, groupby, repeat
from operator import itemgetter, lt

from arena.game.status import FAULT_KINDS
from arena.results.stats.outcome import Outcome
from arena.results.store.check import storage_error
from arena.results.store.database import Store

_ROWS = (f"SELECT s.idx, s.player, s.rank, s.penalty, {', '.join(f's.{k}' for k in FAULT_KINDS)}, {{plays}}, "
         "g.table_size, g.rules, g.loser FROM seats s JOIN games g ON g.idx = s.idx ORDER BY s.idx, s.seat")
_PLAYS = ("s.plays, s.play_cpu_ms", "NULL, NULL")
"""The ``plays`` columns, and what stands for them in a database written before them."""

_INT = "typeof({0}) = 'integer'"
_ROW_OK = " AND ".join([
    _INT.format("s.seat"), _INT.format("s.rank"), "s.rank >= 0", "s.rank < g.table_size",
    _INT.format("s.penalty"), "s.penalty BETWEEN 0 AND 3",
    *(f"{_INT.format(f's.{k}')} AND s.{k} >= 0" for k in FAULT_KINDS),
    "({plays_ok})",
])
_PLAYS_OK = ("(s.plays IS NULL OR (typeof(s.plays) = 'integer' AND s.plays >= 0)) AND (s.play_cpu_ms IS NULL "
             "OR (typeof(s.play_cpu_ms) IN ('integer', 'real') AND s.play_cpu_ms >= 0))", "1")
_GAME_OK = " AND ".join([
    _INT.format("g.table_size"), "g.table_size >= 2", "count(*) = g.table_size", "typeof(g.rules) = 'text'",
    "min(s.seat) = 0", "max(s.seat) = count(*) - 1", "count(DISTINCT s.seat) = count(*)",
    "count(DISTINCT s.player) = count(*)", f"min({_ROW_OK})",
    "(g.loser IS NULL OR (typeof(g.loser) = 'integer' AND "
    "max(CASE WHEN s.seat = g.loser THEN s.rank END) > max(CASE WHEN s.seat != g.loser THEN s.rank END)))",
])
_SUSPECT = (f"SELECT s.idx FROM seats s JOIN games g ON g.idx = s.idx GROUP BY s.idx "
            f"HAVING NOT ifnull({_GAME_OK}, 0)")
"""The games an Outcome might refuse (a NULL anywhere in the test counts as a suspect)."""
_FAULTS = slice(4, 4 + len(FAULT_KINDS))
_IDX = itemgetter(0)


def outcomes(store: Store) -> list[Outcome]:
    """Every stored game as a ratings :class:`Outcome`, in game order: read column by column when the
    store's columns pass their checks (:func:`clean_outcomes`), else by :func:`careful_outcomes`."""
    try:
        clean = clean_outcomes(store.db, _PLAYS[_old(store)].replace("s.", ""))
    except sqlite3.Error as exc:
        raise (storage_error(store.path, exc) or exc) from None
    return careful_outcomes(store) if clean is None else clean


def careful_outcomes(store: Store) -> list[Outcome]:
    """Every stored game as a ratings :class:`Outcome`, in game order, the suspect games (see the module's
    note) through Outcome's own checks."""
    try:
        suspect = suspect_games(store)
        query = _ROWS.format(plays=_PLAYS[_old(store)])
        return [_outcome(list(rows), idx in suspect) for idx, rows in groupby(store.db.execute(query), _IDX)]
    except sqlite3.Error as exc:
        raise (storage_error(store.path, exc) or exc) from None


def suspect_games(store: Store) -> set[int]:
    """The indices of the stored games whose rows an Outcome might refuse (see the module's note)."""
    try:
        return {r[0] for r in store.db.execute(_SUSPECT.format(plays_ok=_PLAYS_OK[_old(store)]))}
    except sqlite3.Error as exc:
        raise (storage_error(store.path, exc) or exc) from None


def _old(store: Store) -> bool:
    """Whether the database is from before the ``plays`` columns."""
    return "play_cpu_ms" not in {r[1] for r in store.db.execute("PRAGMA table_info(seats)")}


def _outcome(rows: list[tuple], check: bool) -> Outcome:
    """One game's Outcome from its seat rows (in seat order); through Outcome's checks if ``check``."""
    cols = tuple(zip(*rows))
    idx, seats, ranks, penalty = cols[0][0], cols[1], cols[2], cols[3]
    table_size, rules, loser = rows[0][-3:]
    if any(map(any, cols[_FAULTS])):
        faults: tuple[Mapping[str, int], ...] = tuple([{k: c for k, c in zip(FAULT_KINDS, row[_FAULTS]) if c}
                                                       for row in rows])
    else:
        faults = tuple([{} for _ in rows])
    plays, play_ms = cols[-5], cols[-4]
    if check:       # a damaged row's value goes to Outcome's check as it is, not into a division
        decision_ms = tuple([None if not p or ms is None else ms / p if _number(p) and _number(ms) else ms
                             for p, ms in zip(plays, play_ms)])
    else:
        decision_ms = tuple([None if not p or ms is None else ms / p for p, ms in zip(plays, play_ms)])
    plays = tuple([p or 0 for p in plays])
    make = Outcome if check else Outcome.checked_elsewhere
    return make(index=idx, seats=seats, ranks=ranks, loser=loser, table_size=table_size, rules=rules,
                penalty=penalty, faults=faults, decision_ms=decision_ms, plays=plays)


def _number(value) -> bool:
    return type(value) in (int, float)


# ------------------------------------------------------------ column by column
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
