"""Match tournaments (``match_points``): the unit is a match, hands stored as games, replay of a whole
match, rotations replaying the same hands, resume after kill -9, ratings by match."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli.app import main
from arena.game.match_record import replay_match
from arena.game.seeds import read_secret
from arena.plugins.registry import DISABLE_ENV, load
from arena.results.errors import StoreError
from arena.results.stats.match_outcomes import match_outcomes
from arena.results.store.database import Store
from arena.results.store.matches import HAND_STRIDE, add_match, done_matches, match_rows, stored_match
from arena.tournament.errors import ConfigError
from arena.tournament.event import Tournament, _spec_change, status_lines
from arena.tournament.executors import SerialExecutor
from arena.tournament.spec import spec_from_dict
from support.processes import wait_for
from support.tournaments import StopAfter, play, records

SPEC = {"name": "match", "seed": 5, "players": ["heuristic", "low", "high", "random"], "table_sizes": [3],
        "deals": 1, "batch": 2, "match_points": 6}
UNITS = 4 * 3  # 4 tables of 3 (each choice of 3 of 4), 3 rotations of one deal

pytestmark = pytest.mark.usefixtures("builtin_players_only")


@pytest.fixture(scope="module")
def registry():
    return load(autoload=False)


@pytest.fixture(scope="module")
def reference(tmp_path_factory, registry):
    folder = tmp_path_factory.mktemp("ref") / "match"
    play(SPEC, folder, registry)
    return folder


def matches(folder: Path) -> list[dict]:
    with Store(folder) as store:
        return [stored_match(store, i) for i in sorted(done_matches(store))]


def test_every_unit_is_a_match_with_its_hands_stored_as_games(reference, registry):
    t = Tournament.open(reference, registry)
    with Store(reference) as store:
        assert done_matches(store) == {g.index for g in t.games} and len(t.games) == UNITS
        ids = {r[0]: r[1] for r in store.db.execute("SELECT idx, game_id FROM games")}
    for game, record in zip(t.games, matches(reference)):
        assert record["names"] == list(game.seats) and record["result"]["hands"] == len(record["hands"])
        assert max(record["result"]["scores"]) >= 6
        for h, hand in enumerate(record["hands"]):
            assert ids[game.index * HAND_STRIDE + h] == f"{game.game_id}-h{h}"
            assert hand["match"]["hand"] == h and hand["schedule"]["id"] == game.game_id
        state = replay_match(record)                      # every stored match replays exactly
        assert state.result().to_dict() == record["result"]
    assert "matches: 12 of 12 stored" in "\n".join(status_lines(t))


def test_rotations_replay_the_same_hands_with_the_seats_rotated(reference):
    by_deal: dict[str, list[dict]] = {}
    for record in matches(reference):
        by_deal.setdefault(record["schedule"]["id"].rsplit("-r", 1)[0], []).append(record)
    for rotations in by_deal.values():
        assert len(rotations) == 3
        first = rotations[0]
        for other in rotations[1:]:
            assert other["seed"] == first["seed"] and set(other["names"]) == set(first["names"])
            assert other["names"] != first["names"]
            for a, b in zip(first["hands"], other["hands"]):
                assert a["start"] == b["start"] and a["dealer"] == b["dealer"]


def test_same_secret_same_matches(reference, tmp_path, registry):
    play(SPEC, tmp_path / "again", registry, secret=read_secret(reference))
    assert records(tmp_path / "again") == records(reference)


def test_ctrl_c_keeps_whole_matches_and_resume_plays_the_rest(reference, tmp_path, registry):
    t = Tournament.create(spec_from_dict(SPEC, "test"), tmp_path / "match", registry, read_secret(reference))
    with pytest.raises(KeyboardInterrupt):
        t.run(StopAfter(3))                                   # two batches of two matches, then Ctrl-C
    with Store(t.folder) as store:
        assert done_matches(store) == {g.index for g in t.order[:4]}   # the first four in play order
    assert len(t.pending(Store(t.folder))) == UNITS - 4
    t.run(SerialExecutor())
    assert records(t.folder) == records(reference)


def test_a_match_is_stored_whole_or_not_at_all(reference, tmp_path, monkeypatch):
    """A store failure on a match's second hand leaves none of that match (one transaction)."""
    record = matches(reference)[0]
    assert len(record["hands"]) >= 2
    real, calls = Store.add_game, []

    def failing(self, game, hand):
        calls.append(game.index)
        if len(calls) == 2:
            raise StoreError("disk full (test)")
        return real(self, game, hand)

    spec = spec_from_dict(SPEC, "test")
    game = spec.schedule_format().games()[0]
    with Store(tmp_path / "m", create=True) as store:
        monkeypatch.setattr(Store, "add_game", failing)
        with pytest.raises(StoreError, match="disk full"):
            add_match(store, game, record)
        monkeypatch.setattr(Store, "add_game", real)
        assert store.count() == 0 and done_matches(store) == set()
        assert add_match(store, game, record) and not add_match(store, game, record)
        assert store.count() == len(record["hands"])


HELD_ARENA = Path(__file__).resolve().parents[1] / "support" / "held_arena.py"


def test_kill_9_then_resume_equals_an_unbroken_run(reference, tmp_path, capsys):
    """kill -9 a match tournament with matches in flight (support/held_arena.py holds every batch after
    the first two): only whole matches are stored, and a resume plays the rest to the same records."""
    file = tmp_path / "match.toml"
    file.write_text("\n".join(f"{k} = {json.dumps(v)}" for k, v in SPEC.items()) + "\n")
    proc = subprocess.Popen([sys.executable, str(HELD_ARENA), "2", "tournament", "run", str(file), "--results",
                             str(tmp_path), "--quiet", "--jobs", "2", "--secret-from", str(reference)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, DISABLE_ENV: "1"}, start_new_session=True)
    folder = tmp_path / "match"

    def stored() -> int:
        try:
            with Store(folder) as store:
                return len(done_matches(store))
        except StoreError:
            return 0
    try:
        wait_for(lambda: proc.poll() is not None or stored() >= 4, timeout=120)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
    with Store(folder) as store:
        done = done_matches(store)
        hands = sum(r["result"]["hands"] for r in match_rows(store))
        assert len(done) == 4 and store.count() == hands     # no hand of an unfinished match
    code = main(["tournament", "resume", str(folder), "--quiet", "--jobs", "1"])
    _, err = capsys.readouterr()
    assert code == 0, err
    assert f"{UNITS} games scheduled, {UNITS - 4} to play" in err
    assert records(folder) == records(reference)


def test_ratings_by_match_rate_the_final_standings(reference, capsys):
    with Store(reference) as store:
        outs = match_outcomes(store)
        rows = match_rows(store)
    assert [o.index for o in outs] == [r["idx"] for r in rows]
    for o, r in zip(outs, rows):
        assert o.ranks == tuple(r["result"]["ranks"])
        last = [s for s in range(3) if o.ranks[s] == max(o.ranks)]
        assert o.loser == (last[0] if len(last) == 1 else None)
    assert main(["ratings", str(reference), "--by-match", "--format", "json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert {row["player"]: row["games"] for row in table} == {"heuristic": 9, "low": 9, "high": 9, "random": 9}
    assert main(["ratings", str(reference), "--format", "json"]) == 0
    per_hand = json.loads(capsys.readouterr().out)
    assert sum(row["games"] for row in per_hand) == 3 * sum(r["result"]["hands"] for r in rows)


def test_ratings_by_match_of_single_games_is_one_error_line(tmp_path, registry, capsys):
    play({**SPEC, "match_points": None, "name": "single"}, tmp_path / "single", registry)
    assert main(["ratings", str(tmp_path / "single"), "--by-match"]) != 0
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [f"error: --by-match expects a tournament with match_points (got "
                                              f"{tmp_path / 'single'}, which holds no matches)"]


def test_replay_a_stored_match_by_number_or_id(reference, capsys):
    record = matches(reference)[5]
    assert main(["replay", str(reference), "--match", "5"]) == 0
    text = capsys.readouterr().out
    assert text.count("== Hand") == len(record["hands"]) and "Match over after" in text
    assert main(["replay", str(reference), "--match", record["schedule"]["id"], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"] == record["result"]
    assert main(["replay", str(reference), "--match", "99"]) != 0
    assert "no match '99'" in capsys.readouterr().err


@pytest.mark.parametrize("keys,message", [
    ({"match_points": 0}, "test: key 'match_points': must be a positive whole number (got 0)"),
    ({"match_points": 6.5}, "test: key 'match_points': must be a positive whole number (got 6.5)"),
    ({"match_points": 6, "match_score": "legs"}, "test: key 'match_score': must be one of places, cards (got 'legs')"),
    ({"match_points": None, "match_score": "cards"}, "test: key 'match_score': needs match_points"),
])
def test_bad_match_keys_are_one_line(keys, message):
    with pytest.raises(ConfigError) as info:
        spec_from_dict({**SPEC, **keys}, "test")
    assert str(info.value).startswith(message) and "\n" not in str(info.value)


def test_a_spec_without_match_keys_is_stored_as_before():
    """A results folder made before matches existed has no match keys: it is the same tournament."""
    spec = spec_from_dict({k: v for k, v in SPEC.items() if k != "match_points"}, "test")
    stored = {k: v for k, v in spec.results_dict().items() if not k.startswith("match_")}
    assert _spec_change(stored, spec) is None
