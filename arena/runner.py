"""Seating players: resolve names to clients (in-process or sandboxed) and play games."""

from __future__ import annotations

from typing import Sequence

from .plugins import check_in_process
from .referee import InProcessClient, play_game
from .rules import Rules


def make_client(spec, sandbox: bool | None = None, limits=None):
    """A client for ``spec``: sandboxed unless the player is trusted (or ``sandbox`` says otherwise).

    In-process for a third-party player is refused (:class:`arena.PluginError`):
    its code never runs in the harness.
    """
    if sandbox is None:
        sandbox = not spec.trusted
    if not sandbox:
        check_in_process(spec)
        return InProcessClient(spec)
    from .sandbox.client import SandboxClient
    return SandboxClient(spec, limits=limits)


def play_one(registry, rules: Rules, names: Sequence[str], seed: int, dealer: int = 0,
             sandbox: bool | None = None, limits=None) -> dict:
    """Play one game between the named players and return its record."""
    rules.check_players(len(names))
    specs = [registry.get(n) for n in names]
    if sandbox is False:
        for spec in specs:
            check_in_process(spec)
    clients = [make_client(s, sandbox, limits) for s in specs]
    try:
        return play_game(rules, clients, seed, dealer, names=names)
    finally:
        for c in clients:
            c.close()
