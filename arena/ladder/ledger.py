"""A ladder's own tables, in its results database: the entries and the rounds planned.

The games themselves go to the tournament store's tables
(:class:`arena.results.store.database.Store`), so `arena ratings`, `arena report` and
every other results command read a ladder's folder as they read a
tournament's. Next to them the ladder keeps:

- ``ladder_entries``: every submission, admitted or not: its name (``mybot-v2``),
  the player its plugin offers, version, code hash, folder, the entry it
  follows (an earlier version of the same bot), its status (``checking``,
  ``active``, ``rejected``, ``retired``, ``suspended``), why, check-bot's
  report and when it came;
- ``ladder_rounds``: every round matchmaking planned (one deal at one table,
  played in every rotation), written before its games are sent, so a run
  stopped in any way (Ctrl-C, ``kill -9``) finishes the rounds it began;
- ``ladder_changes``: every status change of an entry: to what, why, by whom
  (the user, ``arena ladder run`` or ``check-bot``), when, and the entry's
  faults at that moment (a reinstated bot's suspension counts faults from there);
- ``ladder_submitters`` and ``ladder_submissions``: the people who may submit
  (each with the hash of a token of their own, :mod:`arena.ladder.submitters`)
  and every submission they began, for their hourly limit. An entry's
  ``owner`` is the submitter whose bot it is (None: the organiser's).

Several processes share the file (``run`` plays while ``submit`` admits): every
change is one SQLite transaction, and readers see only committed rows.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from arena.ladder.errors import LadderError
from arena.results.store.check import storage_error
from arena.results.store.database import Store, Transaction

SCHEMA = """
CREATE TABLE IF NOT EXISTS ladder_entries (
    name TEXT PRIMARY KEY, player TEXT NOT NULL, plugin TEXT NOT NULL, version TEXT NOT NULL,
    code_hash TEXT NOT NULL, folder TEXT NOT NULL, previous TEXT, status TEXT NOT NULL, reason TEXT NOT NULL,
    report TEXT, submitted_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS ladder_rounds (
    round INTEGER PRIMARY KEY, rules TEXT NOT NULL, circle TEXT NOT NULL, deal_seed INTEGER NOT NULL,
    first_idx INTEGER NOT NULL, planned_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS ladder_changes (
    name TEXT NOT NULL, status TEXT NOT NULL, reason TEXT NOT NULL, by TEXT NOT NULL, at REAL NOT NULL,
    faults INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ladder_submitters (
    name TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, created_at REAL NOT NULL, revoked_at REAL,
    per_hour INTEGER NOT NULL, max_active INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ladder_submissions (
    submitter TEXT NOT NULL, at REAL NOT NULL, outcome TEXT NOT NULL);
"""
OWNER_COLUMN = "ALTER TABLE ladder_entries ADD COLUMN owner TEXT"
"""A ladder made before submitters had their own tokens gains the column (its entries are the organiser's)."""
STATUSES = ("checking", "active", "rejected", "retired", "suspended")
REINSTATED = "reinstated"
"""The reason prefix of the change that puts a suspended entry back to active."""
_ENTRY_COLUMNS = ("name", "player", "plugin", "version", "code_hash", "folder", "previous", "status", "reason",
                  "report", "submitted_at", "owner")


@dataclass(frozen=True, slots=True)
class Entry:
    """One submission (or a house player, whose ``folder`` is empty: a built-in player)."""

    name: str
    player: str
    plugin: str
    version: str
    code_hash: str
    folder: str
    previous: str | None
    status: str
    reason: str
    report: Any
    submitted_at: float
    owner: str | None = None
    """The submitter whose bot this is (None: the organiser's, a house player's)."""

    @property
    def house(self) -> bool:
        """A built-in player the ladder was made with (no folder of its own)."""
        return not self.folder


@dataclass(frozen=True, slots=True)
class Round:
    """One deal at one table, played in every rotation: games ``first_idx`` .. ``first_idx + size - 1``."""

    number: int
    rules: dict
    circle: tuple[str, ...]
    deal_seed: int
    first_idx: int

    @property
    def size(self) -> int:
        return len(self.circle)

    @property
    def indices(self) -> range:
        return range(self.first_idx, self.first_idx + self.size)


class Ledger:
    """The ladder tables of one open :class:`Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store.db
        self._write(self._create)

    def _create(self) -> None:
        for statement in SCHEMA.split(";"):
            if statement.strip():
                self.db.execute(statement)
        if "owner" not in {row[1] for row in self.db.execute("PRAGMA table_info(ladder_entries)")}:
            self.db.execute(OWNER_COLUMN)

    def _write(self, action):
        """Run ``action`` in one immediate transaction; a storage failure is a StoreError naming the file."""
        try:
            with Transaction(self.db):
                return action()
        except sqlite3.Error as exc:
            raise (storage_error(self.store.path, exc) or exc) from None

    def _read(self, query: str, args: tuple = ()) -> list[tuple]:
        try:
            return self.db.execute(query, args).fetchall()
        except sqlite3.Error as exc:
            raise (storage_error(self.store.path, exc) or exc) from None

    # ---------------------------------------------------------------- entries
    def add_entry(self, entry: Entry) -> None:
        values = tuple(json.dumps(entry.report) if c == "report" else getattr(entry, c) for c in _ENTRY_COLUMNS)
        self._write(lambda: self.db.execute(
            f"INSERT INTO ladder_entries VALUES ({', '.join('?' * len(values))})", values))

    def set_status(self, name: str, status: str, reason: str = "", report: Any = None, by: str = "arena") -> None:
        """Change an entry's status, logged in ``ladder_changes`` with ``by`` (who), the time and its faults."""
        assert status in STATUSES

        def change() -> None:
            if report is None:
                self.db.execute("UPDATE ladder_entries SET status = ?, reason = ? WHERE name = ?",
                                (status, reason, name))
            else:
                self.db.execute("UPDATE ladder_entries SET status = ?, reason = ?, report = ? WHERE name = ?",
                                (status, reason, json.dumps(report), name))
            faults = self.db.execute("SELECT COUNT(*) FROM faults WHERE player = ?", (name,)).fetchone()[0]
            self.db.execute("INSERT INTO ladder_changes VALUES (?, ?, ?, ?, ?, ?)",
                            (name, status, reason, by, time.time(), faults))
        self._write(change)

    def changes(self, name: str) -> list[tuple[str, str, str, float]]:
        """An entry's status changes in order: (status, reason, by, at)."""
        return self._read("SELECT status, reason, by, at FROM ladder_changes WHERE name = ? ORDER BY rowid",
                          (name,))

    def reinstated_at(self) -> dict[str, int]:
        """Each reinstated entry's faults when it was last reinstated (its suspension counts from there)."""
        return dict(self._read("SELECT name, faults FROM ladder_changes WHERE rowid IN (SELECT MAX(rowid) FROM "
                               "ladder_changes WHERE reason LIKE ? GROUP BY name)", (REINSTATED + "%",)))

    def entries(self) -> list[Entry]:
        rows = self._read(f"SELECT {', '.join(_ENTRY_COLUMNS)} FROM ladder_entries ORDER BY submitted_at, name")
        return [Entry(*(r[:9] + (json.loads(r[9]) if r[9] else None,) + r[10:])) for r in rows]

    def entry(self, name: str) -> Entry | None:
        return next((e for e in self.entries() if e.name == name), None)

    # ---------------------------------------------------------------- rounds
    def plan_round(self, rules: dict, circle: tuple[str, ...], deal_seed_of) -> Round:
        """A new round, numbered and given its game indices in the same transaction that stores it.

        ``deal_seed_of(number)``: the round's deal seed, from its number.
        """
        def plan() -> Round:
            number, first = self.db.execute(
                "SELECT COALESCE(MAX(round) + 1, 0), COALESCE(MAX(first_idx + json_array_length(circle)), 0) "
                "FROM ladder_rounds").fetchone()
            rnd = Round(number, rules, tuple(circle), deal_seed_of(number), first)
            self.db.execute("INSERT INTO ladder_rounds VALUES (?, ?, ?, ?, ?, ?)",
                            (number, json.dumps(rules, sort_keys=True), json.dumps(list(circle)),
                             rnd.deal_seed, first, time.time()))
            return rnd
        return self._write(plan)

    def rounds(self, unfinished_only: bool = False) -> list[Round]:
        """Every planned round in order (only those with a game not stored yet, if asked)."""
        rows = self._read("SELECT round, rules, circle, deal_seed, first_idx FROM ladder_rounds ORDER BY round")
        rounds = [Round(n, json.loads(r), tuple(json.loads(c)), s, f) for n, r, c, s, f in rows]
        if not unfinished_only:
            return rounds
        done = self.store.done()
        return [r for r in rounds if any(i not in done for i in r.indices)]

    def round_count(self) -> int:
        """How many rounds were planned (the next round's number)."""
        return self._read("SELECT COALESCE(MAX(round) + 1, 0) FROM ladder_rounds")[0][0]

    def recent_circles(self, n: int) -> list[tuple[str, ...]]:
        """The tables of the latest ``n`` rounds, oldest first."""
        rows = self._read("SELECT circle FROM ladder_rounds ORDER BY round DESC LIMIT ?", (n,))
        return [tuple(json.loads(c)) for (c,) in reversed(rows)]

    def fault_counts(self) -> dict[str, int]:
        """Faults per player over every stored game."""
        return dict(self._read("SELECT player, COUNT(*) FROM faults GROUP BY player"))

    def games_of(self) -> dict[str, int]:
        """Games stored per player."""
        return dict(self._read("SELECT player, COUNT(*) FROM seats GROUP BY player"))

    # ---------------------------------------------------------------- submitters
    def add_submitter(self, name: str, token_hash: str, per_hour: int, max_active: int) -> None:
        self._write(lambda: self.db.execute("INSERT INTO ladder_submitters VALUES (?, ?, ?, NULL, ?, ?)",
                                            (name, token_hash, time.time(), per_hour, max_active)))

    def submitter_rows(self) -> list[tuple]:
        """Every submitter: (name, token_hash, created_at, revoked_at, per_hour, max_active), by name."""
        return self._read("SELECT name, token_hash, created_at, revoked_at, per_hour, max_active "
                          "FROM ladder_submitters ORDER BY name")

    def update_submitter(self, name: str, **values: Any) -> None:
        """Set columns of the submitter ``name`` (``token_hash``, ``revoked_at``, ``per_hour``, ``max_active``)."""
        allowed = {"token_hash", "revoked_at", "per_hour", "max_active"}
        assert values and set(values) <= allowed
        sets = ", ".join(f"{k} = ?" for k in values)
        self._write(lambda: self.db.execute(f"UPDATE ladder_submitters SET {sets} WHERE name = ?",
                                            (*values.values(), name)))

    def begin_submission(self, submitter: str, at: float) -> int:
        """Log a submission begun by ``submitter`` (counted for the hourly limit); its row id."""
        return self._write(lambda: self.db.execute("INSERT INTO ladder_submissions VALUES (?, ?, ?)",
                                                   (submitter, at, "begun")).lastrowid)

    def end_submission(self, row: int, outcome: str) -> None:
        self._write(lambda: self.db.execute("UPDATE ladder_submissions SET outcome = ? WHERE rowid = ?",
                                            (outcome, row)))

    def submissions_since(self, submitter: str, since: float) -> int:
        return self._read("SELECT COUNT(*) FROM ladder_submissions WHERE submitter = ? AND at >= ?",
                          (submitter, since))[0][0]


def open_ledger(store: Store) -> Ledger:
    """The ladder tables of ``store``; a store without the ladder's meta row is not a ladder."""
    if store.meta("ladder") is None:
        raise LadderError(f"{store.folder} is not a ladder (it has no ladder settings): expected a folder made "
                         f"by `arena ladder create`")
    return Ledger(store)
