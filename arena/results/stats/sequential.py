"""Statistics of a paired comparison: a sequential test and the fixed-sample figures.

The data are the per-unit paired differences ``x`` of a comparison (one unit
per deal, see docs/compare.md): independent, identically distributed, on a
bounded range ``[-span, span]``, with many exact ties (``x = 0``). Nothing
here plays a game or reads a store; everything is a pure function of counts.

- :class:`Sprt`: Wald's sequential probability ratio test of ``H0: mean = mu0``
  against ``H1: mean = mu1`` with the generalized (empirical-likelihood)
  log-likelihood ratio of :func:`llr`, the multinomial GSPRT that fishtest runs
  on pentanomial game pairs, here on every value a unit can take.
- :func:`mean_interval`, :func:`superiority`, :func:`sign_test`: the
  fixed-games figures (normal interval of the mean difference, the likelihood
  of superiority, the exact two-sided sign test).

References (docs/compare.md gives them per formula):
A. Wald, *Sequential Analysis* (1947), ch. 3 (the bounds);
M. Van den Bergh, "Generalized SPRT for multinomial distributions"
(hardy.uhasselt.be/Fishtest/support_MLE_multinomial.pdf) and A. B. Owen,
*Empirical Likelihood* (2001), ch. 2-3 (the constrained maximum likelihood);
W. J. Dixon and A. M. Mood, "The statistical sign test", JASA 41 (1946).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from statistics import NormalDist

from arena.results.errors import StatsError

REGULARISE = 1e-3
"""Pseudo-count put on each end of the range, so every hypothesised mean inside it
is reachable however few values were seen (fishtest regularises its pentanomial
counts with the same 1e-3)."""
_NEWTON_STEPS = 60


def _check(ok: bool, what: str, expected: str, got) -> None:
    if not ok:
        raise StatsError(f"{what} must be {expected} (got {got!r})")


# ---------------------------------------------------------------- summary


@dataclass(frozen=True, slots=True)
class Summary:
    """Count, mean and sample variance of the units, from their running sums."""

    n: int
    total: float
    squares: float

    @classmethod
    def of(cls, values: Iterable[float]) -> "Summary":
        xs = list(values)
        return cls(len(xs), float(sum(xs)), float(sum(x * x for x in xs)))

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def variance(self) -> float:
        """The unbiased sample variance (0 below two units)."""
        if self.n < 2:
            return 0.0
        return max(0.0, (self.squares - self.total * self.total / self.n) / (self.n - 1))

    @property
    def stderr(self) -> float:
        """The standard error of the mean."""
        return math.sqrt(self.variance / self.n) if self.n else math.inf


def mean_interval(s: Summary, level: float = 0.95) -> tuple[float, float]:
    """The normal (central limit) interval of the mean: ``mean -+ z * s / sqrt(n)``."""
    _check(0 < level < 1, "the interval's level", "between 0 and 1", level)
    if s.n < 2:
        return (-math.inf, math.inf)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    return (s.mean - z * s.stderr, s.mean + z * s.stderr)


def superiority(s: Summary) -> float:
    """The likelihood of superiority, P(true mean > 0) = Phi(mean / stderr) (0.5 without spread)."""
    if s.n < 2 or s.stderr == 0:
        return 0.5 if s.mean == 0 else float(s.mean > 0)
    return NormalDist().cdf(s.mean / s.stderr)


def sign_test(wins: int, losses: int) -> float:
    """The exact two-sided sign test p-value: ties dropped, ``wins`` ~ Binomial(wins + losses, 1/2)."""
    _check(wins >= 0 and losses >= 0, "sign test counts", "whole numbers >= 0", (wins, losses))
    m, k = wins + losses, min(wins, losses)
    if m == 0:
        return 1.0
    log_half = -m * math.log(2)
    tail = sum(math.exp(_log_comb(m, i) + log_half) for i in range(k + 1))
    return min(1.0, 2 * tail)


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


# ---------------------------------------------------------------- likelihood


def _lagrange(values: list[float], weights: list[float], mu: float) -> float:
    """The multiplier ``l`` of the maximum-likelihood distribution with mean ``mu`` on these values.

    That distribution is ``p_i = w_i / (1 + l (x_i - mu))`` (Owen 2001, eq. 2.9),
    with ``l`` the root of ``g(l) = sum w_i d_i / (1 + l d_i) = 0``, ``d_i = x_i - mu``;
    ``g`` falls strictly, so a Newton step kept inside the interval where every
    ``1 + l d_i > 0`` (halving towards its edge otherwise) finds it.
    """
    d = [x - mu for x in values]
    lo = max((-1 / di for di in d if di > 0), default=-math.inf)
    hi = min((-1 / di for di in d if di < 0), default=math.inf)
    lam = 0.0
    for _ in range(_NEWTON_STEPS):
        g = slope = 0.0
        for w, di in zip(weights, d):
            t = di / (1 + lam * di)
            g += w * t
            slope -= w * t * t
        if slope == 0:
            return lam
        step = lam - g / slope
        if not lo < step < hi:
            step = (lam + (lo if step <= lo else hi)) / 2
        if abs(step - lam) <= 1e-13 * (1 + abs(lam)):
            return step
        lam = step
    return lam


def log_likelihood_gap(counts: Mapping[float, float], mu: float, span: float) -> float:
    """``log L(max) - log L(max with mean mu)``: how much the best fit loses by having mean ``mu``.

    ``counts`` maps each value seen to how often; :data:`REGULARISE` is added at
    ``-span`` and ``span``. Zero when the regularised sample mean is ``mu``.
    """
    pooled = dict(counts)
    for end in (-span, span):
        pooled[end] = pooled.get(end, 0) + REGULARISE
    values = list(pooled)
    weights = [pooled[v] for v in values]
    total = sum(weights)
    lam = _lagrange(values, [w / total for w in weights], mu)
    return sum(w * math.log1p(lam * (x - mu)) for x, w in zip(values, weights))


def llr(counts: Mapping[float, float], mu0: float, mu1: float, span: float) -> float:
    """The generalized log-likelihood ratio of ``mean = mu1`` against ``mean = mu0``.

    Each hypothesis is fitted by the distribution of largest likelihood on the
    values seen (the multinomial GSPRT): ``LLR = gap(mu0) - gap(mu1)``.
    """
    return log_likelihood_gap(counts, mu0, span) - log_likelihood_gap(counts, mu1, span)


# ---------------------------------------------------------------- the test


@dataclass(frozen=True, slots=True)
class Sprt:
    """Wald's SPRT of ``H0: mean = mu0`` against ``H1: mean = mu1`` (``mu0 < mu1``) on ``[-span, span]``.

    ``alpha``: the chance of accepting H1 when H0 holds; ``beta``: of accepting
    H0 when H1 holds. Stop at the first unit whose :func:`llr` leaves
    ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))`` (Wald 1947, eq. 3:13).
    """

    mu0: float
    mu1: float
    alpha: float = 0.05
    beta: float = 0.05
    span: float = 100.0

    def __post_init__(self) -> None:
        _check(0 < self.alpha < 0.5, "alpha", "between 0 and 0.5", self.alpha)
        _check(0 < self.beta < 0.5, "beta", "between 0 and 0.5", self.beta)
        _check(self.span > 0, "the span", "positive", self.span)
        _check(-self.span < self.mu0 < self.mu1 < self.span, "the SPRT bounds mu0, mu1",
               f"increasing and inside (-{self.span:g}, {self.span:g})", (self.mu0, self.mu1))

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Mapping[float, float]) -> float:
        return llr(counts, self.mu0, self.mu1, self.span)

    def add(self, counts: dict[float, int], x: float) -> tuple[float, str | None]:
        """Count one more unit ``x`` into ``counts`` (in place); the LLR after it, and the verdict."""
        counts[x] = counts.get(x, 0) + 1
        value = self.llr(counts)
        return value, self.verdict(value)

    def verdict(self, value: float) -> str | None:
        """``"H1"`` at or above the upper bound, ``"H0"`` at or below the lower, else None."""
        return "H1" if value >= self.upper else "H0" if value <= self.lower else None


@dataclass(frozen=True, slots=True)
class SprtRun:
    """A test run over units in order: the LLR after each, and where it stopped."""

    llrs: tuple[float, ...]
    verdict: str | None
    units: int
    """Units used: up to the verdict's, or all of them."""


def run_sprt(test: Sprt, values: Iterable[float], cap: int | None = None) -> SprtRun:
    """The test on ``values`` in order, stopping at its verdict or after ``cap`` units."""
    counts: dict[float, int] = {}
    path: list[float] = []
    for x in values:
        if cap is not None and len(path) >= cap:
            break
        value, verdict = test.add(counts, x)
        path.append(value)
        if verdict:
            return SprtRun(tuple(path), verdict, len(path))
    return SprtRun(tuple(path), None, len(path))
