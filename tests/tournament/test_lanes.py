"""Several sandboxed games in flight on one worker (its lanes): the records of games played one at a time."""

from __future__ import annotations

from arena.plugins.registry import load
from arena.tournament.event import Tournament
from arena.tournament.spec import spec_from_dict
from arena.tournament import worker as worker_module
from arena.tournament.worker import Worker, batch_payload

SPEC = {"name": "lanes", "players": ["random", "low", "high", "heuristic"], "table_sizes": [4],
        "deals": 2, "seed": 11, "sandbox": "always"}


def _no_timings(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "timings"}


def test_a_sandboxed_batch_in_lanes_gives_the_records_of_one_game_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setattr(worker_module, "GAMES_IN_FLIGHT", 3)  # lanes are the subject, whatever the default
    registry = load(autoload=False)
    t = Tournament.create(spec_from_dict(SPEC, "test"), tmp_path / "lanes", registry)
    assert len(t.games) == 8 > worker_module.GAMES_IN_FLIGHT > 1
    lanes, alone = Worker(registry), Worker(registry)
    try:
        together = lanes.run_batch(batch_payload(t.spec, t.games, t.roster, t.secret))
        threads = len(lanes._clients)
        starts = sum(c.starts for per_lane in lanes._clients.values() for c in per_lane.values())
        apart = [pair for g in t.games for pair in alone.run_batch(batch_payload(t.spec, [g], t.roster, t.secret))]
    finally:
        lanes.close()
        alone.close()
    assert [i for i, _ in together] == [g.index for g in t.games]  # the batch's order
    assert threads > 1, "the games were not played in more than one lane"
    assert starts == 4, "the lanes' clients of one bot share its fork server"
    assert [(i, _no_timings(r)) for i, r in together] == [(i, _no_timings(r)) for i, r in apart]
    assert all(not r["faults"] or not any(r["faults"]) for _, r in together)


def test_in_process_batches_stay_in_the_calling_thread(tmp_path):
    registry = load(autoload=False)
    t = Tournament.create(spec_from_dict({**SPEC, "sandbox": "never"}, "test"), tmp_path / "inproc", registry)
    worker = Worker(registry)
    try:
        worker.run_batch(batch_payload(t.spec, t.games, t.roster, t.secret))
        assert len(worker._clients) == 1 and not worker._lanes
    finally:
        worker.close()
