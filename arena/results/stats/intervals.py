"""Intervals and probabilities behind the tables: Wilson intervals on shares, P(one skill above another)."""

from __future__ import annotations

import math

from arena.results.errors import RatingsError


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``n`` (n = 0: (0, 1)).

    ``successes`` may be fractional (a tie counted as half a win).
    """
    if not (n >= 0 and 0 <= successes <= n):
        raise RatingsError(f"wilson successes and n must be 0 <= successes <= n (got {(successes, n)!r})")
    if not z > 0:
        raise RatingsError(f"wilson z must be positive (got {z!r})")
    if n == 0:
        return (0.0, 1.0)
    p, z2 = successes / n, z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else min(p, centre - half)  # exact ends despite rounding
    high = 1.0 if successes == n else max(p, centre + half)
    return (low, high)


def prob_above(mu1: float, sigma1: float, mu2: float, sigma2: float) -> float:
    """P(skill 1 > skill 2) for independent normal skills."""
    spread = math.sqrt(sigma1 * sigma1 + sigma2 * sigma2)
    return 0.5 * (1 + math.erf((mu1 - mu2) / (spread * math.sqrt(2))))
