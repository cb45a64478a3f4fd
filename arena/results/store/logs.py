"""The results database's ``logs`` table: each seat's bot output of each game, compressed.

One row a seat that printed something or faulted with a traceback
(:class:`arena.bots.output_log.OutputLog`: capped per seat per game), written
in the game's own transaction, so a game and its logs are stored together or
not at all. The text is kept zlib-compressed (``text``), with its length in
characters (``chars``). The table is made with the first game that has any
output (a tournament of quiet bots never has one, as a database written
before it existed); without it, a database simply has no logs.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Sequence

TABLE = """CREATE TABLE IF NOT EXISTS logs (
    idx INTEGER NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL, chars INTEGER NOT NULL,
    text BLOB NOT NULL, PRIMARY KEY (idx, seat))"""


def has_table(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'logs'").fetchone() is not None


def add(db: sqlite3.Connection, idx: int, names: list[str], logs: Sequence[str | None]) -> None:
    """The game's non-empty logs (inside the caller's transaction; creates the table if it is missing)."""
    rows = [(idx, seat, names[seat], len(text), zlib.compress(text.encode("utf-8", errors="replace"), 6))
            for seat, text in enumerate(logs) if text and seat < len(names)]
    if rows:
        db.execute(TABLE)
        db.executemany("INSERT OR REPLACE INTO logs VALUES (?, ?, ?, ?, ?)", rows)


def game(db: sqlite3.Connection, idx: int) -> dict[int, tuple[str, str]]:
    """``{seat: (player, text)}`` for one game (seats without output left out)."""
    if not has_table(db):
        return {}
    rows = db.execute("SELECT seat, player, text FROM logs WHERE idx = ? ORDER BY seat", (idx,))
    return {seat: (player, _text(blob)) for seat, player, blob in rows}


def seats(db: sqlite3.Connection) -> set[tuple[int, int]]:
    """Every ``(game, seat)`` that has a log."""
    if not has_table(db):
        return set()
    return {(i, s) for i, s in db.execute("SELECT idx, seat FROM logs")}


def _text(blob: bytes) -> str:
    try:
        return zlib.decompress(blob).decode("utf-8", errors="replace")
    except zlib.error as exc:
        return f"[arena: this log is damaged in the results database ({exc})]"
