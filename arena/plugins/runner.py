"""Seating players: resolve names to clients (in-process or sandboxed) and play games."""

from __future__ import annotations

from collections.abc import Sequence

from arena.bots.player_spec import check_in_process
from arena.bots.match_play import play_match
from arena.bots.referee import InProcessClient, play_game
from arena.game.match import MatchRules
from arena.game.rules import Rules
from arena.game.seeds import OPEN, Secret, bot_seeds, is_open, play_seeds, user_secret
from arena.sandbox.client import SandboxClient
from arena.sandbox.program_client import ProgramClient


def make_client(spec, sandbox: bool | None = None, limits=None, share=None):
    """A client for ``spec``: sandboxed unless the player is trusted (or ``sandbox`` says otherwise).

    In-process for a third-party player is refused (:class:`arena.PluginError`):
    its code never runs in the harness. ``share``: a sandboxed client's
    :class:`~arena.sandbox.shared_server.SharedServer` (None: a fork server of its own).
    """
    if sandbox is None:
        sandbox = not spec.trusted
    if not sandbox:
        check_in_process(spec)
        return InProcessClient(spec)
    if spec.source is not None and spec.source.program:  # a program bot: its own fork server (program_client)
        return ProgramClient(spec, limits=limits)
    return SandboxClient(spec, limits=limits, share=share)


def standalone_secret(specs, sealed: bool = False) -> Secret:
    """The key of a standalone game (``arena play``, a check-bot case) between players ``specs``: open
    (:data:`arena.game.seeds.OPEN`: the seed alone fixes the game, on any machine) when every one is a
    built-in player and ``sealed`` is not asked for; else the per-user secret (a third-party bot must
    not be able to work its deal out from a seed its author could know)."""
    return user_secret() if sealed or not all(s.trusted for s in specs) else OPEN


def play_seeded(rules: Rules, clients: Sequence, seed: int, secret: Secret, dealer: int = 0,
                names: Sequence[str] | None = None) -> dict:
    """One standalone game from a user's ``seed``: deal and bot seeds keyed with ``secret``.

    The record keeps ``seed`` as ``play_seed`` (its ``seed`` is the engine's
    deal seed), the seed each bot got and whether the game was ``sealed``; never the secret.
    """
    names = list(names) if names is not None else [c.name for c in clients]
    seeds = play_seeds(secret, seed, names)
    record = play_game(rules, clients, seeds.deal, dealer, names=names, bot_seeds=seeds.bots, play_seed=seed)
    record["sealed"] = not is_open(secret)
    return record


def play_one(registry, rules: Rules, names: Sequence[str], seed: int, dealer: int = 0,
             sandbox: bool | None = None, limits=None, secret: Secret | None = None, sealed: bool = False) -> dict:
    """Play one game between the named players and return its record.

    ``secret`` keys the deal and the bot seeds (default: :func:`standalone_secret`, the open key among
    built-in players unless ``sealed``, else the per-user secret): the same seed and key, the same game.
    """
    secret = secret or standalone_secret([registry.get(n) for n in names], sealed)
    clients = seat_clients(registry, rules, names, sandbox, limits)
    try:
        return play_seeded(rules, clients, seed, secret, dealer, names)
    finally:
        for c in clients:
            c.close()


def seat_clients(registry, rules: Rules, names: Sequence[str], sandbox: bool | None = None, limits=None) -> list:
    """One client per seat for the named players (checked against the table size; in-process
    refused for a third-party player)."""
    rules.check_players(len(names))
    specs = [registry.get(n) for n in names]
    if sandbox is False:
        for spec in specs:
            check_in_process(spec)
    return [make_client(s, sandbox, limits) for s in specs]


def play_match_one(registry, rules: Rules, names: Sequence[str], seed: int, match: MatchRules, dealer: int = 0,
                   sandbox: bool | None = None, limits=None, secret: Secret | None = None, on_hand=None,
                   sealed: bool = False) -> dict:
    """Play one match between the named players from a user's ``seed``; its match record.

    The match's deal seed and every hand's bot seeds are keyed with ``secret``
    (default :func:`standalone_secret`), as for :func:`play_one`; ``dealer`` deals the first hand.
    """
    secret = secret or standalone_secret([registry.get(n) for n in names], sealed)
    names = list(names)
    clients = seat_clients(registry, rules, names, sandbox, limits)
    try:
        record = play_match(rules, clients, play_seeds(secret, seed, names).deal, match, dealer, names,
                            bot_seeds=lambda hand_seed: bot_seeds(secret, hand_seed, 0, names),
                            on_hand=on_hand, play_seed=seed)
        record["sealed"] = not is_open(secret)
        return record
    finally:
        for c in clients:
            c.close()
