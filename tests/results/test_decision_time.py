"""The ``ms/dec`` column: the mean CPU time per play decision, take decisions left out; what the store keeps."""

from __future__ import annotations

import sqlite3

import pytest

from broken_bot import TakerBot
from broken_bot.results import StoredGame

from arena import PlayerSpec, Rules
from arena.bots.referee import InProcessClient, play_game
from arena.plugins.registry import load
from arena.results.report.html import _RATING_COLUMNS
from arena.results.stats.ratings import DECISION_MS_HELP, rate
from arena.results.stats.standings import outcomes, rating_params
from arena.results.store.database import Store

NAMES = ["taker", "low", "high", "random"]


@pytest.fixture(scope="module")
def records() -> list[dict]:
    """Six bhabho games in which seat 0 takes whenever it may (so it has take decisions)."""
    registry = load(autoload=False)
    specs = [PlayerSpec("taker", TakerBot, trusted=True), *(registry.get(n) for n in NAMES[1:])]
    return [play_game(Rules.preset("bhabho"), [InProcessClient(s) for s in specs], 50 + i, names=NAMES)
            for i in range(6)]


def _store(folder, records) -> Store:
    store = Store(folder, create=True)
    for i, record in enumerate(records):
        store.add_game(StoredGame(i, f"g{i}", 50 + i, 0), record)
    return store


def test_summary_counts_play_decisions_apart(records):
    """The referee's summary counts the play decisions and their CPU time apart from the take decisions."""
    taker = [r["timings"][0] for r in records]
    assert sum(t["decisions"] - t["plays"] for t in taker) > 0, "the taker never had a take decision"
    for record in records:
        for t in record["timings"]:
            # both sides are rounded to 0.001 ms: the sum of the rounded times may fall short of the rounded sum
            slack = 0.0005 * (t["decisions"] + 1)
            assert 0 < t["plays"] <= t["decisions"] and t["play_cpu_ms"] <= sum(t["cpu_ms"]) + slack


def test_ms_per_decision_is_the_mean_over_play_decisions(tmp_path, records):
    """A player's ms/dec is the CPU time of all its play decisions over their number, takes left out."""
    with _store(tmp_path / "r", records) as store:
        table = rate(outcomes(store), **rating_params(None))
        rows = store.seat_rows()
    for seat, name in enumerate(NAMES):
        total = sum(r["timings"][seat]["play_cpu_ms"] for r in records)
        plays = sum(r["timings"][seat]["plays"] for r in records)
        assert table.row(name).decision_ms == pytest.approx(total / plays)
    assert [r["plays"] for r in rows] == [r["timings"][s]["plays"] for r in records for s in range(4)]


def test_ms_per_decision_is_defined_in_the_column_help():
    """The report's column help is the one definition (and it says takes are not counted)."""
    help_text = next(c.tip for c in _RATING_COLUMNS if c.header == "ms/dec")
    assert help_text == DECISION_MS_HELP and "play decision" in help_text and "take" in help_text


def test_store_keeps_summaries_not_per_decision_lists(tmp_path, records):
    """The stored record has no ``timings``; the seats table holds the per-game summary only."""
    with _store(tmp_path / "r", records) as store:
        assert "timings" not in store.record(0)
        columns = [r[1] for r in store.db.execute("PRAGMA table_info(seats)")]
    assert {"decisions", "cpu_ms_median", "cpu_ms_max", "plays", "play_cpu_ms"} <= set(columns)
    assert not {"cpu_ms", "wall_ms"} & set(columns)


def test_a_database_from_before_play_timings_still_works(tmp_path, records):
    """A results database without the plays columns opens, takes new games, and shows ms/dec as none."""
    folder = tmp_path / "old"
    _store(folder, records[:3]).close()
    db = sqlite3.connect(folder / "results.sqlite")
    db.execute("ALTER TABLE seats DROP COLUMN plays")
    db.execute("ALTER TABLE seats DROP COLUMN play_cpu_ms")
    db.commit()
    db.close()
    with Store(folder) as store:
        for i, record in enumerate(records[3:], start=3):
            store.add_game(StoredGame(i, f"g{i}", 50 + i, 0), record)
        table = rate(outcomes(store), **rating_params(None))
        assert store.count() == 6
    assert all(r.decision_ms is None for r in table.rows)
    assert table.row("taker").games == 6
