"""One write to a results database: BEGIN IMMEDIATE ... COMMIT, or all of it rolled back."""

from __future__ import annotations

import sqlite3


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
