"""Seating players: resolve names to clients (in-process or sandboxed) and play games."""

from __future__ import annotations

from typing import Sequence

from .referee import InProcessClient, play_game
from .rules import Rules


def make_client(spec, sandbox: bool | None = None, limits=None):
    """A client for ``spec``: sandboxed unless the player is trusted (or ``sandbox`` says otherwise)."""
    if sandbox is None:
        sandbox = not spec.trusted
    if not sandbox:
        return InProcessClient(spec)
    from .sandbox.client import SandboxClient
    return SandboxClient(spec, limits=limits)


def play_one(registry, rules: Rules, names: Sequence[str], seed: int, dealer: int = 0,
             sandbox: bool | None = None, limits=None) -> dict:
    """Play one game between the named players and return its record."""
    rules.check_players(len(names))
    specs = [registry.get(n) for n in names]
    clients = [make_client(s, sandbox, limits) for s in specs]
    try:
        return play_game(rules, clients, seed, dealer, names=names)
    finally:
        for c in clients:
            c.close()
