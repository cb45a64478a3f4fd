"""`python held_arena.py N[:G] ARGS...`: `arena ARGS...` as its console script runs it, with the local
pool running only the first N batches of a tournament (with `:G`, every later batch plays its first G
games, then is held: a slow batch that has finished some of its games).

Later batches are held: each is replaced by a task that sleeps until its worker is stopped, so a
test that stops the run (kill -9, Ctrl-C) always finds it partway, with exactly the games of those N
batches stored and its workers busy, however fast the machine. (Workers left idle instead, blocked
on the pool's task queue, once in some 20-60 Ctrl-Cs did not leave on the pool's SIGTERM.) Ctrl-C
gets its default handler back even when the test runs in the background (a shell starts
background jobs with SIGINT ignored).
"""

from __future__ import annotations

import signal
import sys
import time
from concurrent.futures import Future

import orjson

from arena.cli.app import run
from arena.tournament.executors import LocalExecutor


def held() -> None:
    """A held batch: sleeps (in short naps, so a signal is acted on) until its worker is stopped."""
    # The naps are the await: the event is a signal (the pool's SIGTERM), and Python runs a handler only
    # in the main thread once it runs bytecode. The kernel may hand the signal to another thread of the
    # worker (its result stream's feeder), which does not wake a main thread blocked in signal.pause()
    # or one long sleep; a 50 ms nap bounds how late the handler runs. Nothing waits on the naps'
    # length: the test waits for the stored games, and this batch never ends by itself.
    while True:
        time.sleep(0.05)


def partly(fn, games: int, packed: bytes) -> None:
    """A held batch that first plays (and so streams) its first ``games`` games."""
    payload = orjson.loads(packed)
    fn(orjson.dumps({**payload, "games": payload["games"][:games]}))
    held()


def hold_after(batches: int, games: int = 0) -> None:
    """Make LocalExecutor run the first ``batches`` tasks submitted, and hold the rest (after
    ``games`` of their games)."""
    real = LocalExecutor.submit
    passed = 0

    def submit(self, fn, *args) -> Future:
        nonlocal passed
        if passed >= batches:
            return real(self, partly, fn, games, *args) if games else real(self, held)
        passed += 1
        return real(self, fn, *args)

    LocalExecutor.submit = submit


if __name__ == "__main__":  # not in the pool's workers, which import this file as __mp_main__
    signal.signal(signal.SIGINT, signal.default_int_handler)
    hold_after(*map(int, sys.argv.pop(1).split(":")))
    run()
