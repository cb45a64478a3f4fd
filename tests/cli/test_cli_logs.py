"""`arena logs` and `arena play`'s output section, from outside: an installed bot package whose bots print
and raise, sandboxed, through a real tournament run (tests/support/chatty.py)."""

from __future__ import annotations

import json

import pytest
from support.chatty import arena, chatty_results

from arena.results.store.database import Store


@pytest.fixture(scope="module")
def chatty(tmp_path_factory, zygote):
    """(site, results folder, {game: names}) of the chatty tournament."""
    site, results = chatty_results(zygote, tmp_path_factory.mktemp("chatty"))
    with Store(results) as store:
        names = {i: r["names"] for i, r in store.records()}
    return site, results, names


def _seat(names: list[str], player: str) -> int:
    return names.index(player)


def test_logs_prints_every_seat_that_printed(chatty, zygote):
    """Every game: the printer's lines (stdout and stderr) and the raiser's crash with its traceback,
    under a heading naming the seat; the quiet seat has no heading."""
    site, results, games = chatty
    assert len(games) == 6
    for game, names in games.items():
        done = arena(zygote, site, "logs", str(results), str(game))
        assert done.returncode == 0 and done.stderr == ""
        lines = done.stdout.splitlines()
        p, r, q = (_seat(names, n) for n in ("chatty-printer", "chatty-raiser", "random"))
        assert f"--- chatty-printer[{p}]: its output ---" in lines
        assert f"--- chatty-raiser[{r}]: its output ---" in lines
        assert not any(line.startswith(f"--- random[{q}]") for line in lines)
        assert f"printer: new game, seat {p}" in lines and "printer: to stderr 3" in lines
        assert lines.count("[arena: crash: ValueError: raiser gives up at decision 2]") >= 1
        assert "ValueError: raiser gives up at decision 2" in lines
        assert any('arena_chatty/__init__.py", line' in line and "in helper" in line for line in lines)


def test_logs_of_one_seat(chatty, zygote):
    """A seat's log alone; a seat without output says so."""
    site, results, games = chatty
    names = games[0]
    p, q = _seat(names, "chatty-printer"), _seat(names, "random")
    done = arena(zygote, site, "logs", str(results), "0", str(p))
    lines = done.stdout.splitlines()
    assert done.returncode == 0
    assert lines[0] == f"--- chatty-printer[{p}]: its output ---"
    assert lines[1] == f"printer: new game, seat {p}"
    assert lines[-1].startswith("printer: game over after ")
    assert not any("raiser" in line for line in lines)
    quiet = arena(zygote, site, "logs", str(results), "0", str(q))
    assert (quiet.returncode, quiet.stdout) == (0, f"--- random[{q}]: no output ---\n")


@pytest.mark.parametrize("args, message", [
    (["9"], "error: no game '9' in {results} (games are numbered 0..5 or named by game id)"),
    (["0", "3"], "error: game 0 has no seat 3 (its seats are 0..2: {names})"),
    (["0", "--", "-1"], "error: game 0 has no seat -1 (its seats are 0..2: {names})"),
])
def test_logs_errors_are_one_line(chatty, zygote, args, message):
    site, results, games = chatty
    done = arena(zygote, site, "logs", str(results), *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == message.format(results=results, names=", ".join(games[0])) + "\n"


def test_logs_of_a_missing_folder(chatty, zygote, tmp_path):
    site = chatty[0]
    done = arena(zygote, site, "logs", str(tmp_path / "nowhere"), "0")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"error: no results folder {tmp_path / 'nowhere'} (expected the folder a tournament "
                           f"wrote, e.g. results/quick)\n")
    empty = arena(zygote, site, "logs", str(tmp_path), "0")
    assert empty.returncode == 2 and empty.stderr.startswith("error: no results database in ")


def test_play_shows_each_bots_output_after_the_game(chatty, zygote):
    """`arena play` with the sandboxed chatty bots: the game, then each seat's output; --no-logs hides it;
    --json keeps stdout a record and puts the output on stderr."""
    site = chatty[0]
    seats = ["--seats", "chatty-printer,chatty-raiser,random", "--seed", "3"]
    done = arena(zygote, site, "play", *seats)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    at = lines.index("--- chatty-printer[0]: its output ---")
    assert lines[at - 1].startswith("Finishing order:")
    assert lines[at + 1] == "printer: new game, seat 0"
    assert "--- chatty-raiser[1]: its output ---" in lines[at:]
    assert "ValueError: raiser gives up at decision 2" in lines[at:]
    assert sum(line.startswith("printer: decision") for line in lines) >= 10
    hidden = arena(zygote, site, "play", *seats, "--no-logs")
    assert hidden.stdout == "\n".join(lines[:at]) + "\n"
    as_json = arena(zygote, site, "play", *seats, "--json")
    record = json.loads(as_json.stdout)
    assert "logs" not in record and record["names"] == ["chatty-printer", "chatty-raiser", "random"]
    assert "--- chatty-printer[0]: its output ---" in as_json.stderr.splitlines()
