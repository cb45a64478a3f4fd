"""Play order: the schedule's games interleaved so that every prefix is balanced.

A format numbers its games table by table (:meth:`Format.games`); the index is
a game's identity and the order ratings use, and stays as it was. The order
games are *played* in is :func:`interleave`'s: a greedy pass that, at each
step, takes the next game (in index order) of the table whose players, cell
(rule set and table size) and own games are furthest behind their share of
the games played so far. Every quantity is an integer, so the order is the
same on every machine.

The pass needs only each table's key and size, never its games: it is a
generator over :class:`Stream` values (:func:`interleaved`), each of which
makes its games as they are taken, so a format's play order holds one game
per table at a time, not the schedule (:meth:`Format.ordered`).

Guarantee (tests/tournament/test_play_order.py checks it over formats,
table sizes, player counts, deals and budgets): at every prefix of ``t``
games, each player's count minus ``t`` times their share of the whole
schedule differs between any two players by at most :data:`PREFIX_BOUND`
games; in a full round robin (equal shares) no two players' game counts
differ by more than 2.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from arena.game.seeds import canonical
from arena.tournament.schedule import GameSpec

PREFIX_BOUND = 3
"""The spread of the players' lead over their share, in games, at any prefix (see the module text)."""


def stream_key(rules, players) -> tuple:
    """The stream a table's (or a game's) games belong to: its rule set and its set of players."""
    return canonical(rules), frozenset(players)


@dataclass(frozen=True, slots=True)
class Stream:
    """One table's games (or several tables' of the same players and rules), in index order:
    ``size`` of them, made by ``games()`` when the stream is first taken from."""

    key: tuple
    size: int
    games: Callable[[], Iterator[GameSpec]]


def interleave(games: Sequence[GameSpec]) -> list[GameSpec]:
    """``games`` (one schedule) in play order; each table's own games keep their index order."""
    streams: dict[tuple, list[GameSpec]] = {}
    for g in sorted(games, key=lambda g: g.index):
        streams.setdefault(stream_key(g.rules, g.seats), []).append(g)
    return list(interleaved([Stream(k, len(gs), gs.__iter__) for k, gs in streams.items()]))


def interleaved(streams: Sequence[Stream]) -> Iterator[GameSpec]:
    """The games of ``streams`` (in the order their keys first appear in the schedule) in play order,
    each made when it is taken."""
    if len(streams) < 2:
        for stream in streams:
            yield from stream.games()
        return
    import numpy as np  # deferred: numpy costs every `arena` process about 0.2 s at start-up, and most never interleave
    keys = [s.key for s in streams]
    columns: dict = {}
    for _rules, players in keys:
        for p in sorted(players):
            columns.setdefault(("player", p), len(columns))
    for rules, players in keys:
        columns.setdefault(("cell", rules, len(players)), len(columns))
    member = np.zeros((len(keys), len(columns)), dtype=np.int64)
    for s, (rules, players) in enumerate(keys):
        member[s, [columns[("player", p)] for p in players]] = 1
        member[s, columns[("cell", rules, len(players))]] = 1
    size = np.array([s.size for s in streams], dtype=np.int64)
    total = int(size.sum())
    share = member.T @ size  # games of each player and cell in the whole schedule
    count = np.zeros(len(columns), dtype=np.int64)
    taken = np.zeros(len(keys), dtype=np.int64)
    exhausted = np.int64(-(1 << 62))
    running: list[Iterator[GameSpec] | None] = [None] * len(streams)
    for t in range(1, total + 1):
        # behind = t * share / total - count, scaled by total to stay in integers
        score = member @ (t * share - count * total) + (t * size - taken * total)
        s = int(np.argmax(np.where(taken < size, score, exhausted)))
        upcoming = running[s]
        if upcoming is None:
            upcoming = running[s] = streams[s].games()
        yield next(upcoming)
        taken[s] += 1
        count += member[s]
        if taken[s] == size[s]:
            running[s] = None  # its generator (and the games it holds) can go
