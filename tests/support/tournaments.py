"""Tournament helpers shared by test files: the stored records, and an executor that stops a run."""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path

from arena.results.store.database import Store
from arena.tournament.event import Tournament
from arena.tournament.executors import SerialExecutor
from arena.tournament.spec import spec_from_dict


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


def play_held(fn, packed: bytes, games: int, event: str) -> bytes:
    """A Dask task: play a batch's first ``games`` games, wait until the ``distributed.Event`` named
    ``event`` is set (at most a minute), then play the rest; the results as :func:`run_packed` gives them."""
    import distributed
    import orjson
    payload = orjson.loads(packed)
    first = orjson.loads(fn(orjson.dumps({**payload, "games": payload["games"][:games]})))
    distributed.Event(event).wait(timeout=60)
    rest = orjson.loads(fn(orjson.dumps({**payload, "games": payload["games"][games:]})))
    return orjson.dumps(first + rest)


class HeldBatches:
    """A streaming executor (Dask's) whose batches stop after ``games`` games until ``event`` is set."""

    def __init__(self, executor, games: int, event: str) -> None:
        self.executor, self.games, self.event = executor, games, event
        self.workers = executor.workers
        self.deliver_to, self.poll = executor.deliver_to, executor.poll

    def submit(self, fn, packed):
        return self.executor.submit(play_held, fn, packed, self.games, self.event)


def play(spec: dict, folder: Path, registry, executor=None, secret=None) -> Tournament:
    """Create the tournament of ``spec`` (a file's dict) in ``folder`` and run it whole (serially by default)."""
    t = Tournament.create(spec_from_dict(spec, "test"), folder, registry, secret)
    executor = executor or SerialExecutor()
    t.run(executor)
    executor.shutdown()
    return t
