"""The store's games as Outcomes: column by column, or one query and a check of the whole store in SQL; the same
Outcomes as one by one."""

from __future__ import annotations

import sqlite3

import pytest

from arena.plugins.registry import load
from arena.results.errors import RatingsError
from arena.results.stats.ratings import FAULT_KINDS, Outcome
from arena.results.store.database import Store
from arena.results.store.outcomes import careful_outcomes, clean_outcomes, outcomes, suspect_games
from arena.tournament.event import Tournament
from arena.tournament.spec import spec_from_dict
from arena.tournament.worker import batch_payload, run_batch

SPEC = {"name": "so", "seed": 5, "players": ["heuristic", "low", "high", "random"], "table_sizes": [3, 4],
        "deals": 2}


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    t = Tournament.create(spec_from_dict(SPEC, "test"), tmp_path_factory.mktemp("so") / "so", load(autoload=False))
    results = dict(run_batch(batch_payload(t.spec, t.games, t.roster, t.secret)))
    return [(g, results[g.index]) for g in t.games]


@pytest.fixture()
def store(tmp_path, games):
    with Store(tmp_path / "s", create=True) as s:
        for game, record in games:
            s.add_game(game, record)
        # some faults and a drawn game, as a store may hold them
        s.db.execute("UPDATE seats SET timeout = 2, illegal = 1 WHERE idx = 3 AND seat = 1")
        s.db.execute("UPDATE seats SET crash = 1 WHERE idx = 5 AND seat = 0")
        s.db.execute("UPDATE seats SET rank = 1 WHERE idx = 0")
        s.db.execute("UPDATE games SET loser = NULL, draw = 1 WHERE idx = 0")
        yield s


def one_by_one(store: Store) -> list[Outcome]:
    """The outcomes as they were read before: a dict per seat row, each Outcome checked on its own."""
    games: dict[int, list[dict]] = {}
    for row in store.seat_rows():
        games.setdefault(row["idx"], []).append(row)
    out = []
    for idx in sorted(games):
        seats = sorted(games[idx], key=lambda r: r["seat"])
        out.append(Outcome(
            index=idx, seats=tuple(r["player"] for r in seats), ranks=tuple(r["rank"] for r in seats),
            loser=seats[0]["loser"], table_size=seats[0]["table_size"], rules=seats[0]["rules"],
            penalty=tuple(r["penalty"] for r in seats),
            faults=tuple({k: r[k] for k in FAULT_KINDS if r[k]} for r in seats),
            decision_ms=tuple(None if not r["plays"] or r["play_cpu_ms"] is None else r["play_cpu_ms"] / r["plays"]
                              for r in seats),
            plays=tuple(r["plays"] or 0 for r in seats)))
    return out


def test_same_outcomes_as_one_by_one_and_none_suspect(store, games):
    got = outcomes(store)
    assert len(got) == len(games) and got == one_by_one(store)
    assert got[3].faults[1] == {"timeout": 2, "illegal": 1} and got[0].loser is None
    assert any(d is not None for o in got for d in o.decision_ms)
    assert suspect_games(store) == set()       # every game was built without its checks run again


def test_a_database_from_before_play_timings(store):
    store.db.execute("ALTER TABLE seats DROP COLUMN plays")
    store.db.execute("ALTER TABLE seats DROP COLUMN play_cpu_ms")
    reopened = Store(store.folder)
    got = outcomes(reopened)
    assert got == one_by_one(reopened) and all(o.decision_ms == (None,) * o.table_size for o in got)
    assert suspect_games(reopened) == set()
    reopened.close()


DAMAGE = [
    ("UPDATE seats SET rank = 7 WHERE idx = 9 AND seat = 0", "game 9: ranks must be"),
    ("UPDATE seats SET rank = -1 WHERE idx = 9 AND seat = 0", "game 9: ranks must be"),
    ("UPDATE seats SET rank = 0.5 WHERE idx = 9 AND seat = 0", "game 9: ranks must be"),
    ("UPDATE seats SET penalty = 4 WHERE idx = 9 AND seat = 1", "game 9: penalty must be"),
    ("UPDATE seats SET penalty = 'x' WHERE idx = 9 AND seat = 1", "game 9: penalty must be"),
    ("UPDATE seats SET crash = -1 WHERE idx = 9 AND seat = 1", "game 9: faults must be"),
    ("UPDATE seats SET malformed = 1.5 WHERE idx = 9 AND seat = 1", "game 9: faults must be"),
    ("UPDATE seats SET plays = -2 WHERE idx = 9 AND seat = 1", "game 9: decision_ms must be"),
    ("UPDATE seats SET plays = 'many' WHERE idx = 9 AND seat = 1", "game 9: plays must be"),
    ("UPDATE seats SET play_cpu_ms = -1.0 WHERE idx = 9 AND seat = 1", "game 9: decision_ms must be"),
    ("UPDATE seats SET play_cpu_ms = 'slow' WHERE idx = 9 AND seat = 1", "game 9: decision_ms must be"),
    ("UPDATE seats SET player = (SELECT player FROM seats WHERE idx = 9 AND seat = 1) WHERE idx = 9 AND seat = 0",
     "game 9: seats must be distinct names"),
    ("DELETE FROM seats WHERE idx = 9 AND seat = 0", "game 9: seats must be"),
    ("UPDATE games SET table_size = 5 WHERE idx = 9", "game 9: seats must be 5 names"),
    ("UPDATE games SET table_size = 'four' WHERE idx = 9", "game 9: seats must be"),
    ("UPDATE games SET rules = x'41' WHERE idx = 9", "game 9: rules must be a label string"),
    ("UPDATE games SET loser = 9 WHERE idx = 9", "game 9: loser must be a seat"),
    ("UPDATE games SET loser = 'x' WHERE idx = 9", "game 9: loser must be a seat"),
    ("UPDATE games SET loser = (SELECT seat FROM seats WHERE idx = 9 AND rank = 0) WHERE idx = 9",
     "game 9: ranks must be the loser"),
    ("UPDATE seats SET rank = (SELECT max(rank) FROM seats WHERE idx = 9) WHERE idx = 9 AND rank = 0",
     "game 9: ranks must be the loser"),
]


@pytest.mark.parametrize("sql, message", DAMAGE)
def test_a_damaged_row_is_suspect_and_refused_as_before(store, sql, message):
    assert store.db.execute("SELECT table_size, loser FROM games WHERE idx = 9").fetchone()[0] >= 3
    store.db.execute(sql)
    assert suspect_games(store) == {9}
    with pytest.raises(RatingsError, match=message):
        outcomes(store)
    if "'many'" in sql or "'slow'" in sql:     # the one-by-one read divided by the text: a traceback
        with pytest.raises(TypeError):
            one_by_one(store)
    else:
        with pytest.raises(RatingsError, match=message):
            one_by_one(store)


def test_a_suspect_game_that_is_fine_is_read_as_before(store):
    """Seats numbered 0, 1, 3 (not 0..n-1): suspect, so checked one by one; still the same Outcome as before."""
    store.db.execute("UPDATE seats SET seat = 7 WHERE idx = 9 AND seat = 2")
    assert suspect_games(store) == {9}
    assert outcomes(store) == one_by_one(store)



def test_the_column_read_equals_the_careful_read(store):
    """A clean store (faults, a draw) reads column by column into the same Outcomes as the careful read."""
    clean = clean_outcomes(store.db, "plays, play_cpu_ms")
    assert clean is not None and clean == careful_outcomes(store) == one_by_one(store)
    assert clean[3].faults[1] == {"timeout": 2, "illegal": 1} and clean[3].faults[0] == {}
    assert clean[3].faults[0] is not clean[4].faults[0]         # every seat's empty faults a dict of its own


def test_an_empty_store_reads_as_no_outcomes(tmp_path):
    with Store(tmp_path / "e", create=True) as s:
        assert clean_outcomes(s.db, "plays, play_cpu_ms") == [] and outcomes(s) == []


@pytest.mark.parametrize("sql, message", DAMAGE)
def test_the_column_read_of_a_damaged_store_gives_up_or_refuses(store, sql, message):
    """Damage either fails a whole-column check (None: the careful read takes over) or is one of the
    checks made a game at a time, refused with Outcome's own error."""
    store.db.execute(sql)
    try:
        got = clean_outcomes(store.db, "plays, play_cpu_ms")
    except RatingsError as exc:
        assert message in str(exc)
        return
    assert got is None
