"""Tournament specs: TOML files and flags into one frozen TournamentSpec; every bad key refused in one line."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from arena.game.errors import ArenaError
from arena.game.rules import PRESETS, Rules
from arena.game.seeds import Secret
from arena.plugins.registry import load
from arena.tournament.event import Tournament
from arena.tournament.errors import ConfigError
from arena.tournament.spec import LimitsSpec, TournamentSpec, base_player, load_spec, spec_from_dict
from arena.tournament.worker import batch_payload

FULL = """
name = "full"
seed = 7
rules = ["getaway", {preset = "donkey", escape = "pass"}]
players = ["heuristic", "random", "low", "high"]
table_sizes = [5, 3, 3]
format = "round-robin"
deals = 2
budget = 60
house = ["random#2", "low#2"]
fault_policy = "random"
max_faults = 3
jobs = 2
sandbox = false
batch = 4

[limits]
decision_ms = 200
memory_mb = 512

[ratings]
tau = 0.1
draw_probability = 0.01
"""


def write(tmp_path: Path, text: str, name: str = "t.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def registry():
    """The built-in players only."""
    return load(autoload=False)


def test_full_file_is_read(tmp_path):
    """Every key of a file lands in the spec, normalised (sizes sorted and distinct, rule tables kept)."""
    spec = load_spec(write(tmp_path, FULL))
    assert spec.name == "full" and spec.seed == 7 and spec.deals == 2 and spec.budget == 60
    assert spec.players == ("heuristic", "random", "low", "high")
    assert spec.table_sizes == (3, 5)
    assert spec.house == ("random#2", "low#2")
    assert spec.rules == ({"preset": "getaway", "fault_policy": "random", "max_faults": 3},
                          {"preset": "donkey", "escape": "pass", "fault_policy": "random", "max_faults": 3})
    assert [r.name for r in spec.rules_objects()] == ["getaway", "donkey"]
    assert spec.rules_objects()[1].escape == "pass" and spec.rules_objects()[0].fault_policy == "random"
    assert spec.limits == LimitsSpec(decision_ms=200, memory_mb=512)
    assert (spec.jobs, spec.sandbox, spec.batch, spec.tau, spec.draw_probability) == (2, "never", 4, 0.1, 0.01)
    assert spec.source == str(tmp_path / "t.toml")


def test_defaults_and_name_from_file(tmp_path):
    """A file with players only: defaults everywhere, the name from the file name."""
    spec = load_spec(write(tmp_path, 'players = ["low", "high", "heuristic"]\n', "my-event.toml"))
    assert spec == TournamentSpec(name="my-event", players=("low", "high", "heuristic"))
    assert spec.rules == ({"preset": "getaway"},) and spec.table_sizes == (4,) and spec.house == ("random",)
    assert spec.tau == 0.0 and 0 < spec.draw_probability < 1


def test_spec_is_frozen():
    """A spec is a frozen value."""
    spec = TournamentSpec(name="x", players=("a",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.seed = 2


def test_flags_override_the_file(tmp_path):
    """Overrides (CLI flags) win over the file; None means 'not given'."""
    spec = load_spec(write(tmp_path, FULL), deals=5, seed=None, table_sizes=[4], jobs=1)
    assert (spec.deals, spec.seed, spec.table_sizes, spec.jobs) == (5, 7, (4,), 1)


def test_stored_spec_round_trips(tmp_path):
    """to_dict (what the store keeps) reads back to the same spec."""
    spec = load_spec(write(tmp_path, FULL))
    assert spec_from_dict(spec.to_dict(), "stored") == spec
    assert "source" not in spec.to_dict()


def test_results_dict_leaves_out_how_it_runs(tmp_path):
    """jobs, batch and backend change no game, so they are not part of the results identity."""
    spec = load_spec(write(tmp_path, FULL))
    other = dataclasses.replace(spec, jobs=7, batch=1)
    assert spec.results_dict() == other.results_dict()
    assert "jobs" not in spec.results_dict() and "deals" in spec.results_dict()


def test_comma_separated_names_and_sandbox_words():
    """Names may come as one comma-separated string (flags); sandbox takes true/false or a word."""
    spec = spec_from_dict({"name": "x", "players": "low, high,heuristic", "sandbox": True})
    assert spec.players == ("low", "high", "heuristic") and spec.sandbox == "always"


def test_backend_table(tmp_path):
    """A [backend] table sets kind and scheduler."""
    text = 'players = ["low", "high", "heuristic"]\n[backend]\nkind = "dask"\nscheduler = "tcp://h:8786"\n'
    spec = load_spec(write(tmp_path, text))
    assert (spec.backend, spec.scheduler) == ("dask", "tcp://h:8786")


def test_alias_names():
    """``name#tag`` is a separately rated copy of an installed player."""
    assert base_player("random#2") == "random" and base_player("random") == "random"
    spec = spec_from_dict({"name": "x", "players": ["random", "random#2", "random#b"], "table_sizes": [3]})
    assert spec.players == ("random", "random#2", "random#b")


def test_house_player_in_the_pool_fills_in_as_its_alias():
    """The default house (random) with random already playing: 4-seat tables get random#2, and
    nothing else changes (the 3-seat tables and the spec's own house stay as given)."""
    spec = spec_from_dict({"name": "try", "players": ["heuristic", "random", "low"], "table_sizes": [3, 4],
                           "deals": 5}, "command line")
    assert spec.house == ("random",)
    games = spec.schedule_format().games()
    assert {s for g in games if len(g.seats) == 4 for s in g.seats} == {"heuristic", "random", "low", "random#2"}
    assert all("random#2" not in g.seats for g in games if len(g.seats) == 3)
    assert len(games) == 5 * 3 + 5 * 4


def test_house_names_outside_the_pool_come_before_aliases():
    """A house whose other names suffice seats exactly those (schedules stored before aliases stay the same)."""
    spec = spec_from_dict({"name": "x", "players": ["random", "low", "high"], "table_sizes": [4],
                           "house": ["random", "heuristic"]})
    assert {s for g in spec.schedule_format().games() for s in g.seats} == {"random", "low", "high", "heuristic"}
    wide = spec_from_dict({"name": "x", "players": ["random", "low", "high"], "table_sizes": [5],
                           "house": ["random", "heuristic"]})
    assert {s for g in wide.schedule_format().games() for s in g.seats} == {
        "random", "low", "high", "heuristic", "random#2"}


def test_a_table_the_default_house_cannot_fill_names_table_sizes_and_a_house_that_would():
    """Not blaming the house key the user never set; the suggested house fills the table."""
    data = {"name": "x", "players": ["heuristic", "random", "low"], "table_sizes": [3, 6]}
    with pytest.raises(ConfigError) as caught:
        spec_from_dict(data, "command line")
    message = str(caught.value)
    assert message.startswith("command line: key 'table_sizes': table size 6 needs 6 distinct players")
    suggested = message.rsplit("e.g. ", 1)[1]
    assert spec_from_dict({**data, "house": suggested}).schedule_format().count() > 0
    with pytest.raises(ConfigError, match=r"^x: key 'house': table size 6"):
        spec_from_dict({**data, "house": ["low"]}, "x")


GOOD = 'players = ["low", "high", "heuristic"]\n'

BAD = [
    # (file text, key named, fragment of the reason)
    (GOOD + "bogus = 1\n", "bogus", "unknown key"),
    (GOOD + 'seed = "x"\n', "seed", "whole number"),
    (GOOD + "seed = -1\n", "seed", ">= 0"),
    ("players = [1, 2]\n", "players", "list of player names"),
    ("players = []\n", "players", "at least one player"),
    ("seed = 1\n", "players", "at least one player"),
    ('players = ["low", "high", "low"]\n', "players", "'low' is listed twice"),
    ('players = ["low", "high", "random#"]\n', "players", "list of player names"),
    (GOOD + "table_sizes = [9]\n", "table_sizes", "3-8"),
    (GOOD + "table_sizes = [2]\n", "table_sizes", "3-8"),
    (GOOD + "table_sizes = []\n", "table_sizes", "3-8"),
    (GOOD + 'table_sizes = ["4"]\n', "table_sizes", "3-8"),
    (GOOD + 'rules = "playnest"\ntable_sizes = [8]\n', "table_sizes", "3-6 for 'playnest'"),
    (GOOD + 'rules = "getaway-2deck"\n', "table_sizes", "7-8"),
    (GOOD + 'rules = "nope"\n', "rules", "unknown preset 'nope'"),
    (GOOD + 'rules = [{preset = "getaway", escape = "drwa"}]\n', "rules", "option 'escape' must be one of"),
    (GOOD + 'rules = [{preset = "getaway", bogus = 1}]\n', "rules", "unknown option 'bogus'"),
    (GOOD + "rules = 5\n", "rules", "preset name or a table"),
    (GOOD + "rules = []\n", "rules", "at least one rule set"),
    (GOOD + 'rules = ["getaway", "getaway"]\n', "rules", "distinct rule sets"),
    (GOOD + 'fault_policy = "x"\n', "fault_policy", "penalty, random"),
    (GOOD + "max_faults = 0\n", "max_faults", ">= 1"),
    (GOOD + 'format = "swiss"\n', "format", "round-robin, gauntlet"),
    (GOOD + 'format = "gauntlet"\n', "candidates", "at least one candidate"),
    (GOOD + 'candidates = ["low"]\n', "candidates", "only a gauntlet"),
    (GOOD + "deals = 0\n", "deals", ">= 1"),
    (GOOD + "deals = 1.5\n", "deals", "whole number"),
    (GOOD + "budget = 1\n", "budget", ">= 4"),
    (GOOD + "table_sizes = [8]\n", "table_sizes", "needs 8 distinct players"),
    (GOOD + "house = [1]\n", "house", "list of player names"),
    (GOOD + "jobs = true\n", "jobs", "whole number"),
    (GOOD + "batch = 0\n", "batch", ">= 1"),
    (GOOD + 'sandbox = "maybe"\n', "sandbox", "auto, always, never"),
    (GOOD + 'name = "a b"\n', "name", "letters, digits"),
    (GOOD + "[limits]\nbogus = 1\n", "limits.bogus", "unknown key"),
    (GOOD + "[limits]\ndecision_ms = -1\n", "limits.decision_ms", ">= 0"),
    (GOOD + '[limits]\nmemory_mb = "lots"\n', "limits.memory_mb", "whole number"),
    (GOOD + "limits = 5\n", "limits", "expected a table"),
    (GOOD + "[ratings]\ntau = -1\n", "tau", ">= 0"),
    (GOOD + "[ratings]\nbogus = 1\n", "ratings", "tau and/or draw_probability"),
    (GOOD + "draw_probability = 0\n", "draw_probability", "between 0 and 1"),
    (GOOD + 'tau = "x"\n', "tau", "a number"),
    (GOOD + 'backend = "dask"\n', "backend", "scheduler address"),
    (GOOD + 'backend = "cloud"\n', "backend", "local, dask"),
    (GOOD + "[backend]\nkind = \"dask\"\nport = 1\n", "backend.port", "unknown key"),
    (GOOD + "scheduler = 5\n", "scheduler", "address"),
]


@pytest.mark.parametrize("text, key, fragment", BAD)
def test_bad_file_refused_in_one_line(tmp_path, text, key, fragment):
    """Each mistake: a ConfigError whose one line names the file, the key and the reason."""
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_spec(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: key '{key}': "), message
    assert fragment in message


def test_config_error_is_arena_and_value_error():
    """ConfigError is caught as ArenaError (the CLI's one-line errors) and as ValueError."""
    assert issubclass(ConfigError, ArenaError) and issubclass(ConfigError, ValueError)


@pytest.mark.parametrize("make, fragment", [
    (lambda d: d / "missing.toml", "no such tournament file"),
    (lambda d: d, "is a folder"),
    (lambda d: write(d, 'players = ["low",\n'), "expected a TOML file (got invalid TOML: "),
    (lambda d: write(d, "players = 'a'\nplayers = 'b'\n"), "expected a TOML file (got invalid TOML: "),
    (lambda d: (d / "bin.toml").write_bytes(b"\xff\xfe\x00") and d / "bin.toml", "not a text file"),
])
def test_unreadable_files_refused_in_one_line(tmp_path, make, fragment):
    """A missing file, a folder, bad TOML or binary data: one line naming the file."""
    path = make(tmp_path)
    with pytest.raises(ConfigError) as info:
        load_spec(path)
    assert str(info.value).startswith(f"{path}: ") and fragment in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("key, text", [
    ("players", 'players = ["low", "high", "nobody"]\n'),
    ("house", 'players = ["low", "high", "random"]\nhouse = ["nobody"]\n'),
    ("candidates", 'players = ["low", "high", "random"]\nformat = "gauntlet"\ncandidates = ["ghost#1"]\n'),
])
def test_unknown_player_refused_by_tournament(tmp_path, registry, key, text):
    """An uninstalled player (or an alias of one) is refused when the tournament is made, naming file and key."""
    path = write(tmp_path, text)
    spec = load_spec(path)
    with pytest.raises(ConfigError) as info:
        Tournament.create(spec, tmp_path / "results" / spec.name, registry)
    message = str(info.value)
    assert message.startswith(f"{path}: key '{key}': unknown player") and "known players:" in message
    assert "\n" not in message
    assert not (tmp_path / "results").exists()


def test_rules_objects_are_rules(tmp_path):
    """rules_objects() gives Rules values with the overrides applied."""
    spec = load_spec(write(tmp_path, GOOD + 'rules = [{preset = "champions", shootout = false}]\n'))
    (rules,) = spec.rules_objects()
    assert isinstance(rules, Rules) and rules.name == "champions" and rules.shootout is False


def test_presets_are_passed_not_global():
    """A preset that only a registry's presets hold resolves with them and is unknown without them;
    a batch for a worker carries every option of the resolved rules, so it needs no preset table."""
    presets = PRESETS.adding(Rules(name="quick", escape="pass", max_players=5))
    data = {"name": "q", "players": ["low", "high", "random"], "table_sizes": [3],
            "rules": [{"preset": "quick", "max_faults": 2}]}
    spec = spec_from_dict(data, "q.toml", presets)
    assert spec.rules_objects()[0] == Rules(name="quick", escape="pass", max_players=5, max_faults=2)
    with pytest.raises(ConfigError, match=r"q.toml: key 'rules': unknown preset 'quick'"):
        spec_from_dict(data, "q.toml")
    assert "quick" not in PRESETS
    games = spec.schedule_format().games()
    payload = batch_payload(spec, games[:2], [], Secret(bytes(32)))
    assert [Rules.from_dict(g["rules"]) for g in payload["games"]] == [spec.rules_objects()[0]] * 2
    assert all("preset" not in g["rules"] for g in payload["games"])
