"""Matches in the results database: the ``matches`` table, hands as games, a whole match read back.

A match tournament (``match_points``) stores each finished match in one
transaction: its row in ``matches`` (schedule index, match id, seats, the
standings, the match record without its hands) and every hand as a game in
``games``, numbered ``match index * HAND_STRIDE + hand`` with the id
``<match id>-h<hand>``; a hand's ``deal_seed`` is its own open seed
(:func:`arena.game.seeds.match_hand_seed` of the match's), shared by every
rotation. A kill mid-match stores nothing of it, so a resume plays that match
again from its first hand (the same hands: they are seeded). The table is made
when the first match is stored; a database of single games has none.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from arena.game.match import MAX_HANDS
from arena.game.seeds import match_hand_seed
from arena.results.errors import StoreError
from arena.results.store.check import storage_error
from arena.results.store.database import Store, Transaction, rules_label

HAND_STRIDE = 1000
"""Hand ``h`` of the match at schedule index ``i`` is game ``i * HAND_STRIDE + h`` (h < MAX_HANDS)."""
assert MAX_HANDS < HAND_STRIDE

_SCHEMA = """CREATE TABLE IF NOT EXISTS matches (
    idx INTEGER PRIMARY KEY, match_id TEXT UNIQUE NOT NULL, rules TEXT NOT NULL, table_size INTEGER NOT NULL,
    seats TEXT NOT NULL, deal_seed INTEGER NOT NULL, rotation INTEGER NOT NULL, hands INTEGER NOT NULL,
    result TEXT NOT NULL, record TEXT NOT NULL, finished_at REAL NOT NULL)"""


@dataclass(frozen=True, slots=True)
class HandRow:
    """What :meth:`Store.add_game` needs to file one hand of a match as a game."""

    index: int
    game_id: str
    deal_seed: int
    rotation: int


def hand_rows(game, hands: int) -> list[HandRow]:
    """The game rows of a schedule unit's ``hands`` hands (``game``: its index, id, deal seed, rotation)."""
    return [HandRow(game.index * HAND_STRIDE + h, f"{game.game_id}-h{h}", match_hand_seed(game.deal_seed, h),
                    game.rotation) for h in range(hands)]


def _failing(store: Store, exc: sqlite3.Error) -> Exception:
    return storage_error(store.path, exc) or StoreError(f"{store.path}: {exc}")


def add_match(store: Store, game, record: dict) -> bool:
    """Store a finished match and all its hands in one transaction; False if it was stored already."""
    hands = record["hands"]
    head = {k: v for k, v in record.items() if k != "hands"}
    try:
        with Transaction(store.db):  # one transaction for the match and its hands
            store.db.execute(_SCHEMA)
            cur = store.db.execute(
                "INSERT OR IGNORE INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game.index, game.game_id, rules_label(record["rules"]), record["players"],
                 json.dumps(record["names"]), game.deal_seed, game.rotation, len(hands),
                 json.dumps(record["result"]), json.dumps(head), time.time()))
            if cur.rowcount == 0:
                return False
            for row, hand in zip(hand_rows(game, len(hands)), hands):
                store.add_game(row, hand)
    except sqlite3.Error as exc:
        raise _failing(store, exc) from None
    return True


def has_matches(store: Store) -> bool:
    """Whether the database has a ``matches`` table (a match tournament that stored one)."""
    try:
        return store.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'matches'"
                                ).fetchone() is not None
    except sqlite3.Error as exc:
        raise _failing(store, exc) from None


def _query(store: Store, sql: str, args: tuple = ()) -> list[tuple]:
    if not has_matches(store):
        return []
    try:
        return list(store.db.execute(sql, args))
    except sqlite3.Error as exc:
        raise _failing(store, exc) from None


def done_matches(store: Store) -> set[int]:
    """The schedule indices of every stored match."""
    return {r[0] for r in _query(store, "SELECT idx FROM matches")}


def matches_among(store: Store, indices: list[int]) -> set[int]:
    """Those of ``indices`` (a few hundred at most: one query) whose match is stored."""
    marks = ",".join("?" * len(indices))
    return {r[0] for r in _query(store, f"SELECT idx FROM matches WHERE idx IN ({marks})", tuple(indices))}


def match_count(store: Store) -> int:
    """How many matches are stored."""
    rows = _query(store, "SELECT COUNT(*) FROM matches")
    return rows[0][0] if rows else 0


def match_rows(store: Store) -> list[dict[str, Any]]:
    """Every stored match in schedule order: idx, match id, rules label, table size, seats, result."""
    rows = _query(store, "SELECT idx, match_id, rules, table_size, seats, result FROM matches ORDER BY idx")
    return [{"idx": i, "match_id": m, "rules": r, "table_size": n, "seats": store._json(s, f"match {i} seats"),
             "result": store._json(res, f"match {i} result")} for i, m, r, n, s, res in rows]


def stored_match(store: Store, key: int | str) -> dict:
    """One match's whole record (its hands read back from ``games``), by schedule index or match id."""
    column = "idx" if isinstance(key, int) or str(key).isdigit() else "match_id"
    value = int(key) if column == "idx" else key
    rows = _query(store, f"SELECT idx, hands, record FROM matches WHERE {column} = ?", (value,))
    if not rows:
        count = len(done_matches(store))
        what = f"{count} matches are stored" if count else "it holds no matches"
        raise StoreError(f"no match {key!r} in {store.folder} ({what}; a match is named by its schedule "
                         f"index or its match id, e.g. rr-0-4p-0000-d0-r0)")
    idx, hands, text = rows[0]
    record = store._json(text, f"match {idx}")
    record["hands"] = [store.record(idx * HAND_STRIDE + h) for h in range(hands)]
    return record
