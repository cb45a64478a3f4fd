"""A new results database: its tables, built whole under a temporary name, then linked into place.

The tables and the meta rows go in in one transaction and the file appears
under its real name only complete, so an existing ``results.sqlite`` is always
one that was complete (:mod:`arena.results.store.check` finds one that is not).
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

from arena.game.status import FAULT_KINDS
from arena.results.errors import StoreError
from arena.results.store.check import storage_error
from arena.results.store.transaction import Transaction

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
