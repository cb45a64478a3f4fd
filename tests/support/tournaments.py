"""Tournament helpers shared by test files: the stored records, and an executor that stops a run."""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path

from arena.results.store import Store


def records(folder: Path) -> list:
    """Every stored ``(index, record)`` of the results folder, in index order."""
    with Store(folder) as store:
        return list(store.records())


class StopAfter:
    """An executor that runs tasks at once, then raises KeyboardInterrupt on the n-th submit
    (Ctrl-C in the middle of a run, in-process)."""

    workers = 1

    def __init__(self, n: int) -> None:
        self.n = n

    def submit(self, fn, *args):
        self.n -= 1
        if self.n == 0:
            raise KeyboardInterrupt
        fut: Future = Future()
        fut.set_result(fn(*args))
        return fut
