"""`arena export` and deal books on the command line (`--deals FILE`, `deals = "FILE"`)."""

from __future__ import annotations

import json

import pytest
from support.cli import played, run

pytestmark = pytest.mark.usefixtures("builtin_players_only")

EVENT = """name = "first"
seed = 2
players = ["heuristic", "low", "high"]
table_sizes = [3]
deals = 3
"""


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    return played(tmp_path_factory.mktemp("export"), "first", EVENT).parent


def test_export_to_stdout_and_to_a_file(capsys, first):
    code, out, err = run(capsys, "export", first / "first")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and err == "" and lines[0]["type"] == "header" and lines[0]["games"] == 9
    assert [g["game"] for g in lines[1:]] == list(range(9)) and lines[1]["event"] == "first"
    code, out, err = run(capsys, "export", first / "first", "--no-header", "-o", first / "games.jsonl")
    assert code == 0 and out == "" and err == f"wrote 9 games to {first / 'games.jsonl'}\n"
    assert (first / "games.jsonl").read_text().splitlines() == [json.dumps(g, separators=(",", ":"))
                                                                 for g in lines[1:]]


def test_export_deals_then_an_event_from_the_book_plays_them(capsys, first, tmp_path):
    """`arena export --deals` of the event, then the same event under other players with
    `deals = "book.jsonl"` in its file (relative to the file): identical deals in every game."""
    code, out, err = run(capsys, "export", first / "first", "--deals", "-o", tmp_path / "book.jsonl")
    assert code == 0 and err == f"wrote 3 deals to {tmp_path / 'book.jsonl'}\n"
    (tmp_path / "second.toml").write_text(EVENT.replace('"first"', '"second"').replace('"heuristic"', '"random"')
                                          .replace("deals = 3", 'deals = "book.jsonl"'))
    code, out, err = run(capsys, "tournament", "run", tmp_path / "second.toml", "--results", tmp_path, "-q", "-j", "1")
    assert code == 0 and "second: 9 games scheduled" in err
    one = [json.loads(line) for line in run(capsys, "export", first / "first", "--no-header")[1].splitlines()]
    two = [json.loads(line) for line in run(capsys, "export", tmp_path / "second", "--no-header")[1].splitlines()]
    assert [g["start"]["hands"] for g in one] == [g["start"]["hands"] for g in two]
    assert all(g["start"]["given"] for g in two) and all("random" in g["players"] for g in two)
    code, out, err = run(capsys, "replay", tmp_path / "second", "4")
    assert code == 0 and "Bhabhi" in out
    code, out, err = run(capsys, "compare", "heuristic", "low", "--deals", tmp_path / "book.jsonl", "--table-size", "3",
                         "--field", "high,random", "--results", tmp_path, "-q", "-j", "1")
    assert code == 0 and "3 deals, 18 games" in out


@pytest.mark.parametrize("argv, fragment", [
    (("export", "{first}/first", "--format", "csv"), "--format must be one of jsonl (got 'csv')"),
    (("export", "{tmp}/none"), "no results database in"),
    (("export", "{first}/first", "-o", "{tmp}/no/such/dir/x.jsonl"), "cannot write"),
    (("tournament", "run", "--players", "heuristic,low,high", "--deals", "{tmp}/nothing.jsonl", "--results", "{tmp}"),
     "key 'deals': deal book"),
])
def test_errors_are_one_line(capsys, first, tmp_path, argv, fragment):
    code, out, err = run(capsys, *(a.format(first=first, tmp=tmp_path) for a in argv))
    assert code != 0 and out == "" and err.startswith("error: ") and err.count("\n") == 1 and fragment in err, err
