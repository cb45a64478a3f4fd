"""Every stored game as a ratings :class:`~arena.results.stats.outcome.Outcome`: one query, checked all at once.

A store the arena wrote is read column by column
(:mod:`arena.results.store.columns`, about twice as fast); when one of its
whole-column checks fails, :func:`careful_outcomes` reads it as follows. The seats of all games come in one query, in game and seat order, as plain
rows (no dict per row), and each game's fields are cut from its rows as
tuples. Checking each ``Outcome`` one by one costs more than reading it, so
one SQL query (:data:`_SUSPECT`) first finds every game whose rows an
``Outcome`` might refuse: a wrong type or a value out of range in any field
it checks, seats not numbered 0..n-1 or not n of them, a repeated player, a
loser not alone in last place. It may name a game that is in fact fine, never
miss one that is not: those games are built through ``Outcome``'s own checks
(so a damaged row gives the same one-line :class:`RatingsError` as ever), the
others with :meth:`Outcome.checked_elsewhere`, equal field for field.
"""

from __future__ import annotations

import sqlite3
from itertools import groupby
from operator import itemgetter

from arena.game.status import FAULT_KINDS
from arena.results.stats.outcome import Outcome
from arena.results.store.check import storage_error
from arena.results.store.columns import clean_outcomes
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
    store's columns pass their checks (:mod:`arena.results.store.columns`), else by :func:`careful_outcomes`."""
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
        faults = tuple([{k: c for k, c in zip(FAULT_KINDS, row[_FAULTS]) if c} for row in rows])
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
