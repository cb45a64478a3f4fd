"""An Elo-like rating difference of a comparison's two players, from their finishing places.

fishtest and fastchess summarise a match as an Elo difference with its interval;
Bhabhi is played by 3-8 at a table, so the score that difference is taken from
is the **pairwise score**: in one game, each other seat the player finished
ahead of counts 1, each it tied with 1/2, each ahead of it 0, divided by the
other seats (``n - 1``). So a game is ``n - 1`` two-player results, and the
score is what the logistic (Elo, Bradley-Terry) model predicts for them.

In a comparison A and B never sit at one table: each meets the same field on
the same deals. With ``s`` a player's mean pairwise score against that field,
its rating above the field is ``400 log10(s / (1 - s))``, and

    Elo difference = 400 log10(sA / (1 - sA)) - 400 log10(sB / (1 - sB))

the rating gap the model puts between them (0 when they do equally well;
positive when A does better). Its 95% interval is the delta method's over the
deals, the comparison's independent units (docs/compare.md): each deal's pair of
mean scores ``(a_d, b_d)`` linearised to
``u_d = f'(sA) (a_d - sA) - f'(sB) (b_d - sB)``, ``f'(s) = 400 / (ln 10 s (1 - s))``,
and ``difference -+ 1.96 sd(u) / sqrt(D)``.

A player that won or lost every pairing (``s`` of 0 or 1) has no finite rating:
then there is no difference to give (None).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

ELO = 400.0


def pairwise_halves(ranks: Sequence[int], seat: int) -> int:
    """Twice the number of other seats ``seat`` finished ahead of (a tie counts one half): whole numbers."""
    mine = ranks[seat]
    return sum(2 if r > mine else 1 if r == mine else 0 for s, r in enumerate(ranks) if s != seat)


def pairwise_score(ranks: Sequence[int], seat: int) -> float:
    """The share of the other seats ``seat`` finished ahead of in one game (ties half): 0 .. 1."""
    return pairwise_halves(ranks, seat) / (2 * (len(ranks) - 1))


def elo(score: float) -> float:
    """The logistic rating of a pairwise score against the field: ``400 log10(s / (1 - s))``."""
    return ELO * math.log10(score / (1 - score))


def _slope(score: float) -> float:
    return ELO / (math.log(10) * score * (1 - score))


@dataclass(frozen=True, slots=True)
class EloDifference:
    """A's rating minus B's, with its interval; the two mean pairwise scores it comes from."""

    value: float
    low: float
    high: float
    score_a: float
    score_b: float

    @property
    def margin(self) -> float:
        """Half the interval's width (the ``+-`` of fishtest and fastchess)."""
        return (self.high - self.low) / 2


def elo_difference(pairs: Sequence[tuple[float, float]], level: float = 0.95) -> EloDifference | None:
    """The difference from each deal's ``(A's, B's)`` mean pairwise score; None below two deals or when
    a player won or lost every pairing (no finite rating)."""
    n = len(pairs)
    if n < 2:
        return None
    sa = sum(a for a, _ in pairs) / n
    sb = sum(b for _, b in pairs) / n
    if not (0 < sa < 1 and 0 < sb < 1):
        return None
    ka, kb = _slope(sa), _slope(sb)
    u = [ka * (a - sa) - kb * (b - sb) for a, b in pairs]
    variance = sum(x * x for x in u) / (n - 1)
    half = NormalDist().inv_cdf(0.5 + level / 2) * math.sqrt(variance / n)
    value = elo(sa) - elo(sb)
    return EloDifference(value, value - half, value + half, sa, sb)
