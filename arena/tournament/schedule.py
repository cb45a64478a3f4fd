"""A schedule's values: one game to play, its table, where tables come from, the seating.

A tournament format (:mod:`arena.tournament.formats`) yields :class:`GameSpec`
values: one game of one table (a tuple of player names, seat 0 first) under
one rule set, with the deal seed and the seat rotation. Every seed comes from
:mod:`arena.game.seeds` (blake2b, never Python's ``hash()``), so the same
parameters give the same schedule on any machine. The seeds the bots get are
keyed with the tournament's secret (:meth:`GameSpec.bot_seeds`).

Rotation groups (duplicate deals): every deal of a table is played once in each
cyclic rotation of its players, in an order round the table shuffled per deal
(:func:`seating`). Rotation ``r`` seats the circle's player ``i`` at
seat ``(i + r) % n``; the deal seed is the same for all rotations, so every
player holds every hand of the deal.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from arena.game.seeds import Secret, bot_seeds, seating_seed

# ---------------------------------------------------------------- seating


def seating(players: Sequence[str], deal_seed: int) -> tuple[str, ...]:
    """The order round the table for one deal: a seeded shuffle of the table's players.

    Rotations of one deal keep who sits next to whom; shuffling the circle per
    deal varies the neighbours (in this game the player on your left matters),
    so no player is stuck behind the same opponent for a whole event.
    """
    circle = list(players)
    random.Random(seating_seed(deal_seed)).shuffle(circle)
    return tuple(circle)


# ---------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game to play: who sits where, under which rules, with which deal.

    ``index`` is the game's position in the schedule (the order ratings use);
    ``game_id`` names the table, deal and rotation, e.g. ``rr-0-4p-0003-d1-r2``
    (format, rule set number, table size, table number, deal, rotation);
    ``rules`` is the rule set exactly as given to the format; ``seats[s]`` is
    the player at seat ``s``; ``seed_names``, when given, are the names the bot
    seeds are keyed with instead of ``seats`` (the paired format keys both
    candidates' seat alike, so they get the same seeds).
    """

    index: int
    game_id: str
    rules: Any
    seats: tuple[str, ...]
    deal_seed: int
    rotation: int
    dealer: int = 0
    seed_names: tuple[str, ...] = ()
    book: Any = None
    """A deal book's line (a plain dict, :mod:`arena.game.book`) this game starts from instead of its
    seeded deal; the same for every rotation of the deal."""

    @property
    def table_size(self) -> int:
        """The number of seats."""
        return len(self.seats)

    def bot_seeds(self, secret: Secret) -> tuple[int, ...]:
        """Every seat's bot seed in this game, keyed with the tournament's secret (distinct per rotation)."""
        return bot_seeds(secret, self.deal_seed, self.rotation, self.seed_names or self.seats)


@dataclass(frozen=True, slots=True)
class Table:
    """Players at one table under one rule set (before rotations).

    ``drawn`` is the part of ``players`` chosen from the pool; the deal seeds
    depend on it (not on a gauntlet's candidate), so every candidate meets the
    same field with the same deals.
    """

    label: str
    rules: Any
    players: tuple[str, ...]
    drawn: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Cell:
    """Where tables come from: one rule set, one table size, one pool.

    Each chosen combination of ``size - len(head)`` pool players makes one
    table per head: ``heads`` is ``((),)`` in a round robin and one
    ``(candidate,)`` per candidate in a gauntlet.
    """

    label: str
    rules: Any
    size: int
    pool: tuple[str, ...]
    heads: tuple[tuple[str, ...], ...] = ((),)

    @property
    def choose(self) -> int:
        """How many pool players each table takes."""
        return self.size - len(self.heads[0])

    @property
    def capacity(self) -> int:
        """How many distinct combinations the pool has."""
        return math.comb(len(self.pool), self.choose)

    @property
    def cost(self) -> int:
        """Tables (one rotation group per deal each) per combination."""
        return self.size * len(self.heads)

    def tables(self, number: int, combo: tuple[str, ...]) -> Iterator[Table]:
        """The tables of one combination, one per head."""
        for hi, head in enumerate(self.heads):
            suffix = f"-c{hi}" if head else ""
            yield Table(f"{self.label}-{number:04d}{suffix}", self.rules, head + combo, combo)
