"""What runs on a worker: a batch of games, with clients kept across games.

``run_batch`` is a module-level function so any executor (the local
``multiprocess`` pool, a Dask worker, or the caller's own process) can run it.
It checks every player it loads against the version and code hash the
coordinator recorded, and never lets a bot's failure escape a game.
"""

from __future__ import annotations

import atexit
import socket
from dataclasses import asdict

from .errors import ArenaError
from .referee import play_game
from .schedule import GameSpec

_STATE: dict = {}


class WorkerMismatch(ArenaError, RuntimeError):
    """A worker whose installed player differs from the coordinator's."""


def batch_payload(spec, games: list[GameSpec], players: list[dict]) -> dict:
    """Plain data describing a batch (safe to send to any worker)."""
    return {
        "spec": spec.to_dict(),
        "games": [asdict(g) for g in games],
        "players": {p["name"]: p for p in players},
    }


def _registry():
    reg = _STATE.get("registry")
    if reg is None:
        from .plugins import load
        reg = _STATE["registry"] = load()
    return reg


def _check(name: str, expected: dict):
    spec = _registry().get(name)
    checked = _STATE.setdefault("checked", {})
    if name not in checked:
        got = {"version": spec.version, "code_hash": spec.code_hash()}
        want = {k: expected.get(k) for k in got}
        if got != want:
            raise WorkerMismatch(
                f"player {name!r} on worker {socket.gethostname()} is version {got['version']} "
                f"(code {got['code_hash']}), but the tournament uses version {want['version']} "
                f"(code {want['code_hash']}); install the same player on every worker")
        checked[name] = True
    return spec


def _client(name: str, spec_dict: dict, expected: dict):
    """The cached client for ``name`` (a sandboxed bot process lives across games)."""
    from .config import LimitsSpec
    from .runner import make_client
    clients = _STATE.setdefault("clients", {})
    key = (name, spec_dict["sandbox"], tuple(sorted(spec_dict["limits"].items())))
    client = clients.get(key)
    if client is None:
        spec = _check(name, expected)
        mode = spec_dict["sandbox"]
        sandbox = None if mode == "auto" else mode == "always"
        client = clients[key] = make_client(spec, sandbox, LimitsSpec(**spec_dict["limits"]))
    return client


def close_clients() -> None:
    for client in _STATE.pop("clients", {}).values():
        try:
            client.close()
        except Exception:
            pass


atexit.register(close_clients)


def run_batch(payload: dict) -> list[tuple[int, dict]]:
    """Play every game of a batch; return ``(index, record)`` pairs."""
    from .config import rules_from
    spec = payload["spec"]
    out = []
    for g in payload["games"]:
        game = GameSpec(**{**g, "seats": tuple(g["seats"])})
        clients = [_client(name, spec, payload["players"][name]) for name in game.seats]
        seeds = [game.bot_seed(seat) for seat in range(len(game.seats))]
        record = play_game(rules_from(game.rules), clients, game.deal_seed, game.dealer,
                           names=game.seats, bot_seeds=seeds,
                           schedule={"index": game.index, "id": game.game_id, "rotation": game.rotation})
        out.append((game.index, record))
    return out
