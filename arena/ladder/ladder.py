"""A standing ladder: a results folder whose games never end, planned as they go.

``DIR/results.sqlite`` is a tournament store (same tables, read by every
results command) plus the ladder's own tables (:mod:`arena.ladder.ledger`);
``DIR/secret`` keys the bot seeds as a tournament's does; ``DIR/plugins/``
holds the submitted bots, one folder per entry. :meth:`Ladder.run` plans
rounds with :mod:`arena.ladder.matchmaking`, writes each round before its
games are sent, stores every game in its own transaction as it comes back,
and on a new start first finishes the rounds a stopped run left unfinished:
Ctrl-C or ``kill -9`` loses only games that were being played, and those are
played again.

A bot whose faults (timeouts, crashes, illegal or malformed answers, summed
over its stored games since it was last reinstated) reach ``suspend_faults``
is suspended: matchmaking seats it no more, its games and forfeits stay in the
table.
"""

from __future__ import annotations

import collections
import fcntl
import json
import random
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import dataclass
from pathlib import Path

from arena.game.seeds import SECRET_FILE, Secret, derive_seed, read_secret, write_secret
from arena.ladder.ledger import Ledger, Entry, Round, open_ledger
from arena.ladder.errors import LadderError
from arena.ladder.matchmaking import WINDOW, choose, rate_game, recent_games, table_size
from arena.plugins.folders import add_folder_players
from arena.results.errors import StoreError
from arena.results.stats.ratings import RatingParams
from arena.results.stats.standings import outcomes, rating_params
from arena.results.store.database import Store
from arena.tournament.event import roster_of
from arena.tournament.schedule import GameSpec, seating
from arena.tournament.spec import TournamentSpec, spec_from_dict
from arena.tournament.worker import pack_batch, run_packed, unpack_results

SUSPEND_FAULTS = 20
"""Faults after which a bot is suspended (a bot that crashes on every decision forfeits each game after the
spec's ``max_faults`` and reaches this in a few games)."""
WAKE_SECONDS = 0.5
POLL_SECONDS = 0.1
"""How often a run reads the games its workers stream (an executor with ``poll``)."""
PLUGINS = "plugins"
RUN_BY = "arena ladder run"
"""Who a run's status changes are logged as (``ladder_changes``)."""


@dataclass(frozen=True, slots=True)
class LadderProgress:
    """What a running ladder has done, for the live display."""

    stored: int
    played_now: int
    active: int
    waiting: str
    suspended: tuple[str, ...]


class Ladder:
    """One ladder bound to its folder."""

    def __init__(self, folder: str | Path, spec: TournamentSpec, settings: dict, registry) -> None:
        self.folder = Path(folder)
        self.spec, self.settings, self.registry = spec, settings, registry

    # ------------------------------------------------------------ making, opening
    @classmethod
    def create(cls, folder: str | Path, registry, *, rules: list, table_sizes: list[int], house: list[str],
               seed: int = 1, extra: dict | None = None, suspend_faults: int = SUSPEND_FAULTS) -> Ladder:
        folder = Path(folder)
        if (folder / "results.sqlite").exists():
            raise LadderError(f"{folder} already holds results; `arena ladder run {folder}` goes on with it")
        for name in house:
            registry.get(name)  # an unknown house player: one line naming the known ones
        if len(set(house)) < max(table_sizes, default=0):
            raise LadderError(f"--house must name at least {max(table_sizes)} players (the largest table, so "
                              f"every table can be played from the start), got {len(set(house))}")
        spec = spec_from_dict({"name": "ladder", "players": list(house), "rules": list(rules),
                               "table_sizes": list(table_sizes), "seed": seed, **(extra or {})},
                              "command line", registry.presets)
        if spec.sandbox == "never":
            raise LadderError("a ladder runs submitted bots: --sandbox never is refused (auto or always)")
        settings = {"suspend_faults": suspend_faults, "created_at": time.time()}
        with Store(folder, create=True, meta={"spec": json.loads(json.dumps(spec.to_dict())),
                                              "ladder": settings}) as store:
            ledger = Ledger(store)
            write_secret(folder / SECRET_FILE, Secret.generate())
            store.set_meta("secret_check", read_secret(folder / SECRET_FILE).check())
            for name in house:
                p = registry.get(name)
                ledger.add_entry(Entry(name, p.name, p.plugin, p.version, p.code_hash(), "", None, "active",
                                     "house player", None, time.time()))
            store.save_roster(roster_of(registry, list(house)))
        (folder / PLUGINS).mkdir(exist_ok=True)
        return cls(folder, spec, settings, registry)

    @classmethod
    def open(cls, folder: str | Path, registry) -> Ladder:
        try:
            with Store(folder) as store:
                open_ledger(store)
                data, settings = store.meta("spec"), store.meta("ladder")
        except StoreError as exc:
            raise LadderError(str(exc)) from None
        return cls(folder, spec_from_dict(data, f"{folder}/spec", registry.presets), settings, registry)

    def secret(self, store: Store) -> Secret:
        path = self.folder / SECRET_FILE
        if not path.exists():
            raise LadderError(f"{path} is missing: the ladder's bot seeds cannot be given again; restore it")
        found = read_secret(path)
        if found.check() != store.meta("secret_check"):
            raise LadderError(f"{path} is not the secret {self.folder}'s games were played with; restore it")
        return found

    # ------------------------------------------------------------ entries and players
    def entry_folder(self, entry: Entry) -> Path:
        return self.folder / entry.folder

    def folders(self, entries: list[Entry]) -> dict[str, dict]:
        """What a worker needs to find each submitted entry: its folder and player."""
        return {e.name: {"folder": str(self.entry_folder(e).resolve()), "player": e.player}
                for e in entries if not e.house}

    def know(self, entries: list[Entry]) -> dict[str, str]:
        """Register the submitted entries not yet in the registry; their problems, by name."""
        missing = {n: f for n, f in self.folders(entries).items() if n not in self.registry.players}
        return add_folder_players(self.registry, missing) if missing else {}

    # ------------------------------------------------------------ playing
    def round_games(self, rnd: Round, done: set[int]) -> list[GameSpec]:
        """The games of a round not stored yet (one per rotation of its deal)."""
        n = rnd.size
        return [GameSpec(rnd.first_idx + r, f"ld-{rnd.number:06d}-{n}p-r{r}", rnd.rules,
                         tuple(rnd.circle[(s - r) % n] for s in range(n)), rnd.deal_seed, r)
                for r in range(n) if rnd.first_idx + r not in done]

    def run(self, executor, *, max_games: int | None = None, on_progress: Callable[[LadderProgress], None] | None
            = None, should_stop: Callable[[], bool] | None = None, idle_exit: bool = False) -> LadderProgress:
        """Play rounds until ``max_games`` more games are stored (forever when None), ``should_stop()``
        says so, or (``idle_exit``) there is nothing to play. One run per ladder at a time."""
        with _RunLock(self.folder), Store(self.folder) as store:
            state = _State(self, store, executor)
            try:
                state.loop(max_games, on_progress, should_stop, idle_exit)
            except StoreError as exc:
                raise StoreError(f"{exc}; {store.count()} games are stored and kept; once that is fixed, "
                                 f"`arena ladder run {self.folder}` goes on") from None
            finally:
                state.keep_finished()
            return state.progress()


class _State:
    """One run's working state: ratings, counts, the rounds in flight."""

    def __init__(self, ladder: Ladder, store: Store, executor) -> None:
        self.ladder, self.store, self.executor = ladder, store, executor
        self.ledger = open_ledger(store)
        self.secret = ladder.secret(store)
        self.env = RatingParams(**rating_params(store.meta("spec"))).env()
        self.ratings: dict = {}
        for o in outcomes(store):
            rate_game(self.env, self.ratings, o.seats, o.ranks)
        self.faults = self.ledger.fault_counts()
        self.reinstated = self.ledger.reinstated_at()  # faults at each entry's last reinstatement
        self.pending = self.ledger.rounds(unfinished_only=True)
        self.resumed_done = self.store.done() if self.pending else set()  # a stopped run's rounds' stored games
        self.rounds = self.ledger.round_count()
        self.circles = collections.deque(self.ledger.recent_circles(WINDOW), maxlen=WINDOW)
        self.in_flight: dict = {}
        self.specs: dict[int, GameSpec] = {}  # the games in flight, by index
        self.poll = getattr(executor, "poll", None)  # an executor that streams each game as it finishes
        if self.poll is not None:
            executor.deliver_to(lambda pairs: self._store(pairs, self.ledger.entries()))
        self.played_now, self.planned_now, self.waiting = 0, 0, ""
        self.suspended: list[str] = []
        self.limit = max(2, 2 * getattr(executor, "workers", 2))

    def loop(self, max_games, on_progress, should_stop, idle_exit) -> None:
        last = 0.0
        while True:
            stopping = (should_stop is not None and should_stop()) or (
                max_games is not None and self.planned_now >= max_games)
            entries = self.ledger.entries()
            if not stopping:
                self._fill(entries, max_games)
            if not self.in_flight:
                if stopping or idle_exit:
                    return
                time.sleep(WAKE_SECONDS)  # too few players: wait for submissions
                continue
            finished, _ = wait(list(self.in_flight), timeout=WAKE_SECONDS if self.poll is None else POLL_SECONDS,
                               return_when=FIRST_COMPLETED)
            if self.poll is not None:
                self.poll()  # the games the workers streamed since the last look
            for fut in finished:
                _rnd, games = self.in_flight.pop(fut)
                self._store(unpack_results(fut.result()), entries)
                for g in games:
                    self.specs.pop(g.index, None)
            if on_progress is not None and time.monotonic() - last > 0.2:
                last = time.monotonic()
                on_progress(self.progress())

    def _fill(self, entries: list[Entry], max_games: int | None) -> None:
        active = [e for e in entries if e.status == "active"]
        problems = self.ladder.know(active)
        for name, why in problems.items():
            self.ledger.set_status(name, "suspended", f"cannot be loaded: {why}", by=RUN_BY)
        reinstated = self.ledger.reinstated_at()
        if reinstated != self.reinstated:  # `arena ladder reinstate` while this run plays
            self.reinstated = reinstated
            self.suspended = [n for n in self.suspended if n not in reinstated]
        playable = [e for e in active if e.name not in problems]
        names = {e.name for e in playable}
        while len(self.in_flight) < self.limit and (max_games is None or self.planned_now < max_games):
            rnd = self._next_round(names)
            if rnd is None:
                return
            games = self.ladder.round_games(rnd, self.resumed_done)
            if not games:
                continue
            roster = roster_of(self.ladder.registry, list(rnd.circle))
            packed = pack_batch(self.ladder.spec, games, roster, self.secret,
                                self.ladder.folders([e for e in playable if e.name in rnd.circle]))
            self.specs.update((g.index, g) for g in games)
            self.in_flight[self.executor.submit(run_packed, packed)] = (rnd, games)
            self.planned_now += len(games)

    def _next_round(self, names: set[str]) -> Round | None:
        while self.pending:  # a stopped run's rounds first, if their players can still play
            rnd = self.pending.pop(0)
            if set(rnd.circle) <= names:
                return rnd
        spec = self.ladder.spec
        number = self.rounds
        size = table_size(spec.table_sizes, number, len(names))
        if size is None:
            self.waiting = (f"waiting for submissions: {len(names)} active, the smallest table seats "
                            f"{min(spec.table_sizes)}")
            return None
        self.waiting = ""
        rng = random.Random(derive_seed(spec.seed, "ladder-table", number))
        choice = choose(sorted(names), self.ratings, recent_games(self.circles), size, rng, self.env)
        rules = spec.rules[number % len(spec.rules)]
        rnd = self.ledger.plan_round(
            rules, seating(choice.players, derive_seed(spec.seed, "ladder-seating", number)),
            lambda n: derive_seed(spec.seed, "ladder-deal", n))
        self.rounds = rnd.number + 1
        self.circles.append(rnd.circle)
        return rnd

    def _store(self, records: list, entries: list[Entry]) -> None:
        """Store and rate the ``(index, record)`` pairs not stored yet (a batch's return repeats the games
        its worker streamed)."""
        by_index = self.specs
        house = {e.name for e in entries if e.house}
        limit = self.ladder.settings.get("suspend_faults", SUSPEND_FAULTS)
        for index, record in records:
            spec = by_index.get(index)  # None: its round already came back whole and was stored
            if spec is None or not self.store.add_game(spec, record):
                continue
            self.played_now += 1
            rate_game(self.env, self.ratings, record["names"], record["result"]["ranks"])
            for seat, name in enumerate(record["names"]):
                self.faults[name] = self.faults.get(name, 0) + len((record.get("faults") or [[]] * 9)[seat])
                since = self.faults[name] - self.reinstated.get(name, 0)
                if since >= limit and name not in house and name not in self.suspended:
                    self.suspended.append(name)
                    counted = f"{since} faults" + (" since it was reinstated" if name in self.reinstated else "")
                    self.ledger.set_status(name, "suspended", f"{counted} (the ladder suspends a bot at {limit})",
                                         by=RUN_BY)

    def keep_finished(self) -> None:
        """Store what finished while the run was being stopped; cancel the rest (played again next run)."""
        entries = self.ledger.entries()
        if self.poll is not None:
            try:
                self.poll()
            except Exception:  # noqa: BLE001 - the store failing (a full disk): the run's own error is the one reported
                return
        for fut, (_rnd, _games) in list(self.in_flight.items()):
            fut.cancel()
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                try:
                    self._store(unpack_results(fut.result()), entries)
                except Exception:  # noqa: BLE001 - the store failing: the run's own error is the one reported
                    return
        self.in_flight.clear()

    def progress(self) -> LadderProgress:
        active = sum(1 for e in self.ledger.entries() if e.status == "active")
        return LadderProgress(self.store.count(), self.played_now, active, self.waiting, tuple(self.suspended))


class _RunLock:
    """An exclusive lock on ``DIR/run.lock``: one ``arena ladder run`` per ladder (freed when it dies)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "run.lock"

    def __enter__(self):
        self.file = open(self.path, "a")
        try:
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.file.close()
            raise LadderError(f"{self.path.parent} is being run by another `arena ladder run` "
                              f"(one at a time)") from None
        return self

    def __exit__(self, *exc) -> None:
        self.file.close()
