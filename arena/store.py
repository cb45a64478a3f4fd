"""The results database: SQLite under ``results/<name>/results.sqlite``.

WAL journal, one transaction per finished game, so a crash (even ``kill -9``)
loses at most the games that were still being played. Holds the tournament
spec, each player's name, version and code hash, every game's record (the
engine's JSON), faults, and per-seat decision timings summarised per game.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterator

import orjson

from .errors import ArenaError

DB_NAME = "results.sqlite"
SCHEMA_VERSION = 1
_FAULT_KINDS = ("timeout", "crash", "illegal", "malformed")

_SCHEMA = """
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
    timeout INTEGER NOT NULL, crash INTEGER NOT NULL, illegal INTEGER NOT NULL, malformed INTEGER NOT NULL,
    decisions INTEGER NOT NULL, cpu_ms_median REAL, cpu_ms_max REAL, wall_ms_median REAL, wall_ms_max REAL,
    PRIMARY KEY (idx, seat));
CREATE TABLE IF NOT EXISTS faults (
    idx INTEGER NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL, kind TEXT NOT NULL,
    detail TEXT, event INTEGER);
CREATE INDEX IF NOT EXISTS seats_player ON seats(player);
"""


class StoreError(ArenaError, RuntimeError):
    """A results folder that is missing, or not one of this arena's."""


class Store:
    """One tournament's results database."""

    def __init__(self, folder: str | Path, create: bool = False) -> None:
        self.folder = Path(folder)
        path = self.folder / DB_NAME
        if not create and not path.exists():
            raise StoreError(f"no results database in {self.folder} (expected {path})")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(path, timeout=30, isolation_level=None)
        except OSError as exc:
            raise StoreError(f"cannot use {self.folder} for results ({exc.strerror or exc})") from None
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise StoreError(f"{path} is not a results database this arena can use ({exc})") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------- meta
    def set_meta(self, key: str, value: Any) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))

    def meta(self, key: str, default: Any = None) -> Any:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else default

    def save_players(self, players: list[dict]) -> None:
        with self._transaction():
            for p in players:
                self.db.execute("INSERT OR REPLACE INTO players VALUES (?, ?, ?, ?)",
                                (p["name"], p.get("plugin"), p.get("version"), p.get("code_hash")))

    def players(self) -> list[dict]:
        rows = self.db.execute("SELECT name, plugin, version, code_hash FROM players ORDER BY name")
        return [dict(zip(("name", "plugin", "version", "code_hash"), r)) for r in rows]

    # ------------------------------------------------------------------ games
    def done(self) -> set[int]:
        """The schedule indices of every stored game."""
        return {r[0] for r in self.db.execute("SELECT idx FROM games")}

    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def add_game(self, game, record: dict) -> bool:
        """Store one finished game in one transaction; False if it was already stored.

        The record is stored without its ``timings`` (they differ from run to
        run); their per-seat summary goes to the ``seats`` table.
        """
        record = dict(record)
        timings = record.pop("timings", None) or [{} for _ in record["names"]]
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
        return True

    def _add_seats(self, idx: int, record: dict, timings: list[dict]) -> None:
        result, names = record["result"], record["names"]
        faults = record.get("faults") or [[] for _ in names]
        for seat, name in enumerate(names):
            kinds = [f["kind"] for f in faults[seat]]
            t = timings[seat] if seat < len(timings) else {}
            self.db.execute(
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (idx, seat, name, result["ranks"][seat], result["penalty"][seat],
                 *[kinds.count(k) for k in _FAULT_KINDS], t.get("decisions", 0),
                 t.get("cpu_ms_median"), t.get("cpu_ms_max"), t.get("wall_ms_median"), t.get("wall_ms_max")))
            for f in faults[seat]:
                self.db.execute("INSERT INTO faults VALUES (?, ?, ?, ?, ?, ?)",
                                (idx, seat, name, f["kind"], f.get("detail"), f.get("event")))

    def record(self, game: int | str) -> dict:
        """One game's record by schedule index or game id."""
        column = "idx" if isinstance(game, int) or str(game).isdigit() else "game_id"
        key = int(game) if column == "idx" else game
        row = self.db.execute(f"SELECT record FROM games WHERE {column} = ?", (key,)).fetchone()
        if row is None:
            raise StoreError(f"no game {game!r} in {self.folder} (games are numbered 0..{self.count() - 1} "
                             f"or named by game id)")
        return json.loads(row[0])

    def records(self) -> Iterator[tuple[int, dict]]:
        for idx, rec in self.db.execute("SELECT idx, record FROM games ORDER BY idx"):
            yield idx, json.loads(rec)

    def seat_rows(self) -> list[dict]:
        """Every seat of every game in game order, with its game's table size and rules."""
        q = ("SELECT s.idx, s.seat, s.player, s.rank, s.penalty, s.timeout, s.crash, s.illegal, s.malformed, "
             "s.decisions, s.cpu_ms_median, s.wall_ms_median, g.table_size, g.rules, g.loser, g.draw "
             "FROM seats s JOIN games g ON g.idx = s.idx ORDER BY s.idx, s.seat")
        cols = ("idx", "seat", "player", "rank", "penalty", "timeout", "crash", "illegal", "malformed",
                "decisions", "cpu_ms_median", "wall_ms_median", "table_size", "rules", "loser", "draw")
        return [dict(zip(cols, r)) for r in self.db.execute(q)]

    def fault_count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM faults").fetchone()[0]

    def _transaction(self):
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb):
        self.db.execute("ROLLBACK" if exc_type else "COMMIT")
        return False


def _record_text(record: dict) -> str:
    try:
        return orjson.dumps(record).decode()
    except TypeError:  # e.g. an integer beyond 64 bits
        return json.dumps(record, separators=(",", ":"))


def rules_label(rules: dict) -> str:
    """A short label for a rule set: the preset name plus any changed options."""
    return _rules_label(json.dumps(rules, sort_keys=True))


@functools.lru_cache(maxsize=256)
def _rules_label(key: str) -> str:
    from .rules import Rules
    rules = json.loads(key)
    r = Rules.from_dict(rules)
    diff = r.differences()
    return r.name + "".join(f" {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in sorted(diff.items()))
