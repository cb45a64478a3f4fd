"""The schedule made as it is sent (issue 18, item 6): the same games, seeds and order as the whole schedule
made up front, and a run that holds its games in flight, not the schedule."""

from __future__ import annotations

import gc
import hashlib
import json
import sqlite3

import pytest
from tournament.schedule_checks import rr

from arena.game.seeds import Secret
from arena.plugins.registry import load
from arena.results.store.database import DB_NAME, Store
from arena.results.store.export import deal_lines
from arena.tournament.book import with_book
from arena.tournament.event import Tournament, status_lines
from arena.tournament.executors import SerialExecutor
from arena.tournament.formats import Format, make_format
from arena.tournament.schedule import GameSpec
from arena.tournament.spec import spec_from_dict
from arena.tournament.worker import unpack_results

pytestmark = pytest.mark.usefixtures("builtin_players_only")

SECRET = Secret(bytes(range(32)))
EVENTS = {
    "rr": {"name": "rr", "seed": 4, "players": ["heuristic", "low", "high", "random"], "table_sizes": [3, 4],
           "rules": ["getaway", "donkey"], "deals": 2, "batch": 3, "sandbox": "never"},
    "paired": {"name": "p", "seed": 6, "format": "paired", "candidates": ["low", "high"],
               "players": ["low", "high", "heuristic", "random", "random#2"], "table_sizes": [3], "deals": 3,
               "sandbox": "never"},
}
MAIN = {"rr": (64, "ef84a2063b5054fa"), "paired": (18, "8568dd982cb52837")}
"""Each event's stored games and the digest of its ``games`` rows in the order stored (rowid, index,
record), made by main at 329cb78 (the schedule made whole before the run) with :data:`SECRET`."""


@pytest.fixture(scope="module")
def registry():
    return load()


def stored_digest(folder) -> tuple[int, str]:
    with sqlite3.connect(folder / DB_NAME) as db:
        rows = list(db.execute("SELECT rowid, idx, record FROM games ORDER BY rowid"))
    return len(rows), hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:16]


def formats() -> list[Format]:
    """Formats of every kind: full and sampled round robins, a gauntlet, a paired comparison."""
    return [rr(players=6, sizes=(3, 4, 5), deals=2, rules=("getaway", "donkey")),
            rr(players=9, sizes=(4,), deals=1, budget=60),
            make_format("gauntlet", candidates=["x", "y"], field=["a", "b", "c", "d"], table_sizes=(3, 4),
                        rules=("getaway",), seed=5, deals=3),
            make_format("paired", candidates=["x", "y"], field=["a", "b", "c", "d", "e"], table_sizes=(4,),
                        rules=("getaway",), seed=5, deals=7)]


@pytest.mark.parametrize("fmt", formats(), ids=lambda f: f"{f.name}-{f.count()}")
def test_the_lazy_play_order_is_the_whole_schedules(fmt):
    games = fmt.games()
    assert list(fmt.iter_games()) == games and fmt.count() == len(games)
    assert list(fmt.ordered()) == fmt.play_order(games)
    assert fmt.player_names() == sorted({name for g in games for name in g.seats})


@pytest.mark.parametrize("event", sorted(EVENTS))
def test_records_and_their_order_are_mains(event, tmp_path, registry):
    t = Tournament.create(spec_from_dict(EVENTS[event], event), tmp_path / event, registry, SECRET)
    t.run(SerialExecutor(registry))
    assert stored_digest(tmp_path / event) == MAIN[event]


def test_a_resume_stores_what_an_unbroken_run_does(tmp_path, registry):
    spec = spec_from_dict(EVENTS["rr"], "rr")
    t = Tournament.create(spec, tmp_path / "rr", registry, SECRET)
    first = t.run(SerialExecutor(registry), watch=lambda game, record: True)  # stops after its first batch
    assert 0 < first.done < t.total
    assert f"  games: {first.done} of 64 stored ({100 * first.done / 64:.1f}%)" in status_lines(t)
    again = Tournament.open(tmp_path / "rr", registry)
    last = again.run(SerialExecutor(registry))
    assert (last.done, last.played_now) == (64, 64 - first.done)
    assert stored_digest(tmp_path / "rr") == MAIN["rr"]


def test_a_book_event_hands_out_the_books_deals_as_before(tmp_path, registry):
    t = Tournament.create(spec_from_dict(EVENTS["rr"], "rr"), tmp_path / "rr", registry, SECRET)
    t.run(SerialExecutor(registry))
    with Store(tmp_path / "rr") as store:
        (tmp_path / "book.jsonl").write_text("".join(line + "\n" for line in deal_lines(store)))
    booked = Tournament.create(spec_from_dict({**EVENTS["rr"], "name": "b", "deals": str(tmp_path / "book.jsonl")},
                                              "b"), tmp_path / "b", registry, SECRET)
    whole = with_book(booked.format.games(), booked.spec.deal_book)
    assert list(booked.ordered()) == booked.format.play_order(whole) and all(g.book for g in whole)


class LateStream:
    """A streaming executor that hands every game over three times: streamed before its batch is back,
    with its batch, and streamed again once the coordinator has taken the batch back."""

    workers = 1

    def __init__(self, registry) -> None:
        self.inner, self.deliver = SerialExecutor(registry), None
        self.next_poll: list = []
        self.poll_after: list = []

    def deliver_to(self, callback) -> None:
        self.deliver = callback

    def submit(self, fn, packed):
        fut = self.inner.submit(fn, packed)
        games = unpack_results(fut.result())
        self.deliver(games)
        self.poll_after.append(games)
        return fut

    def poll(self) -> None:
        for games in self.next_poll:
            self.deliver(games)
        self.next_poll, self.poll_after = self.poll_after, []

    def shutdown(self, **_) -> None:
        self.inner.shutdown()


def test_games_that_come_again_are_stored_once(tmp_path, registry):
    t = Tournament.create(spec_from_dict(EVENTS["rr"], "rr"), tmp_path / "rr", registry, SECRET)
    progress = t.run(LateStream(registry))
    assert (progress.done, progress.played_now) == (64, 64)
    assert stored_digest(tmp_path / "rr") == MAIN["rr"]


def test_a_run_holds_its_games_in_flight_not_the_schedule(tmp_path, registry, monkeypatch):
    """400 games in batches of 4, at most two batches in flight: never more than a few GameSpecs alive
    (and the whole schedule is never made)."""
    monkeypatch.setattr(Format, "games", lambda self: pytest.fail("the whole schedule was made"))
    data = {"name": "big", "seed": 1, "players": ["random", "low", "high", "heuristic"], "table_sizes": [4],
            "deals": 100, "batch": 4, "sandbox": "never"}
    t = Tournament.create(spec_from_dict(data, "big"), tmp_path / "big", registry, SECRET)
    alive: list[int] = []

    def specs() -> int:
        return sum(isinstance(o, GameSpec) for o in gc.get_objects())

    def count(game, record) -> bool:
        if game.index % 25 == 0:
            alive.append(specs() - before)
        return False

    before = specs()  # other tests' (this process may have run them)
    assert t.run(SerialExecutor(registry), watch=count).done == t.total == 400
    # two batches in flight, the next one, and the serial worker's own copy of the batch it plays
    assert len(alive) >= 10 and max(alive) <= 4 * 4, alive
