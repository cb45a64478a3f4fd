"""What runs on a worker: a batch of games, with clients kept across games.

``run_batch`` is a module-level function so any executor (the local
``multiprocess`` pool, a Dask worker, or the caller's own process) can run it.
It checks every player it loads against the version and code hash the
coordinator recorded, and never lets a bot's failure escape a game. A batch
carries the tournament's secret, which keys the bot seeds; it stays in this
process (no bot is ever sent it).

Each finished game also goes at once to the worker's *sink*, when it has one
(:func:`sink`): the local pool's result queue, a Dask queue, or a serial
executor's callback. The coordinator stores each game as it arrives, so a
stopped run loses only the games in flight, however long a batch; the batch's
own result still carries every game (the store ignores a game it holds), so a
game lost on the way is stored when its batch returns. A local pool's stream
is a :class:`StreamedSink`, whose reader answers for every game it delivers
(:mod:`arena.tournament.stream_drain`): there a batch's result is a
:class:`Streamed`, the indices of its streamed games and only the games that
could not be streamed, so no game crosses the pipe twice.
"""

from __future__ import annotations

import atexit
import socket
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields

import orjson

from arena.bots.referee import play_game
from arena.game.errors import ArenaError
from arena.game.rules import Rules
from arena.game.seeds import Secret, tournament_deal
from arena.plugins.folders import add_folder_players
from arena.plugins.registry import Registry, load
from arena.plugins.runner import make_client
from arena.sandbox.limits_spec import LimitsSpec
from arena.sandbox.shared_server import SharedServer
from arena.tournament.errors import WorkerMismatch
from arena.tournament.match_run import play_scheduled_match
from arena.tournament.match_spec import match_rules
from arena.tournament.schedule import GameSpec
from arena.tournament.spec import base_player

GAMES_IN_FLIGHT = 1
"""Games a worker plays at once when every bot of a batch is sandboxed: each in a thread of its
own (a *lane*, with its own clients; the lanes' clients of one bot share its fork server), so the
referee does not sleep through each decision's round trip and the bots' processes are woken
together rather than one decision at a time. One, because the coordinator reads a worker's stream as it
fills: one game in flight plays more games a second for less CPU than two (docs/throughput.md, "Lanes
again")."""


def batch_payload(spec, games: list[GameSpec], roster: list[dict], secret: Secret,
                  folders: dict | None = None) -> dict:
    """Plain data describing a batch, for a worker (it holds the secret: never for a bot); ``roster``: the players
    of its games as the event stored them (:func:`arena.tournament.event.roster_of`).

    ``folders``: players installed in folders of their own (a ladder's entries,
    name -> ``{"folder", "player"}``), which a worker discovers (confined) before
    it plays them, and checks against the version and code hash like any other.

    Each game's ``rules`` go as every option of its resolved :class:`Rules`
    (:meth:`TournamentSpec.resolve`), so a worker plays them without looking
    a preset up: a plugin's preset needs no registry there.
    """
    resolved = [r.to_dict() for r in spec.rules_objects()]  # each rule set once (resolve makes them all)
    return {
        "spec": spec.to_dict(),
        "secret": secret.hex(),
        "games": [{**{f.name: getattr(g, f.name) for f in fields(g)},
                   "rules": dict(resolved[spec.rules.index(g.rules)])} for g in games],
        "players": {p["name"]: p for p in roster},
        **({"folders": folders} if folders else {}),
    }


class Worker:
    """One worker's players and bot clients, kept across the batches it plays.

    ``registry``: the players to resolve names with (loaded on first use when
    None). ``name``: how refusals name this worker (the host by default).
    A pool worker process has one (:func:`this_process`); a
    :class:`~arena.tournament.executors.SerialExecutor` has its own, made
    current while it runs a task (:func:`current`).
    """

    def __init__(self, registry: Registry | None = None, name: str | None = None) -> None:
        self._registry = registry
        self.name = name or socket.gethostname()
        self._installed: dict = {}
        self._clients: dict = {}  # thread id -> {key: client}
        self._lanes: dict[int, ThreadPoolExecutor] = {}  # per calling thread (a Dask worker has several);
        # long-lived: a bot's keeper dies with the thread that started it
        self._shares: dict = {}  # (calling thread, key) -> the SharedServer of its lanes' clients of one bot
        self.sink: Callable[[bytes | list], None] | None = None
        """Where each finished game goes as it finishes (packed, :func:`pack_games`); None: nowhere."""

    @property
    def registry(self):
        if self._registry is None:
            self._registry = load()
        return self._registry

    def installed(self, name: str):
        """The player as installed here, with its version and code hash (computed once)."""
        if name not in self._installed:
            try:
                spec = self.registry.get(base_player(name))  # an alias (random#2) plays as its base player
            except ArenaError as exc:
                raise WorkerMismatch(f"player {name!r} cannot be loaded on worker {self.name}: {exc}; "
                                     f"install the same players on every worker") from None
            self._installed[name] = (spec, {"version": spec.version, "code_hash": spec.code_hash()})
        return self._installed[name]

    def check(self, name: str, expected: dict):
        """The installed player, if it is the version and code the coordinator expects (every game:
        a long-lived worker, e.g. Dask's, serves tournaments whose players may differ)."""
        spec, got = self.installed(name)
        want = {k: expected.get(k) for k in got}
        if got != want:
            raise WorkerMismatch(
                f"player {name!r} on worker {self.name} is version {got['version']} "
                f"(code {got['code_hash']}), but the tournament uses version {want['version']} "
                f"(code {want['code_hash']}); install the same player on every worker")
        return spec

    def client(self, name: str, spec_dict: dict, expected: dict, lane: int | None = None):
        """The cached client for ``name`` (a sandboxed bot process lives across games).

        Cached per thread: a worker running tasks in several threads (Dask) never
        shares one bot between two games. The sandboxed clients of one bot in the
        lanes of one calling thread (``lane``: its id) share its fork server.
        """
        spec = self.check(name, expected)
        clients = self._clients.setdefault(threading.get_ident(), {})
        key = (name, spec_dict["sandbox"], tuple(sorted(spec_dict["limits"].items())))
        client = clients.get(key)
        if client is None:
            mode = spec_dict["sandbox"]
            sandbox = None if mode == "auto" else mode == "always"
            share = None if lane is None else self._shares.setdefault((lane, key), SharedServer(GAMES_IN_FLIGHT))
            client = clients[key] = make_client(spec, sandbox, LimitsSpec(**spec_dict["limits"]), share)
        return client

    def add_folders(self, folders: dict) -> None:
        """Discover the folder-installed players not known here yet (a problem surfaces when one is played)."""
        missing = {n: f for n, f in folders.items() if n not in self.registry.players and n not in self._installed}
        if missing:
            add_folder_players(self.registry, missing)

    def close(self) -> None:
        """Close every cached client of every thread (their bot process groups die with them)."""
        lanes, self._lanes = self._lanes, {}
        for pool in lanes.values():  # idle but for a worker told to stop: its games' bots are killed below
            pool.shutdown(wait=False, cancel_futures=True)
        clients, self._clients, self._shares = self._clients, {}, {}
        for per_thread in clients.values():
            for client in per_thread.values():
                try:
                    client.close()
                except Exception:  # noqa: BLE001 - closing what is left: one failure must not stop the rest
                    pass

    def run_batch(self, payload: dict,
                  each: Callable[[int, dict], None] | None = None) -> list[tuple[int, dict]]:
        """Play every game of a batch; return ``(index, record)`` pairs (``each`` is called
        with every game as it finishes)."""
        spec = payload["spec"]
        self.add_folders(payload.get("folders") or {})
        secret = Secret.from_hex(payload.get("secret", ""), "the batch's secret")
        for name in sorted({name for g in payload["games"] for name in g["seats"]}):
            self.check(name, payload["players"][name])  # a refused batch plays (and streams) no game
        match = match_rules(spec)  # the same for every game of the batch
        games = [GameSpec(**{**g, "seats": tuple(g["seats"]), "seed_names": tuple(g.get("seed_names", ()))})
                 for g in payload["games"]]
        read: dict[bytes, Rules] = {}  # the games of a batch mostly share their rules: each set read once
        rules_of: dict[int, Rules] = {}
        for game in games:
            key = orjson.dumps(game.rules, option=orjson.OPT_SORT_KEYS)
            if key not in read:
                read[key] = Rules.from_dict(game.rules)
            rules_of[game.index] = read[key]

        def play(game: GameSpec, lane: int | None = None) -> tuple[int, dict]:
            clients = [self.client(name, spec, payload["players"][name], lane) for name in game.seats]
            rules = rules_of[game.index]
            if match is not None:  # the unit is a whole match (its record holds every hand)
                return game.index, play_scheduled_match(game, rules, clients, secret, match)
            return game.index, play_game(
                rules, clients, tournament_deal(secret, game.deal_seed),
                game.dealer, names=game.seats, bot_seeds=game.bot_seeds(secret), book=game.book,
                decision_times=False,  # the store keeps the summaries only (run_packed drops the lists)
                schedule={"index": game.index, "id": game.game_id, "rotation": game.rotation})

        if self._sandboxed(spec, {name for g in games for name in g.seats}):
            finished = self._in_lanes(play, games)
        else:
            finished = map(play, games)
        out = []
        for index, record in finished:
            out.append((index, record))
            if each is not None:
                each(index, record)
        order = {game.index: i for i, game in enumerate(games)}
        out.sort(key=lambda pair: order[pair[0]])  # the batch's order, whichever finished first
        return out

    def _sandboxed(self, spec: dict, names: set[str]) -> bool:
        """Whether every one of these players is played sandboxed (then games may share the worker)."""
        mode = spec["sandbox"]
        return mode == "always" or (mode == "auto" and not any(self.installed(n)[0].trusted for n in names))

    def _in_lanes(self, play, games: list[GameSpec]) -> Iterator[tuple[int, dict]]:
        """``play`` each game in this thread's lanes (:data:`GAMES_IN_FLIGHT` at once), yielding
        each result in this thread as it finishes. Each lane thread has its own clients
        (:meth:`client` is per thread), so a bot process never plays two games at once, and
        a game's record is the same whichever lane plays it."""
        caller = threading.get_ident()
        lanes = self._lanes.get(caller)
        if lanes is None:
            lanes = self._lanes[caller] = ThreadPoolExecutor(GAMES_IN_FLIGHT, thread_name_prefix="arena-lane")
        futures = [lanes.submit(play, game, caller) for game in games]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


_CURRENT: ContextVar[Worker | None] = ContextVar("arena_worker", default=None)
_SINK: ContextVar[Callable[[bytes | list], None] | None] = ContextVar("arena_sink", default=None)
_PROCESS: list[Worker] = []  # this process's worker, made on first use


def this_process() -> Worker:
    """This process's worker (a pool or Dask worker process has exactly one)."""
    if not _PROCESS:
        _PROCESS.append(Worker())
    return _PROCESS[0]


def current() -> Worker:
    """The worker tasks run on here: the one an executor made current, else this process's."""
    return _CURRENT.get() or this_process()


@contextmanager
def running_on(worker: Worker) -> Iterator[Worker]:
    """Make ``worker`` current for a while (a serial executor's own, for one task)."""
    token = _CURRENT.set(worker)
    try:
        yield worker
    finally:
        _CURRENT.reset(token)


@contextmanager
def streaming_to(target: Callable[[bytes | list], None] | None) -> Iterator[None]:
    """Send the games finished here to ``target`` for a while (a Dask task's queue: one per
    tournament, though a Dask worker may serve several at once)."""
    token = _SINK.set(target)
    try:
        yield
    finally:
        _SINK.reset(token)


def sink() -> Callable[[bytes | list], None] | None:
    """Where the games finished here go as they finish: the task's, else the current worker's."""
    return _SINK.get() or current().sink


def worker_name() -> str:
    """How refusals name the current worker."""
    return current().name


def close_clients() -> None:
    """Close this process's worker's clients (a pool worker leaving)."""
    if _PROCESS:
        _PROCESS[0].close()


atexit.register(close_clients)


def run_batch(payload: dict, each: Callable[[int, dict], None] | None = None) -> list[tuple[int, dict]]:
    """Play every game of a batch on the current worker; return ``(index, record)`` pairs."""
    return current().run_batch(payload, each)


# ------------------------------------------------------- packed batches
# The tournament runner sends batches and results as JSON bytes: multiprocess
# pickles with dill's pure-Python pickler, which costs milliseconds per game
# record, while one bytes object crosses a pipe almost for free.

def pack_batch(spec, games: list[GameSpec], roster: list[dict], secret: Secret, folders: dict | None = None) -> bytes:
    """:func:`batch_payload` as JSON bytes, for :func:`run_packed`."""
    return orjson.dumps(batch_payload(spec, games, roster, secret, folders))


def run_packed(payload) -> bytes | list | Streamed:
    """:func:`run_batch` on a packed (or plain) payload; the results as JSON bytes.

    Per-decision time lists are left out (the store keeps the per-game
    summaries). Results that JSON cannot hold come back as a plain list, and
    so do all of them when the sink is a :class:`LocalSink` (nothing crosses
    a process). When the sink is a :class:`StreamedSink` the result is a
    :class:`Streamed`: the games it took are named by index only.
    """
    if isinstance(payload, (bytes, bytearray, memoryview)):
        payload = orjson.loads(payload)
    target = sink()
    local = isinstance(target, LocalSink)  # the coordinator's own process: no JSON in between
    streamed: list[int] = []

    def each(index: int, record: dict) -> None:
        for t in record.get("timings") or ():
            t.pop("cpu_ms", None)
            t.pop("wall_ms", None)
        if target is not None:
            try:
                target([(index, record)] if local else pack_games([(index, record)]))
            except Exception:  # noqa: BLE001 - a broken stream: the batch's result still carries the game
                return
            streamed.append(index)

    done = run_batch(payload, each)
    if local:
        return done
    if isinstance(target, StreamedSink):
        sent = set(streamed)
        return Streamed(tuple(streamed), pack_games([pair for pair in done if pair[0] not in sent]))
    return pack_games(done)


class StreamedSink:
    """A sink whose reader answers for every game it takes (a local pool's stream, read by a
    :class:`~arena.tournament.stream_drain.Drain`): a batch's result then names those games
    by index only (:class:`Streamed`)."""

    __slots__ = ("put",)

    def __init__(self, put: Callable[[bytes | list], None]) -> None:
        self.put = put

    def __call__(self, packed: bytes | list) -> None:
        self.put(packed)


@dataclass(frozen=True)
class Streamed:
    """A batch's result when its games went down a :class:`StreamedSink`: the ``indices`` of
    the games streamed, and the ``games`` that could not be (packed, :func:`pack_games`)."""

    indices: tuple[int, ...]
    games: bytes | list


class LocalSink:
    """A sink in the coordinator's own process (a serial executor's): it is handed the
    ``(index, record)`` pairs themselves, not their JSON, and gives them to ``callback``."""

    __slots__ = ("callback",)

    def __init__(self, callback: Callable[[list], None]) -> None:
        self.callback = callback

    def __call__(self, pairs) -> None:
        self.callback(unpack_results(pairs))


def pack_games(results: list) -> bytes | list:
    """``(index, record)`` pairs as JSON bytes (as a plain list if JSON cannot hold them)."""
    try:
        return orjson.dumps(results)
    except TypeError:
        return results


def unpack_results(results) -> list:
    """The ``(index, record)`` pairs of :func:`run_packed` or :func:`run_batch`."""
    if isinstance(results, (bytes, bytearray, memoryview)):
        return orjson.loads(results)
    return results
