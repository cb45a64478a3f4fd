"""`python held_arena.py N ARGS...`: `arena ARGS...` as its console script runs it, with the local
pool running only the first N batches of a tournament.

Later batches are held back (their futures never finish), so a test that stops the run (kill -9,
Ctrl-C) always finds it partway, with exactly the games of those N batches stored, however fast
the machine. Ctrl-C gets its default handler back even when the test runs in the background (a
shell starts background jobs with SIGINT ignored).
"""

from __future__ import annotations

import signal
import sys
from concurrent.futures import Future

from arena.cli.app import run
from arena.tournament.executors import LocalExecutor


def hold_after(batches: int) -> None:
    """Make LocalExecutor run the first ``batches`` tasks submitted, and hold back the rest."""
    real = LocalExecutor.submit
    passed = 0

    def submit(self, fn, *args) -> Future:
        nonlocal passed
        if passed >= batches:
            return Future()  # held: never runs, never finishes; Ctrl-C cancels it
        passed += 1
        return real(self, fn, *args)

    LocalExecutor.submit = submit


if __name__ == "__main__":  # not in the pool's workers, which import this file as __mp_main__
    signal.signal(signal.SIGINT, signal.default_int_handler)
    hold_after(int(sys.argv.pop(1)))
    run()
