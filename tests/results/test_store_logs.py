"""The store's logs table: each seat's output beside its game, in the game's transaction; old stores read."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import pytest

from arena.bots.referee import InProcessClient, play_game
from arena.game.rules import Rules
from arena.plugins.registry import load
from arena.results.errors import StoreError
from arena.results.store import logs as log_table
from arena.results.store.database import Store


@dataclass(frozen=True)
class _Game:
    index: int
    game_id: str
    deal_seed: int = 1
    rotation: int = 0


@pytest.fixture(scope="module")
def record():
    reg = load(autoload=False)
    return play_game(Rules.preset("getaway"), [InProcessClient(reg.get(n)) for n in ("low", "high", "random")], 1)


def test_logs_stored_apart_from_the_record(tmp_path, record):
    """A record's logs go to the logs table (seats that printed only, compressed); its stored record has none."""
    logs = ["low said hello\n", "", "random: ü\n" * 3]
    with Store(tmp_path / "r", create=True) as store:
        assert store.add_game(_Game(0, "g0"), {**record, "logs": logs})
        assert store.add_game(_Game(1, "g1"), record)
        assert store.logs(0) == {0: ("low", logs[0]), 2: ("random", logs[2])}
        assert store.logs("g0") == store.logs(0)
        assert store.logs(1) == {}
        assert "logs" not in store.record(0)
        assert store.logged_seats() == {(0, 0), (0, 2)}
        with pytest.raises(StoreError, match="no game 5"):
            store.logs(5)
        blob = store.db.execute("SELECT text FROM logs WHERE idx = 0 AND seat = 2").fetchone()[0]
        assert isinstance(blob, bytes) and len(blob) < len(logs[2].encode())


def test_a_store_from_before_the_logs_table(tmp_path, record):
    """A results database without the logs table (written before it, or only quiet games): read, it has
    no logs; its first game with output adds the table."""
    with Store(tmp_path / "old", create=True) as store:
        store.add_game(_Game(0, "g0"), record)
        assert not log_table.has_table(store.db)  # made with the first game that has output
    with Store(tmp_path / "old") as store:
        assert store.logs(0) == {} and store.logged_seats() == set()
        store.add_game(_Game(1, "g1"), {**record, "logs": ["", "high: hi\n", ""]})
        assert store.logs(1) == {1: ("high", "high: hi\n")}
        assert log_table.has_table(store.db)


def test_logs_roll_back_with_their_game(tmp_path, record):
    """A game whose write fails stores neither its seats nor its logs (one transaction)."""
    with Store(tmp_path / "t", create=True) as store:
        store.db.execute(log_table.TABLE)
        store.db.execute("CREATE TRIGGER no_logs BEFORE INSERT ON logs BEGIN SELECT RAISE(ABORT, 'full'); END")
        with pytest.raises((StoreError, sqlite3.Error)):
            store.add_game(_Game(0, "g0"), {**record, "logs": ["x\n", "", ""]})
        assert store.count() == 0 and store.logged_seats() == set()
