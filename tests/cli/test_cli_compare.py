"""`arena compare`: the paired comparison from the command line, its report section and its errors."""

from __future__ import annotations

import re

import pytest
from support.cli import run
from support.tournaments import records

from arena.results.report.html import report_html
from arena.results.stats.paired import CompareTest, PairedTally

pytestmark = pytest.mark.usefixtures("builtin_players_only")


def test_sprt_run_prints_the_verdict_and_resumes_to_the_same(capsys, tmp_path):
    """An SPRT comparison prints its figures and verdict; running it again plays nothing and says the same."""
    argv = ("compare", "heuristic", "low", "--sprt", "0,5", "--games", "2000", "--jobs", "1",
            "--results", tmp_path, "--sandbox", "never")
    code, out, err = run(capsys, *argv)
    assert code == 0 and "H1 accepted after" in out and "95% interval" in out and "LLR" in err
    assert "sign test" in out and "likelihood of superiority" in out
    code, again, _ = run(capsys, *argv, "-q")
    assert code == 0 and again == out
    code, resumed, _ = run(capsys, "compare", "--resume", tmp_path / "compare-heuristic-low", "-q")
    assert resumed == out


def test_a_candidate_with_options_in_any_order_is_compared(capsys, tmp_path):
    """A player's options may be written in any order: the comparison runs (it once refused its own
    candidates, written with their options sorted) and names the player with them sorted."""
    code, out, err = run(capsys, "compare", "sampler(worlds=2,solver_share=0)", "heuristic", "--games", "8",
                         "--jobs", "1", "--results", tmp_path, "--sandbox", "never", "-q")
    assert code == 0, err
    assert "sampler(solver_share=0,worlds=2) against heuristic" in out


def test_fixed_games_and_the_report_section(capsys, tmp_path):
    """Without --sprt every game of --games is played; the report shows the comparison section."""
    code, out, _ = run(capsys, "compare", "heuristic", "random", "--games", "64", "--score", "penalty",
                       "--jobs", "1", "--results", tmp_path, "--name", "fixed", "-q", "--set", "escape=pass")
    assert code == 0 and "8 deals, 64 games" in out and "fixed games" in out
    html = report_html(tmp_path / "fixed", max_games=0)
    assert 'id="compare"' in html and "heuristic against random" in html


def test_live_line_every_n_games_and_one_log_line_per_game(capsys, tmp_path):
    """--interval 16g: a live line every 16 games stored (the end's state is not said twice); --log-games:
    a line per game."""
    code, out, err = run(capsys, "compare", "heuristic", "low", "--games", "64", "--jobs", "1", "--results",
                         tmp_path, "--interval", "16g", "--log-games", "--sprt", "0,5")
    lines = err.splitlines()
    assert code == 0 and sum(line.startswith("game ") for line in lines) == 64
    assert "game 0 p-4p-d0-a-r0: seats " in err and "; out in order " in err and "; Bhabhi " in err
    live = [line for line in lines if "/64 stored, " in line]
    assert [re.search(r"games (\d+)/64 stored, (\d+) counted \((\d+) deals\)", line).groups() for line in live] \
        == [("16", "16", "2"), ("32", "32", "4"), ("48", "48", "6"), ("64", "64", "8")]
    assert all("LLR" in line and "heuristic - low" in line for line in live) and "game " not in out


class _Progress:
    def __init__(self, done: int, elapsed: float) -> None:
        self.done, self.elapsed = done, elapsed


def test_live_line_only_when_something_changed_or_once_a_minute(capsys):
    """Ticks every 0.1 s with the same figures: one line, then the same line again only after 60 s of no
    change; a new game stored prints at the next second."""
    from arena.cli.compare import _Live

    f = PairedTally(CompareTest("a", "b", sprt=(0, 2)), 4).figures()
    live = _Live("1", False, False)
    live.total = 80
    for tenth in range(1300):  # 130 s of ticks, a game stored at 30 s
        live.tick(_Progress(1 if tenth >= 300 else 0, tenth / 10), f)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split()[0] for line in lines] == ["0:00:01", "0:00:30", "0:01:30"]
    assert ["games 0/80 stored" in lines[0], "games 1/80 stored" in lines[1], lines[2].split(maxsplit=1)[1]
            == lines[1].split(maxsplit=1)[1]] == [True, True, True]


@pytest.mark.parametrize("argv, fragment", [
    (("compare", "heuristic", "low", "--interval", "soon"), "--interval expects seconds or games"),
    (("compare", "heuristic"), "expected two players, e.g. arena compare sampler heuristic (or --resume FOLDER); "
                               "got only 'heuristic'"),
    (("compare", "heuristic", "low", "--sprt", "2"), "--sprt expects two numbers"),
    (("compare", "heuristic", "low", "--sprt", "3,1"), "increasing"),
    (("compare", "heuristic", "low", "--score", "elo"), "score must be one of bhabhi, place, penalty"),
    (("compare", "heuristic", "low", "--field", "random,low#2", "--table-size", "5"), "needs 4 distinct field"),
    (("compare", "heuristic", "nobody"), "nobody"),
])
def test_errors_are_one_line(capsys, tmp_path, argv, fragment):
    """Each mistake is one 'error:' line naming what was expected, exit code 2."""
    code, out, err = run(capsys, *argv, "--results", tmp_path)
    assert code == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1 and fragment in err


def test_built_in_players_compare_the_same_in_any_folder_unless_sealed(capsys, tmp_path):
    """Open by default among built-in players: the same command in another folder prints the same figures;
    --sealed keys the deals with a fresh secret, so a second sealed folder deals others."""
    argv = ("compare", "heuristic", "random", "--games", "48", "--jobs", "1", "--sandbox", "never", "-q")
    figures = [run(capsys, *argv, "--results", tmp_path / name)[1] for name in ("one", "two")]
    assert figures[0] == figures[1] and "6 deals, 48 games" in figures[0]
    for name in ("three", "four"):
        assert run(capsys, *argv, "--sealed", "--results", tmp_path / name)[0] == 0
    dealt = [[r["start"] for _, r in records(tmp_path / name / "compare-heuristic-random")] for name in
             ("one", "two", "three", "four")]
    assert dealt[0] == dealt[1] and dealt[2] != dealt[3] and dealt[0] not in dealt[2:]


def test_a_table_of_eight_draws_from_a_wider_default_field(capsys, tmp_path):
    """At 8 seats, which draw 7 distinct opponents a deal, the default field adds a second heuristic, low and
    high player (the four fast players and the house player are too few); a --field given is used as given."""
    code, out, err = run(capsys, "compare", "heuristic", "low", "--table-size", "8", "--games", "16", "--jobs", "1",
                         "--sandbox", "never", "--results", tmp_path, "-q")
    assert code == 0, err
    assert "1 deal, 16 games" in out
    seated = {name for _, r in records(tmp_path / "compare-heuristic-low") for name in r["names"]}
    assert {"heuristic#2", "low#2", "high#2"} <= seated and len(seated) == 9   # 2 candidates, 7 field players
    code, _, err = run(capsys, "compare", "heuristic", "low", "--table-size", "8", "--field", "random,high",
                       "--results", tmp_path / "given")
    assert code == 2 and "needs 7 distinct field players" in err
