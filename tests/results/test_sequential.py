"""The comparison's statistics against known answers and by simulation (fixed seeds).

Monte Carlo bounds: an observed rate ``r`` over ``RUNS`` runs has standard error
``sqrt(r (1 - r) / RUNS)``; each check allows three of them.
"""

from __future__ import annotations

import itertools
import math
import random

import pytest

from arena.results.errors import StatsError
from arena.results.stats.sequential import (REGULARISE, Sprt, Summary, llr, mean_interval, run_sprt, sign_test,
                                            superiority)

RUNS = 1000
CAP = 3000


def three_se(rate: float, runs: int = RUNS) -> float:
    return 3 * math.sqrt(rate * (1 - rate) / runs)


def units(mean: float) -> tuple[list[float], list[float]]:
    """A known distribution of per-deal differences (points, 4-seat Bhabhi steps of 25) with mean ``mean``.

    At ``mean = 0`` it is symmetric: what two identical players give.
    """
    shift = mean / 50
    dist = {0.0: 0.70, 25.0: 0.12 + shift, -25.0: 0.12 - shift, 50.0: 0.03, -50.0: 0.03}
    assert min(dist.values()) > 0
    return list(dist), list(dist.values())


def draws(rng: random.Random, values: list[float], weights: list[float]):
    """Units drawn one at a time, as a run takes them: it stops at its verdict, after about a
    hundred units, so the cap's 3,000 are not all drawn."""
    cumulative = list(itertools.accumulate(weights))
    while True:
        yield rng.choices(values, cum_weights=cumulative)[0]


def verdicts(test: Sprt, mean: float, seed: int) -> dict:
    values, weights = units(mean)
    rng = random.Random(seed)
    out = {"H0": 0, "H1": 0, None: 0}
    for _ in range(RUNS):
        out[run_sprt(test, draws(rng, values, weights), CAP).verdict] += 1
    return out


def test_wald_bounds():
    """The bounds are Wald's log(beta / (1 - alpha)) and log((1 - beta) / alpha)."""
    t = Sprt(0, 2, alpha=0.05, beta=0.1)
    assert t.lower == pytest.approx(math.log(0.1 / 0.95))
    assert t.upper == pytest.approx(math.log(0.9 / 0.05))
    assert t.verdict(t.upper) == "H1" and t.verdict(t.lower) == "H0" and t.verdict(0.0) is None


def test_two_values_give_the_binomial_llr():
    """On values -1 and +1 only one distribution has a given mean: the LLR is the binomial one."""
    wins, losses, mu0, mu1 = 30, 18, 0.0, 0.2
    k, m = wins + REGULARISE, losses + REGULARISE
    p0, p1 = (1 + mu0) / 2, (1 + mu1) / 2
    expected = k * math.log(p1 / p0) + m * math.log((1 - p1) / (1 - p0))
    assert llr({1.0: wins, -1.0: losses}, mu0, mu1, span=1.0) == pytest.approx(expected, rel=1e-9)


def test_llr_sign_follows_the_data():
    """Data whose mean is nearer mu1 give a positive LLR, nearer mu0 a negative one; all ties favour H0."""
    assert llr({0.0: 50, 25.0: 10}, 0, 2, 100) > 0
    assert llr({0.0: 50, 25.0: 1, -25.0: 1}, 0, 2, 100) < 0
    assert llr({0.0: 5}, 0, 2, 100) < 0


def test_sign_test_exact_values():
    """The two-sided exact sign test: 10 of 10 gives 2/1024; an even split gives 1; no data gives 1."""
    assert sign_test(10, 0) == pytest.approx(2 / 1024)
    assert sign_test(3, 7) == pytest.approx(2 * sum(math.comb(10, i) for i in range(4)) / 1024)
    assert sign_test(5, 5) == 1.0 and sign_test(0, 0) == 1.0


def test_summary_interval_and_superiority():
    """Mean, sample variance, the normal interval and LOS on a small known sample."""
    s = Summary.of([1.0, 2.0, 3.0, 4.0])
    assert (s.mean, s.variance) == (2.5, pytest.approx(5 / 3))
    low, high = mean_interval(s)
    assert (low + high) / 2 == pytest.approx(2.5)
    assert high - low == pytest.approx(2 * 1.959964 * math.sqrt(5 / 12), rel=1e-5)
    assert superiority(s) > 0.99 and superiority(Summary.of([0.0, 0.0])) == 0.5


def test_bad_parameters_say_what_was_expected():
    """Bounds in the wrong order or alpha out of range are refused with the expected values."""
    with pytest.raises(StatsError, match=r"increasing .*got \(2.0, 0.0\)"):
        Sprt(2.0, 0.0)
    with pytest.raises(StatsError, match="alpha must be between 0 and 0.5"):
        Sprt(0, 2, alpha=0.7)


def test_sprt_error_rates_hold_by_simulation():
    """1,000 runs at H0 (identical players) and 1,000 at H1: false verdicts within alpha and beta.

    H0: mean 0 (a symmetric distribution); H1: mean 5 points; SPRT(0, 5),
    alpha = beta = 0.05; every run reaches a verdict before the cap.
    """
    test = Sprt(0, 5, alpha=0.05, beta=0.05)
    at_h0 = verdicts(test, 0.0, seed=11)
    at_h1 = verdicts(test, 5.0, seed=12)
    assert at_h0[None] == at_h1[None] == 0
    assert at_h0["H1"] / RUNS <= 0.05 + three_se(0.05)
    assert at_h1["H0"] / RUNS <= 0.05 + three_se(0.05)


def test_interval_covers_the_true_difference():
    """The 95% interval of 300 units covers the true mean in 95% of 1,000 runs (within 3 standard errors)."""
    values, weights = units(3.0)
    rng = random.Random(5)
    covered = 0
    for _ in range(RUNS):
        low, high = mean_interval(Summary.of(rng.choices(values, weights, k=300)))
        covered += low <= 3.0 <= high
    assert abs(covered / RUNS - 0.95) <= three_se(0.95)
