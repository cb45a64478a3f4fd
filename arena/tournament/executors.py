"""Executors the tournament runs on: ``concurrent.futures``-style ``submit``.

- :class:`SerialExecutor`: runs each task at once in this process (tests, ``--jobs 1``), on one core
  as a pool worker does.
- :class:`LocalExecutor`: a pool of worker processes built on ``multiprocess``
  (forked from a clean interpreter: :mod:`arena.tournament.pool_process`), each
  pinned to one core where the OS allows, so a game's referee and its bot
  processes share that core.
- the Dask backend lives in :mod:`arena.tournament.dask_backend`.

An executor that streams games (all three) also has ``deliver_to(callback)``
and ``poll()``: each game a worker finishes reaches ``callback`` as a list of
``(index, record)`` pairs, in the coordinator's thread, when it calls ``poll``
(a serial executor calls it at once, as the game finishes). A local pool's
stream is read as it fills by a :class:`~arena.tournament.stream_drain.Drain`
thread, so no worker waits on a full pipe, and its batches come back as the
indices of the games they streamed (:class:`~arena.tournament.worker.Streamed`).

A local pool's worker that dies (``kill -9``, the OOM killer) takes its batch
with it, and a dead idle worker may hold the pool's task-queue lock, so the
others starve: :meth:`LocalExecutor.poll` notices the death, stops the pool,
starts a new one and sends every unfinished batch again (the games they
already streamed come again; the coordinator stores each game once), and
says so on one line. A pool stopped early (Ctrl-C, a full disk, a dead worker)
is stopped by :func:`_stop_pool`, which cannot wait for ever on a dead worker's
lock or a worker whose SIGTERM reached a thread other than its main one.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial

from multiprocess.connection import wait

from arena.tournament.errors import TournamentError
from arena.tournament.pinning import pin_tree
from arena.tournament.pool_process import init_worker, quiet_resource_tracker, start_method
from arena.tournament.stream_drain import Drain
from arena.tournament.worker import LocalSink, Streamed, Worker, running_on, unpack_results

STREAM_PATIENCE = 60.0
"""How long a batch that came back as the indices of its streamed games waits for them to be read
off the stream (they were in the pipe before the batch's result was: a reader that is alive has them
in a moment)."""


class SerialExecutor:
    """Runs each submitted task immediately, in the calling process, on a worker of its own
    (``registry``: the players it resolves names with; loaded on first use when None). From the first task
    to :meth:`shutdown` the process and its bots share one core, as a pool worker's do
    (:mod:`arena.tournament.pinning`; ``pin=False``: not)."""

    workers = 1

    def __init__(self, registry=None, pin: bool = True) -> None:
        self.worker = Worker(registry)
        self._pin = pin
        self._unpin: weakref.finalize | None = None  # the undo of the pinning, from the first task on

    def deliver_to(self, callback) -> None:
        """Hand each game to ``callback`` as it finishes (in this thread: at once)."""
        self.worker.sink = LocalSink(callback)

    def poll(self) -> None:
        """Nothing to collect: every game was delivered as it finished."""

    def submit(self, fn, *args, **kwargs) -> Future:
        fut: Future = Future()
        if self._pin and self._unpin is None:
            self._unpin = weakref.finalize(self, pin_tree())
        try:
            with running_on(self.worker):
                fut.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered through the future, like a real executor
            if isinstance(exc, KeyboardInterrupt):
                raise
            fut.set_exception(exc)
        return fut

    def shutdown(self, wait: bool = True, cancel: bool = False) -> None:
        self.worker.close()
        if self._unpin is not None:
            self._unpin()  # the cores the process had (the finalizer runs once)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.shutdown()


def _cores() -> list[int]:
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return []


class LocalExecutor:
    """A ``multiprocess`` pool of ``workers`` processes with a ``submit`` method.

    The pool starts with the first task (or the first use of :attr:`pool`),
    so an executor that gets no work (a finished tournament run again) costs
    nothing.
    """

    def __init__(self, workers: int | None = None, pin: bool = True,
                 say: Callable[[str], None] | None = None, stop_patience: float = 10.0) -> None:
        self.workers = workers or len(_cores()) or os.cpu_count() or 1
        self.pin = pin
        self.stop_patience = stop_patience
        """How long stopping a pool waits for its workers to leave after SIGTERM before SIGKILL."""
        self.say = say or _to_stderr
        """Told, in one line, when a dead worker made the pool start again."""
        self._pool = None
        self._stream = None
        self._drain: Drain | None = None  # reads the stream as it fills (workers block on a full pipe)
        self._kept: list = []  # games a replaced pool's drain had read, not delivered yet
        self._deliver = None
        self._started: list = []  # the pool's worker processes as it started (a death shows in their exitcode)
        self._tasks: dict[Future, tuple] = {}  # unfinished tasks, to send again if the pool is restarted
        self._lock = threading.Lock()

    @property
    def pool(self):
        """The worker pool, started on first use."""
        if self._pool is None:
            ctx = start_method()
            quiet_resource_tracker()  # before the pool's first semaphore starts it
            counter = ctx.Value("i", 0)
            if self._deliver is not None:  # no one to hand the games to: the batches bring them back
                self._stream = ctx.SimpleQueue()
                self._drain = Drain(self._stream)
            with _sigint_blocked():  # a worker starting up must not die of a Ctrl-C meant for the coordinator
                self._pool = ctx.Pool(self.workers, initializer=init_worker,
                                      initargs=(counter, _cores() if self.pin else [], os.getpid(), self._stream,
                                                dict(os.environ)))
            self._started = list(self._pool._pool)  # multiprocess.Pool's worker processes
        return self._pool

    def deliver_to(self, callback) -> None:
        """Hand the games the workers finish to ``callback`` when :meth:`poll` is called (set before
        the pool starts: a pool started with no callback streams nothing)."""
        self._deliver = callback

    def poll(self) -> None:
        """Deliver every game the workers finished so far; start the pool again if a worker died."""
        deliver, drain = self._deliver, self._drain
        if deliver is not None:
            games, self._kept = self._kept, []
            if drain is not None:
                games += drain.take()
            if games:
                deliver(games)
        dead: list = ended(self._started) if self._pool is not None else []
        if dead:
            self._restart(dead)

    def submit(self, fn, *args) -> Future:
        fut: Future = Future()
        fut.set_running_or_notify_cancel()
        with self._lock:
            self._tasks[fut] = (fn, args)
        self._send(fut, fn, args)
        return fut

    def _send(self, fut: Future, fn, args) -> None:
        pool = self.pool
        drain = self._drain
        pool.apply_async(fn, args, callback=partial(self._settle, fut, pool, drain, False),
                         error_callback=partial(self._settle, fut, pool, drain, True))

    def _settle(self, fut: Future, pool, drain: Drain | None, failed: bool, value) -> None:
        """The pool's result thread: a task's result or error, unless it came from a pool since replaced.
        A :class:`Streamed` result is settled once its games were read off the stream, as the games
        that were not streamed (the coordinator takes the drain's games before it looks at a batch)."""
        here = True
        if not failed and isinstance(value, Streamed):
            if drain is None:  # a batch streams its games only to a pool made with a stream
                raise TournamentError("a batch streamed its games to a pool without a stream")
            here = drain.wait_for(value.indices, STREAM_PATIENCE)
        with self._lock:
            if pool is not self._pool or self._tasks.pop(fut, None) is None:
                return
        if failed:
            fut.set_exception(value)
        elif not here:
            fut.set_exception(TournamentError(
                f"the games of a batch did not come off the pool's stream within {STREAM_PATIENCE:.0f} s "
                f"(expected {len(value.indices)} games); the games stored are kept, and a resume plays the rest"))
        else:
            fut.set_result(unpack_results(value.games) if isinstance(value, Streamed) else value)

    def _restart(self, dead: list) -> None:
        """A worker died: stop this pool, start a new one, send every unfinished task to it. The dead
        workers' exit codes are read once the pool is stopped (its own thread, which reads them too,
        is gone by then)."""
        old = self._pool
        with self._lock:
            self._pool = None
            tasks = list(self._tasks.items())
        _stop_pool(old, self._started, self.stop_patience)
        self._retire_stream()
        for fut, (fn, args) in tasks:
            self._send(fut, fn, args)
        how = ", ".join(f"{p.pid} ({_exit_text(p.exitcode)})" for p in dead)
        self.say(f"pool worker {how} died; a new pool of {self.workers} plays the {len(tasks)} unfinished "
                 f"batches again (games already stored are kept)")

    def shutdown(self, wait: bool = True, cancel: bool = False) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if cancel:
            _stop_pool(pool, self._started, self.stop_patience)
        else:
            pool.close()
        pool.join()
        self._retire_stream()

    def _retire_stream(self) -> None:
        """Stop reading the stream of a pool that is gone, keeping the games read for the next poll."""
        drain, stream, self._drain, self._stream = self._drain, self._stream, None, None
        if drain is not None:
            self._kept += drain.stop()
        if stream is not None:
            stream.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *rest):
        self.shutdown(cancel=exc_type is not None)


def _stop_pool(pool, started: list, patience: float) -> None:
    """Terminate a pool, leaving no thread or process of it behind, whatever state its workers are in.

    ``Pool.terminate`` can wait for ever in two ways, both seen to hang a test run:

    - it first takes the task queue's read lock, which an idle worker holds while it waits for a
      task; a worker killed then (or while writing a result, holding the result queue's write
      lock) never gives it back;
    - it then sends each worker SIGTERM and waits for it; a worker that has loaded numpy has an
      OpenBLAS thread, the kernel may hand the signal to that thread, and Python runs its handler
      only once the main thread wakes, which, waiting on that same read lock, it never does.

    So ``terminate`` runs in a thread of its own; if it has not ended at once, every worker is sent
    SIGTERM, then SIGKILL (its bot processes die with it: they are sent SIGKILL when their parent
    dies), and once no worker is left to hold them, the two locks are released for it."""
    stopping = threading.Thread(target=pool.terminate, name="arena-stop-pool", daemon=True)
    stopping.start()
    stopping.join(2)
    if not stopping.is_alive():
        return
    pool._worker_handler.join(patience)  # terminate set its state: it starts no more workers
    workers = list(pool._pool) + started
    for p in workers:
        if p.exitcode is None:
            p.terminate()  # SIGTERM: the worker closes its bot clients and leaves
    deadline = time.monotonic() + patience  # one wait for them all, not one a worker
    for p in workers:
        p.join(max(0.0, deadline - time.monotonic()))
        if p.exitcode is None:
            p.kill()
            p.join()
    # the result queue's first: terminate writes to it only once it has the task queue's lock
    for lock in (pool._outqueue._wlock, pool._inqueue._rlock):
        lock.acquire(False)  # free: taken here now; taken: by a dead worker (terminate keeps the second)
        lock.release()
    stopping.join(patience)


def ended(processes: list) -> list:
    """The processes that have ended, seen on their sentinels (readable once a process is gone).

    Not by their ``exitcode``, while the pool runs: the pool's worker thread reads it too, and a
    forkserver child's exit code comes once down a pipe from the forkserver, so of two threads that
    read it at once, one gets it and the other an empty pipe and 255, and the later one's answer is
    kept (a worker killed by SIGKILL was reported as "exit code 255")."""
    ready = set(wait([p.sentinel for p in processes], 0))
    return [p for p in processes if p.sentinel in ready]


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _exit_text(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class _sigint_blocked:
    """Block SIGINT in this thread (and so in the processes and threads it starts) for a while."""

    def __enter__(self):
        self.old = None
        if hasattr(signal, "pthread_sigmask"):
            self.old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

    def __exit__(self, *exc):
        if self.old is not None and signal.SIGINT not in self.old:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        return False


def make_executor(spec, jobs: int | None = None, registry=None, say: Callable[[str], None] | None = None):
    """The executor a spec asks for (``registry``: the players a serial run resolves names with; ``say``:
    where a local pool tells of a dead worker, stderr by default)."""
    jobs = jobs or spec.workers
    if spec.backend == "dask":
        from arena.tournament.dask_backend import DaskExecutor
        return DaskExecutor(spec.scheduler)
    return SerialExecutor(registry) if jobs == 1 else LocalExecutor(jobs, say=say)
