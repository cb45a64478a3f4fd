"""What can be wrong with a results database, found on open, and SQLite's failures as one-line errors.

A results database is only ever created whole (see :func:`arena.results.store.database.create_database`),
so an existing ``results.sqlite`` that is empty, is not SQLite, is shorter than
its header says, fails SQLite's ``quick_check``, or lacks a table or the meta
``schema`` row is damaged, never new. :func:`check_file` looks at the bytes
before SQLite opens the file; :func:`check_database` asks SQLite.
:func:`storage_error` turns the ``sqlite3`` errors a user can cause (a full
disk, a read-only file or folder, a damaged or locked file) into
:class:`StoreError`; any other ``sqlite3`` error is a bug and is left alone.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from arena.results.errors import StoreError

TABLES = ("meta", "players", "games", "seats", "faults")
HEADER = b"SQLite format 3\x00"
EXPECTED = "expected a tournament's results database"
RECOVER = "restore it from a backup, or move the folder aside and run the tournament again"


def check_file(path: Path) -> None:
    """A :class:`StoreError` naming ``path`` unless its bytes can be an SQLite database of their full size."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError as exc:
        raise StoreError(f"cannot read {path} ({exc.strerror or exc}): {EXPECTED}") from None
    if size == 0:
        raise StoreError(f"{path} is empty (0 bytes): {EXPECTED}; it holds no games: restore it from a backup, "
                         f"or delete it to start the tournament afresh")
    if not head.startswith(HEADER):
        if head.count(0) == len(head):
            raise StoreError(f"{path} is damaged: its first page is zeroed (no SQLite header): {EXPECTED}; {RECOVER}")
        if len(head) < len(HEADER) and HEADER.startswith(head):
            raise StoreError(f"{path} is truncated ({size} bytes, less than an SQLite header): {EXPECTED}; {RECOVER}")
        raise StoreError(f"{path} is not a results database (not an SQLite file: it does not start with the "
                         f"SQLite header): {EXPECTED}; {RECOVER}")
    if len(head) < 100:
        raise StoreError(f"{path} is truncated ({size} bytes, less than an SQLite header): {EXPECTED}; {RECOVER}")
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(head[28:32], "big")
    header_size_valid = pages > 0 and head[24:28] == head[92:96]
    if header_size_valid and size < pages * page_size and not _wal_pending(path):
        raise StoreError(f"{path} is truncated: {size} bytes, but its header says {pages} pages of {page_size} "
                         f"bytes ({pages * page_size} bytes); {RECOVER}")


def _wal_pending(path: Path) -> bool:
    """Whether a non-empty write-ahead log is beside ``path`` (a checkpoint may be growing the file)."""
    try:
        return path.with_name(path.name + "-wal").stat().st_size > 0
    except OSError:
        return False


def check_database(db: sqlite3.Connection, path: Path, schema_version: int) -> None:
    """A :class:`StoreError` unless SQLite's quick_check passes and the arena's tables and schema row are there.

    Raises ``sqlite3`` errors as they come (the caller turns them into
    :class:`StoreError` with :func:`storage_error`).
    """
    problems = [row[0] for row in db.execute("PRAGMA quick_check")]
    if problems != ["ok"]:
        lines = [line for p in problems for line in str(p).splitlines() if line and not line.startswith("***")]
        more = f" and {len(lines) - 1} more" if len(lines) > 1 else ""
        raise StoreError(f"{path} is damaged (SQLite's quick_check: {lines[0] if lines else problems[0]}{more}); "
                         f"{RECOVER}")
    have = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    missing = [t for t in TABLES if t not in have]
    if missing:
        raise StoreError(f"{path} is not a results database: it lacks the table{'s' * (len(missing) > 1)} "
                         f"{', '.join(missing)} ({EXPECTED}: tables {', '.join(TABLES)}); {RECOVER}")
    row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is None:
        raise StoreError(f"{path} has no schema version in its meta table ({EXPECTED}, which always has one); "
                         f"{RECOVER}")
    if str(row[0]) != str(schema_version):
        raise StoreError(f"{path} has schema version {row[0]}, but this arena reads version {schema_version}: "
                         f"use the bhabhi-arena version that wrote it")


_CAUSES = (  # (SQLite error names, SQLite's own message texts, the message's template)
    (("SQLITE_FULL",), ("disk is full",), "cannot write to {folder}: the disk is full ({msg}); free some space there"),
    (("SQLITE_READONLY",), ("readonly database",),
     "cannot write to {path}: it is read-only ({msg}); make {folder} and the files in it writable"),
    (("SQLITE_CANTOPEN",), ("unable to open database file",),
     "cannot open {path} ({msg}): {folder} must exist and be writable (SQLite keeps {name}-wal and {name}-shm "
     "beside it); is it read-only?"),
    (("SQLITE_PERM", "SQLITE_AUTH"), ("access permission denied",), "cannot use {path}: permission denied ({msg})"),
    (("SQLITE_CORRUPT", "SQLITE_NOTADB"), ("disk image is malformed", "file is not a database"),
     "{path} is damaged ({msg}); " + RECOVER),
    (("SQLITE_IOERR",), ("disk I/O error",),
     "reading or writing {path} failed ({msg}): the disk may be full, failing or gone"),
    (("SQLITE_BUSY", "SQLITE_LOCKED"), ("database is locked", "database table is locked"),
     "{path} is locked ({msg}): another process is writing to it; wait for it to finish"),
)


def storage_error(path: Path, exc: sqlite3.Error) -> StoreError | None:
    """The :class:`StoreError` for an ``sqlite3`` error a user can cause, naming ``path``; None for any other.

    Known by SQLite's error name, or (for an error raised without one) by SQLite's own message text.
    """
    name = getattr(exc, "sqlite_errorname", None) or ""
    msg = " ".join(str(exc).split())
    for names, texts, template in _CAUSES:
        if name.startswith(names) or (not name and any(t in msg for t in texts)):
            return StoreError(template.format(path=path, folder=path.parent, name=path.name, msg=msg))
    return None
