"""What a newcomer meets first: tables that fit 80 columns, progress lines, flags, names that clash.

Commands run through :func:`arena.cli.app.main` with capsys (stdout is not a
terminal there, so tables are laid out for ``$COLUMNS``, set per test).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.main import get_command_from_info

import arena
from arena.cli.app import app, main
from arena.cli.output import wrapped
from arena.cli.progress import LiveProgress, clock, summary
from arena.cli.text_tables import fitted
from arena.plugins.registry import DISABLE_ENV
from arena.results.store.database import Store
from arena.sandbox.limits_spec import LimitsSpec
from arena.tournament.event import Progress
from arena.tournament.spec import BOOK_KEYS, TournamentSpec
from support.cli import run
from support.terminal import on_terminal

EVENT = """
name = "ov"
seed = 3
rules = ["getaway", {preset = "playnest", escape = "draw", max_faults = 3}]
players = ["heuristic", "random", "low", "a-player-with-a-rather-long-name#2"]
table_sizes = [3, 4]
deals = 1
"""


pytestmark = pytest.mark.usefixtures("builtin_players_only")


@pytest.fixture(autouse=True)
def eighty_columns(monkeypatch):
    """Tables laid out for 80 columns (output is not a terminal here)."""
    monkeypatch.setenv("COLUMNS", "80")


@pytest.fixture(scope="module")
def done(tmp_path_factory) -> Path:
    """A finished event with a long (alias) player name and a rule set with overrides."""
    root = tmp_path_factory.mktemp("newcomer")
    (root / "ov.toml").write_text(EVENT.replace("a-player-with-a-rather-long-name#2", "random#tag-of-16"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(DISABLE_ENV, "1")
        assert main(["tournament", "run", str(root / "ov.toml"), "--results", str(root), "-q", "-j", "1"]) == 0
    return root / "ov"


def widest(text: str) -> int:
    return max(map(len, text.splitlines()))


# ------------------------------------------------------------- tables
def test_rating_table_fits_80_columns_and_wide_has_every_column(capsys, done):
    """The default table is compact and within 80 columns, values whole; --wide adds the other columns."""
    code, out, _ = run(capsys, "ratings", done)
    assert code == 0 and widest(out) <= 80
    header = out.splitlines()[1].split()
    assert header == ["rank", "player", "mu-3σ", "mu", "σ", "games", "bhabhi", "faults", "t/c/i/m"]
    rows = [line.split() for line in out.splitlines()[3:]]
    assert all(re.fullmatch(r"\d+\.\d\d", r[2]) and r[-1].count("/") == 3 for r in rows)
    assert "random#tag-of-16" in out
    code, wide, _ = run(capsys, "ratings", done, "--wide")
    for column in ("P(>next)", "95% CI", "×1/k", "place", "penalty", "first out", "ms/dec"):
        assert column in wide and column not in out


def test_narrow_terminal_cuts_names_never_numbers(capsys, done, monkeypatch):
    """At 60 columns the player column gives way (an ellipsis); the ratings stay whole."""
    monkeypatch.setenv("COLUMNS", "60")
    _, out, _ = run(capsys, "ratings", done)
    assert widest(out) <= 60 and "…" in out
    _, full, _ = run(capsys, "ratings", done, "-f", "json")
    for row in json.loads(full):
        assert f"{row['conservative']:.2f}" in out


def test_fitted_wraps_free_text_at_words():
    """A wrap column breaks between words; nothing is wider than asked."""
    text = fitted(["name", "description"], [["x", "one two three four five six seven eight nine ten"]],
                  width=30, wrap=("description",))
    assert widest(text) <= 30
    words = " ".join(line[7:].strip() for line in text.splitlines()[2:]).split()
    assert words == ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def test_players_and_variants_fit_80_columns(capsys):
    """`arena players` and `arena variants` fit 80 columns; variants --wide has a column per option."""
    for argv in (["players"], ["variants"]):
        code, out, _ = run(capsys, *argv)
        assert code == 0 and widest(out) <= 80, argv
    _, out, _ = run(capsys, "variants")
    assert "playnest" in out and "escape=pass" in out
    _, wide, _ = run(capsys, "variants", "--wide")
    assert "neighbour_take" in wide.splitlines()[0]


def test_variants_name_each_source_by_its_title(capsys):
    """The source column names each preset's source text by its title, not by a seed number."""
    _, out, _ = run(capsys, "variants", "--format", "plain", "--wide")
    rows = {line.split()[0]: line for line in out.split("\n\n")[0].splitlines()[1:]}
    assert '"How to play Bhabhi"' in rows["getaway"] and "PlayNest" in rows["playnest"]
    assert '"The Thulla shootout rule, explained"' in rows["champions"] and "Donkey" in rows["donkey"]
    assert '"Bhabho - Laad - Get Away"' in rows["bhabho"] and "two packs" in rows["getaway-2deck"]
    assert "seed 0" not in out


def test_head_to_head_fits_and_its_csv_has_numbers(capsys, done):
    """Head to head: shares at 80 columns (CI and n with --wide); CSV has one number per column."""
    _, out, _ = run(capsys, "ratings", done, "--head-to-head")
    assert widest(out) <= 80 and re.search(r"\b\d+%", out) and "n=" not in out
    _, wide, _ = run(capsys, "ratings", done, "--head-to-head", "--wide")
    assert "n=" in wide
    _, text, _ = run(capsys, "ratings", done, "--head-to-head", "-f", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and all(int(r["games"]) > 0 and 0 <= float(r["share"]) <= 1 for r in rows)


def test_machine_formats_keep_every_column(capsys, done):
    """CSV keeps every column whatever --wide says."""
    _, text, _ = run(capsys, "ratings", done, "-f", "csv")
    header = text.splitlines()[0].split(",")
    assert {"conservative", "mu", "sigma", "bhabhi_rate", "place", "penalty", "decision_ms"} <= set(header)


# ------------------------------------------------------------- progress
def snapshot(done: int, elapsed: float, total: int = 100) -> Progress:
    return Progress(done=done, total=total, played_now=done, elapsed=elapsed, faults=0, leader="low")


def test_plain_progress_lines_at_an_interval_and_at_the_end():
    """Not a terminal: one line per 10 s of the run's clock, and the last state; times as h:mm:ss."""
    buf = io.StringIO()
    progress = LiveProgress(False, 100, 0, console=Console(file=buf, force_terminal=False, width=200))
    with progress as show:
        for i, elapsed in enumerate([0.5, 3.0, 9.0, 10.6, 12.0, 25.0, 3700.0], start=1):
            show(snapshot(i, elapsed))
    lines = buf.getvalue().splitlines()
    assert [line.split()[1] for line in lines] == ["1/100", "4/100", "6/100", "7/100"]
    assert lines[-1].startswith("games 7/100 (7%), 1:01:40 elapsed, ")


def test_plain_progress_prints_the_end_once():
    """The final snapshot is printed once, not again when the display closes."""
    buf = io.StringIO()
    with LiveProgress(False, 2, 0, console=Console(file=buf, force_terminal=False)) as show:
        show(snapshot(1, 0.1, total=2))
        show(snapshot(2, 0.2, total=2))
    assert [line.split()[1] for line in buf.getvalue().splitlines()] == ["1/2", "2/2"]


def test_clock():
    """Seconds as h:mm:ss; an unknown time as '-'."""
    assert (clock(0), clock(59.6), clock(3725.2), clock(None)) == ("0:00:00", "0:01:00", "1:02:05", "-")


def test_terminal_bar_shows_the_whole_count():
    """The bar's count column is never cut, even at 80 columns with a long status text."""
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=80)
    with LiveProgress(False, 1600, 0, console=console) as show:
        show(Progress(done=424, total=1600, played_now=424, elapsed=83.0, faults=0,
                      leader="a-rather-long-player-name"))
    assert "424/1600" in buf.getvalue() and "0:01:23 elapsed" in buf.getvalue()


# ------------------------------------------------------------- flags
def test_version_and_short_help(capsys):
    """--version prints the version; -h is --help on the app and on a subcommand."""
    assert run(capsys, "--version") == (0, f"arena {arena.__version__}\n", "")
    code, out, _ = run(capsys, "-h")
    assert code == 0 and "Commands:" in out and "--install-completion" in out
    code, out, _ = run(capsys, "tournament", "run", "-h")
    assert code == 0 and "--max-faults" in out


def test_shell_completion_completes_commands(monkeypatch, capsys):
    """Typer's completion: the bash completion protocol answers with the matching commands."""
    monkeypatch.setenv("_ARENA_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_WORDS", "arena tourn")
    monkeypatch.setenv("COMP_CWORD", "1")
    with pytest.raises(SystemExit) as finished:
        main(["tourn"])
    assert finished.value.code == 0 and capsys.readouterr().out.split() == ["tournament"]


def test_every_file_key_has_a_flag():
    """Each key of a tournament file (and of its [limits] table) is a flag of `tournament run`."""
    command = next(c for g in app.registered_groups if g.name == "tournament"
                   for c in g.typer_instance.registered_commands if c.name == "run")
    flags = {opt for p in get_command_from_info(
        command, pretty_exceptions_short=True, rich_markup_mode=None).params for opt in p.opts}
    keys = {f for f in TournamentSpec.__dataclass_fields__
            if f not in ("source", "presets", "limits", "deal_book", *BOOK_KEYS)}  # a book: --deals FILE
    keys |= {"fault_policy", "max_faults"} | set(LimitsSpec.__dataclass_fields__)
    missing = sorted(k for k in keys if "--" + k.replace("_", "-") not in flags)
    assert missing == []


def test_rating_and_fault_flags_reach_the_spec(capsys, tmp_path):
    """--max-faults, --tau and --draw-probability land in the stored spec (flags win over the file)."""
    (tmp_path / "ov.toml").write_text(EVENT.replace(', "a-player-with-a-rather-long-name#2"', "")
                                      + "\n[ratings]\ntau = 0.5\n")
    code, _, err = run(capsys, "tournament", "run", tmp_path / "ov.toml", "--results", tmp_path, "-q", "-j", "1",
                       "--max-faults", "2", "--tau", "0.25", "--draw-probability", "0.01", "--deals", "1")
    assert code == 0, err
    with Store(tmp_path / "ov") as store:
        spec = store.meta("spec")
    assert spec["tau"] == 0.25 and spec["draw_probability"] == 0.01
    assert spec["rules"][0]["max_faults"] == 2 and spec["rules"][1]["max_faults"] == 3  # a rule set's own wins


def test_play_accepts_aliases(capsys):
    """`arena play --seats random,random#2,low`: the alias plays as random under its own name."""
    code, out, err = run(capsys, "play", "--seats", "random,random#2,low", "--seed", "4", "--json")
    assert code == 0, err
    record = json.loads(out)
    assert record["names"] == ["random", "random#2", "low"]
    assert record["bot_seeds"][0] != record["bot_seeds"][1]


def test_plot_writes_into_the_results_folder(capsys, done, monkeypatch, tmp_path):
    """`arena plot FOLDER` writes FOLDER/ratings.png (as report writes FOLDER/report.html), not into the cwd."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "plot", done)
    assert code == 0, err
    assert out.strip() == f"wrote {done / 'ratings.png'}" and (done / "ratings.png").stat().st_size > 0
    assert not (tmp_path / "ratings.png").exists()


def test_status_prints_the_full_rules_label(capsys, done):
    """A rule set with overrides shows them, not just its preset's name."""
    code, out, _ = run(capsys, "tournament", "status", done)
    assert code == 0
    rules = "  rules: getaway, playnest escape=draw max_faults=3; table sizes 3, 4; format round-robin"
    assert rules in out.splitlines()


# ------------------------------------------------------------- names
def test_new_bot_refuses_a_built_in_name(capsys, tmp_path):
    """`arena new-bot sampler`: one line naming who has the name, nothing written."""
    code, out, err = run(capsys, "new-bot", "sampler", "--dir", tmp_path)
    assert code == 2 and out == ""
    assert err.splitlines() == ["error: bot name 'sampler' is already taken by a player (plugin players, "
                                "package bhabhi-arena); expected a new name, e.g. sampler-bot"]
    assert list(tmp_path.iterdir()) == []
    code, out, _ = run(capsys, "new-bot", "sampler-bot", "--dir", tmp_path)
    assert code == 0 and (tmp_path / "sampler-bot").is_dir()


def test_compare_figures_wrap_on_a_terminal_and_stay_whole_in_a_pipe(monkeypatch):
    """Free text (compare's figures) wraps at words to a terminal's width, continued lines indented; a
    pipe or a file gets it whole, whatever $COLUMNS says."""
    line = "  difference +12.50 points, 95% interval -12.00 .. +37.00; likelihood of superiority 84.1%"

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("COLUMNS", "40")
    assert wrapped(line, io.StringIO()) == line
    lines = wrapped(line, Terminal()).splitlines()
    assert len(lines) > 1 and max(map(len, lines)) <= 40
    assert all(later.startswith("    ") for later in lines[1:])
    assert " ".join(lines).split() == line.split()


# ------------------------------------------------------------- long lines on a terminal
@pytest.mark.parametrize("argv", [
    ["--help"], ["tournament", "--help"], ["ladder", "--help"], ["research", "--help"], ["sandbox-info"],
    ["check-bot", "low", "--games", "1", "--rules", "getaway", "--table-sizes", "3"],
    ["play", "--seats", "heuristic,random,low,high,random#2,low#2,high#2,heuristic#2", "--seed", "7"],
], ids=lambda argv: " ".join(argv[:2]))
def test_long_lines_fit_an_80_column_terminal(argv):
    """On an 80-column terminal no line is wider (a terminal would wrap it mid-word), and --help gives each
    command's description whole (no "..."): check-bot's sandbox note, sandbox-info's details and an
    8-seat game's tricks wrap at words."""
    code, lines = on_terminal(argv, columns=80, env={**os.environ, DISABLE_ENV: "1"})
    assert code == 0, "\n".join(lines[-20:])
    assert max(map(len, lines)) <= 80, max(lines, key=len)
    if "--help" in argv:
        assert not any(line.endswith("...") for line in lines if not line.startswith("Usage: "))
    if argv[0] == "check-bot":
        note = next(i for i, line in enumerate(lines) if line.startswith("sandbox layers applied: "))
        assert lines[note + 1].startswith("  ") and "seccomp" in " ".join(lines[note:note + 6])
    if argv == ["--help"]:
        text = " ".join(" ".join(lines).split())
        assert "List every discovered player: name, plugin, version, description." in text


def test_the_bar_keeps_the_leaders_name_whole_at_100_columns():
    """At 100 columns (and at 80) the bar gives up width, then the rate, before the leader's name is cut."""
    sampler = "sampler(worlds=2,cap_ms=50)"
    for width, leader in ((100, "heuristic"), (100, sampler), (80, sampler)):
        buf = io.StringIO()
        with LiveProgress(False, 1600, 0, console=Console(file=buf, force_terminal=True, width=width)) as show:
            show(Progress(done=424, total=1600, played_now=424, elapsed=83.0, faults=0, leader=leader))
        shown = buf.getvalue().split("\r")[-1]
        assert f"leader {leader}" in shown and "424/1600" in shown, (width, shown)
    assert summary(Progress(done=1, total=2, played_now=1, elapsed=1.0, faults=0, leader="x" * 60), 20) \
        == "leader " + "x" * 12 + "…"
