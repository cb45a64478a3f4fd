"""check-bot: every built-in player passes; each deliberately broken bot fails on its own check.

The broken bots (tests/broken_bot) run in the sandbox exactly as a submitted
bot would: the sandbox host imports them by module path. Sandboxed checks run
in a child process, as the CLI does: starting a sandboxed bot hardens the
harness process (PR_SET_DUMPABLE 0, child subreaper), which must not leak
into the other tests' pytest process.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from broken_bot.results import registry_with_broken

from arena.cli.app import main
from arena.plugins.registry import DISABLE_ENV
from arena.plugins.runner import play_one
from arena.plugins.checkbot import CHECKS, CheckReport, CheckRow, check_bot, plan, planned_games, repeat_plan
from arena.plugins.errors import CheckError
from arena.game.rules import PRESETS
from arena.sandbox.limits_spec import LimitsSpec

TESTS = Path(__file__).resolve().parents[1]
_CHILD = """
import json, sys
from arena.plugins.checkbot import check_bot
from arena.tournament.spec import LimitsSpec
from broken_bot.results import registry_with_broken
args = json.loads(sys.argv[1])
limits = LimitsSpec(**args.pop("limits", {}))
r = check_bot(args.pop("name"), registry=registry_with_broken(), limits=limits, **args)
print(json.dumps({"rows": [[x.check, x.ok, x.detail] for x in r.rows], "games": r.games,
                  "sandboxed": r.sandboxed, "notes": list(r.notes)}))
"""


def run_check(name: str, **kwargs) -> CheckReport:
    """``check_bot(name, **kwargs)`` in a child process (``limits`` as a dict), with the broken bots installed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", _CHILD, json.dumps({"name": name, **kwargs})],
                          check=False, capture_output=True, text=True, timeout=600, env=env, cwd=TESTS.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads(done.stdout.strip().splitlines()[-1])
    rows = tuple(CheckRow(*row) for row in data["rows"])
    return CheckReport(name, rows, data["games"], data["sandboxed"], tuple(data["notes"]))


@pytest.fixture(scope="module")
def registry():
    """The built-in players plus trump-cheat, flaky, slow, hog and no-take (for in-process checks)."""
    return registry_with_broken()


def _only_failures(report, *checks: str) -> None:
    failed = {r.check for r in report.failures()}
    assert failed == set(checks), report.table()
    assert report.ok is (not checks)


@pytest.mark.parametrize("name", ["heuristic", "random", "low", "high"])
def test_builtin_players_pass(name):
    """Every built-in player passes every check, sandboxed, at every table size of every preset."""
    report = run_check(name, games=1)
    _only_failures(report)
    assert [r.check for r in report.rows] == list(CHECKS)
    assert report.sandboxed and report.games == planned_games(1)
    assert all(r.ok for r in report.rows), report.table()
    assert "all legal" in report.row("legal answers").detail
    assert "median" in report.row("time").detail and "worst" in report.row("time").detail
    assert "MiB" in report.row("memory").detail


def test_illegal_trump_play_in_donkey_fails():
    """A bot that throws a non-trump when it must trump fails "trumps (donkey)" (and "legal answers")."""
    report = run_check("trump-cheat", games=1, presets=["donkey", "getaway"])
    _only_failures(report, "trumps (donkey)", "legal answers")
    detail = report.row("trumps (donkey)").detail
    assert "illegal" in detail and "must play one" in detail and "donkey" in detail
    assert report.row("deterministic").ok and report.row("time").ok


def test_nondeterministic_bot_fails():
    """A bot that seeds itself from the clock fails "deterministic", naming the first differing move."""
    report = run_check("flaky", games=1, presets=["getaway", "playnest"], table_sizes=[4])
    _only_failures(report, "deterministic")
    detail = report.row("deterministic").detail
    assert "differs" in detail and "first run" in detail and "self.rng" in detail


def test_malformed_take_in_bhabho_fails():
    """A bot that answers a take decision with a card fails "takes (bhabho)"."""
    report = run_check("no-take", games=1, presets=["bhabho"], table_sizes=[3, 4])
    _only_failures(report, "takes (bhabho)", "legal answers")
    assert "malformed" in report.row("takes (bhabho)").detail
    assert "True or False" in report.row("takes (bhabho)").detail


def test_slow_bot_fails_time():
    """A bot that thinks 0.3 s once a game, under a 100 ms limit, fails "time" with its timeouts."""
    report = run_check("slow", games=1, presets=["getaway"], table_sizes=[3], limits={"decision_ms": 100})
    _only_failures(report, "time")
    assert "timeout" in report.row("time").detail and "limit 100 ms" in report.row("time").detail


def test_memory_hog_fails_memory():
    """A bot that grabs 2 GiB under a 512 MiB limit fails "memory" (its MemoryError is also a crash)."""
    report = run_check("hog", games=1, presets=["getaway"], table_sizes=[3], limits={"memory_mb": 512})
    _only_failures(report, "memory", "legal answers")
    assert "ran out of memory" in report.row("memory").detail
    assert "512 MiB" in report.row("memory").detail


def test_unknown_player_does_not_load(registry):
    """An unknown name fails "loads", naming the known players; the rest are not run."""
    report = check_bot("nobody", registry=registry)
    assert not report.ok
    assert report.row("loads").ok is False and "unknown player 'nobody'" in report.row("loads").detail
    assert all(r.ok is None and "not run" in r.detail for r in report.rows[1:])


def test_in_process_run_says_so(registry):
    """--in-process runs without the sandbox: a note says so and memory is not measured."""
    report = check_bot("low", registry=registry, games=1, presets=["getaway"], table_sizes=[4], sandbox=False)
    assert report.ok and not report.sandboxed
    assert report.row("memory").ok is None and "not measured" in report.row("memory").detail
    assert "in-process" in report.table()
    assert report.row("takes (bhabho)").ok is None and report.row("trumps (donkey)").ok is None


def test_table_lists_every_check(registry):
    """The printed table has a row per check, the result column and a verdict line."""
    report = check_bot("high", registry=registry, games=1, presets=["bhabho", "donkey"], table_sizes=[3],
                       sandbox=False)
    text = report.table()
    for check in CHECKS:
        assert check in text
    assert text.splitlines()[0].startswith("check-bot high: ") and text.endswith("all checks passed")
    assert report.to_dicts()[0] == {"check": "loads", "status": "ok", "detail": report.rows[0].detail}


def test_plan_covers_every_table_size_of_every_preset():
    """The plan has `games` seeded games at every allowed table size, seats rotating, seeds distinct."""
    cases = plan(list(PRESETS), 2, seed=1)
    expected = sum(2 * (hi - lo + 1) for lo, hi in (r.seat_range for r in PRESETS.values()))
    assert len(cases) == expected and len({c.seed for c in cases}) == expected
    assert all(0 <= c.seat < c.players for c in cases)
    assert plan(list(PRESETS), 2, seed=1) == cases and plan(list(PRESETS), 2, seed=2) != cases
    assert [c.players for c in repeat_plan(["getaway", "getaway-2deck"], 1)] == [4, 7]


def test_bad_settings_are_errors(registry):
    """Unknown presets, no games, or table sizes no preset allows raise CheckError naming them."""
    with pytest.raises(CheckError, match="nope"):
        check_bot("low", registry=registry, presets=["nope"])
    with pytest.raises(CheckError, match="1 or more"):
        check_bot("low", registry=registry, games=0)
    with pytest.raises(CheckError, match="fit none"):
        check_bot("low", registry=registry, presets=["playnest"], table_sizes=[8])


def test_a_failing_row_prints_the_play_command_that_replays_it(registry):
    """The command names rules, every seat (opponents too), seed and --in-process; it plays the game
    in which the failure happened (the same fault at the same seat)."""
    report = check_bot("trump-cheat", registry=registry, games=1, presets=["donkey"], table_sizes=[3], sandbox=False)
    row = report.row("trumps (donkey)")
    assert row.ok is False and row.case is not None
    case = row.case
    command = case.command("trump-cheat", sandboxed=False)
    assert f"replay (trumps (donkey)): {command}" in report.table().splitlines()
    words = command.split()
    assert words[:2] == ["arena", "play"] and words[-1] == "--in-process"
    seats = words[words.index("--seats") + 1].split(",")
    assert seats[case.seat] == "trump-cheat" and len(seats) == 3 and all(s in registry.players for s in seats)
    assert words[words.index("--rules") + 1] == "donkey" and int(words[words.index("--seed") + 1]) == case.seed
    record = play_one(registry, registry.presets["donkey"], seats, case.seed, sandbox=False)
    faults = [e for e in record["events"] if e.get("type") == "fault"]
    assert faults and all(e["seat"] == case.seat for e in faults), faults


def test_the_replay_command_carries_the_limits_that_were_not_defaults(registry, capsys):
    """Limits set for the check (--decision-ms, --memory-mb) are flags of the replay command, which
    `arena play` takes; limits at their defaults are left out."""
    limits = LimitsSpec(decision_ms=700, memory_mb=512)
    report = check_bot("trump-cheat", registry=registry, games=1, presets=["donkey"], table_sizes=[3],
                       sandbox=False, limits=limits)
    command = report.row("trumps (donkey)").case.command("trump-cheat", False, limits)
    assert f"replay (trumps (donkey)): {command}" in report.table().splitlines()
    words = shlex.split(command)
    assert words[words.index("--decision-ms") + 1] == "700" and words[words.index("--memory-mb") + 1] == "512"
    assert "--bank-ms" not in words and "--startup-ms" not in words
    assert report.row("trumps (donkey)").case.command("trump-cheat", False, LimitsSpec()) == \
        report.row("trumps (donkey)").case.command("trump-cheat", False)
    assert main(["play", *words[words.index("--decision-ms"):], "--seats", "low,high,random"]) == 0
    # `arena play` takes the limit flags (trump-cheat is a test registry's)
    assert "Bhabhi" in capsys.readouterr().out


def test_unknown_player_from_the_cli_is_one_line_with_a_suggestion(capsys, monkeypatch):
    """`arena check-bot samplr`: one error line suggesting sampler, not a table."""
    monkeypatch.setenv(DISABLE_ENV, "1")
    assert main(["check-bot", "samplr"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [
        "error: unknown player 'samplr': did you mean 'sampler'? "
        "(known players: heuristic, high, learned, low, openspiel-ismcts, random, sampler)"]


def test_more_same_seed_games_on_request(registry):
    """--repeat-games N: N games per preset played twice (the first is the one always played); a bot
    that goes astray only at some seats passes with one and fails with more."""
    one = repeat_plan(["getaway", "donkey"], 1)
    three = repeat_plan(["getaway", "donkey"], 1, games=3)
    assert three[:2] == one and len(three) == 6 and len({c.seed for c in three}) == 6
    assert sorted({c.seat for c in three if c.preset == "getaway"}) == [0, 1, 2]
    assert planned_games(1, ["getaway"], [4], repeat=3) == 1 + 2 * 3
    settings = dict(registry=registry, games=1, presets=["getaway"], table_sizes=[4], sandbox=False)
    passed = check_bot("sometimes-flaky", **settings)
    assert passed.row("deterministic").ok is True, passed.table()
    failed = check_bot("sometimes-flaky", repeat=2, **settings)
    row = failed.row("deterministic")
    assert row.ok is False and row.case.seat == 1 and "self.rng" in row.detail
    assert failed.games == 1 + 2 * 2
    report = check_bot("low", repeat=2, **settings)
    assert report.row("deterministic").detail.startswith("2 games (2 per preset) played twice")
    with pytest.raises(CheckError, match="same-seed games per preset must be 1 or more"):
        check_bot("low", repeat=0, **settings)


def test_the_global_random_recipe_is_deterministic(registry):
    """The docs' recipe: the global random module seeded from self.rng in new_game replays move for
    move (run twice in one process, where an unseeded global generator would have moved on)."""
    report = check_bot("global-random", registry=registry, games=1, presets=["getaway", "bhabho"],
                       table_sizes=[4], sandbox=False, repeat=3)
    assert report.ok and report.row("deterministic").ok is True, report.table()


def test_check_bot_command_takes_repeat_games(capsys, monkeypatch):
    monkeypatch.setenv(DISABLE_ENV, "1")
    code = main(["check-bot", "low", "--in-process", "--games", "1", "--repeat-games", "3",
                 "--rules", "getaway", "--table-sizes", "4", "--table-format", "plain"])
    captured = capsys.readouterr()
    assert code == 0 and "check-bot low: 7 games" in captured.err
    assert "3 games (3 per preset) played twice" in " ".join(captured.out.split())
