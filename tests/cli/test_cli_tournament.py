"""The tournament commands of `arena`: run, resume, status, ratings, replay, and their one-line errors.

Commands run through :func:`arena.cli.app.main` with capsys, with the built-in
players only, serially (``--jobs 1``) unless a test is about the pool.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena import Game
from arena.cli.app import app
from support.cli import played, run

QUICK = """# a small test event
name = "tiny"
seed = 5
rules = ["getaway", "donkey"]
players = ["heuristic", "low", "high"]
table_sizes = [3, 4]
deals = 1
"""
TINY_GAMES = 2 * (3 + 4)  # two rule sets; one 3-seat table, one 4-seat table (random fills in)


pytestmark = pytest.mark.usefixtures("builtin_players_only")


def one_error_line(code: int, out: str, err: str, *fragments: str) -> str:
    """A non-zero exit, nothing on stdout, one 'error:' line on stderr holding the fragments."""
    assert code != 0 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.fixture()
def event(tmp_path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(QUICK)
    return path


@pytest.fixture(scope="module")
def done(tmp_path_factory) -> Path:
    """A finished results folder of the tiny event (made through the CLI)."""
    return played(tmp_path_factory.mktemp("cli"), "tiny", QUICK)


def copy_without(done: Path, tmp_path: Path, first: int) -> Path:
    """A copy of the finished folder without its games from ``first`` on (as if killed there)."""
    copy = tmp_path / "tiny"
    shutil.copytree(done, copy)
    with sqlite3.connect(copy / "results.sqlite") as db:
        db.execute("DELETE FROM seats WHERE idx >= ?", (first,))
        db.execute("DELETE FROM games WHERE idx >= ?", (first,))
    return copy


# ------------------------------------------------------------- run
def test_run_file_prints_the_table(capsys, event, tmp_path):
    """`tournament run FILE`: one line on stderr about the schedule (and one that so few games give rough
    ratings), the rating table on stdout."""
    code, out, err = run(capsys, "tournament", "run", event, "--results", tmp_path, "-q", "--jobs", "1")
    assert code == 0
    assert err.splitlines()[0] == f"tiny: {TINY_GAMES} games scheduled, {TINY_GAMES} to play -> {tmp_path / 'tiny'}"
    assert len(err.splitlines()) == 2 and err.splitlines()[1].startswith("note: ")
    lines = out.splitlines()
    assert lines[0] == f"{TINY_GAMES} games" and lines[1].split()[:2] == ["rank", "player"]
    assert {line.split()[1] for line in lines[3:]} == {"heuristic", "low", "high", "random"}
    assert (tmp_path / "tiny" / "results.sqlite").exists()


def test_run_again_plays_nothing_more(capsys, event, done):
    """Running a finished tournament again (other --jobs allowed) plays nothing and prints the table."""
    code, out, err = run(capsys, "tournament", "run", event, "--results", done.parent, "-q", "--jobs", "2")
    assert code == 0 and f"{TINY_GAMES} games scheduled, 0 to play" in err
    assert out.startswith(f"{TINY_GAMES} games\n")


def test_run_with_flags_only(capsys, tmp_path):
    """Every setting as a flag: players, rules, sizes, deals, seed, house, limits, table format."""
    code, out, err = run(capsys, "tournament", "run", "--players", "heuristic,low,high", "--name", "flags",
                         "--rules", "champions", "--table-sizes", "4", "--deals", "2", "--seed", "9",
                         "--house", "random#2", "--decision-ms", "500", "--fault-policy", "random",
                         "--sandbox", "never", "--results", tmp_path, "-q", "--jobs", "1",
                         "--table-format", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert {r["player"] for r in rows} == {"heuristic", "low", "high", "random#2"}
    assert all(r["games"] == 8 for r in rows)
    code, out, err = run(capsys, "tournament", "status", tmp_path / "flags")
    assert "rules: champions fault_policy=random; table sizes 4" in out and "games: 8 of 8 stored" in out


def test_flags_alone_play_enough_deals_for_a_readable_table(capsys, tmp_path):
    """`--players a,b,c,d` without --deals: enough deals for about 400 games, said on stderr; every player
    gets them all, so no note about too few games."""
    code, out, err = run(capsys, "tournament", "run", "--players", "heuristic,low,high,random", "--results",
                         tmp_path, "-q", "--jobs", "1", "--sandbox", "never", "--table-format", "json")
    assert code == 0, err
    assert "cli: no --deals given: 100 deals a table, 400 games (--deals N for another number)" in err
    assert "cli: 400 games scheduled" in err and "note:" not in err
    assert {r["games"] for r in json.loads(out)} == {400}


def test_a_run_of_few_games_says_so(capsys, event, tmp_path):
    """One deal a table (4 games) is played as asked, with a line saying how few that is; a file's deals
    are its own (no default is put in)."""
    code, _, err = run(capsys, "tournament", "run", "--players", "heuristic,low,high,random", "--deals", "1",
                       "--results", tmp_path, "-q", "--jobs", "1", "--sandbox", "never")
    assert code == 0 and "cli: 4 games scheduled" in err and "no --deals given" not in err
    assert ("note: heuristic plays only 4 of the 4 games: ratings from so few are rough (sigma stays large); "
            "--deals N plays more") in err.splitlines()
    code, _, err = run(capsys, "tournament", "run", event, "--results", tmp_path, "-q", "--jobs", "1")
    assert code == 0 and f"tiny: {TINY_GAMES} games scheduled" in err and "no --deals given" not in err
    assert "note: " in err


def test_flags_override_the_file(capsys, event, tmp_path):
    """A flag wins over the file's key."""
    code, _out, err = run(capsys, "tournament", "run", event, "--table-sizes", "3", "--rules", "getaway",
                         "--name", "over", "--results", tmp_path, "-q", "--jobs", "1")
    assert code == 0 and "over: 3 games scheduled" in err


def test_gauntlet_from_flags(capsys, tmp_path):
    """A gauntlet: the candidate at every table against the field."""
    code, out, err = run(capsys, "tournament", "run", "--players", "low,high,random", "--format", "gauntlet",
                         "--candidates", "heuristic", "--table-sizes", "3", "--name", "g", "--results", tmp_path,
                         "-q", "--jobs", "1", "--table-format", "json", "--deals", "1")
    assert code == 0, err
    games = {r["player"]: r["games"] for r in json.loads(out)}
    assert games["heuristic"] == 9 and games["low"] == 6


def test_run_on_a_pool_of_two(capsys, event, tmp_path):
    """--jobs 2 runs on the worker pool and gives the table."""
    code, out, err = run(capsys, "tournament", "run", event, "--results", tmp_path, "-q", "--jobs", "2",
                         "--table-format", "csv")
    assert code == 0, err
    assert out.splitlines()[0].startswith("rank,player,conservative,mu,sigma")
    assert len(out.splitlines()) == 5


def test_progress_display_keeps_stdout_for_the_table(capsys, event, tmp_path):
    """Without --quiet, stdout still holds only the table (the progress display belongs on stderr)."""
    code, out, _err = run(capsys, "tournament", "run", event, "--results", tmp_path, "--jobs", "1",
                         "--table-format", "json")
    assert code == 0
    json.loads(out)


def test_batch_flag(capsys, event, tmp_path):
    """--batch sets the games per worker task, like the file's batch key."""
    code, _out, err = run(capsys, "tournament", "run", event, "--batch", "2", "--results", tmp_path, "-q",
                         "--jobs", "1")
    assert code == 0, err


def test_live_table_every_n_games_and_a_line_per_game(capsys, event, tmp_path):
    """--interval 7g: the rating table so far after 7 and 14 games (on stderr); --log-games: a line per game
    with its number, seats, Bhabhi and faults; stdout holds only the final table."""
    code, out, err = run(capsys, "tournament", "run", event, "--results", tmp_path, "--jobs", "1",
                         "--interval", "7g", "--log-games")
    assert code == 0, err
    lines = err.splitlines()
    logged = [line for line in lines if line.startswith("game ")]
    assert sorted(int(line.split()[1]) for line in logged) == list(range(TINY_GAMES))
    assert any(line.startswith("game 0 rr-0-3p-0000-d0-r0: seats ") for line in logged)
    assert all("; Bhabhi " in line and line.endswith("; faults none") for line in logged)
    assert [line for line in lines if line.endswith(" games") and line[0].isdigit()] == ["7 games", "14 games"]
    assert lines.index("7 games") == lines.index(logged[6]) + 1  # the table comes right after the 7th game
    assert out.startswith(f"{TINY_GAMES} games\n") and "game " not in out


def test_resume_has_the_live_table_too(capsys, done, tmp_path):
    """resume takes --interval and --log-games: a line per game it plays; -q drops the tables, not the lines."""
    copy = copy_without(done, tmp_path, 10)
    code, _out, err = run(capsys, "tournament", "resume", copy, "-q", "--jobs", "1", "--interval", "1g",
                         "--log-games")
    logged = [line.split(":")[0] for line in err.splitlines() if line.startswith("game ")]
    assert code == 0 and sorted(logged) == [f"game {i} rr-1-4p-0000-d0-r{i - 10}" for i in range(10, TINY_GAMES)]
    assert "rank" not in err
    one_error_line(*run(capsys, "tournament", "resume", done, "--interval", "often"),
                   "--interval expects seconds or games with a g")


# ------------------------------------------------------------- resume and status
def test_resume_finished_and_status(capsys, done):
    """resume of a finished tournament plays nothing; status reports it complete without a resume hint."""
    code, out, err = run(capsys, "tournament", "resume", done, "-q", "--jobs", "1")
    assert code == 0 and f"{TINY_GAMES} games scheduled, 0 to play" in err
    assert out.startswith(f"{TINY_GAMES} games\n")
    code, out, err = run(capsys, "tournament", "status", done)
    assert code == 0 and err == ""
    assert out.splitlines()[0] == f"tournament tiny in {done}"
    assert f"games: {TINY_GAMES} of {TINY_GAMES} stored (100.0%)" in out and "faults: 0" in out
    assert "player heuristic " in out and "resume with" not in out


def test_resume_plays_the_missing_games(capsys, done, tmp_path):
    """Games deleted from a copy are played again by resume, giving the same records."""
    copy = copy_without(done, tmp_path, 8)
    code, out, err = run(capsys, "tournament", "status", copy)
    assert f"games: 8 of {TINY_GAMES}" in out and f"resume with: arena tournament resume {copy}" in out
    code, out, err = run(capsys, "tournament", "resume", copy, "-q", "--jobs", "1")
    assert code == 0 and f"{TINY_GAMES - 8} to play" in err
    for game in (8, TINY_GAMES - 1):
        assert run(capsys, "replay", copy, game, "--json")[1] == run(capsys, "replay", done, game, "--json")[1]


# ------------------------------------------------------------- ratings and replay
def test_ratings_tables(capsys, done):
    """`arena ratings`: the table, --by each grouping, -f csv/json/github, --head-to-head."""
    code, out, _err = run(capsys, "ratings", done)
    assert code == 0 and out.startswith(f"{TINY_GAMES} games\n")
    code, out, _ = run(capsys, "ratings", done, "--by", "table-size")
    assert "table-size 3: 6 games" in out and "table-size 4: 8 games" in out
    code, out, _ = run(capsys, "ratings", done, "--by", "rules", "-f", "json")
    assert set(json.loads(out)) == {"getaway", "donkey"}
    code, out, _ = run(capsys, "ratings", done, "--by", "seat", "-f", "github")
    assert "seat 3: 8 games" in out and "|" in out
    code, out, _ = run(capsys, "ratings", done, "-f", "csv")
    assert out.splitlines()[0].startswith("rank,player,") and len(out.splitlines()) == 5
    code, out, _ = run(capsys, "ratings", done, "--head-to-head")
    assert out.startswith("row finished ahead of column")
    code, out, _ = run(capsys, "ratings", done, "--head-to-head", "-f", "json")
    assert {p["row"] for p in json.loads(out)} == {"heuristic", "low", "high", "random"}


def test_replay_by_number_and_id(capsys, done):
    """`arena replay FOLDER GAME` tells a stored game trick by trick; by number or game id; --json replays."""
    code, out, err = run(capsys, "replay", done, "0")
    assert code == 0 and err == "" and "Trick  1:" in out
    assert "Bhabhi: " in out or "draw" in out.lower()
    code, record_text, _ = run(capsys, "replay", done, "3", "--json")
    record = json.loads(record_text)
    Game.from_record(record)
    code, by_id, _ = run(capsys, "replay", done, record["schedule"]["id"], "--json")
    assert json.loads(by_id) == record


# ------------------------------------------------------------- errors
ERRORS = [
    (["tournament", "run"], ["expected a tournament file or --players", "got neither"]),
    (["tournament", "run", "{tmp}/missing.toml"], ["missing.toml: no such tournament file"]),
    (["tournament", "run", "no-such-event"],
     ["no tournament file 'no-such-event' here and no ready event of that name", "quick", "ladder"]),
    (["tournament", "run", "{event}", "--table-sizes", "3,x"], ["--table-sizes expects numbers 3-8"]),
    (["tournament", "run", "{event}", "--table-sizes", "9"], ["tiny.toml: key 'table_sizes'", "3-8"]),
    (["tournament", "run", "{event}", "--rules", "playnest", "--table-sizes", "8"],
     ["tiny.toml: key 'table_sizes'", "3-6 for 'playnest'"]),
    (["tournament", "run", "{event}", "--rules", "nope"], ["tiny.toml: key 'rules'", "unknown preset 'nope'"]),
    (["tournament", "run", "{event}", "--format", "swiss"], ["tiny.toml: key 'format'"]),
    (["tournament", "run", "{event}", "--format", "gauntlet"], ["tiny.toml: key 'candidates'"]),
    (["tournament", "run", "{event}", "--decision-ms", "-5"], ["tiny.toml: key 'limits.decision_ms'", ">= 0"]),
    (["tournament", "run", "{event}", "--sandbox", "sometimes"], ["tiny.toml: key 'sandbox'"]),
    (["tournament", "run", "{event}", "--fault-policy", "x"], ["tiny.toml: key 'fault_policy'"]),
    (["tournament", "run", "{event}", "--players", "low,nobody,high"],
     ["tiny.toml: key 'players': unknown player 'nobody'", "known players:"]),
    (["tournament", "run", "--players", "low,high,low"], ["command line: key 'players'", "listed twice"]),
    (["tournament", "run", "--players", "low,high", "--table-sizes", "6"],
     ["command line: key 'table_sizes'", "table size 6 needs 6 distinct players", "e.g. random,low#2,high#2,random#2"]),
    (["tournament", "run", "{event}", "--deals", "x"], ["key 'deals'", "deal book", "x: no such file"]),
    (["tournament", "run", "{event}", "--bogus"], ["No such option: --bogus"]),
    (["tournament", "resume", "{tmp}/none"], ["no results database in"]),
    (["tournament", "status", "{tmp}/none"], ["no results database in"]),
    (["tournament", "resume"], ["Missing argument"]),
    (["ratings", "{tmp}/none"], ["no results database in"]),
    (["ratings", "{done}", "--by", "colour"], ["--by must be one of table-size, rules, seat", "'colour'"]),
    (["ratings", "{done}", "-f", "bogus"], ["format must be csv, json or a tabulate format"]),
    (["ratings", "{done}", "--head-to-head", "-f", "bogus"], ["format must be csv, json"]),
    (["replay", "{done}"], ["expected a game number or id after the results folder", "(got only "]),
    (["replay", "{done}", "999"], ["no game '999'"]),
    (["replay", "{done}", "nope"], ["no game 'nope'"]),
]


@pytest.mark.parametrize("argv, fragments", ERRORS)
def test_errors_are_one_line(capsys, tmp_path, event, done, argv, fragments):
    """Each mistake: one 'error:' line on stderr, nothing on stdout, a non-zero exit, no traceback."""
    args = [a.format(tmp=tmp_path, event=event, done=done) for a in argv]
    if args[:2] == ["tournament", "run"] and "--results" not in args and args[2:3] != ["--bogus"]:
        args += ["--results", str(tmp_path), "--jobs", "1", "-q"]
    one_error_line(*run(capsys, *args), *fragments)


def test_other_tournament_in_the_folder(capsys, event, done):
    """Running a changed file into a folder holding the old tournament: one error line naming the change."""
    one_error_line(*run(capsys, "tournament", "run", event, "--deals", "2", "--results", done.parent, "-q"),
                   "already holds a different tournament (deals 1, now 2)",
                   f"arena tournament resume {done}")


@pytest.mark.parametrize("argv", [["tournament", "--help"], ["tournament", "run", "--help"],
                                  ["tournament", "resume", "--help"], ["tournament", "status", "--help"],
                                  ["ratings", "--help"], ["replay", "--help"]])
def test_help(capsys, argv):
    """Every tournament command has --help."""
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == "" and out.startswith("Usage: arena")


def test_cli_runner_sees_the_tournament_commands(done):
    """typer's CliRunner: the commands are listed and `ratings` works."""
    runner = CliRunner()
    result = runner.invoke(app, ["tournament", "--help"])
    assert result.exit_code == 0
    for command in ("run", "resume", "status"):
        assert command in result.output
    result = runner.invoke(app, ["ratings", str(done), "-f", "json"])
    assert result.exit_code == 0 and json.loads(result.output)
