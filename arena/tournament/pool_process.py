"""A local pool's worker process: how it is started, what it takes on, how it leaves.

The pool's workers are forked from multiprocess's forkserver where the OS has one (Linux,
macOS): a clean interpreter, started once per coordinator, that imported the worker's code
(:data:`PRELOAD`) and holds nothing of the coordinator's (no secret, no thread), so a worker
starts in a few milliseconds instead of the quarter of a second of CPU an interpreter spends
importing the arena; elsewhere they are spawned. Either way :func:`init_worker` makes a worker
what a spawned one was: the coordinator's environment, Ctrl-C ignored, pinned to one core,
hardened, SIGTERM when the coordinator dies (even by ``kill -9``), and its bot clients closed
when it leaves.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

from arena.sandbox import harden_harness
from arena.sandbox.botproc import ONE_THREAD
from arena.sandbox.processes import exists
from arena.tournament.worker import StreamedSink, close_clients, this_process

PRELOAD = ("arena.tournament.worker",)
"""What the pool's forkserver imports once, before it forks the workers."""


def _harden() -> None:
    """Make this harness process unreadable to bots and the reaper of their leftovers."""
    try:
        harden_harness()
    except Exception:  # noqa: BLE001 - a platform without these controls still runs, with the warning of detect()
        pass


def init_worker(counter, cores: list[int], parent: int | None = None, stream=None,
                 env: dict[str, str] | None = None) -> None:
    """Take the coordinator's environment (``env``: a worker forked from the pool's forkserver has the
    forkserver's), send each finished game to ``stream`` (the pool's result queue),
    pin this worker to one core (round robin), ignore Ctrl-C (the coordinator handles it),
    and leave with the coordinator: on Linux the worker is sent SIGTERM when the coordinator
    dies, even by ``kill -9``; SIGTERM (also how the pool is terminated) closes the worker's
    bot clients, so no bot process outlives it; so does a worker's ordinary end."""
    from multiprocess import util
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGTERM, _on_terminate)
    if env is not None:
        os.environ.clear()
        os.environ.update(env)
    for name, value in ONE_THREAD.items():  # an in-process bot's numpy starts no BLAS threads beside the
        os.environ.setdefault(name, value)  # worker's one core (nor takes a SIGTERM in one of them)
    _let_go_of_the_forkserver()
    _die_with_parent(parent)
    _harden()
    util.Finalize(None, close_clients, exitpriority=10)  # a forkserver's child leaves by os._exit: no atexit
    if stream is not None:
        this_process().sink = StreamedSink(stream.put)
    with counter.get_lock():
        slot = counter.value
        counter.value += 1
    if cores and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {cores[slot % len(cores)]})
        except OSError:
            pass


def _on_terminate(signum, frame) -> None:
    """Close the worker's bot clients and leave."""
    try:
        close_clients()
    finally:
        os._exit(128 + signum)


def _die_with_parent(parent: int | None) -> None:
    """Linux: ask for SIGTERM when the parent dies (``PR_SET_PDEATHSIG``); elsewhere nothing.

    A worker forked from the pool's forkserver has the forkserver as its parent, which leaves when
    the coordinator does (its "alive" pipe ends: :func:`_let_go_of_the_forkserver`). ``parent`` is the
    coordinator: if it is gone already, the worker leaves."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if parent is not None and not exists(parent):  # the coordinator died before prctl took effect
        os._exit(1)


def _let_go_of_the_forkserver() -> None:
    """Close this forkserver child's copy of the forkserver's "alive" pipe: the forkserver leaves
    when no process holds it open, and that must be when the coordinator ends, not when its last
    worker does (nothing, in a spawned worker)."""
    from multiprocess import forkserver
    server = forkserver._forkserver
    fd, server._forkserver_alive_fd = server._forkserver_alive_fd, None
    if fd is not None:
        try:
            os.close(fd)
        except OSError:
            pass


QUIET_TRACKER = "ignore:resource_tracker:UserWarning"
"""The warning option multiprocess's resource tracker is started with: when the coordinator is killed
(``kill -9``), the tracker unlinks the pool's semaphores, as it should, and would print a
``UserWarning`` about "leaked semaphore objects" to the terminal, over the next command's output."""


def quiet_resource_tracker() -> None:
    """Start multiprocess's resource tracker (if it is not running) with :data:`QUIET_TRACKER`: it inherits
    the warning options in ``sys.warnoptions`` when it starts, which are put back at once."""
    from multiprocess import resource_tracker
    sys.warnoptions.append(QUIET_TRACKER)
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(QUIET_TRACKER)


def start_method():
    """The pool's start method: forkserver where there is one (a worker is a fork of a clean
    interpreter that imported the worker's code once, so a worker imports nothing), else spawn."""
    import multiprocess as mp
    if "forkserver" not in mp.get_all_start_methods():
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(list(PRELOAD))
    return ctx
