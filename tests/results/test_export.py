"""Exporting a results folder (arena/results/store/export.py): the JSON lines of games, and its deals as a book."""

from __future__ import annotations

import json
import tracemalloc

from broken_bot.results import StoredGame, make_results

from arena import Game
from arena.results.store.database import Store, Transaction
from arena.results.store.export import EXPORT_VERSION, deal_lines, game_lines


def test_a_header_then_every_record_with_its_number_event_and_players(tmp_path):
    folder = make_results(tmp_path / "r", games=6)
    with Store(folder) as store:
        lines = [json.loads(line) for line in game_lines(store)]
        stored = list(store.records())
    head, games = lines[0], lines[1:]
    assert head["type"] == "header" and head["export_version"] == EXPORT_VERSION and head["games"] == 6
    assert head["event"] == "report-test" and head["spec"]["seed"] == 7
    assert {p["name"] for p in head["players"]} >= {"heuristic", "cheat"}
    assert [g["game"] for g in games] == list(range(6)) and [g["game_id"] for g in games] == [f"test-{i}" for i in range(6)]
    for g, (_, record) in zip(games, stored):
        assert g["type"] == "game" and g["event"] == "report-test"
        assert g["players"] == record["names"] and g["table_size"] == record["players"] == len(g["players"])
        assert g["events"] == record["events"] and g["result"] == record["result"] and g["faults"] == record["faults"]
        again = {**record, "players": g["table_size"]}  # the record is all there: it replays
        assert Game.from_record(again).result.to_dict() == g["result"]
    with Store(folder) as store:
        assert [json.loads(line)["game"] for line in game_lines(store, with_header=False)] == list(range(6))


def test_the_export_streams_in_constant_memory(tmp_path):
    """The peak memory of exporting a store of 1,000 games is that of a store of 100: one record at a
    time (reading them all first would hold about 5 MB more)."""
    def copies(games: int):
        folder = make_results(tmp_path / str(games), games=1)
        with Store(folder) as store, Transaction(store.db):  # one commit for the copies, not one each
            record = store.record(0)
            for i in range(1, games):
                store.add_game(StoredGame(i, f"test-{i}", 1000 + i, 0), record)
        return folder

    def peak(folder) -> int:
        with Store(folder) as store:
            tracemalloc.start()
            assert sum(1 for _ in game_lines(store, with_header=False)) == store.count()
            size = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        return size

    small, large = peak(copies(100)), peak(copies(1000))
    assert large < 1.5 * small + 200_000, (small, large)


def test_deal_lines_give_each_deal_once(tmp_path):
    """Records that share a deal (a deal's rotations) give one book line, at the first of them."""
    folder = make_results(tmp_path / "r", games=3)
    with Store(folder) as store:
        record = store.record(1)
        store.add_game(StoredGame(3, "test-3", 1001, 1), {**record, "names": list(reversed(record["names"]))})
        lines = [json.loads(line) for line in deal_lines(store)]
    assert [line["source"]["game"] for line in lines] == [0, 1, 2]
    assert lines[1]["hands"] == record["start"]["hands"] and lines[1]["source"]["game_id"] == "test-1"
