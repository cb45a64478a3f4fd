"""The plain-float free-for-all gives bit for bit trueskill's own ratings."""

import random

import pytest
import trueskill
from trueskill import Rating, backends

from arena.results.stats.ratings import RatingParams
from arena.results.stats.trueskill import FreeForAll


def random_ranks(rng: random.Random, n: int) -> list[int]:
    """A finishing order as the arena makes them: distinct ranks, or tied seats sharing the last places."""
    order = list(range(n))
    rng.shuffle(order)
    ranks = [0] * n
    for place, seat in enumerate(order):
        ranks[seat] = place
    if rng.random() < 0.2:                      # a drawn game: the last k seats share one rank
        k = rng.randint(2, n)
        for seat in order[n - k:]:
            ranks[seat] = n - k
    return ranks


def chain_against_trueskill(env, rate, start, rating_of, rng: random.Random, games: int, sizes) -> None:
    """Chain ``games`` random games of ``sizes`` players among ten (ties too) through ``rate`` (ratings as
    ``start`` is, ``rating_of`` making each a Rating) and through ``env.rate``: every rating bit for bit the
    same (Gaussian equality: the same pi and tau; and the same mu and sigma), the same FloatingPointErrors."""
    players = [f"p{i}" for i in range(10)]
    slow = {p: env.create_rating() for p in players}
    fast = {p: start for p in players}
    for _ in range(games):
        n = rng.choice(list(sizes))
        seats = rng.sample(players, n)
        ranks = random_ranks(rng, n)
        try:
            expected = [g[0] for g in env.rate([(slow[s],) for s in seats], ranks=ranks)]
        except FloatingPointError:
            with pytest.raises(FloatingPointError):
                rate([fast[s] for s in seats], ranks)
            continue
        got = rate([fast[s] for s in seats], ranks)
        assert [rating_of(r) for r in got] == expected
        assert [(rating_of(r).mu, rating_of(r).sigma) for r in got] == [(r.mu, r.sigma) for r in expected]
        slow.update(zip(seats, expected))
        fast.update(zip(seats, got))


@pytest.mark.parametrize("params, other_backend", [
    (RatingParams(), False), (RatingParams(tau=0.1, draw_probability=0.05), False),
    (RatingParams(mu=10, sigma=2, beta=1.5, draw_probability=0.2), False),
    (RatingParams(tau=0.1, draw_probability=0.05), True),
])
def test_free_for_all_equals_trueskill_rate_bit_for_bit(params, other_backend):
    env = params.env()
    if other_backend:       # cdf and pdf that are not trueskill's own functions: called, not written out
        env.cdf, env.pdf = (lambda x: backends.cdf(x)), (lambda x: backends.pdf(x))
    fast = FreeForAll(env)
    assert fast.builtin is not other_backend
    chain_against_trueskill(env, fast.rate, env.create_rating(), lambda r: r, random.Random(7), 300, range(2, 9))


def test_free_for_all_refuses_what_it_does_not_rate():
    env = trueskill.TrueSkill(draw_probability=lambda a, b, e: 0.1)
    with pytest.raises(ValueError, match="fixed draw_probability"):
        FreeForAll(env)
    with pytest.raises(ValueError, match="two or more ratings"):
        FreeForAll(RatingParams().env()).rate([trueskill.Rating()], [0])


@pytest.mark.parametrize("params, other_backend", [
    (RatingParams(), False), (RatingParams(mu=10, sigma=2, beta=1.5, draw_probability=0.2), False),
    (RatingParams(tau=0.1, draw_probability=0.05), True),
])
def test_a_chain_of_rating_arguments_equals_trueskill_bit_for_bit(params, other_backend):
    """rate_args carries each rating as the (mu, sigma) a Rating is made of, over 2,000 chained games of 2 to
    8 players (most of 3 and 4, as the arena plays them, with draws): Rating(*pair) is trueskill's rating."""
    env = params.env()
    if other_backend:
        env.cdf, env.pdf = (lambda x: backends.cdf(x)), (lambda x: backends.pdf(x))
    fast = FreeForAll(env)
    chain_against_trueskill(env, fast.rate_args, fast.start, lambda pair: Rating(*pair), random.Random(11), 2000,
                            [2, 3, 3, 4, 4, 4, 5, 8])
