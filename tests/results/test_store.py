"""The results store: one transaction per game, never a game twice, consistent after kill -9."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from arena import Game
from arena.game.status import FAULT_KINDS
from arena.plugins.registry import load
from arena.results.errors import StoreError
from arena.results.store.database import DB_NAME, Store, rules_label
from arena.tournament.event import Tournament
from arena.tournament.spec import spec_from_dict
from support.processes import wait_for

SPEC = {"name": "small", "players": ["heuristic", "low", "high"], "table_sizes": [3, 4], "deals": 2,
        "house": ["random"], "rules": ["getaway", {"preset": "donkey"}]}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A small finished tournament: (its Tournament, a list of (GameSpec, record) with timings)."""
    folder = tmp_path_factory.mktemp("store") / "small"
    t = Tournament.create(spec_from_dict(SPEC, "test"), folder, load(autoload=False))
    from arena.tournament.worker import run_batch, batch_payload
    results = dict(run_batch(batch_payload(t.spec, t.games, t.roster, t.secret)))
    return t, [(g, results[g.index]) for g in t.games]


def fresh(tmp_path) -> Store:
    return Store(tmp_path / "db", create=True)


def test_add_game_once(tmp_path, played):
    """A game is stored once: adding it again is ignored (INSERT OR IGNORE) and adds no seats."""
    _, games = played
    game, record = games[0]
    with fresh(tmp_path) as store:
        assert store.add_game(game, record) is True
        assert store.add_game(game, record) is False
        assert store.count() == 1 and store.done() == {game.index}
        assert len(store.seat_rows()) == game.table_size
        (count,) = store.db.execute("SELECT COUNT(*) FROM seats").fetchone()
        assert count == game.table_size


def test_record_stored_without_timings(tmp_path, played):
    """The stored record is the engine's record minus timings; their summary is in the seats table."""
    _, games = played
    game, record = games[0]
    assert "timings" in record
    with fresh(tmp_path) as store:
        store.add_game(game, record)
        assert "timings" in record, "add_game must not change the caller's record"
        stored = store.record(game.index)
        assert stored == {k: v for k, v in json.loads(json.dumps(record)).items() if k != "timings"}
        Game.from_record(stored)
        rows = store.seat_rows()
        assert [r["decisions"] for r in rows] == [t["decisions"] for t in record["timings"]]
        assert all(r["cpu_ms_median"] is not None for r in rows)


def test_record_lookup(tmp_path, played):
    """A record by schedule index, by index text, or by game id; an unknown game is a StoreError."""
    _, games = played
    with fresh(tmp_path) as store:
        for game, record in games[:3]:
            store.add_game(game, record)
        game = games[2][0]
        assert store.record(game.index) == store.record(str(game.index)) == store.record(game.game_id)
        for bad in (999, "nope"):
            with pytest.raises(StoreError, match="no game"):
                store.record(bad)


def test_meta_and_players(tmp_path):
    """Meta values and player descriptions round-trip."""
    with fresh(tmp_path) as store:
        store.set_meta("spec", {"a": [1, 2]})
        assert store.meta("spec") == {"a": [1, 2]} and store.meta("none", 5) == 5
        store.save_roster([{"name": "b", "plugin": "p", "version": "1", "code_hash": "h"},
                            {"name": "a", "plugin": "p", "version": "2", "code_hash": "g"}])
        assert [p["name"] for p in store.roster()] == ["a", "b"]


def test_seat_rows_and_faults(tmp_path, played):
    """Seat rows come in game order with each game's table size and rules label."""
    _, games = played
    with fresh(tmp_path) as store:
        for game, record in reversed(games):
            store.add_game(game, record)
        rows = store.seat_rows()
        assert [(r["idx"], r["seat"]) for r in rows] == sorted((r["idx"], r["seat"]) for r in rows)
        assert {r["table_size"] for r in rows} == {3, 4}
        assert {r["rules"] for r in rows} == {"getaway", "donkey"}
        assert store.fault_count() == 0


def test_every_fault_kind_is_a_seat_column(tmp_path, played):
    """The seats table holds a count of each fault kind (FAULT_KINDS, in order), and seat_rows reads them back."""
    _, games = played
    game, record = games[0]
    faults = [[{"kind": kind, "detail": "test", "event": 0} for kind in FAULT_KINDS[:seat + 1]]
              for seat in range(len(record["names"]))]
    with fresh(tmp_path) as store:
        store.add_game(game, {**record, "faults": faults})
        columns = [row[1] for row in store.db.execute("PRAGMA table_info(seats)")]
        rows = store.seat_rows()
        assert store.fault_count() == sum(map(len, faults))
    assert columns[columns.index("penalty") + 1:][:len(FAULT_KINDS)] == list(FAULT_KINDS)
    for row in rows:
        assert [row[kind] for kind in FAULT_KINDS] == [int(i <= row["seat"]) for i in range(len(FAULT_KINDS))]


def test_rules_label_names_changes():
    """A rules label is the preset plus the options changed from it."""
    from arena.game.rules import Rules
    assert rules_label(Rules.preset("getaway").to_dict()) == "getaway"
    assert rules_label(Rules.preset("getaway", escape="pass", shootout=True).to_dict()) == \
        "getaway escape=pass shootout=true"


def test_missing_and_foreign_databases(tmp_path):
    """No database, or a file that is not one: a StoreError naming the place."""
    with pytest.raises(StoreError, match="no results database"):
        Store(tmp_path / "nothing")
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / DB_NAME).write_text("not a database " * 100)
    with pytest.raises(StoreError, match="not a results database"):
        Store(tmp_path / "junk")


WRITER = textwrap.dedent("""
    import json, sys
    from arena.tournament.schedule import GameSpec
    from arena.results.store.database import Store
    games = json.loads(open(sys.argv[2]).read())
    store = Store(sys.argv[1], create=True)
    for _ in range(1000):  # the same games over and over: every add after the first is ignored
        for g, record in games:
            store.add_game(GameSpec(**{**g, "seats": tuple(g["seats"])}), record)
        print("round", flush=True)
""")


def test_kill_9_leaves_a_consistent_database(tmp_path, played):
    """A writer killed with -9 in mid-stream leaves every stored game whole (its seats all there)."""
    from dataclasses import asdict
    _, games = played
    data = tmp_path / "games.json"
    data.write_text(json.dumps([[asdict(g), r] for g, r in games]))
    folder = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(folder), str(data)],
                            stdout=subprocess.PIPE, text=True)
    counts = [0]

    def half_stored() -> bool:
        """Half the games stored: the writer is mid-stream (its first pass stores each game once)."""
        try:
            # read-only: a plain connect would create an empty file, which the writer would refuse as damaged
            db = sqlite3.connect(f"file:{folder / DB_NAME}?mode=ro", uri=True, timeout=10)
            try:
                counts.append(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
            finally:
                db.close()
        except sqlite3.OperationalError:
            pass
        return counts[-1] >= len(games) // 2

    try:
        wait_for(half_stored, timeout=60, interval=0.005)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    count = counts[-1]
    assert count >= len(games) // 2, "the writer stored too few games in time"
    with Store(folder) as store:
        assert store.db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        per_game = dict(store.db.execute("SELECT idx, COUNT(*) FROM seats GROUP BY idx").fetchall())
        sizes = dict(store.db.execute("SELECT idx, table_size FROM games").fetchall())
        assert per_game == sizes, "a game without all its seats, or seats without their game"
        assert store.count() == len(sizes) >= count
        for game, record in games:  # finishing the job: only the missing games are added
            store.add_game(game, record)
        assert store.count() == len(games) and len(store.seat_rows()) == sum(g.table_size for g, _ in games)
