"""Which table a ladder plays next: the policy, a pure function of the ratings and the recent rounds.

Each round is one deal at one table, played in every rotation (so every
player holds every hand: the deal's luck cancels). Its table is chosen so:

1. **The seats most in need go first.** Players whose sigma is still above
   :data:`BURST_SIGMA` (new submissions) come first: a new bot gets a burst of
   games until its rating settles. Then every player whose games over the
   last :data:`WINDOW` rounds are more than :data:`SLACK` below the field's
   mean (fair shares: no bot starves, a bot the quality score rarely picks
   included). With none of either, the player with the fewest recent games
   takes the first seat.
2. **The others are the table that teaches the most.** They are drawn from the
   players not more than :data:`SLACK` above the mean (so no bot takes more
   than its share either); :data:`CANDIDATES` random tables are scored by
   TrueSkill's match quality (how close the game is expected to be) times the
   players' summed variance (how much there is to learn); the best is played.
3. **Every pairing stays reachable.** With probability :data:`EXPLORE` the
   other seats are drawn uniformly instead.

Shares are counted over a window of recent rounds, not over the ladder's
life: a bot submitted late is owed its share from now on, not the games
played before it came. The table size turns over the ladder's sizes round by
round. Every choice is drawn from a generator seeded by the ladder's seed and
the round number.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import trueskill

from arena.ladder.errors import LadderError

BURST_SIGMA = 4.0
"""A player whose sigma is above this is placed first (the default start is 25/3)."""
CANDIDATES = 24
"""Random tables scored per round."""
EXPLORE = 0.1
"""The share of rounds whose other seats are drawn uniformly (every pairing stays reachable)."""
WINDOW = 200
"""How many of the latest rounds fair shares are counted over."""
SLACK = 0.05
"""How far (a fraction of the mean) a player's recent games may fall below or rise above the field's mean."""


@dataclass(frozen=True, slots=True)
class Choice:
    """A round's table (seat order not yet shuffled) and why its first player was chosen."""

    players: tuple[str, ...]
    reason: str


def table_size(sizes: Sequence[int], number: int, players: int) -> int | None:
    """The size of round ``number``'s table: the ladder's sizes in turn, those the field can fill."""
    fitting = [s for s in sizes if s <= players]
    return fitting[number % len(fitting)] if fitting else None


def recent_games(circles: Iterable[Sequence[str]]) -> Counter:
    """Games per player over the last :data:`WINDOW` of ``circles`` (the rounds' tables, oldest first).

    A round of ``n`` players is ``n`` games for each of them (one per rotation).
    """
    tables = list(circles)[-WINDOW:]
    return Counter(p for t in tables for p in t for _ in t)


def choose(active: Sequence[str], ratings: Mapping[str, trueskill.Rating], recent: Mapping[str, int], size: int,
           rng: random.Random, env: trueskill.TrueSkill, policy: str = "learn") -> Choice:
    """The players of the next round's table, from ``active`` (at least ``size`` of them).

    ``recent``: each player's games over the latest rounds (:func:`recent_games`).
    ``policy`` ``learn`` is the policy above; ``uniform`` a uniformly random
    table (the baseline it is measured against).
    """
    pool = sorted(active)
    if policy == "uniform":
        return Choice(tuple(rng.sample(pool, size)), "uniform")
    rating = {p: ratings.get(p, env.create_rating()) for p in pool}
    games = {p: recent.get(p, 0) for p in pool}
    mean = sum(games.values()) / len(pool)
    new = sorted((p for p in pool if rating[p].sigma > BURST_SIGMA), key=lambda p: (games[p], p))
    behind = sorted((p for p in pool if p not in new and games[p] < mean * (1 - SLACK)),
                    key=lambda p: (games[p], p))
    first = (new + behind)[:size]
    if new:
        reason = "new: placing"
    elif behind:
        reason = "behind its share"
    else:
        fewest = min(games.values())
        first = [rng.choice([p for p in pool if games[p] == fewest])]
        reason = "fewest recent games"
    need = size - len(first)
    others = [p for p in pool if p not in first and games[p] <= mean * (1 + SLACK)]
    if len(others) < need:  # too few within their share: the least ahead make up the table
        ahead = sorted((p for p in pool if p not in first and p not in others), key=lambda p: (games[p], p))
        others += ahead[:need - len(others)]
    if need == 0:
        return Choice(tuple(first), reason)
    if rng.random() < EXPLORE:
        return Choice((*first, *rng.sample(others, need)), f"{reason}; explore")
    best, best_score = None, -1.0
    for _ in range(CANDIDATES):
        table = (*first, *rng.sample(others, need))
        score = _score(table, rating, env)
        if score > best_score:
            best, best_score = table, score
    if best is None:
        raise LadderError(f"no candidate table scored above {best_score} ({CANDIDATES} drawn)")
    return Choice(best, f"{reason}; most to learn")


def _score(table: Sequence[str], rating: Mapping[str, trueskill.Rating], env: trueskill.TrueSkill) -> float:
    ratings = [rating[p] for p in table]
    return quality(ratings, env.beta) * sum(r.sigma ** 2 for r in ratings)


def quality(ratings: Sequence[trueskill.Rating], beta: float) -> float:
    """TrueSkill's match quality of a free-for-all of one-player teams (``env.quality`` of
    ``[(r,) for r in ratings]``, the same value to rounding), in O(n) instead of the library's
    general matrix algebra (about a hundred times faster at four players).

    The library forms, over the consecutive differences of the players' performances,
    ``M = beta**2 * AtA + AtSA`` and returns ``exp(-d.M^-1.d / 2) * sqrt(det(beta**2 * AtA) / det(M))``
    with ``d`` the consecutive differences of the means. With one player a team both
    matrices are tridiagonal: ``AtA`` has 2 on its diagonal and -1 beside it (its determinant is
    ``m + 1`` at size ``m``), and ``M`` has ``2 beta**2 + s_i + s_(i+1)`` on its diagonal and
    ``-(beta**2 + s_(i+1))`` beside it (``s`` the variances). So ``det(M)`` is a continuant and
    ``M^-1.d`` one pass of the tridiagonal (Thomas) algorithm.
    """
    if len(ratings) < 2:
        raise ValueError(f"expected a table of at least 2 players, got {len(ratings)}")
    b2 = beta * beta
    var = [r.sigma * r.sigma for r in ratings]
    m = len(ratings) - 1
    diag = [2 * b2 + var[i] + var[i + 1] for i in range(m)]
    off = [-(b2 + var[i + 1]) for i in range(m - 1)]
    delta = [ratings[i].mu - ratings[i + 1].mu for i in range(m)]
    # forward sweep: the pivots (whose product is det(M)) and the eliminated right-hand side
    pivots, rhs = [diag[0]], [delta[0]]
    for i in range(1, m):
        factor = off[i - 1] / pivots[i - 1]
        pivots.append(diag[i] - factor * off[i - 1])
        rhs.append(delta[i] - factor * rhs[i - 1])
    solution = [0.0] * m
    solution[m - 1] = rhs[m - 1] / pivots[m - 1]
    for i in range(m - 2, -1, -1):
        solution[i] = (rhs[i] - off[i] * solution[i + 1]) / pivots[i]
    exponent = -0.5 * sum(d * x for d, x in zip(delta, solution))
    det_m = 1.0
    for pivot in pivots:
        det_m *= pivot
    return math.exp(exponent) * math.sqrt(b2 ** m * (m + 1) / det_m)


def rate_game(env: trueskill.TrueSkill, ratings: dict, seats: Sequence[str], ranks: Sequence[int]) -> None:
    """Update ``ratings`` (name -> Rating) in place with one game's finishing ranks."""
    groups = env.rate([(ratings.get(p, env.create_rating()),) for p in seats], ranks=list(ranks))
    for p, (r,) in zip(seats, groups):
        ratings[p] = r
