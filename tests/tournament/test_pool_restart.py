"""A local pool whose worker is killed with -9 starts again and plays the lost tasks (it hung before)."""

from __future__ import annotations

import os
import signal
import threading

from arena.tournament.executors import LocalExecutor, ended
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
        left = [t.name for t in threading.enumerate() if t.name == "arena-stop-pool"]
        assert left == [], left
    assert len(said) == 1 and "killed by SIGKILL) died; a new pool of 2 plays the 1 unfinished batches" in said[0]


def _deaf_to_sigterm() -> int:
    """Make this pool worker take SIGTERM in a thread other than its main one (as a worker that loaded
    numpy may, with OpenBLAS's thread): Python's handler then never runs while the main thread waits."""
    threading.Thread(target=threading.Event().wait, daemon=True).start()  # SIGTERM not blocked in it
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    return os.getpid()


def test_a_cancelled_pool_stops_even_if_sigterm_goes_astray():
    """Stopping a pool (Ctrl-C, a full disk) ends its workers even if SIGTERM reaches a thread of theirs that
    is not the main one; before, terminate waited for them for ever (a suite run hung so)."""
    executor = LocalExecutor(2, pin=False, say=lambda line: None, stop_patience=1.0)
    seen: set[int] = set()
    assert wait_for(lambda: seen.update(executor.submit(_deaf_to_sigterm).result() for _ in range(4))
                    or len(seen) == 2, timeout=120), "both workers ran the task"
    stopping = threading.Thread(target=executor.shutdown, kwargs={"cancel": True}, daemon=True)
    stopping.start()
    stopping.join(120)  # a hang detector, not a timing: it ends after about 3 s
    assert not stopping.is_alive(), "the pool's workers were never stopped"
    assert not any(alive(p) for p in seen)
    assert [t.name for t in threading.enumerate() if t.name == "arena-stop-pool"] == []


def _threads_after_numpy() -> int:
    import numpy  # noqa: F401  (what an in-process bot may load)
    return len(os.listdir("/proc/self/task"))


def test_a_pool_worker_that_loads_numpy_keeps_one_thread():
    """numpy's OpenBLAS would start a thread a core: a worker plays on one, and a second thread may take the
    SIGTERM meant for the worker (see above)."""
    with LocalExecutor(2, pin=False) as executor:
        assert executor.submit(_threads_after_numpy).result() == 1


class _Ended:
    """A process as :func:`ended` may see it: its sentinel only. Its exit code is read by the pool's own
    thread while the pool runs; a second reader at the same moment got 255 for a worker killed by
    SIGKILL (seen once in about fifteen runs of test_ladder_workers)."""

    def __init__(self, sentinel: int) -> None:
        self.sentinel = sentinel

    @property
    def exitcode(self):
        raise AssertionError("the exit code was read while the pool's thread may read it too")


def test_a_dead_worker_is_seen_on_its_sentinel_without_reading_its_exit_code():
    read, write = os.pipe()
    try:
        running = _Ended(read)
        assert ended([running]) == []
        os.close(write)  # the process is gone: its sentinel reads as ready
        assert ended([running]) == [running]
    finally:
        os.close(read)
