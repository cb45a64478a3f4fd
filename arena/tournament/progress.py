"""A run's running figures and its games in flight: what the coordinator holds while it plays.

:class:`RunState` stores each finished game as it arrives and keeps the
figures of the live display (:class:`Progress`). It knows only the games in
flight (sent, their batch not back yet), never the whole schedule: what the
coordinator holds during a run grows with the batches in flight, not with the
games (docs/throughput.md, "Scale").
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from arena.results.errors import StoreError
from arena.results.store.database import Store
from arena.tournament.match_run import store_unit, unit_games
from arena.tournament.schedule import GameSpec


@dataclass(frozen=True, slots=True)
class Progress:
    """A snapshot of a running tournament, for the live display."""

    done: int
    total: int
    played_now: int
    elapsed: float
    faults: int
    leader: str | None

    @property
    def rate(self) -> float:
        return self.played_now / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def remaining(self) -> float | None:
        left = self.total - self.done
        return left / self.rate if self.rate > 0 else None


class Ticker:
    """Calls the progress callback at most every ``interval`` seconds (and always at the end)."""

    def __init__(self, callback, interval: float = 0.1) -> None:
        self.callback, self.interval, self.last = callback, interval, float("-inf")

    def __call__(self, state: RunState, final: bool = False) -> None:
        now = time.perf_counter()
        if self.callback is not None and (final or now - self.last >= self.interval):
            self.last = now
            self.callback(state.progress())


class RunState:
    """Stores results and keeps the running figures for the progress display.

    A game is stored once: a game a worker streamed comes again with its
    batch (and after a restarted pool, twice more), so each game in flight is
    marked when stored; a game that comes after its batch came back (a late
    stream) was stored with the batch and is passed over.
    """

    def __init__(self, done: int, faults: int, store: Store, total: int, watch=None) -> None:
        self.done, self.faults, self.store, self.watch = done, faults, store, watch
        self.stopped = False
        self.in_flight: dict[int, GameSpec] = {}
        """Every game sent whose batch is not back, by index."""
        self.stored_now: set[int] = set()
        """Those of :attr:`in_flight` stored already (streamed ahead of their batch)."""
        self.total, self.start = total, time.perf_counter()
        self.played_now = 0
        self.losses: dict[str, int] = {}
        self.seen: dict[str, int] = {}

    def sent(self, batch: list[GameSpec]) -> None:
        """``batch`` is on its way to a worker."""
        self.in_flight.update((g.index, g) for g in batch)

    def returned(self, batch: list[GameSpec], records: list) -> None:
        """``batch`` came back with ``records``: store what is not stored yet, then forget its games."""
        self.store_games(records)
        for g in batch:
            self.in_flight.pop(g.index, None)
            self.stored_now.discard(g.index)

    def store_games(self, records: list) -> None:
        """Store each ``(index, record)`` not stored yet, all in one commit; then count them. If that
        commit fails (a full disk), one commit a game: every game that fits is kept, then the error goes on."""
        try:
            self._store(records)
        except StoreError:
            if len(records) < 2:
                raise
            for pair in records:
                self._store([pair])

    def _store(self, records: list) -> None:
        marked: set[int] = set()
        added = []
        with self.store.transaction():
            for index, record in records:
                game = self.in_flight.get(index)
                if game is None or index in self.stored_now or index in marked:
                    continue
                marked.add(index)
                if store_unit(self.store, game, record):
                    added.append((game, record))
        self.stored_now |= marked
        for game, record in added:
            games = unit_games(record)
            self.done += 1
            self.played_now += 1
            self.faults += sum(len(f) for g in games for f in g.get("faults") or [])
            for one in games:
                self._tally(one)
            if self.watch is not None and self.watch(game, record):
                self.stopped = True

    def _tally(self, record: dict) -> None:
        loser = record["result"]["loser"]
        for seat, name in enumerate(record["names"]):
            self.seen[name] = self.seen.get(name, 0) + 1
            if seat == loser:
                self.losses[name] = self.losses.get(name, 0) + 1

    def leader(self) -> str | None:
        if not self.seen:
            return None
        return min(self.seen, key=lambda n: (self.losses.get(n, 0) / self.seen[n], n))

    def progress(self) -> Progress:
        return Progress(self.done, self.total, self.played_now, time.perf_counter() - self.start, self.faults,
                        self.leader())
