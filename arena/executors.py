"""Executors the tournament runs on: ``concurrent.futures``-style ``submit``.

- :class:`SerialExecutor`: runs each task at once in this process (tests, ``--jobs 1``).
- :class:`LocalExecutor`: a pool of worker processes built on ``multiprocess``
  (spawned from a clean interpreter), each pinned to one core where the OS
  allows, so a game's referee and its bot processes share that core.
- the Dask backend lives in :mod:`arena.dask_backend`.
"""

from __future__ import annotations

import os
from concurrent.futures import Future


class SerialExecutor:
    """Runs each submitted task immediately, in the calling process."""

    workers = 1

    def submit(self, fn, *args, **kwargs) -> Future:
        fut: Future = Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered through the future, like a real executor
            if isinstance(exc, KeyboardInterrupt):
                raise
            fut.set_exception(exc)
        return fut

    def shutdown(self, wait: bool = True, cancel: bool = False) -> None:
        from .worker import close_clients
        close_clients()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.shutdown()


def _init_worker(counter, cores: list[int]) -> None:
    """Pin this worker to one core (round robin) and ignore Ctrl-C (the coordinator handles it)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with counter.get_lock():
        slot = counter.value
        counter.value += 1
    if cores and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {cores[slot % len(cores)]})
        except OSError:
            pass


def _cores() -> list[int]:
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return []


class LocalExecutor:
    """A ``multiprocess`` pool of ``workers`` processes with a ``submit`` method."""

    def __init__(self, workers: int | None = None, pin: bool = True) -> None:
        import multiprocess as mp
        ctx = mp.get_context("spawn")
        self.workers = workers or os.cpu_count() or 1
        counter = ctx.Value("i", 0)
        self.pool = ctx.Pool(self.workers, initializer=_init_worker,
                             initargs=(counter, _cores() if pin else []))

    def submit(self, fn, *args) -> Future:
        fut: Future = Future()
        fut.set_running_or_notify_cancel()
        self.pool.apply_async(fn, args, callback=fut.set_result, error_callback=fut.set_exception)
        return fut

    def shutdown(self, wait: bool = True, cancel: bool = False) -> None:
        if cancel:
            self.pool.terminate()
        else:
            self.pool.close()
        self.pool.join()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *rest):
        self.shutdown(cancel=exc_type is not None)


def make_executor(spec, jobs: int | None = None):
    """The executor a spec asks for."""
    jobs = jobs or spec.workers
    if spec.backend == "dask":
        from .dask_backend import DaskExecutor
        return DaskExecutor(spec.scheduler)
    return SerialExecutor() if jobs == 1 else LocalExecutor(jobs)
