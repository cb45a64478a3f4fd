"""A local pool whose worker is killed with -9 starts again and plays the lost tasks (it hung before)."""

from __future__ import annotations

import os
import signal
import threading

from arena.tournament.executors import LocalExecutor
from arena.sandbox.processes import state
from support.processes import alive, wait_for


def test_idle_workers_killed_then_a_task_still_runs():
    """Both idle workers killed: one of them held the pool's task-queue lock, so the workers the pool
    starts in their place would wait on it for ever; the executor starts a new pool and says so."""
    said: list[str] = []
    with LocalExecutor(2, pin=False, say=said.append) as executor:
        old = {p.pid for p in executor.pool._pool}
        seen: set[int] = set()
        assert wait_for(lambda: seen.update(executor.submit(os.getpid).result() for _ in range(4)) or seen == old,
                        timeout=120), "both workers started"
        assert wait_for(lambda: all(state(p) == "S" for p in old))  # idle: one waits on the task queue's lock
        for pid in old:
            os.kill(pid, signal.SIGKILL)
        assert wait_for(lambda: not any(alive(p) for p in old))
        fut = executor.submit(os.getpid)
        assert wait_for(lambda: executor.poll() or fut.done(), timeout=120), "the task never ran"
        assert fut.result() not in old
        # the broken pool is stopped for good: none of its threads is left waiting on a dead worker's lock
        left = [t.name for t in threading.enumerate() if t.name == "arena-stop-broken-pool"]
        assert left == [], left
    assert len(said) == 1 and "killed by SIGKILL) died; a new pool of 2 plays the 1 unfinished batches" in said[0]
