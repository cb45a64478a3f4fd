"""The Elo-like rating difference from places: pairwise scores, the logistic rating, its interval."""

from __future__ import annotations

import math
import random

import pytest

from arena.results.stats.elo import elo, elo_difference, pairwise_halves, pairwise_score


def test_pairwise_score_counts_the_seats_finished_ahead_of_and_ties_half():
    """First of four beats three (1), last beats none (0); two tied for last share a half."""
    ranks = [0, 1, 2, 3]
    assert [pairwise_score(ranks, s) for s in range(4)] == [1, 2 / 3, 1 / 3, 0]
    tied = [0, 1, 2, 2]  # a draw: seats 2 and 3 share the last place
    assert pairwise_halves(tied, 2) == pairwise_halves(tied, 3) == 1
    assert pairwise_score(tied, 2) == pytest.approx(1 / 6)
    assert sum(pairwise_halves(tied, s) for s in range(4)) == 4 * 3  # every pairing gives out 2 halves


def test_elo_of_a_score_is_the_logistic_rating():
    """0.5 is 0; 0.75 is 400 log10 3 (about +190.8); 0.25 is its negative."""
    assert elo(0.5) == 0
    assert elo(0.75) == pytest.approx(400 * math.log10(3)) == pytest.approx(190.85, abs=0.01)
    assert elo(0.25) == pytest.approx(-elo(0.75))


def test_difference_is_the_gap_of_the_two_ratings_and_turns_with_the_players():
    """Mean scores 0.75 and 0.5: +190.8; swapped, -190.8, with the interval mirrored."""
    pairs = [(0.7, 0.5), (0.8, 0.5), (0.75, 0.45), (0.75, 0.55)]
    d = elo_difference(pairs)
    assert (d.score_a, d.score_b) == (pytest.approx(0.75), pytest.approx(0.5))
    assert d.value == pytest.approx(elo(0.75) - elo(0.5)) and d.low < d.value < d.high
    swapped = elo_difference([(b, a) for a, b in pairs])
    assert swapped.value == pytest.approx(-d.value) and swapped.margin == pytest.approx(d.margin)


def test_interval_is_the_delta_methods():
    """The half-width is 1.96 sd(u) / sqrt(D) of the linearised units, worked out by hand here."""
    pairs = [(0.6, 0.5), (0.4, 0.5)]  # sA = sB = 0.5: f'(0.5) = 1600 / ln 10
    k = 1600 / math.log(10)
    u = [k * 0.1, -k * 0.1]
    sd = math.sqrt(sum(x * x for x in u) / 1)
    d = elo_difference(pairs)
    assert d.value == pytest.approx(0) and d.margin == pytest.approx(1.959964 * sd / math.sqrt(2), rel=1e-5)


def test_no_difference_without_two_deals_or_a_finite_rating():
    """One deal, or a player ahead in every pairing (score 1), gives None rather than a number."""
    assert elo_difference([(0.6, 0.4)]) is None
    assert elo_difference([(1.0, 0.5), (1.0, 0.4)]) is None
    assert elo_difference([(0.5, 0.0), (0.6, 0.0)]) is None


def test_interval_covers_the_true_difference_about_95_percent_of_the_time():
    """Simulated deals with known mean scores 0.6 and 0.5: the 95% interval holds the true gap in
    93-97% of 1,000 runs of 200 deals (fixed seed)."""
    rng = random.Random(5)
    true = elo(0.6) - elo(0.5)
    covered = 0
    for _ in range(1000):
        pairs = []
        for _ in range(200):
            common = rng.uniform(-0.15, 0.15)  # the deal's luck, shared by both (paired)
            pairs.append((0.6 + common + rng.uniform(-0.2, 0.2), 0.5 + common + rng.uniform(-0.2, 0.2)))
        d = elo_difference(pairs)
        covered += d.low <= true <= d.high
    assert 930 <= covered <= 970
