"""Seating players: resolve names to clients (in-process or sandboxed) and play games."""

from __future__ import annotations

from typing import Sequence

from arena.plugins.registry import check_in_process
from arena.bots.referee import InProcessClient, play_game
from arena.game.rules import Rules
from arena.game.seeds import Secret, play_seeds, user_secret
from arena.sandbox.client import SandboxClient


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
    return SandboxClient(spec, limits=limits)


def play_seeded(rules: Rules, clients: Sequence, seed: int, secret: Secret, dealer: int = 0,
                names: Sequence[str] | None = None) -> dict:
    """One standalone game from a user's ``seed``: deal and bot seeds keyed with ``secret``.

    The record keeps ``seed`` as ``play_seed`` (its ``seed`` is the engine's
    deal seed) and the seed each bot got; never the secret.
    """
    names = list(names) if names is not None else [c.name for c in clients]
    seeds = play_seeds(secret, seed, names)
    return play_game(rules, clients, seeds.deal, dealer, names=names, bot_seeds=seeds.bots, play_seed=seed)


def play_one(registry, rules: Rules, names: Sequence[str], seed: int, dealer: int = 0,
             sandbox: bool | None = None, limits=None, secret: Secret | None = None) -> dict:
    """Play one game between the named players and return its record.

    ``secret`` keys the deal and the bot seeds (default: the per-user secret,
    :func:`arena.game.seeds.user_secret`): the same seed and secret, the same game.
    """
    rules.check_players(len(names))
    specs = [registry.get(n) for n in names]
    if sandbox is False:
        for spec in specs:
            check_in_process(spec)
    secret = secret or user_secret()
    clients = [make_client(s, sandbox, limits) for s in specs]
    try:
        return play_seeded(rules, clients, seed, secret, dealer, names)
    finally:
        for c in clients:
            c.close()
