"""The results database: SQLite under ``results/<name>/results.sqlite``.

WAL journal, one transaction per finished game (or per delivery of several:
:meth:`Store.transaction`), so a crash (even ``kill -9``) loses at most the
games that were still being played or on their way. Holds the tournament
spec, each player's name, version and code hash (and, in meta
``player_changes``, every change of one allowed by ``--allow-changed``), every game's record (the
engine's JSON), faults, and per-seat decision timings summarised per game:
the number of decisions, the median and largest CPU and wall time of one, and
the number of play decisions with their CPU time in total (``plays``,
``play_cpu_ms``: columns a database written before them lacks, read as NULL).
The per-decision lists of a record's ``timings`` are not kept.
Each seat's bot output of each game (stdout, stderr, fault tracebacks; capped)
goes to the ``logs`` table in the game's transaction (:mod:`arena.results.store.logs`), made
with the first game that has any.

A new database is built whole under a temporary name (tables and meta rows in
one transaction) and only then linked into place (:func:`create_database`), so an existing
``results.sqlite`` is always one that was complete: opening one that is empty,
truncated, zeroed or missing a table is a :class:`StoreError`
(:mod:`arena.results.store.check`), never a new, empty tournament. A full disk, a
read-only file or folder, or a file found damaged while in use is a
:class:`StoreError` too, naming the file and the cause; a failed write leaves
every game committed before it.

The schema (:data:`SCHEMA`), the :class:`Store` over it, a new database's
making (:func:`create_database`) and the :class:`Transaction` every write goes
through (``BEGIN IMMEDIATE ... COMMIT``, or all of it rolled back) are one
module: each is written for the others.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import orjson

from arena.game.rules import Rules
from arena.game.status import FAULT_KINDS
from arena.results.errors import StoreError
from arena.results.store import logs as log_table
from arena.results.store.check import RECOVER, check_database, check_file, storage_error

__all__ = ["DB_NAME", "SCHEMA_VERSION", "Store", "StoreError", "Transaction", "change_note", "create_database",
           "rules_label"]

DB_NAME = "results.sqlite"
SCHEMA_VERSION = 1

_FAULT_COLUMNS = ", ".join(f"{kind} INTEGER NOT NULL" for kind in FAULT_KINDS)
"""A seat's count of each fault kind, one column each."""

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY, plugin TEXT, version TEXT, code_hash TEXT);
CREATE TABLE IF NOT EXISTS games (
    idx INTEGER PRIMARY KEY, game_id TEXT UNIQUE NOT NULL, rules TEXT NOT NULL,
    table_size INTEGER NOT NULL, seats TEXT NOT NULL, deal_seed INTEGER NOT NULL,
    rotation INTEGER NOT NULL, loser INTEGER, draw INTEGER NOT NULL, reason TEXT NOT NULL,
    record TEXT NOT NULL, finished_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    idx INTEGER NOT NULL REFERENCES games(idx), seat INTEGER NOT NULL, player TEXT NOT NULL,
    rank INTEGER NOT NULL, penalty INTEGER NOT NULL,
    {_FAULT_COLUMNS},
    decisions INTEGER NOT NULL, cpu_ms_median REAL, cpu_ms_max REAL, wall_ms_median REAL, wall_ms_max REAL,
    plays INTEGER, play_cpu_ms REAL,
    PRIMARY KEY (idx, seat));
CREATE TABLE IF NOT EXISTS faults (
    idx INTEGER NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL, kind TEXT NOT NULL,
    detail TEXT, event INTEGER);
CREATE INDEX IF NOT EXISTS seats_player ON seats(player);
"""
SEAT_COLUMNS = ("idx", "seat", "player", "rank", "penalty", *FAULT_KINDS, "decisions", "cpu_ms_median",
                "cpu_ms_max", "wall_ms_median", "wall_ms_max", "plays", "play_cpu_ms")
"""The seats table's columns; a database written before ``plays`` and ``play_cpu_ms`` lacks those two."""


def _guarded(method):
    """Turn the ``sqlite3`` errors a user can cause (full disk, read-only, damaged) into a StoreError."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise self._failure(exc) from None
    return wrapper


class Store:
    """One tournament's results database.

    ``create=True`` makes the database (with the ``meta`` rows given) when the
    folder has none; an existing one is checked, whatever ``create`` says.
    """

    def __init__(self, folder: str | Path, create: bool = False, meta: dict[str, Any] | None = None) -> None:
        self.folder = Path(folder)
        self.path = self.folder / DB_NAME
        if not self.path.exists():
            if not create:
                raise StoreError(f"no results database in {self.folder} (expected {self.path})")
            create_database(self.path, meta or {})
        check_file(self.path)
        try:
            self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._failure(exc) from None
        try:
            self.db.execute("PRAGMA synchronous=NORMAL")
            check_database(self.db, self.path, SCHEMA_VERSION)
            self.db.execute("PRAGMA journal_mode=WAL")
            self._seat_columns = tuple(r[1] for r in self.db.execute("PRAGMA table_info(seats)"))
            keep = [i for i, c in enumerate(SEAT_COLUMNS) if c in self._seat_columns]
            columns = [SEAT_COLUMNS[i] for i in keep]
            self._insert_seat = f"INSERT INTO seats ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
            self._seat_keep = None if len(keep) == len(SEAT_COLUMNS) else keep
            """Which of a seat row's values a database from before some columns keeps (None: all)."""
        except BaseException as exc:
            self.db.close()
            if isinstance(exc, sqlite3.Error):
                raise self._failure(exc) from None
            raise

    def _failure(self, exc: sqlite3.Error) -> Exception:
        return storage_error(self.path, exc) or exc

    def close(self) -> None:
        self.db.close()

    @_guarded
    def check_writable(self) -> None:
        """A StoreError now, before any game is played, if this database cannot be written (read-only)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('write-check', '0')")
        finally:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------- meta
    @_guarded
    def set_meta(self, key: str, value: Any) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))

    @_guarded
    def meta(self, key: str, default: Any = None) -> Any:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return self._json(row[0], f"meta {key!r}") if row else default

    @_guarded
    def save_roster(self, roster: list[dict]) -> None:
        """Store ``roster``, each player's name, plugin, version and code hash, as the versions that play."""
        with self._transaction():
            self._put_roster(roster)

    def _put_roster(self, roster: list[dict]) -> None:
        for p in roster:
            self.db.execute("INSERT OR REPLACE INTO players VALUES (?, ?, ?, ?)",
                            (p["name"], p.get("plugin"), p.get("version"), p.get("code_hash")))

    @_guarded
    def allow_changes(self, changes: list[dict], roster: list[dict]) -> None:
        """Add ``changes`` to the meta list ``player_changes`` and store ``roster`` as the versions
        that play from now on, in one transaction (``arena tournament resume --allow-changed``)."""
        with self._transaction():
            log = self.meta("player_changes", []) + changes
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", ("player_changes", json.dumps(log)))
            self._put_roster(roster)

    def player_changes(self) -> list[dict]:
        """Every change of a player allowed during the tournament, oldest first."""
        return self.meta("player_changes", [])

    @_guarded
    def roster(self) -> list[dict]:
        """Every player of the event as stored: name, plugin, version and code hash, by name."""
        rows = self.db.execute("SELECT name, plugin, version, code_hash FROM players ORDER BY name")
        return [dict(zip(("name", "plugin", "version", "code_hash"), r)) for r in rows]

    # ------------------------------------------------------------------ games
    @_guarded
    def done(self) -> set[int]:
        """The schedule indices of every stored game."""
        return {r[0] for r in self.db.execute("SELECT idx FROM games")}

    @_guarded
    def stored_among(self, indices: list[int]) -> set[int]:
        """Those of ``indices`` (a few hundred at most: one query) whose game is stored."""
        marks = ",".join("?" * len(indices))
        return {r[0] for r in self.db.execute(f"SELECT idx FROM games WHERE idx IN ({marks})", indices)}

    @_guarded
    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    @_guarded
    def add_game(self, game, record: dict) -> bool:
        """Store one finished game in one transaction; False if it was already stored.

        The record is stored without its ``timings`` (they differ from run to
        run); their per-seat summary goes to the ``seats`` table (not the
        per-decision lists).
        """
        record = dict(record)
        timings = record.pop("timings", None) or [{} for _ in record["names"]]
        logs = record.pop("logs", None) or ()
        result = record["result"]
        with self._transaction():
            cur = self.db.execute(
                "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game.index, game.game_id, rules_label(record["rules"]), record["players"],
                 json.dumps(record["names"]), game.deal_seed, game.rotation, result["loser"],
                 int(result["draw"]), result["reason"], _record_text(record), time.time()))
            if cur.rowcount == 0:
                return False
            self._add_seats(game.index, record, timings)
            log_table.add(self.db, game.index, record["names"], logs)
        return True

    def _add_seats(self, idx: int, record: dict, timings: list[dict]) -> None:
        result, names = record["result"], record["names"]
        faults = record.get("faults") or [[] for _ in names]
        rows, fault_rows = [], []  # one executemany each
        for seat, name in enumerate(names):
            t = timings[seat] if seat < len(timings) else {}
            row = (idx, seat, name, result["ranks"][seat], result["penalty"][seat],
                   *map([f["kind"] for f in faults[seat]].count, FAULT_KINDS), t.get("decisions", 0),
                   t.get("cpu_ms_median"), t.get("cpu_ms_max"), t.get("wall_ms_median"), t.get("wall_ms_max"),
                   t.get("plays"), t.get("play_cpu_ms"))
            rows.append(row if self._seat_keep is None else tuple(row[i] for i in self._seat_keep))
            fault_rows += [(idx, seat, name, f["kind"], f.get("detail"), f.get("event")) for f in faults[seat]]
        self.db.executemany(self._insert_seat, rows)
        self.db.executemany("INSERT INTO faults VALUES (?, ?, ?, ?, ?, ?)", fault_rows)

    @_guarded
    def record(self, game: int | str) -> dict:
        """One game's record by schedule index or game id."""
        row = self.db.execute("SELECT record FROM games WHERE idx = ?", (self.index(game),)).fetchone()
        return self._json(row[0], f"game {game}")

    def records(self) -> Iterator[tuple[int, dict]]:
        try:
            for idx, rec in self.db.execute("SELECT idx, record FROM games ORDER BY idx"):
                yield idx, self._json(rec, f"game {idx}")
        except sqlite3.Error as exc:
            raise self._failure(exc) from None

    def _json(self, text: str, what: str) -> Any:
        """A stored JSON value; a damaged one (SQLite has no checksums on contents) is a StoreError."""
        try:
            return json.loads(text)
        except ValueError as exc:
            raise StoreError(f"{self.path} is damaged: the stored {what} is not valid JSON ({exc}); "
                             f"{RECOVER}") from None

    @_guarded
    def seat_rows(self) -> list[dict]:
        """Every seat of every game in game order, with its game's table size and rules.

        ``plays`` and ``play_cpu_ms`` are None in a database written before they were stored.
        """
        plays = ("s.plays, s.play_cpu_ms" if "play_cpu_ms" in self._seat_columns else "NULL, NULL")
        q = (f"SELECT s.idx, s.seat, s.player, s.rank, s.penalty, {', '.join(f's.{k}' for k in FAULT_KINDS)}, "
             f"s.decisions, s.cpu_ms_median, s.wall_ms_median, {plays}, g.table_size, g.rules, g.loser, g.draw "
             "FROM seats s JOIN games g ON g.idx = s.idx ORDER BY s.idx, s.seat")
        cols = ("idx", "seat", "player", "rank", "penalty", *FAULT_KINDS, "decisions", "cpu_ms_median",
                "wall_ms_median", "plays", "play_cpu_ms", "table_size", "rules", "loser", "draw")
        return [dict(zip(cols, r)) for r in self.db.execute(q)]

    @_guarded
    def logs(self, game: int | str) -> dict[int, tuple[str, str]]:
        """One game's bot output, ``{seat: (player, text)}`` (seats that printed nothing left out)."""
        return log_table.game(self.db, self.index(game))

    @_guarded
    def logged_seats(self) -> set[tuple[int, int]]:
        """Every ``(game, seat)`` with a stored log."""
        return log_table.seats(self.db)

    @_guarded
    def index(self, game: int | str) -> int:
        """A stored game's schedule index, from its index or game id (a StoreError if there is none)."""
        column = "idx" if isinstance(game, int) or str(game).isdigit() else "game_id"
        key = int(game) if column == "idx" else game
        row = self.db.execute(f"SELECT idx FROM games WHERE {column} = ?", (key,)).fetchone()
        if row is None:
            raise StoreError(f"no game {game!r} in {self.folder} (games are numbered 0..{self.count() - 1} "
                             f"or named by game id)")
        return row[0]

    @_guarded
    def fault_count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM faults").fetchone()[0]

    @_guarded
    def fault_details(self, limit: int) -> list[dict]:
        """The first ``limit`` faults in game and seat order: game, seat, player, kind, detail."""
        cols = ("game", "seat", "player", "kind", "detail")
        q = "SELECT idx, seat, player, kind, detail FROM faults ORDER BY idx, seat LIMIT ?"
        return [dict(zip(cols, r)) for r in self.db.execute(q, (limit,))]

    def _transaction(self):
        return Transaction(self.db)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Several writes as one commit (the games a tournament's workers streamed since it last
        looked): each write inside joins it; all of it is kept, or none."""
        try:
            with self._transaction():
                yield
        except sqlite3.Error as exc:  # the commit itself (a full disk)
            raise self._failure(exc) from None


def _record_text(record: dict) -> str:
    try:
        return orjson.dumps(record).decode()
    except TypeError:  # e.g. an integer beyond 64 bits
        return json.dumps(record, separators=(",", ":"))


def change_note(change: dict) -> str:
    """A change of player recorded by :meth:`Store.allow_changes`, as one line: who, when, which code."""
    return (f"player {change['player']} after {change['after_games']} of {change['of_games']} games: "
            f"version {change['old_version']} (code {change['old_code']}) -> "
            f"version {change['new_version']} (code {change['new_code']}), allowed by --allow-changed")


def rules_label(rules: dict) -> str:
    """A short label for a rule set: the preset name plus any changed options."""
    try:   # (the cache's key; orjson's: json.dumps sorting keys costs a few per cent of storing a game)
        key = orjson.dumps(rules, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:
        key = json.dumps(rules, sort_keys=True)
    return _rules_label(key)


@functools.lru_cache(maxsize=256)
def _rules_label(key: str) -> str:
    rules = json.loads(key)
    r = Rules.from_dict(rules)
    diff = r.differences()
    return r.name + "".join(f" {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in sorted(diff.items()))


# ------------------------------------------------------------ a new database
def create_database(path: Path, meta: dict[str, Any]) -> None:
    """A new results database at ``path``: built whole as ``<path>.new-<pid>``, then linked into place.

    The tables, the meta ``schema`` row and the ``meta`` rows given go in in
    one transaction; the file appears under its real name only complete, so a
    ``results.sqlite`` that is empty or lacks a table is damaged, never new.
    If another process linked its database first, that one is kept.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot use {path.parent} for results ({exc.strerror or exc})") from None
    tmp = path.with_name(f"{path.name}.new-{os.getpid()}")
    _remove(tmp)
    try:
        _build(tmp, {"schema": SCHEMA_VERSION, **meta})
        if tmp.with_name(tmp.name + "-wal").exists():  # its checkpoint failed: the file is not whole
            raise StoreError(f"cannot write to {path.parent}: the new results database could not be completed "
                             f"(is the disk full?)")
        _link(tmp, path)
    except sqlite3.Error as exc:
        raise (storage_error(path, exc) or exc) from None
    finally:
        _remove(tmp)


def _build(tmp: Path, meta: dict[str, Any]) -> None:
    db = sqlite3.connect(tmp, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        with Transaction(db):
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            for key, value in meta.items():
                db.execute("INSERT INTO meta VALUES (?, ?)", (key, json.dumps(value)))
    finally:
        db.close()


def _link(tmp: Path, path: Path) -> None:
    """``tmp`` under the name ``path``, never replacing a file already there."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS, errno.EMLINK):
            raise StoreError(f"cannot use {path.parent} for results ({exc.strerror or exc})") from None
        if not path.exists():  # a file system without hard links
            os.replace(tmp, path)


def _remove(tmp: Path) -> None:
    for name in (tmp.name, tmp.name + "-wal", tmp.name + "-shm", tmp.name + "-journal"):
        try:
            tmp.with_name(name).unlink(missing_ok=True)
        except OSError:
            pass


# ------------------------------------------------------------ one write
class Transaction:
    """BEGIN IMMEDIATE ... COMMIT; ROLLBACK on an error, or when the COMMIT itself fails (a full disk).

    Inside another one (a match stored with its hands) it is part of that one: the outer commits or rolls back.
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.outer = True

    def __enter__(self):
        self.outer = not self.db.in_transaction
        if self.outer:
            self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb):
        if not self.outer:
            return False
        if exc_type is None:
            try:
                self.db.execute("COMMIT")
                return False
            except sqlite3.Error:
                self._rollback()
                raise
        self._rollback()
        return False

    def _rollback(self) -> None:
        if self.db.in_transaction:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:  # SQLite may have rolled back already; the first error is the one to report
                pass
