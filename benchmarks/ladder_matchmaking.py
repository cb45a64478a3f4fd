"""How fast a new submission's rank settles: the ladder's matchmaking against uniformly random tables.

A simulated field (no real games): each bot has a true skill; in a round (one
deal at one table, every rotation) each seat of the deal has a luck term that
every rotation shares, and each player a performance noise per game; the
finishing order is by skill + luck + noise. Ratings are TrueSkill, updated as
the ladder does (:func:`arena.ladder.matchmaking.rate_game`). A field of
``FIELD`` bots plays ``WARM`` rounds; then a new bot enters (true skill at a
random place), and the run goes on for ``AFTER`` rounds. Measured per policy:
the ladder games played (all tables) and the new bot's own games until its
rank by mu - 3 sigma is within one place of its true rank and stays so to the
end of the run; and fair shares: the most games any bot of the field played
in those ``AFTER`` rounds over the fewest. Medians over ``SEEDS`` seeds, same
seeds for both policies.

    python benchmarks/ladder_matchmaking.py [SEEDS]
"""

from __future__ import annotations

import random
import statistics
import sys

from arena.ladder.matchmaking import choose, rate_game, recent_games, table_size
from arena.results.stats.ratings import RatingParams
from arena.tournament.schedule import seating

FIELD, WARM, AFTER, SIZES = 12, 120, 200, (3, 4)


def _round(rng, players, skill, env, ratings):
    n = len(players)
    luck = [rng.gauss(0, 3) for _ in range(n)]
    circle = seating(players, rng.getrandbits(32))
    for r in range(n):
        seats = [circle[(s - r) % n] for s in range(n)]
        perf = [skill[p] + luck[s] + rng.gauss(0, 25 / 6) for s, p in enumerate(seats)]
        order = sorted(range(n), key=lambda s: -perf[s])
        ranks = [order.index(s) for s in range(n)]
        rate_game(env, ratings, seats, ranks)
    return n


def trial(seed: int, policy: str) -> tuple[int, int]:
    rng = random.Random(seed)
    pick = random.Random(seed * 7 + 1)  # the matchmaking's own generator
    env = RatingParams().env()
    skill = {f"b{i}": rng.gauss(25, 4) for i in range(FIELD)}
    ratings: dict = {}
    games: dict = {}
    circles: list = []
    number = 0

    def play(n_rounds, log=None):
        nonlocal number
        for _ in range(n_rounds):
            size = table_size(SIZES, number, len(skill))
            choice = choose(list(skill), ratings, recent_games(circles), size, pick, env, policy)
            circles.append(choice.players)
            played = _round(rng, list(choice.players), skill, env, ratings)
            for p in choice.players:
                games[p] = games.get(p, 0) + played
            number += 1
            if log is not None:
                log.append((played, games.get("new", 0), _ok(skill, ratings, env)))
    play(WARM)
    before = dict(games)
    skill["new"] = rng.gauss(25, 4)
    log: list = []
    play(AFTER, log)
    last_bad = max((i for i, (_, _, ok) in enumerate(log) if not ok), default=-1)
    settled = log[: last_bad + 2]
    shares = [games.get(p, 0) - before.get(p, 0) for p in skill if p != "new"]
    return sum(g for g, _, _ in settled), settled[-1][1] if settled else 0, max(shares) / max(1, min(shares))


def _ok(skill, ratings, env) -> bool:
    true_order = sorted(skill, key=lambda p: -skill[p])
    est = sorted(skill, key=lambda p: -(ratings.get(p, env.create_rating()).mu
                                         - 3 * ratings.get(p, env.create_rating()).sigma))
    return abs(true_order.index("new") - est.index("new")) <= 1


def main(seeds: int = 30) -> None:
    for policy in ("learn", "uniform"):
        results = [trial(s, policy) for s in range(seeds)]
        ladder = statistics.median(r[0] for r in results)
        own = statistics.median(r[1] for r in results)
        spread = statistics.median(r[2] for r in results)
        print(f"{policy:8s} median over {seeds} seeds: {ladder:.0f} ladder games, {own:.0f} of the new bot's own, "
              f"until its rank is within one place for good; the field's games after the new bot came, "
              f"most / fewest: {spread:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
