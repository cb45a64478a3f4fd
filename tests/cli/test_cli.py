"""The `arena` command line: every command, and every documented error as one line on stderr.

Commands run through :func:`arena.cli.app.main` (what the console script calls) with
capsys; `--help` goes through typer's CliRunner. Third-party plugins are not
loaded here, so the tables hold the built-in players only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import arena
from arena import Game
from arena.cli.app import app
from arena.plugins.registry import DISABLE_ENV
from arena.game.rules import OPTIONS, PRESETS
from support.cli import run

BUILTIN = ("heuristic", "high", "learned", "low", "openspiel-ismcts", "random", "sampler")


pytestmark = pytest.mark.usefixtures("builtin_players_only")


def assert_one_error_line(code: int, out: str, err: str, *fragments: str) -> str:
    """A non-zero exit, nothing on stdout, exactly one stderr line starting 'error:' holding the fragments."""
    assert code != 0
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


# ------------------------------------------------------------- commands
def test_players_table(capsys):
    """`arena players` shows every built-in player with plugin, version, trust and description."""
    code, out, err = run(capsys, "players")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["player", "plugin", "version", "trusted", "description"]
    rows = {line.split()[0]: line.split(None, 4) for line in lines[2:] if not line.startswith(" ")}
    assert sorted(rows) == list(BUILTIN)  # the other lines continue a description
    assert max(map(len, lines)) <= 80
    for _name, (_, plugin, version, trusted, description) in rows.items():
        assert (plugin, version, trusted) == ("players", arena.__version__, "yes")
        assert description


def test_variants_lists_presets_and_options(capsys):
    """`arena variants` lists every preset with its seat range and every option with its values."""
    code, out, err = run(capsys, "variants")
    assert code == 0 and err == ""
    for name, rules in PRESETS.items():
        line = next(line for line in out.splitlines() if line.startswith(name + " "))
        assert f"{rules.min_players}-{rules.max_players}" in line
    for option in OPTIONS:
        assert any(line.startswith(option + " ") for line in out.splitlines()), option
    assert "draw_next_hand" in out and "--set OPTION=VALUE" in out


def test_play_prints_tricks(capsys):
    """`arena play` tells the game trick by trick with suit symbols, pick-ups, outs and the Bhabhi."""
    code, out, err = run(capsys, "play", "--rules", "getaway", "--seats", "heuristic,random,low,high",
                         "--seed", "7")
    assert code == 0 and err == ""
    assert out.startswith("getaway rules, 4 players, seed 7")
    assert "Trick  1:" in out and "♠" in out
    assert "cuts (thulla)!" in out and "picks up" in out
    assert "is out (1st)" in out
    assert out.count("Bhabhi: ") == 1 and "Finishing order:" in out


def test_play_json_is_a_replayable_record(capsys):
    """`arena play --json` prints the game record, which replays exactly."""
    code, out, err = run(capsys, "play", "--seats", "heuristic,random,low", "--seed", "3", "--json")
    assert code == 0 and err == ""
    record = json.loads(out)
    assert record["names"] == ["heuristic", "random", "low"] and record["play_seed"] == 3
    assert Game.from_record(record).to_record()["events"] == record["events"]


def test_play_same_seed_same_game(capsys):
    """The same command twice prints the same game; another seed gives another deal."""
    args = ("play", "--seats", "heuristic,random,low,high", "--seed", "5", "--json")
    first, second = json.loads(run(capsys, *args)[1]), json.loads(run(capsys, *args)[1])
    assert first["events"] == second["events"]
    other = json.loads(run(capsys, "play", "--seats", "heuristic,random,low,high", "--seed", "6", "--json")[1])
    assert other["start"] != first["start"]


def test_play_set_overrides_rules(capsys):
    """`--set` overrides options with typed values (strings, booleans, numbers)."""
    code, out, err = run(capsys, "play", "--rules", "getaway", "--set", "escape=pass", "--set", "shootout=true",
                         "--set", "max_faults=3", "--seats", "random,random,random", "--json")
    assert code == 0 and err == ""
    rules = json.loads(out)["rules"]
    assert (rules["escape"], rules["shootout"], rules["max_faults"]) == ("pass", True, 3)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_play_every_preset(capsys, preset):
    """Every preset plays from the CLI at its smallest table."""
    seats = (["heuristic", "random", "low", "high"] * 2)[:PRESETS[preset].seat_range[0]]
    code, out, err = run(capsys, "play", "--rules", preset, "--seats", ",".join(seats), "--json")
    assert code == 0 and err == ""
    assert json.loads(out)["rules"]["name"] == preset


def test_new_bot_creates_package(capsys, tmp_path):
    """`arena new-bot` writes the package and says what to do next."""
    code, out, err = run(capsys, "new-bot", "cli-made-bot", "--dir", str(tmp_path))
    assert code == 0 and err == ""
    target = tmp_path / "cli-made-bot"
    assert f"created {target}" in out and f"pip install -e {target}" in out
    assert (target / "pyproject.toml").is_file() and (target / "cli_made_bot" / "__init__.py").is_file()


def test_new_bot_next_line_names_the_arenas_pip(capsys, tmp_path, monkeypatch):
    """The next step says `pip` where PATH finds this environment's pip first (its venv active), else the
    full path of this environment's pip and arena, so the line works as written in either shell."""
    here = Path(sys.executable).parent
    if not (here / "pip").exists() or not (here / "arena").exists():
        pytest.skip("no pip and arena beside this interpreter")
    monkeypatch.setenv("PATH", f"{here}{os.pathsep}/usr/bin{os.pathsep}/bin")
    code, out, _ = run(capsys, "new-bot", "path-bot", "--dir", tmp_path / "a")
    assert code == 0 and f"next:  pip install -e {tmp_path / 'a' / 'path-bot'}   then   arena players" in out
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    code, out, _ = run(capsys, "new-bot", "path-bot", "--dir", tmp_path / "b")
    assert code == 0 and (f"next:  {here / 'pip'} install -e {tmp_path / 'b' / 'path-bot'}   then   "
                          f"{here / 'arena'} players") in out


def test_bench_engine_tiny(capsys):
    """`arena bench engine` with tiny sizes prints games per second."""
    code, out, err = run(capsys, "bench", "engine", "--games", "3", "--repeats", "1", "--players", "5",
                         "--rules", "donkey")
    assert code == 0 and err == ""
    assert out.startswith("engine: donkey, 5 players")
    assert out.count("games/s") == 2


@pytest.mark.parametrize("argv", [[], ["--help"], ["players", "--help"], ["variants", "--help"],
                                  ["play", "--help"], ["new-bot", "--help"], ["bench", "--help"],
                                  ["bench", "engine", "--help"]])
def test_help_everywhere(capsys, argv):
    """Every command has --help (and plain `arena` shows the help), exiting 0."""
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    assert out.startswith("Usage: arena")


def test_help_with_cli_runner():
    """typer's CliRunner sees the same app: every command is listed in the top-level help."""
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("players", "variants", "play", "new-bot", "bench"):
        assert command in result.output


def test_cli_runner_players_and_play():
    """The commands work under typer's CliRunner too."""
    runner = CliRunner()
    result = runner.invoke(app, ["players"])
    assert result.exit_code == 0 and "heuristic" in result.output
    result = runner.invoke(app, ["play", "--seats", "low,high,random", "--seed", "2"])
    assert result.exit_code == 0 and "Bhabhi: " in result.output


# --------------------------------------------------------------- errors
@pytest.mark.parametrize("argv, fragments", [
    # unknown player: the message lists the known ones
    (["play", "--seats", "heuristic,nobody,low"],
     ["unknown player 'nobody'", "heuristic, high, learned, low, openspiel-ismcts, random, sampler"]),
    # wrong seat count for the rules
    (["play", "--seats", "random,random"], ["players must be 3-8", "(got 2)"]),
    (["play", "--seats", ",".join(["random"] * 9)], ["players must be 3-8", "(got 9)"]),
    (["play", "--rules", "playnest", "--seats", ",".join(["low"] * 7)], ["players must be 3-6", "(got 7)"]),
    (["play", "--rules", "getaway-2deck", "--seats", "low,low,low,low"], ["7-8", "(got 4)"]),
    (["play", "--seats", " , "], ["--seats expects player names separated by commas", "(got ' , ')"]),
    # bad option or value
    (["play", "--set", "escape=drwa"], ["option 'escape' must be one of", "(got 'drwa')"]),
    (["play", "--set", "shootout=yes"], ["option 'shootout'", "(got 'yes')"]),
    (["play", "--set", "bogus=1"], ["unknown option 'bogus'"]),
    (["play", "--set", "decks=2"], ["option 'decks' 2"]),
    (["play", "--set", "max_faults=0"], ["option 'max_faults'"]),
    (["play", "--dealer", "9"], ["dealer", "(got 9)"]),
    (["play", "--seed", "abc"], ["--seed", "integer"]),
    # a negative seed, refused everywhere as a tournament file refuses it
    *[(argv, ["--seed expects a whole number >= 0, as a tournament file's seed does (got -5)"]) for argv in (
        ["play", "--seats", "low,high,random", "--seed", "-5"], ["compare", "low", "high", "--seed", "-5"],
        ["check-bot", "low", "--seed", "-5"], ["research", "shared-suits", "--seed", "-5"],
        ["research", "shootout-share", "--players", "low,high,random,heuristic", "--seed", "-5"],
        ["tournament", "run", "--players", "low,high,random", "--seed", "-5"])],
    # a built-in player's option value its factory refuses: before any game, not a forfeit of every one
    (["compare", "learned(gate=abc)", "learned", "--games", "8", "--results", "{tmp}"],
     ["key 'players': player 'learned'", "factory failed: ValueError: could not convert string to float: 'abc'"]),
    (["compare", "learned(weights=no/such.npz)", "learned", "--games", "8", "--results", "{tmp}"],
     ["factory failed: FileNotFoundError", "'no/such.npz'"]),
    (["tournament", "run", "--players", "low,high,learned(gate=abc)", "--deals", "1", "--results", "{tmp}"],
     ["key 'players': player 'learned'", "could not convert string to float: 'abc'"]),
    # unknown preset
    (["play", "--rules", "nope"], ["unknown preset 'nope'", "getaway"]),
    (["variants", "--bogus"], ["No such option: --bogus"]),
    (["bench", "engine", "--rules", "nope", "-n", "1", "--repeats", "1"], ["unknown preset 'nope'"]),
    (["bench", "engine", "--players", "2", "-n", "1", "--repeats", "1"], ["players must be 3-8"]),
    # bad --set syntax
    (["play", "--set", "escape"], ["--set expects OPTION=VALUE", "'escape'"]),
    (["play", "--set", "=pass"], ["--set expects OPTION=VALUE"]),
    # unknown command option, unknown command, stray argument
    (["play", "--bogus"], ["No such option: --bogus"]),
    (["players", "--seats", "x"], ["No such option: --seats"]),
    (["players", "extra"], ["unexpected extra argument"]),
    (["bogus"], ["No such command 'bogus'"]),
    # new-bot: bad names and folders
    (["new-bot", "Bad"], ["bot name must be"]),
    (["new-bot", "random"], ["already taken by a player", "random-bot"]),
    (["new-bot", "json"], ["shadows the standard library's module"]),
])
def test_errors_are_one_line(capsys, tmp_path, argv, fragments):
    """Each user mistake: one 'error:' line on stderr, non-zero exit, no traceback (and, for the commands that
    store results, nothing stored)."""
    assert_one_error_line(*run(capsys, *[a.replace("{tmp}", str(tmp_path / "results")) for a in argv]), *fragments)
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").iterdir())


def test_new_bot_folder_errors(capsys, tmp_path):
    """new-bot into a non-empty folder, or with --dir naming a file, is one error line."""
    (tmp_path / "taken-bot").mkdir()
    (tmp_path / "taken-bot" / "x.txt").write_text("x")
    assert_one_error_line(*run(capsys, "new-bot", "taken-bot", "--dir", str(tmp_path)), "not empty")
    (tmp_path / "a-file").write_text("x")
    assert_one_error_line(*run(capsys, "new-bot", "some-bot", "--dir", str(tmp_path / "a-file")), "a file")
    assert_one_error_line(*run(capsys, "new-bot", "some-bot", "--dir", str(tmp_path / "a-file" / "sub")),
                          "cannot write")


def test_console_script_error_has_no_traceback():
    """The installed `arena` script itself: one error line, exit 2."""
    script = Path(sys.executable).with_name("arena")
    if not script.exists():
        pytest.skip("console script not installed next to this interpreter")
    done = subprocess.run([str(script), "play", "--seats", "nobody,low,high"], capture_output=True, text=True,
                          timeout=60, env={"PATH": "/usr/bin:/bin", DISABLE_ENV: "1"}, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "error: unknown player 'nobody' (known players: heuristic, high, learned, low, openspiel-ismcts, random, "
        "sampler)"]


# ------------------------------------------- known cli.py bugs (see the report)
def test_set_name_is_an_error_line(capsys):
    """`--set name=x` is refused with one error line."""
    assert_one_error_line(*run(capsys, "play", "--set", "name=foo"), "name")


def test_bench_zero_repeats_is_an_error_line(capsys):
    """`arena bench engine --repeats 0` is refused with one error line."""
    assert_one_error_line(*run(capsys, "bench", "engine", "--repeats", "0", "-n", "1"), "repeats")


def test_bench_without_subcommand_shows_help(capsys):
    """`arena bench` alone shows its help like `arena` alone does."""
    code, out, err = run(capsys, "bench")
    assert code == 0 and out.startswith("Usage: arena bench") and err == ""


def test_each_command_is_built_from_its_own_module_alone():
    """`arena ratings` builds only the results commands (COMMANDS and GROUPS name every command of the
    whole app, so each invocation finds its module) and so imports no engine, sandbox or runner."""
    import typer.main

    from arena.cli.app import COMMANDS, GROUPS, build
    whole = typer.main.get_command(build()).commands
    assert sorted(whole) == sorted([*COMMANDS, *GROUPS])
    for name in whole:
        assert name in typer.main.get_command(build(name)).commands
    assert sorted(typer.main.get_command(build("ratings")).commands) == ["plot", "ratings", "report"]
    code = ("import sys; from arena.cli.app import main; main(['ratings', '--help']); "
            "print(sorted(m for m in ('arena.game.engine', 'arena.tournament.event', 'arena.sandbox.pool', "
            "'arena.cli.tournament') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"
