"""Events and comparisons from a deal book (arena/tournament/book.py): identical deals, determinism, resume."""

from __future__ import annotations

import json
import sqlite3

import pytest
from support.tournaments import records

from arena import Game
from arena.game.seeds import Secret
from arena.plugins.registry import load
from arena.results.stats.paired import CompareTest
from arena.results.store.database import Store
from arena.results.store.export import deal_lines
from arena.tournament.compare import Comparison, compare_spec, field_for
from arena.tournament.errors import ConfigError, TournamentError
from arena.tournament.event import Tournament, schedule, status_lines
from arena.tournament.executors import SerialExecutor
from arena.tournament.spec import spec_from_dict

SECRET = Secret(bytes(range(32)))
EVENT = {"name": "one", "seed": 4, "players": ["heuristic", "low", "high"], "table_sizes": [3, 4], "deals": 2,
         "sandbox": "never"}


@pytest.fixture(scope="module")
def registry():
    return load()


def play(data: dict, folder, registry, secret=SECRET) -> list:
    t = Tournament.create(spec_from_dict(data), folder, registry, secret)
    t.run(SerialExecutor(registry))
    return records(folder)


def write_book(folder, path) -> list[dict]:
    with Store(folder) as store:
        lines = list(deal_lines(store))
    path.write_text("".join(line + "\n" for line in lines))
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def first(tmp_path_factory, registry):
    """A played event and its deals exported as a book."""
    root = tmp_path_factory.mktemp("book")
    games = play(EVENT, root / "one", registry)
    book = write_book(root / "one", root / "book.jsonl")
    return root, games, book


def test_the_export_has_each_deal_once_in_game_order(first):
    """One 3-seat table and one 4-seat table (random fills in), 2 deals each: 4 deals, first games 0, 3, 6, 10."""
    _root, games, book = first
    assert [line["source"]["game"] for line in book] == [0, 3, 6, 10]
    assert [line["players"] for line in book] == [3, 3, 4, 4]
    assert [line["hands"] for line in book] == [games[i][1]["start"]["hands"] for i in (0, 3, 6, 10)]


def test_a_second_event_from_the_book_plays_identical_deals(first, registry):
    """Other players, the same tables: every game has the first event's deal (its hands and dealer) at the
    same place, and its record replays; deals per table come from the book."""
    root, games, _book = first
    data = {**EVENT, "name": "two", "players": ["random", "low", "high"], "deals": str(root / "book.jsonl")}
    spec = spec_from_dict(data)
    assert spec.deals == 2 and spec.book == str(root / "book.jsonl") and len(spec.book_sha256) == 64
    second = play(data, root / "two", registry, Secret(bytes(32)))
    assert len(second) == len(games)
    for (i, a), (j, b) in zip(games, second):
        assert i == j and b["start"] == {**a["start"], "given": True} and b["dealer"] == a["dealer"]
        assert b["names"] != a["names"] or i >= 6  # the 3-seat table's players differ
    assert Game.from_record(second[5][1]).result.to_dict() == second[5][1]["result"]


def test_a_book_event_run_twice_gives_identical_records_and_resumes(first, registry, tmp_path):
    """Same book, same secret: identical records; games deleted from the store are played again the same."""
    root, _games, _book = first
    data = {**EVENT, "name": "b", "deals": str(root / "book.jsonl")}
    once, twice = play(data, tmp_path / "x" / "b", registry), play(data, tmp_path / "y" / "b", registry)
    assert once == twice
    with sqlite3.connect(tmp_path / "y" / "b" / "results.sqlite") as db:
        for table in ("seats", "faults", "games"):
            db.execute(f"DELETE FROM {table} WHERE idx >= 5")
    t = Tournament.open(tmp_path / "y" / "b", registry)
    t.run(SerialExecutor(registry))
    assert records(tmp_path / "y" / "b") == once


def test_a_book_of_positions_plays_each_in_every_rotation(registry, tmp_path):
    """A position line: the players rotate round its seats; every record starts at it and replays."""
    path = tmp_path / "positions.jsonl"
    path.write_text(json.dumps({"players": 3, "hands": [["AS", "2C", "3C"], ["KS", "4D"], ["3D", "QH"]],
                                "leader": 0, "discard": []}) + "\n")
    stored = play({**EVENT, "name": "p", "table_sizes": [3], "deals": str(path)}, tmp_path / "p", registry)
    assert len(stored) == 3 and len({tuple(r["names"]) for _, r in stored}) == 3
    for _, r in stored:
        assert r["start"]["leader"] == 0 and r["start"]["hands"][1] == ["4D", "KS"]  # in hand order
        assert Game.from_record(r).result.to_dict() == r["result"]
    t = Tournament.open(tmp_path / "p", registry)
    assert f"  deals: from the deal book {path}, 1 per table" in status_lines(t)


def test_a_changed_book_is_refused_on_resume(first, registry, tmp_path):
    root, _games, book = first
    path = tmp_path / "mine.jsonl"
    path.write_text((root / "book.jsonl").read_text())
    play({**EVENT, "name": "c", "deals": str(path)}, tmp_path / "c", registry)
    path.write_text("".join(json.dumps(line) + "\n" for line in reversed(book)))
    with pytest.raises(TournamentError, match="has changed since the games were played"):
        Tournament.open(tmp_path / "c", registry)


def test_deals_cycle_when_the_event_has_more_tables(first):
    """Four players: four 3-seat tables share the book's two 3-seat deals (i mod 2) and the one 4-seat
    table plays both 4-seat deals; deals per table: max(ceil(2 / 4), ceil(2 / 1)) = 2."""
    root, _games, book = first
    data = {**EVENT, "name": "d", "players": ["heuristic", "low", "high", "random"],
            "deals": str(root / "book.jsonl")}
    spec = spec_from_dict(data)
    starts = [g.book["hands"] for g in schedule(spec) if g.rotation == 0]
    assert spec.deals == 2 and len(starts) == 5 * 2
    threes = [book[0]["hands"], book[1]["hands"]]
    assert starts[:8] == threes * 4 and starts[8:] == [book[2]["hands"], book[3]["hands"]]


@pytest.mark.parametrize("lines, fragment", [
    (['{"hands": [["AS"], ["KS"], ["QS"]]}', "nope"], "line 2: expected a JSON object \\(got text that is not JSON"),
    (['{"hands": [["AS"], ["KS"], ["QS"]]}'], "line 1: under rules getaway: a deal holds the whole pack"),
    ([], "holds no deal"),
])
def test_a_bad_book_is_one_error_naming_the_line(tmp_path, lines, fragment):
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    with pytest.raises(ConfigError, match=f"key 'deals': .*{fragment}"):
        spec_from_dict({**EVENT, "table_sizes": [3], "deals": str(path)})


def test_table_sizes_must_have_book_deals_and_no_budget(first):
    root, _games, _book = first
    path = str(root / "book.jsonl")
    with pytest.raises(ConfigError, match=r"has no deal for 5 players .it has deals for 3, 4 players"):
        spec_from_dict({**EVENT, "table_sizes": [5], "house": ["random", "random#2"], "deals": path})
    with pytest.raises(ConfigError, match="key 'budget': a deal book fixes the deals"):
        spec_from_dict({**EVENT, "budget": 30, "deals": path})


def test_a_comparison_plays_the_book_deals_in_order(first, registry, tmp_path):
    """A 4-seat book of two deals: the comparison plays both, each in all rotations for A and B."""
    _root, _games, book = first
    path = tmp_path / "four.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in book if line["players"] == 4))
    test = CompareTest("heuristic", "low", "bhabhi", None)
    spec = compare_spec(test, field_for("heuristic", "low"), 400, sandbox="never", book=str(path))
    assert spec.deals == 2
    c = Comparison.create(spec, test, tmp_path / "cmp", registry, SECRET)
    figures = c.run(SerialExecutor(registry))
    stored = records(tmp_path / "cmp")
    assert figures.units == 2 and len(stored) == 16
    assert [r["start"]["hands"] for _, r in stored] == [book[2]["hands"]] * 8 + [book[3]["hands"]] * 8
