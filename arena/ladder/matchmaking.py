"""Which table a ladder plays next: the policy, a pure function of the ratings and the counts.

Each round is one deal at one table, played in every rotation (so every
player holds every hand: the deal's luck cancels). Its table is chosen so:

1. **The seat most in need goes first** (the *anchor*). A player whose sigma
   is still above :data:`BURST_SIGMA` (a new submission) comes first: a new
   bot gets a burst of games until its rating settles. Otherwise the player
   with the fewest games does (fair shares: no bot starves).
2. **The others are the table that teaches the most.** :data:`CANDIDATES`
   random tables holding the anchor are drawn; each is scored by TrueSkill's
   match quality (how close the game is expected to be) times the players'
   summed variance (how much there is to learn); the best is played.
3. **Every pairing stays reachable.** With probability :data:`EXPLORE` the
   table is a uniformly random one holding the anchor instead.

The table size turns over the ladder's sizes round by round. Every choice is
drawn from a generator seeded by the ladder's seed and the round number.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import trueskill

BURST_SIGMA = 4.0
"""A player whose sigma is above this is placed first (the default start is 25/3)."""
CANDIDATES = 24
"""Random tables scored per round."""
EXPLORE = 0.1
"""The share of rounds whose table is uniformly random (every pairing stays reachable)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """A round's table (seat order not yet shuffled) and why its first player was chosen."""

    players: tuple[str, ...]
    reason: str


def table_size(sizes: Sequence[int], number: int, players: int) -> int | None:
    """The size of round ``number``'s table: the ladder's sizes in turn, those the field can fill."""
    fitting = [s for s in sizes if s <= players]
    return fitting[number % len(fitting)] if fitting else None


def choose(active: Sequence[str], ratings: Mapping[str, trueskill.Rating], games: Mapping[str, int], size: int,
           rng: random.Random, env: trueskill.TrueSkill, policy: str = "learn") -> Choice:
    """The players of the next round's table, from ``active`` (at least ``size`` of them).

    ``policy`` ``learn`` is the policy above; ``uniform`` a uniformly random
    table (the baseline it is measured against).
    """
    pool = sorted(active)
    if policy == "uniform":
        return Choice(tuple(rng.sample(pool, size)), "uniform")
    rating = {p: ratings.get(p, env.create_rating()) for p in pool}
    new = [p for p in pool if rating[p].sigma > BURST_SIGMA]
    if new:
        anchor = min(new, key=lambda p: (games.get(p, 0), p))
        reason = "new: placing"
    else:
        fewest = min(games.get(p, 0) for p in pool)
        anchor = rng.choice([p for p in pool if games.get(p, 0) == fewest])
        reason = "fair share"
    others = [p for p in pool if p != anchor]
    if rng.random() < EXPLORE:
        return Choice((anchor, *rng.sample(others, size - 1)), f"{reason}; explore")
    best, best_score = None, -1.0
    for _ in range(CANDIDATES):
        table = (anchor, *rng.sample(others, size - 1))
        score = _score(table, rating, env)
        if score > best_score:
            best, best_score = table, score
    return Choice(best, f"{reason}; most to learn")


def _score(table: Sequence[str], rating: Mapping[str, trueskill.Rating], env: trueskill.TrueSkill) -> float:
    quality = env.quality([(rating[p],) for p in table])
    return quality * sum(rating[p].sigma ** 2 for p in table)


def rate_game(env: trueskill.TrueSkill, ratings: dict, seats: Sequence[str], ranks: Sequence[int]) -> None:
    """Update ``ratings`` (name -> Rating) in place with one game's finishing ranks."""
    groups = env.rate([(ratings.get(p, env.create_rating()),) for p in seats], ranks=list(ranks))
    for p, (r,) in zip(seats, groups):
        ratings[p] = r
