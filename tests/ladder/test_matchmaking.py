"""The ladder's table choice: new bots first, fair shares both ways, every pairing reachable."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
import trueskill

from arena.ladder.matchmaking import WINDOW, choose, quality, recent_games, table_size

ENV = trueskill.TrueSkill(draw_probability=0)
# The field of the 12.5-minute ladder run: the quality score alone kept the two extremes short of games.
FIELD = {"heuristic": 25.96, "low": 23.25, "high": 22.74, "random": 22.53, "v2": 22.32, "v1": 21.53}


def _settled() -> dict:
    return {p: trueskill.Rating(mu, 0.05) for p, mu in FIELD.items()}


def _run(ratings: dict, rounds: int, circles: list | None = None, field=FIELD) -> tuple[Counter, list]:
    circles = [] if circles is None else circles
    games: Counter = Counter()
    for n in range(rounds):
        size = table_size([3, 4], n, len(field))
        choice = choose(sorted(field), ratings, recent_games(circles), size, random.Random(n), ENV)
        assert len(set(choice.players)) == size and set(choice.players) <= set(field)
        circles.append(choice.players)
        for p in choice.players:
            games[p] += size
    return games, circles


def test_recent_games_counts_a_round_as_one_game_per_rotation_over_the_window():
    assert recent_games([("a", "b", "c"), ("a", "b", "c", "d")]) == {"a": 7, "b": 7, "c": 7, "d": 4}
    old = [("x", "y", "z")] * 5
    assert recent_games(old + [("a", "b", "c")] * WINDOW) == {"a": 3 * WINDOW, "b": 3 * WINDOW, "c": 3 * WINDOW}


@pytest.fixture(scope="module")
def settled_run() -> tuple[Counter, list]:
    """3000 rounds of the settled field, run once for the module. Round ``n`` depends only on the
    rounds before it (its table size and ``random.Random(n)``), so the first ``k`` tables are those a
    ``k``-round run chooses: the tests take the prefix they need."""
    return _run(_settled(), 3000)


def test_every_bot_of_a_settled_uneven_field_gets_its_share(settled_run):
    games, _ = settled_run
    assert max(games.values()) / min(games.values()) < 1.15, games


def test_a_new_bot_is_seated_until_settled_and_then_takes_no_more_than_its_share(settled_run):
    ratings = _settled()
    circles = list(settled_run[1][:600])  # the first 600 rounds, as _run(ratings, 600) chooses them
    field = {**FIELD, "newbie": 25.0}
    first = [choose(sorted(field), ratings, recent_games(circles), 4, random.Random(1), ENV)]
    assert first[0].players[0] == "newbie" and first[0].reason.startswith("new: placing")
    ratings["newbie"] = trueskill.Rating(22.0, 0.05)  # settled: only its share is owed now
    games, _ = _run(ratings, 2000, circles, field)
    # it came late, but it is owed its share from now on, not the games played before it came
    share = sum(games.values()) / len(field)
    assert 0.9 * share < games["newbie"] < 1.15 * share, (games, share)


def test_every_pairing_stays_reachable(settled_run):
    circles = settled_run[1][:1500]  # the first 1500 rounds, as _run(_settled(), 1500) chooses them
    met = {frozenset(pair) for c in circles for pair in itertools.combinations(c, 2)}
    assert met == {frozenset(pair) for pair in itertools.combinations(FIELD, 2)}


def test_a_fresh_ladder_starts_with_the_fewest_games_and_the_choice_is_seeded():
    ratings = _settled()
    a = choose(sorted(FIELD), ratings, {}, 4, random.Random(7), ENV)
    b = choose(sorted(FIELD), ratings, {}, 4, random.Random(7), ENV)
    assert a == b and a.reason.startswith("fewest recent games")


def test_quality_is_trueskills_own_to_rounding():
    rng = random.Random(5)
    for n in range(2, 9):
        for _ in range(50):
            ratings = [trueskill.Rating(rng.uniform(0, 50), rng.uniform(0.05, 9)) for _ in range(n)]
            assert quality(ratings, ENV.beta) == pytest.approx(ENV.quality([(r,) for r in ratings]), rel=1e-12)
    with pytest.raises(ValueError, match="expected a table of at least 2 players, got 1"):
        quality([trueskill.Rating()], ENV.beta)
