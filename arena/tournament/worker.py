"""What runs on a worker: a batch of games, with clients kept across games.

``run_batch`` is a module-level function so any executor (the local
``multiprocess`` pool, a Dask worker, or the caller's own process) can run it.
It checks every player it loads against the version and code hash the
coordinator recorded, and never lets a bot's failure escape a game. A batch
carries the tournament's secret, which keys the bot seeds; it stays in this
process (no bot is ever sent it).
"""

from __future__ import annotations

import atexit
import socket
import threading
from dataclasses import fields

from arena.game.errors import ArenaError
from arena.bots.referee import play_game
from arena.tournament.schedule import GameSpec
from arena.game.seeds import Secret, tournament_deal

_STATE: dict = {}


class WorkerMismatch(ArenaError, RuntimeError):
    """A worker whose installed player differs from the coordinator's."""


def batch_payload(spec, games: list[GameSpec], players: list[dict], secret: Secret) -> dict:
    """Plain data describing a batch, for a worker (it holds the secret: never for a bot)."""
    return {
        "spec": spec.to_dict(),
        "secret": secret.hex(),
        "games": [{f.name: getattr(g, f.name) for f in fields(g)} for g in games],
        "players": {p["name"]: p for p in players},
    }


def _registry():
    reg = _STATE.get("registry")
    if reg is None:
        from arena.plugins.registry import load
        reg = _STATE["registry"] = load()
    return reg


def worker_name() -> str:
    """How refusals name this worker: the host, plus its address when a backend set one."""
    return _STATE.get("worker_name") or socket.gethostname()


def _installed(name: str):
    """The player as installed here, with its version and code hash (computed once per process)."""
    found = _STATE.setdefault("installed", {})
    if name not in found:
        try:
            from arena.tournament.spec import base_player
            spec = _registry().get(base_player(name))  # an alias (random#2) plays as its base player
        except ArenaError as exc:
            raise WorkerMismatch(f"player {name!r} cannot be loaded on worker {worker_name()}: {exc}; "
                                 f"install the same players on every worker") from None
        found[name] = (spec, {"version": spec.version, "code_hash": spec.code_hash()})
    return found[name]


def _check(name: str, expected: dict):
    """The installed player, if it is the version and code the coordinator expects (every game:
    a long-lived worker, e.g. Dask's, serves tournaments whose players may differ)."""
    spec, got = _installed(name)
    want = {k: expected.get(k) for k in got}
    if got != want:
        raise WorkerMismatch(
            f"player {name!r} on worker {worker_name()} is version {got['version']} "
            f"(code {got['code_hash']}), but the tournament uses version {want['version']} "
            f"(code {want['code_hash']}); install the same player on every worker")
    return spec


def _client(name: str, spec_dict: dict, expected: dict):
    """The cached client for ``name`` (a sandboxed bot process lives across games).

    Cached per thread: a worker running tasks in several threads (Dask) never
    shares one bot between two games.
    """
    from arena.tournament.spec import LimitsSpec
    from arena.plugins.runner import make_client
    spec = _check(name, expected)
    clients = _STATE.setdefault("clients", {}).setdefault(threading.get_ident(), {})
    key = (name, spec_dict["sandbox"], tuple(sorted(spec_dict["limits"].items())))
    client = clients.get(key)
    if client is None:
        mode = spec_dict["sandbox"]
        sandbox = None if mode == "auto" else mode == "always"
        client = clients[key] = make_client(spec, sandbox, LimitsSpec(**spec_dict["limits"]))
    return client


def close_clients() -> None:
    """Close every cached client of every thread (their bot process groups die with them)."""
    for clients in _STATE.pop("clients", {}).values():
        for client in clients.values():
            try:
                client.close()
            except Exception:
                pass


atexit.register(close_clients)


def run_batch(payload: dict) -> list[tuple[int, dict]]:
    """Play every game of a batch; return ``(index, record)`` pairs."""
    from arena.tournament.spec import rules_from
    spec = payload["spec"]
    secret = Secret.from_hex(payload.get("secret", ""), "the batch's secret")
    out = []
    for g in payload["games"]:
        game = GameSpec(**{**g, "seats": tuple(g["seats"])})
        clients = [_client(name, spec, payload["players"][name]) for name in game.seats]
        seeds = game.bot_seeds(secret)
        record = play_game(rules_from(game.rules), clients, tournament_deal(secret, game.deal_seed),
                           game.dealer,
                           names=game.seats, bot_seeds=seeds,
                           schedule={"index": game.index, "id": game.game_id, "rotation": game.rotation})
        out.append((game.index, record))
    return out


# ------------------------------------------------------- packed batches
# The tournament runner sends batches and results as JSON bytes: multiprocess
# pickles with dill's pure-Python pickler, which costs milliseconds per game
# record, while one bytes object crosses a pipe almost for free.

def pack_batch(spec, games: list[GameSpec], players: list[dict], secret: Secret) -> bytes:
    """:func:`batch_payload` as JSON bytes, for :func:`run_packed`."""
    import orjson
    return orjson.dumps(batch_payload(spec, games, players, secret))


def run_packed(payload) -> bytes | list:
    """:func:`run_batch` on a packed (or plain) payload; the results as JSON bytes.

    Per-decision time lists are left out (the store keeps the per-game
    summaries). Results that JSON cannot hold come back as a plain list.
    """
    import orjson
    if isinstance(payload, (bytes, bytearray, memoryview)):
        payload = orjson.loads(payload)
    results = run_batch(payload)
    for _, record in results:
        for t in record.get("timings") or ():
            t.pop("cpu_ms", None)
            t.pop("wall_ms", None)
    try:
        return orjson.dumps(results)
    except TypeError:
        return results


def unpack_results(results) -> list:
    """The ``(index, record)`` pairs of :func:`run_packed` or :func:`run_batch`."""
    if isinstance(results, (bytes, bytearray, memoryview)):
        import orjson
        return orjson.loads(results)
    return results
