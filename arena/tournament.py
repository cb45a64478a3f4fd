"""Running a tournament: schedule -> executor -> store, resumable.

The coordinator builds the schedule from the spec, skips the games already in
the store, sends batches of games to an executor (any ``concurrent.futures``
style object with ``submit``), and writes each returned record to the store in
its own transaction as it arrives. Ratings are computed later from the store
in game order, so neither parallelism nor a resume changes the tables.
"""

from __future__ import annotations

import time
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from .config import TournamentSpec, spec_from_dict
from .errors import ArenaError
from .schedule import GameSpec, make_format
from .store import Store, StoreError


class TournamentError(ArenaError, RuntimeError):
    """A tournament that cannot start or go on."""


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


def schedule(spec: TournamentSpec) -> list[GameSpec]:
    """Every game of the tournament, in order."""
    params = dict(table_sizes=spec.table_sizes, rules=spec.rules, seed=spec.seed, deals=spec.deals,
                  budget=spec.budget, house=spec.house)
    if spec.format == "gauntlet":
        field = tuple(p for p in spec.players if p not in spec.candidates)
        fmt = make_format("gauntlet", candidates=spec.candidates, field=field, **params)
    else:
        fmt = make_format("round-robin", players=spec.players, **params)
    return fmt.games()


def results_folder(spec: TournamentSpec, root: str | Path = "results") -> Path:
    return Path(root) / spec.name


def player_names(games: Iterable[GameSpec]) -> list[str]:
    return sorted({name for g in games for name in g.seats})


def describe_players(registry, names: list[str]) -> list[dict]:
    """Name, plugin, version and code hash of every player (checked by workers)."""
    out = []
    for name in names:
        spec = registry.get(name)
        out.append({"name": name, "plugin": spec.plugin, "version": spec.version, "code_hash": spec.code_hash()})
    return out


class Tournament:
    """One tournament bound to its results folder."""

    def __init__(self, spec: TournamentSpec, folder: str | Path, registry) -> None:
        self.spec = spec
        self.folder = Path(folder)
        self.registry = registry
        self.games = schedule(spec)
        self.players = describe_players(registry, player_names(self.games))

    @classmethod
    def create(cls, spec: TournamentSpec, folder: str | Path, registry) -> "Tournament":
        """A new tournament; refuses a folder that holds a different tournament."""
        t = cls(spec, folder, registry)
        with Store(t.folder, create=True) as store:
            stored = store.meta("spec")
            if stored is not None and stored != spec.to_dict():
                raise TournamentError(f"{t.folder} already holds a different tournament; "
                                      f"use `arena tournament resume {t.folder}` or another name")
            store.set_meta("spec", spec.to_dict())
            store.set_meta("schema", 1)
            store.save_players(t.players)
        return t

    @classmethod
    def open(cls, folder: str | Path, registry) -> "Tournament":
        """An existing tournament, from the spec stored with its results."""
        try:
            with Store(folder) as store:
                data = store.meta("spec")
        except StoreError as exc:
            raise TournamentError(str(exc)) from None
        if data is None:
            raise TournamentError(f"{folder} holds no tournament spec")
        return cls(spec_from_dict(data, f"{folder}/spec"), folder, registry)

    def pending(self, store: Store) -> list[GameSpec]:
        done = store.done()
        return [g for g in self.games if g.index not in done]

    def batches(self, games: list[GameSpec]) -> list[list[GameSpec]]:
        size = max(1, self.spec.batch)
        return [games[i:i + size] for i in range(0, len(games), size)]

    def run(self, executor, on_progress: Callable[[Progress], None] | None = None,
            max_in_flight: int | None = None) -> Progress:
        """Play every missing game on ``executor``; return the final progress."""
        from .worker import batch_payload, run_batch
        with Store(self.folder, create=True) as store:
            todo = self.batches(self.pending(store))
            total, start = len(self.games), time.perf_counter()
            state = _Counter(store.count(), store.fault_count(), store)
            limit = max_in_flight or max(2, 2 * getattr(executor, "workers", 2))
            in_flight: dict = {}
            queue = list(reversed(todo))
            try:
                while queue or in_flight:
                    while queue and len(in_flight) < limit:
                        batch = queue.pop()
                        payload = batch_payload(self.spec, batch, self.players)
                        in_flight[executor.submit(run_batch, payload)] = batch
                    finished, _ = wait(list(in_flight), return_when=FIRST_COMPLETED)
                    for fut in finished:
                        batch = in_flight.pop(fut)
                        state.store_batch(batch, fut.result())
                        if on_progress:
                            on_progress(state.progress(total, start))
            except BaseException:
                for fut in in_flight:
                    fut.cancel()
                raise
            return state.progress(total, start)


class _Counter:
    """Stores results and keeps the running figures for the progress display."""

    def __init__(self, done: int, faults: int, store: Store) -> None:
        self.done, self.faults, self.store = done, faults, store
        self.played_now = 0
        self.losses: dict[str, int] = {}
        self.seen: dict[str, int] = {}

    def store_batch(self, batch: list[GameSpec], records: list[dict]) -> None:
        by_index = {g.index: g for g in batch}
        for index, record in records:
            faults = sum(len(f) for f in record.get("faults") or [])
            if self.store.add_game(by_index[index], record):
                self.done += 1
                self.played_now += 1
                self.faults += faults
                self._tally(record)

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

    def progress(self, total: int, start: float) -> Progress:
        return Progress(self.done, total, self.played_now, time.perf_counter() - start, self.faults, self.leader())


def status_lines(t: Tournament) -> list[str]:
    """A short account of a tournament's progress."""
    with Store(t.folder) as store:
        done, faults = store.count(), store.fault_count()
        players = store.players()
    lines = [f"tournament {t.spec.name} in {t.folder}",
             f"  games: {done} of {len(t.games)} stored ({100 * done / max(1, len(t.games)):.1f}%)",
             f"  faults: {faults}",
             f"  rules: {', '.join(r.get('preset', '?') for r in t.spec.rules)}; "
             f"table sizes {', '.join(map(str, t.spec.table_sizes))}; format {t.spec.format}"]
    lines += [f"  player {p['name']} {p['version']} (plugin {p['plugin']}, code {p['code_hash']})" for p in players]
    if done < len(t.games):
        lines.append(f"  resume with: arena tournament resume {t.folder}")
    return lines
