"""Open and sealed events: who decides, what contradicts, and old folders keeping their secret.

Open: keyed with the public key :data:`arena.game.seeds.OPEN`, so the file's seed alone fixes the games;
sealed: keyed with a fresh secret of the folder. The default is open among built-in players and sealed
with any third-party bot; tests/tournament/test_event.py plays an open event in a fresh folder.
"""

from __future__ import annotations

import json

import pytest

from arena.cli.app import main
from arena.game.seeds import OPEN, Secret, read_secret
from arena.plugins.registry import load
from arena.results.store.database import Store
from arena.tournament.errors import ConfigError, TournamentError
from arena.tournament.event import Tournament, status_lines
from arena.tournament.executors import SerialExecutor
from arena.tournament.sealing import event_secret
from arena.tournament.spec import spec_from_dict
from support.tournaments import records

SMALL = {"name": "small", "seed": 4, "players": ["heuristic", "random", "low"], "table_sizes": [3], "deals": 2}

pytestmark = pytest.mark.usefixtures("builtin_players_only")


@pytest.fixture(scope="module")
def registry():
    return load(autoload=False)


def spec(**keys):
    return spec_from_dict({**SMALL, **keys}, "small.toml")


def test_the_key_an_event_gets():
    """Built-ins only: open; a third-party bot, or sealed = true: a fresh secret each time; --secret-from's
    key as given."""
    assert event_secret(spec(), []) == OPEN
    assert event_secret(spec(sealed=False), []) == OPEN
    for sealed in (spec(sealed=True), spec()):
        one, two = event_secret(sealed, [] if sealed.sealed else ["my-bot"]), event_secret(sealed, ["my-bot"])
        assert OPEN not in (one, two) and one != two
    given = Secret(bytes(range(32)))
    assert event_secret(spec(), ["my-bot"], given) == given and event_secret(spec(), [], OPEN) == OPEN


@pytest.mark.parametrize("keys, third, given, fragment", [
    ({"sealed": False}, ["my-bot"], None,
     "small.toml: key 'sealed': an event with a third-party bot (my-bot) is always sealed, since its author "
     "could know the seed; expected true or no key (got false)"),
    ({}, ["my-bot"], OPEN, "is always sealed, since its author could know the seed; expected true or no key "
                           "(the secret given is an open event's)"),
    ({"sealed": False}, [], Secret(bytes(range(32))),
     "--secret-from gives a secret, but the event says sealed = false; expected the two to agree"),
    ({"sealed": True}, [], OPEN, "--secret-from gives an open event's key, but the event says sealed = true"),
])
def test_contradictions_are_one_clear_error(keys, third, given, fragment):
    """A third-party bot cannot be opened; a given key must agree with the `sealed` key."""
    with pytest.raises(ConfigError) as refused:
        event_secret(spec(**keys), third, given)
    assert fragment in str(refused.value)


def test_sealed_must_be_true_or_false():
    """`sealed = "yes"` in a file: expected true or false."""
    with pytest.raises(ConfigError, match=r"small.toml: key 'sealed': expected true or false \(got 'yes'\)"):
        spec(sealed="yes")


def test_a_folder_keeps_its_kind(tmp_path, registry):
    """An open folder refuses a file that now says sealed = true (and the other way round), naming both."""
    Tournament.create(spec(), tmp_path / "small", registry)
    with pytest.raises(TournamentError, match=r"holds an open event \(the seed alone fixes its games\), but "
                                              r"small.toml says sealed = true; give another name"):
        Tournament.create(spec(sealed=True), tmp_path / "small", registry)
    Tournament.create(spec(sealed=True, name="shut"), tmp_path / "shut", registry)
    with pytest.raises(TournamentError, match=r"holds a sealed event, but small\.toml says sealed = false"):
        Tournament.create(spec(sealed=False, name="shut"), tmp_path / "shut", registry)
    assert Tournament.create(spec(name="shut"), tmp_path / "shut", registry).secret != OPEN  # no key: its own


def test_a_folder_from_before_sealing_goes_on_with_its_secret(tmp_path, registry):
    """A folder made before the `sealed` key (its stored spec has none; its secret file a random secret) is
    sealed: a resume plays its missing games with that secret, as an unbroken run with it does."""
    old = tmp_path / "old" / "small"
    t = Tournament.create(spec(sealed=True), old, registry)
    with Store(old) as store:
        stored = store.meta("spec")
        del stored["sealed"]
        store.set_meta("spec", stored)
    again = Tournament.open(old, registry)
    assert again.spec.sealed is None
    again.run(SerialExecutor(registry))
    whole = Tournament.create(spec(sealed=True), tmp_path / "whole" / "small", registry, read_secret(old))
    whole.run(SerialExecutor(registry))
    assert read_secret(old) == t.secret != OPEN
    assert records(old) == records(whole.folder)
    assert any(line.startswith("  sealed: yes") for line in status_lines(Tournament.open(old, registry)))


def test_the_flags_seal_and_the_report_and_export_say_so(tmp_path, capsys):
    """`--sealed` seals a run from flags; --secret-from an open folder plays its games again, open; the
    export's header and the report's summary say which."""
    base = ["tournament", "run", "--players", "heuristic,random,low", "--table-sizes", "3", "--deals", "1",
            "--quiet", "--jobs", "1"]
    assert main([*base, "--name", "shut", "--results", str(tmp_path), "--sealed"]) == 0
    assert main([*base, "--name", "open", "--results", str(tmp_path)]) == 0
    assert main([*base, "--name", "open", "--results", str(tmp_path / "again"),
                 "--secret-from", str(tmp_path / "open")]) == 0
    assert records(tmp_path / "again" / "open") == records(tmp_path / "open")
    assert read_secret(tmp_path / "shut") != OPEN and read_secret(tmp_path / "open") == OPEN
    capsys.readouterr()
    for name, sealed in (("shut", True), ("open", False)):
        assert main(["export", str(tmp_path / name)]) == 0
        header = json.loads(capsys.readouterr().out.splitlines()[0])
        assert header["sealed"] is sealed
    from arena.results.report.html import report_html
    html = report_html(tmp_path / "open", max_games=0)
    assert "the seed alone fixes every deal and bot seed" in html
