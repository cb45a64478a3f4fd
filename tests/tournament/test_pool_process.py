"""A local pool's workers: forked from one forkserver, each what a spawned worker was (the coordinator's
environment when the pool starts, its bot clients closed when it leaves)."""

from __future__ import annotations

import os
import sys
import tempfile

import pytest

from arena.plugins.registry import load
from arena.sandbox.processes import children
from arena.tournament.event import Tournament
from arena.tournament.executors import LocalExecutor
from arena.tournament.spec import spec_from_dict
from arena.tournament.worker import batch_payload, run_batch
from support.processes import cmdline, pool_workers

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

MARK = "ARENA_TEST_POOL_MARK"


def _mine() -> dict:
    """What a worker reports of itself: its pid, its parent, the mark in its environment."""
    return {"pid": os.getpid(), "parent": os.getppid(), "mark": os.environ.get(MARK)}


def test_the_workers_of_every_pool_are_forked_from_one_forkserver_with_the_environment_of_their_start(monkeypatch):
    seen = []
    for mark in ("first", "second"):
        monkeypatch.setenv(MARK, mark)  # the forkserver was started with the first value, or before it
        with LocalExecutor(2, pin=False) as executor:
            seen.append([executor.submit(_mine).result() for _ in range(4)])
            workers = pool_workers()
            assert {me["pid"] for me in seen[-1]} <= set(workers)
    assert [sorted({me["mark"] for me in pool}) for pool in seen] == [["first"], ["second"]]
    servers = {me["parent"] for pool in seen for me in pool}
    assert len(servers) == 1, "two pools in one process use one forkserver"
    server = servers.pop()
    assert server in children() and b"forkserver" in cmdline(server)


def test_a_worker_that_ends_as_usual_closes_its_bot_clients(tmp_path):
    """A worker leaving a closed pool (a forkserver's child leaves by ``os._exit``, with no ``atexit``)
    stops its bots' fork servers, which remove their root folders: none named for it is left."""
    registry = load(autoload=False)
    spec = {"name": "ends", "players": ["random", "low", "high"], "table_sizes": [3], "deals": 1, "seed": 3,
            "sandbox": "always"}
    t = Tournament.create(spec_from_dict(spec, "test"), tmp_path / "ends", registry)
    payload = batch_payload(t.spec, t.games[:1], t.roster, t.secret)
    with LocalExecutor(1, pin=False) as executor:
        worker = executor.submit(_mine).result()["pid"]
        [(index, record)] = executor.submit(run_batch, payload).result()
        made = [p for p in os.listdir(tempfile.gettempdir()) if p.startswith(f"arena-root-{worker}-")]
    assert index == t.games[0].index and not any(record["faults"])
    assert len(made) == 3, "each bot's fork server has its root while the worker lives"
    assert [p for p in os.listdir(tempfile.gettempdir()) if p.startswith(f"arena-root-{worker}-")] == []
