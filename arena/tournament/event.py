"""Running a tournament: schedule -> executor -> store, resumable.

The coordinator makes the schedule's games from the spec as it sends them
(play order, without the games already in the store: :mod:`arena.tournament.pending`),
sends batches of games to an executor (any ``concurrent.futures``
style object with ``submit``), and writes each finished game to
the store in its own transaction as it arrives: an executor with ``poll``
streams every game as it finishes (:mod:`arena.tournament.worker`), so a long
batch is stored game by game, not when it ends. Ratings are computed later from the store
in game order, so neither parallelism nor a resume changes the tables.
What a run holds grows with its tables and batches in flight, never with its
games (:mod:`arena.tournament.progress`; docs/throughput.md, "Scale").

Every tournament folder has its key (:mod:`arena.game.seeds`), chosen with the
folder (:mod:`arena.tournament.sealing`: the open key among built-in players, a
fresh secret for a sealed event), kept in its ``secret`` file (mode 0600) and
sent with each batch: it keys the deals and bot seeds, so a resume gives the
bots the same seeds as an unbroken run, and in a sealed event no bot can work
its deal out from its seed.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, wait
from pathlib import Path
from collections.abc import Callable, Iterable

from arena.bots.player_spec import check_in_process
from arena.game.errors import ArenaError
from arena.game.seeds import SECRET_FILE, Secret, is_open, read_secret, write_secret
from arena.plugins.registry import Registry
from arena.results.errors import StoreError
from arena.results.store.database import Store, change_note, rules_label
from arena.tournament.book import booked, with_book
from arena.tournament.errors import ConfigError, TournamentError
from arena.tournament.match_run import stored_among, stored_count
from arena.tournament.match_spec import match_rules
from arena.tournament.pending import batched, unstored
from arena.tournament.progress import Progress, RunState, Ticker
from arena.tournament.schedule import GameSpec
from arena.tournament.sealing import event_secret, sealed_line, third_party
from arena.tournament.spec import TournamentSpec, base_player, spec_from_dict
from arena.tournament.worker import pack_batch, run_packed, unpack_results

POLL_SECONDS = 0.1
"""How often the coordinator collects the games a streaming executor's workers finished."""
WAKE_SECONDS = 0.5
"""The longest the coordinator waits for a batch without waking: a Ctrl-C the kernel hands to another
thread of the process is acted on at the next wake (a wait on a lock is not interrupted by it)."""


def schedule(spec: TournamentSpec) -> list[GameSpec]:
    """Every game of the tournament, in order (each with its deal book's deal, if it has a book)."""
    games = spec.schedule_format().games()
    return games if spec.deal_book is None else with_book(games, spec.deal_book)


def player_names(games: Iterable[GameSpec]) -> list[str]:
    return sorted({name for g in games for name in g.seats})


def roster_of(registry: Registry, names: list[str]) -> list[dict]:
    """The roster of ``names``: each player's name, plugin, version and code hash (checked by workers).

    An alias (``random#2``) is described by the player it plays as, named in ``base``; a
    parametrised player (``sampler(worlds=40)``) by its base player and its ``options``.
    """
    out = []
    for name in names:
        spec = registry.get(base_player(name))
        entry: dict[str, object] = {"name": name, "plugin": spec.plugin, "version": spec.version,
                                    "code_hash": spec.code_hash()}
        if spec.name != name:
            entry["base"] = spec.name
        if spec.options:
            entry["options"] = dict(spec.options)   # also in the name, sorted: sampler(worlds=40)
        out.append(entry)
    return out


def check_players(spec: TournamentSpec, registry) -> None:
    """Every player the spec names is installed (and may run in-process if ``sandbox`` is
    ``never``), else a :class:`ConfigError` naming the file and key. A built-in player given options
    (``learned(weights=FILE)``) is built once here, so that an option its factory refuses (a file not
    there, a value it cannot use) stops the event before a game instead of forfeiting every one."""
    for key in ("players", "candidates", "house"):
        for name in getattr(spec, key):
            try:
                player = registry.get(base_player(name))
                if spec.sandbox == "never":
                    check_in_process(player)
                if player.options and player.factory is not None and player.trusted:
                    player.create(0)
            except ArenaError as exc:
                raise ConfigError(f"{spec.source}: key {key!r}: {exc}") from None


def roster_changes(store: Store, roster: list[dict]) -> list[dict]:
    """Each player whose version or code differs from the one that played the stored games:
    ``player``, ``old_version``, ``old_code``, ``new_version``, ``new_code``."""
    stored = {p["name"]: p for p in store.roster()}
    out = []
    for p in roster:
        old = stored.get(p["name"])
        if old and (old["version"], old["code_hash"]) != (p["version"], p["code_hash"]):
            out.append({"player": p["name"], "old_version": old["version"], "old_code": old["code_hash"],
                        "new_version": p["version"], "new_code": p["code_hash"]})
    return out


def change_text(change: dict) -> str:
    """A change of player as text: who, from which version and code to which."""
    return (f"player {change['player']!r} is now version {change['new_version']} (code {change['new_code']}), "
            f"but the stored games were played by version {change['old_version']} (code {change['old_code']})")


def _spec_change(stored: dict, spec: TournamentSpec) -> str | None:
    """The first key (other than jobs, batch, backend) in which ``spec`` differs from a stored spec
    (``sealed``: the folder's own key says, :meth:`Tournament.folder_secret`)."""
    new = spec.results_dict()
    for key, value in new.items():
        if key != "sealed" and stored.get(key) != value:
            return f"{key} {stored.get(key)!r}, now {value!r}"
    return None


class Tournament:
    """One tournament bound to its results folder."""

    def __init__(self, spec: TournamentSpec, folder: str | Path, registry) -> None:
        self.spec = spec
        self.folder = Path(folder)
        self.registry = registry
        check_players(spec, registry)
        self.format = spec.schedule_format()
        self.total = self.format.count()
        """How many games (matches, in a match tournament) the schedule has."""
        self.roster = roster_of(registry, self.format.player_names())
        self.secret: Secret | None = None
        """The folder's secret, once :meth:`create` or :meth:`run` has read or made it."""

    @classmethod
    def create(cls, spec: TournamentSpec, folder: str | Path, registry,
               secret: Secret | None = None) -> Tournament:
        """A new tournament, or the same one again (only its missing games will be played).

        Refuses a folder that holds a different tournament (jobs, batch and
        backend may differ: they change no game). The players stored are the
        versions that played the first game; :meth:`run` refuses to add games
        by other versions. A new folder gets ``secret`` (default: a fresh
        random one when the event is sealed, else the open key:
        :mod:`arena.tournament.sealing`); a folder that has a key refuses another.
        """
        t = cls(spec, folder, registry)
        planned = event_secret(spec, third_party(registry, t.format.player_names()), secret)
        new = json.loads(json.dumps(spec.to_dict()))
        with Store(t.folder, create=True, meta={"spec": new}) as store:
            stored = store.meta("spec")
            change = _spec_change(stored, spec) if stored is not None else None
            if change:
                raise TournamentError(f"{t.folder} already holds a different tournament ({change}); "
                                      f"use `arena tournament resume {t.folder}` or another name")
            t.folder_secret(store, secret, planned)
            if stored != new:  # jobs, batch or backend changed (or no spec was stored)
                store.set_meta("spec", new)
            if not store.count():
                store.save_roster(t.roster)
        return t

    @classmethod
    def open(cls, folder: str | Path, registry) -> Tournament:
        """An existing tournament, from the spec stored with its results."""
        try:
            with Store(folder) as store:
                data = store.meta("spec")
        except StoreError as exc:
            raise TournamentError(str(exc)) from None
        if data is None:
            raise TournamentError(f"{folder} holds no tournament spec")
        return cls(spec_from_dict(data, f"{folder}/spec", registry.presets), folder, registry)

    def folder_secret(self, store: Store, given: Secret | None = None, planned: Secret | None = None) -> Secret:
        """The folder's key: read and checked against the store, or ``planned`` (else a fresh secret) for a
        folder without one.

        The store keeps only a check value of it (:meth:`Secret.check`), so a
        lost or swapped ``secret`` file is refused instead of silently giving
        the rest of the games other bot seeds. A spec that says ``sealed`` must
        agree with the key the folder has.
        """
        path = self.folder / SECRET_FILE
        check = store.meta("secret_check")
        if path.exists():
            found = read_secret(path)
            if check is not None and found.check() != check:
                raise TournamentError(f"{path} is not the secret {self.folder}'s games were played with; "
                                      f"restore the original file")
            if given is not None and given != found:
                raise TournamentError(f"{self.folder} already has its own secret; give no other "
                                      f"(or choose another name)")
        elif check is not None:
            raise TournamentError(f"{path} is missing: the stored games' bot seeds cannot be given again; "
                                  f"restore the file from a copy of the folder")
        else:
            if planned is None and not store.count():  # a folder made but never run: its event decides
                planned = event_secret(self.spec, third_party(self.registry, self.format.player_names()), given)
            found = write_secret(path, given or planned or Secret.generate())
        if self.spec.sealed is not None and self.spec.sealed == is_open(found):
            have = "an open event (the seed alone fixes its games)" if is_open(found) else "a sealed event"
            raise TournamentError(f"{self.folder} holds {have}, but {self.spec.source} says sealed = "
                                  f"{str(self.spec.sealed).lower()}; give another name (or drop the key)")
        if check is None:
            store.set_meta("secret_check", found.check())
        self.secret = found
        return found

    @functools.cached_property
    def games(self) -> list[GameSpec]:
        """Every game, in index order (the order ratings use), each with its deal book's deal if it has
        one. The whole schedule, held once asked for: a run, its status and its resume never ask."""
        games = self.format.games()
        return with_book(games, self.spec.deal_book) if self.spec.deal_book else games

    @functools.cached_property
    def order(self) -> list[GameSpec]:
        """Every game, in the order games are sent to the executor: :meth:`ordered`, held whole."""
        return list(self.ordered())

    def ordered(self) -> Iterator[GameSpec]:
        """Every game in play order (balanced at any prefix), each made as it is taken."""
        games = self.format.ordered()
        return booked(games, self.format.iter_games(), self.spec.deal_book) if self.spec.deal_book else games

    def pending(self, store: Store) -> list[GameSpec]:
        """The games not stored yet, in play order."""
        return list(self.unplayed(store))

    def unplayed(self, store: Store) -> Iterator[GameSpec]:
        """The games not stored yet, in play order, each made (and looked up in the store) as it is taken."""
        stored = (lambda indices: stored_among(store, self.spec, indices)) if stored_count(store, self.spec) else None
        return unstored(self.ordered(), stored)

    def batches(self, games: Iterable[GameSpec]) -> Iterator[list[GameSpec]]:
        return batched(games, self.spec.batch)

    def run(self, executor, on_progress: Callable[[Progress], None] | None = None,
            max_in_flight: int | None = None, watch: Callable[[GameSpec, dict], bool] | None = None,
            allow_changed: bool = False) -> Progress:
        """Play every missing game on ``executor``; return the final progress.

        Refuses (:class:`TournamentError`) to add games to stored ones played
        by another version of a player: the table would mix two bots under one
        name, unless ``allow_changed``: then each change is recorded in the store
        (:meth:`Store.allow_changes`) and the run goes on with the new code.
        Each finished game is stored as it finishes (as its batch comes
        back, on an executor that does not stream). If anything stops the run
        (Ctrl-C, a worker's refusal), the games already finished are stored
        before the exception goes on, so a resume replays only the rest.
        ``on_progress`` is called at most ten times a second, and once at the end.
        ``watch`` is called with every game stored now; once it returns True no
        more batches are sent (those in flight are still stored): a sequential
        test that has its verdict.
        A store that cannot be written (a read-only folder, a full disk) stops
        the run with a :class:`StoreError` saying how many games are stored.
        """
        with Store(self.folder, create=True) as store:
            secret = self.folder_secret(store)
            queue = _Peek(self.batches(self.unplayed(store)))
            self._check_versions(store, bool(queue), allow_changed)
            state = RunState(stored_count(store, self.spec), store.fault_count(), store, self.total, watch)
            try:
                if queue:
                    store.check_writable()
                self._play(executor, queue, state, Ticker(on_progress), max_in_flight, secret)
            except StoreError as exc:
                raise StoreError(f"{exc}; {state.done} of {state.total} games are stored and kept; once that is "
                                 f"fixed, `arena tournament resume {self.folder}` plays the rest") from None
            return state.progress()

    def _play(self, executor, queue: _Peek, state: RunState, tick: Ticker, max_in_flight: int | None,
              secret) -> None:
        limit = max_in_flight or max(2, 2 * getattr(executor, "workers", 2))
        in_flight: dict = {}
        poll = getattr(executor, "poll", None)  # an executor that streams each game as it finishes
        if poll is not None:
            executor.deliver_to(state.store_games)
        try:
            while (queue and not state.stopped) or in_flight:
                while queue and not state.stopped and len(in_flight) < limit:
                    batch = queue.pop()
                    packed = pack_batch(self.spec, batch, self.roster, secret)
                    state.sent(batch)
                    in_flight[executor.submit(run_packed, packed)] = batch
                finished, _ = wait(list(in_flight), timeout=WAKE_SECONDS if poll is None else POLL_SECONDS,
                                   return_when=FIRST_COMPLETED)
                if poll is not None:
                    poll()
                for fut in finished:
                    state.returned(in_flight.pop(fut), unpack_results(fut.result()))
                tick(state)
        except BaseException:
            _keep_finished(in_flight, state, poll)
            raise
        tick(state, final=True)

    def _check_versions(self, store: Store, playing: bool, allow_changed: bool = False) -> None:
        done = store.count()
        changed = roster_changes(store, self.roster) if done else []
        if changed and playing and not allow_changed:
            raise TournamentError(f"{change_text(changed[0])}; resume with --allow-changed to go on with the new "
                                  f"code (the change is recorded), or reinstall that version")
        if changed and playing:
            at = {"after_games": done, "of_games": self.total, "time": time.time()}
            store.allow_changes([{**c, **at} for c in changed], self.roster)
        if not done:
            store.save_roster(self.roster)


class _Peek:
    """An iterator that says whether it has another item (true) before it is taken (:meth:`pop`)."""

    def __init__(self, items: Iterator) -> None:
        self.items, self.next = items, next(items, None)

    def __bool__(self) -> bool:
        return self.next is not None

    def pop(self):
        item, self.next = self.next, next(self.items, None)
        return item


def _keep_finished(in_flight: dict, state: RunState, poll=None) -> None:
    """Store the games and batches that finished while the run was being stopped; cancel the rest."""
    try:
        if poll is not None:
            poll()
        for fut in list(in_flight):
            fut.cancel()
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                state.returned(in_flight[fut], unpack_results(fut.result()))
    except Exception:  # noqa: BLE001 - the store or the stream failed: what is stored stays stored
        return


def status_lines(t: Tournament) -> list[str]:
    """A short account of a tournament's progress."""
    with Store(t.folder) as store:
        done, faults = stored_count(store, t.spec), store.fault_count()
        roster = store.roster()
        changed = roster_changes(store, t.roster) if store.count() else []
        allowed = store.player_changes()
        check = store.meta("secret_check")
    unit = "matches" if match_rules(t.spec) is not None else "games"
    lines = [f"tournament {t.spec.name} in {t.folder}",
             f"  {unit}: {done} of {t.total} stored ({100 * done / max(1, t.total):.1f}%)",
             f"  faults: {faults}",
             f"  rules: {', '.join(rules_label(r.to_dict()) for r in t.spec.rules_objects())}; "
             f"table sizes {', '.join(map(str, t.spec.table_sizes))}; format {t.spec.format}"]
    if t.spec.book:
        lines.append(f"  deals: from the deal book {t.spec.book}, {t.spec.deals} per table")
    sealing = sealed_line(t.folder, check)
    if sealing is not None:
        lines.append(sealing)
    lines += [f"  player {p['name']} {p['version']} (plugin {p['plugin']}, code {p['code_hash']})" for p in roster]
    lines += [f"  changed: {change_note(c)}" for c in allowed]
    lines += [f"  warning: {change_text(c)}; resume refuses to mix them (--allow-changed goes on)" for c in changed]
    if done < t.total:
        lines.append(f"  resume with: arena tournament resume {t.folder}")
    return lines
