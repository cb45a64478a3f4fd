"""The tournament runner: determinism, serial = parallel, resume after kill -9 and Ctrl-C, stored players.

Tables are compared as JSON without the decision-time column (``decision_ms``):
CPU times differ from run to run; everything else must be identical.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.cli.app import main
from arena.game.seeds import OPEN, read_secret
from arena.plugins.registry import DISABLE_ENV, load
from arena.results.stats.standings import GROUPINGS, head_to_head_text, ratings_text
from arena.results.store.database import DB_NAME, Store
from arena.sandbox.processes import children
from arena.tournament.errors import ConfigError, TournamentError
from arena.tournament.event import Progress, Tournament, status_lines
from arena.tournament.executors import LocalExecutor, SerialExecutor
from arena.tournament.spec import load_spec, spec_from_dict
from support.processes import all_gone, wait_for
from support.tournaments import StopAfter, play, records

# 4 players and an alias of random for the 5-seat tables; two rule sets; 3-5 seats.
SPEC = {"name": "mixed", "seed": 11, "players": ["heuristic", "low", "high", "random"],
        "table_sizes": [3, 4, 5], "rules": ["getaway", {"preset": "champions"}], "house": ["random#2"],
        "deals": 2}


pytestmark = pytest.mark.usefixtures("builtin_players_only")


@pytest.fixture(scope="module")
def registry():
    return load(autoload=False)


def _no_times(value):
    if isinstance(value, dict):
        return {k: _no_times(v) for k, v in value.items() if k != "decision_ms"}
    if isinstance(value, list):
        return [_no_times(v) for v in value]
    return value


def tables(folder: Path) -> dict:
    """Every table `arena ratings` shows (overall, by each grouping, head-to-head), as JSON minus times."""
    with Store(folder) as store:
        out = {str(by): json.loads(ratings_text(store, "json", by)) for by in (None, *GROUPINGS)}
        out["head-to-head"] = json.loads(head_to_head_text(store, "json"))
    return _no_times(out)


@pytest.fixture(scope="module")
def reference(tmp_path_factory, registry):
    """An uninterrupted serial run of SPEC."""
    folder = tmp_path_factory.mktemp("ref") / "mixed"
    play(SPEC, folder, registry)
    return folder


# ------------------------------------------------------------ determinism
def test_schedule_is_played_in_full(reference, registry):
    """Every scheduled game is stored once, with the alias seated and rated as its own player."""
    t = Tournament.open(reference, registry)
    recs = records(reference)
    assert [i for i, _ in recs] == [g.index for g in t.games] and len(recs) == 84
    assert all(r["names"] == list(g.seats) for (_, r), g in zip(recs, t.games))
    assert any("random#2" in r["names"] for _, r in recs)
    assert "random#2" in {row["player"] for row in tables(reference)["None"]}
    assert all("timings" not in r for _, r in recs), "records must not hold run-dependent timings"


def test_same_spec_twice_gives_identical_records(reference, tmp_path, registry):
    """Running the same spec again with the same secret gives byte-identical records and identical tables."""
    play(SPEC, tmp_path / "again", registry, secret=read_secret(reference))
    assert records(tmp_path / "again") == records(reference)
    assert tables(tmp_path / "again") == tables(reference)


def test_an_open_event_plays_the_same_games_in_a_fresh_folder(reference, tmp_path, registry):
    """Built-in players only, no `sealed` key: the seed alone fixes the games, so a new folder (the
    issue's `mv results/quick x; arena tournament run quick`) stores the same records and tables; its
    key file holds the open key, and status says so."""
    play(SPEC, tmp_path / "moved" / "mixed", registry)
    assert read_secret(tmp_path / "moved" / "mixed") == read_secret(reference) == OPEN
    assert records(tmp_path / "moved" / "mixed") == records(reference)
    assert tables(tmp_path / "moved" / "mixed") == tables(reference)
    assert "  sealed: no, the seed alone fixes every deal and bot seed (the same games in any folder)" in \
        status_lines(Tournament.open(reference, registry))


def test_other_secret_same_schedule_other_cards_and_bot_seeds(reference, tmp_path, registry):
    """A sealed event's new folder gets its own secret: the same seats and rotations, other cards, other
    bot seeds (a public tournament seed gives no deal away); its status says it is sealed."""
    sealed = play({**SPEC, "sealed": True}, tmp_path / "fresh", registry)
    assert read_secret(tmp_path / "fresh") not in (read_secret(reference), OPEN)
    assert any(line.startswith(f"  sealed: yes, deals and bot seeds keyed with {tmp_path / 'fresh' / 'secret'}")
               for line in status_lines(Tournament.open(sealed.folder, registry)))
    fresh, ref = records(tmp_path / "fresh"), records(reference)
    same = ("names", "schedule")
    assert [[r[k] for k in same] for _, r in fresh] == [[r[k] for k in same] for _, r in ref]
    for (_, a), (_, b) in zip(fresh, ref):
        assert a["seed"] != b["seed"] and a["start"]["hands"] != b["start"]["hands"]
        assert all(x != y for x, y in zip(a["bot_seeds"], b["bot_seeds"]))
    by_deal = {}  # the rotations of one deal still share its cards
    for _, r in fresh:
        by_deal.setdefault(r["schedule"]["id"].rsplit("-r", 1)[0], set()).add(r["seed"])
    assert len(by_deal) < len(fresh) and all(len(s) == 1 for s in by_deal.values())


def test_serial_and_parallel_runs_agree(reference, tmp_path, registry):
    """A 2-worker LocalExecutor run gives the same records and tables as a serial run."""
    with LocalExecutor(2) as executor:
        play({**SPEC, "batch": 3}, tmp_path / "parallel", registry, executor, read_secret(reference))
    assert records(tmp_path / "parallel") == records(reference)
    assert tables(tmp_path / "parallel") == tables(reference)


def test_other_seed_other_games(reference, tmp_path, registry):
    """A different tournament seed deals different games."""
    play({**SPEC, "seed": 12}, tmp_path / "other", registry)
    assert [r["start"] for _, r in records(tmp_path / "other")] != [r["start"] for _, r in records(reference)]


# ------------------------------------------------------------ resume in-process
def test_interrupted_run_keeps_finished_batches_and_resumes(reference, tmp_path, registry):
    """Ctrl-C keeps every batch that finished (even one not yet stored); a second run plays only the rest."""
    t = Tournament.create(spec_from_dict({**SPEC, "batch": 5}, "test"), tmp_path / "mixed", registry,
                          read_secret(reference))
    with pytest.raises(KeyboardInterrupt):
        t.run(StopAfter(4))  # submits 2, stores them, submits a 3rd, interrupted on the 4th
    with Store(t.folder) as store:
        assert store.count() == 15 and len(t.pending(store)) == 84 - 15
    seen = []
    t.run(SerialExecutor(), on_progress=seen.append)
    assert seen[-1].done == seen[-1].total == 84 and seen[-1].played_now == 84 - 15
    assert records(t.folder) == records(reference) and tables(t.folder) == tables(reference)


def test_progress_figures(tmp_path, registry):
    """Progress counts games done of total, the rate and time left; the callback ends on the final state."""
    seen: list[Progress] = []
    t = Tournament.create(spec_from_dict({**SPEC, "table_sizes": [3], "batch": 2}, "test"),
                          tmp_path / "p", registry)
    final = t.run(SerialExecutor(), on_progress=seen.append)
    assert (seen[-1].done, seen[-1].total, seen[-1].played_now) == (final.done, final.total, final.played_now)
    assert final.done == final.total == len(t.games) and final.faults == 0
    assert final.leader in {"heuristic", "low", "high", "random"}
    assert final.rate > 0 and final.remaining == 0
    assert [p.done for p in seen] == sorted(p.done for p in seen)
    assert Progress(0, 10, 0, 0.0, 0, None).remaining is None


# ------------------------------------------------------------ create / open
def test_same_folder_other_tournament_refused(reference, registry):
    """A folder holding another tournament is refused, naming what differs; jobs and batch may differ."""
    with pytest.raises(TournamentError, match=r"different tournament \(deals 2, now 3\)"):
        Tournament.create(spec_from_dict({**SPEC, "deals": 3}, "test"), reference, registry)
    t = Tournament.create(spec_from_dict({**SPEC, "jobs": 1, "batch": 2}, "test"), reference, registry)
    with Store(reference) as store:
        assert t.pending(store) == []


def test_resume_refuses_changed_player_code(tmp_path, registry):
    """Adding games after a player's code changed is refused, naming the player; status warns of it."""
    t = Tournament.create(spec_from_dict(SPEC, "test"), tmp_path / "mixed", registry)
    with pytest.raises(KeyboardInterrupt):
        t.run(StopAfter(2))
    with Store(t.folder) as store:
        store.db.execute("UPDATE players SET code_hash = '0000' WHERE name = 'low'")
        before = store.count()
    again = Tournament.open(t.folder, registry)  # opening (status, tables) is fine
    assert any("warning: player 'low' is now version" in line for line in status_lines(again))
    with pytest.raises(TournamentError, match=r"player 'low' is now version .* played by version .*code 0000"):
        again.run(SerialExecutor())
    with Store(t.folder) as store:
        assert store.count() == before


def test_open_errors(tmp_path, registry):
    """Opening a folder without results, or without a spec, is a TournamentError."""
    with pytest.raises(TournamentError, match="no results database"):
        Tournament.open(tmp_path / "none", registry)
    Store(tmp_path / "empty", create=True).close()
    with pytest.raises(TournamentError, match="holds no tournament spec"):
        Tournament.open(tmp_path / "empty", registry)


def test_impossible_schedule_refused_before_anything_runs(tmp_path):
    """A table larger than the players and house can fill is a ConfigError naming the key."""
    with pytest.raises(ConfigError, match="key 'house': table size 6 needs 6 distinct players"):
        spec_from_dict({**SPEC, "table_sizes": [6]}, "test")


def test_status_lines(reference, tmp_path, registry):
    """Status: games stored of scheduled, faults, players with version and code; a resume hint if unfinished."""
    t = Tournament.open(reference, registry)
    text = "\n".join(status_lines(t))
    assert "games: 84 of 84 stored (100.0%)" in text and "faults: 0" in text
    assert "player random#2 " in text and "resume" not in text
    part = Tournament.create(spec_from_dict(SPEC, "test"), tmp_path / "part", registry)
    lines = status_lines(part)
    assert "games: 0 of 84 stored (0.0%)" in lines[1]
    assert lines[-1] == f"  resume with: arena tournament resume {tmp_path / 'part'}"


READY = sorted((Path(__file__).resolve().parents[2] / "tournaments").glob("*.toml"))


@pytest.mark.parametrize("path", READY, ids=lambda p: p.name)
def test_ready_tournaments_are_valid(path, registry, tmp_path):
    """Every file in tournaments/ loads, names its own file, and schedules games with installed players."""
    spec = load_spec(path)
    t = Tournament(spec, tmp_path / spec.name, registry)
    assert spec.name == path.stem and t.games
    assert path.read_text().startswith("#"), "a ready tournament file explains itself in comments"


def test_ready_tournaments_cover_every_preset():
    """There is a ready event for every preset, and one mixed event over 3-8 seat tables."""
    from arena.game.rules import PRESETS
    specs = [load_spec(p) for p in READY]
    single = {s.rules_objects()[0].name for s in specs if len(s.rules) == 1}
    assert set(PRESETS) <= single
    assert any(s.table_sizes == (3, 4, 5, 6, 7, 8) and len(s.rules) > 1 for s in specs)


# ------------------------------------------------------------ real processes
HELD_AFTER = 3
"""The stopped runs play this many batches of SPEC (8 games each), then wait for the test."""
HELD_GAMES = 8 * HELD_AFTER
HELD_ARENA = Path(__file__).resolve().parents[1] / "support" / "held_arena.py"


def _start(tmp_path: Path, spec: dict, secret_from: Path, hold: str = str(HELD_AFTER)) -> tuple[subprocess.Popen, Path]:
    """`arena tournament run FILE --jobs 2 --secret-from FOLDER` in its own session, holding back every
    batch after the first HELD_AFTER (``hold``: support/held_arena.py's N[:G]); returns it and its results folder."""
    file = tmp_path / f"{spec['name']}.toml"
    file.write_text("\n".join(f"{k} = {json.dumps(v)}" for k, v in spec.items() if k != "rules")
                    + '\nrules = ["getaway", {preset = "champions"}]\n')
    env = {**os.environ, DISABLE_ENV: "1"}
    proc = subprocess.Popen([sys.executable, str(HELD_ARENA), hold, "tournament", "run", str(file),
                             "--results", str(tmp_path), "--quiet", "--jobs", "2", "--secret-from",
                             str(secret_from)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    return proc, tmp_path / spec["name"]


def _stored(folder: Path) -> int:
    """Games stored so far (0 before the database exists), read-only: a plain connect would create an
    empty file, which the run would refuse as damaged."""
    try:
        with sqlite3.connect(f"file:{folder / DB_NAME}?mode=ro", uri=True, timeout=10) as db:
            return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


def _wait_until_held(proc: subprocess.Popen, folder: Path) -> None:
    """Wait until the run has stored the games of its first HELD_AFTER batches (then it waits for ever)."""
    wait_for(lambda: proc.poll() is not None or _stored(folder) >= HELD_GAMES, timeout=120)
    if proc.poll() is not None or _stored(folder) != HELD_GAMES:
        proc.kill()
        raise AssertionError(f"the tournament did not store {HELD_GAMES} games and wait: {proc.communicate()}")


def _resume(capsys, folder: Path, expect_missing: int) -> None:
    code = main(["tournament", "resume", str(folder), "--quiet", "--jobs", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"84 games scheduled, {expect_missing} to play" in err
    assert out.startswith("84 games\n")


def test_kill_9_then_resume_gives_the_same_tables(tmp_path, reference, capsys):
    """kill -9 a running `arena tournament run` partway; its workers leave too, and the resource tracker
    that unlinks the pool's semaphores says nothing of them on the run's stderr; resume equals an
    unbroken run."""
    proc, folder = _start(tmp_path, SPEC, reference)
    try:
        _wait_until_held(proc, folder)
        workers = children(proc.pid)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()  # until the last holder of its stderr (the tracker) has left
    assert len(workers) >= 2 and all_gone(workers), "a worker outlived the killed coordinator"
    assert "leaked" not in err and "Warning" not in err, err
    with Store(folder) as store:
        stored = store.count()
        sizes = dict(store.db.execute("SELECT idx, table_size FROM games"))
        seats = dict(store.db.execute("SELECT idx, COUNT(*) FROM seats GROUP BY idx"))
    assert stored == HELD_GAMES
    assert seats == sizes
    _resume(capsys, folder, 84 - stored)
    assert records(folder) == records(reference)
    assert tables(folder) == tables(reference)


def test_ctrl_c_stops_cleanly_and_resumes(tmp_path, reference, capsys):
    """Ctrl-C (SIGINT to the process group): exit 130, every finished game kept, the resume hint, no traceback."""
    proc, folder = _start(tmp_path, SPEC, reference)
    try:
        _wait_until_held(proc, folder)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    with Store(folder) as store:
        stored = store.count()
        assert store.db.execute("SELECT COUNT(*) FROM seats").fetchone()[0] == \
            store.db.execute("SELECT SUM(table_size) FROM games").fetchone()[0]
    assert stored == HELD_GAMES
    hint = f"stopped: {stored} of 84 games are stored; continue with `arena tournament resume {folder}`"
    assert hint in err.splitlines()
    assert out.startswith(f"{stored} games\n")
    _resume(capsys, folder, 84 - stored)
    assert records(folder) == records(reference)
    assert tables(folder) == tables(reference)


def test_kill_9_during_slow_batches_loses_only_the_games_in_flight(tmp_path, reference, capsys):
    """Two workers each finish 3 games of an 8-game batch, then their batches hang: those 6 games are
    stored at once (not when the batch ends); kill -9 keeps them; the resume plays exactly the rest."""
    proc, folder = _start(tmp_path, SPEC, reference, hold="0:3")
    try:
        wait_for(lambda: proc.poll() is not None or _stored(folder) >= 6, timeout=120)
        time.sleep(1)  # nothing more may come: both workers hang in their held batch
        t = Tournament.open(folder, load(autoload=False))
        order = [g.index for g in t.order]
        expected = sorted(order[:3] + order[8:11])  # the first 3 games of the first two batches, in play order
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate()
    with Store(folder) as store:
        assert sorted(store.done()) == expected
    _resume(capsys, folder, 84 - 6)
    assert records(folder) == records(reference)
    assert tables(folder) == tables(reference)
