"""The paired units of a comparison: two players' scores on the same deals, and the test on them.

A comparison (``arena compare A B``) plays every deal ``2 n`` times at an
``n``-seat table: A in each of the ``n`` seat rotations, then B in the same
``n`` games (same cards, seats, opponents and bot seeds). The schedule's game
index says which: ``index = (2 * deal + side) * n + rotation``, side 0 for A
and 1 for B (:func:`game_index`). One deal is one *unit*:

    x = points * (B's summed score - A's summed score) / n

the difference of the two players' mean scores over the deal's rotations, in
points (hundredths of the score), positive when A did better. Scores count
against a player: ``bhabhi`` 1 for the Bhabhi, ``place`` the finishing place
scaled to 0 (first out) .. 1 (last), ``penalty`` the seeds' 0-3 points.

:class:`PairedTally` takes games in any order, and feeds the units to the test
strictly in deal order, so the verdict is a function of the games alone: a
parallel run, a resumed one and the report all find the same one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.results.errors import CompareError
from arena.results.stats.elo import EloDifference, elo_difference, pairwise_halves
from arena.results.stats.sequential import Sprt, Summary, mean_interval, sign_test, superiority

SCORES = ("bhabhi", "place", "penalty")
META_KEY = "compare"
"""The store's meta key that holds a comparison's :class:`CompareTest`."""
POINTS = 100
"""Points per unit of score: a difference of 2 points in ``bhabhi`` is 2 percentage points of Bhabhi rate."""
_TOP = {"bhabhi": 1, "penalty": 3}
"""The largest score of one game (``place``: 1, its ranks are scaled)."""


def game_index(deal: int, side: int, rotation: int, size: int) -> int:
    """Where a game sits in the paired schedule (side 0: A, 1: B)."""
    return (2 * deal + side) * size + rotation


def unit_of(index: int, size: int) -> tuple[int, int]:
    """``(deal, side)`` of a game index in the paired schedule."""
    return index // (2 * size), (index // size) % 2


def game_score(record: dict, seat: int, score: str) -> int:
    """The whole-number score of ``seat`` in one game record: 1/0, its rank, or its penalty."""
    result = record["result"]
    if score == "bhabhi":
        return int(result["loser"] == seat)
    return int(result["ranks" if score == "place" else "penalty"][seat])


def span(score: str) -> float:
    """The largest possible |x| of a unit, in points."""
    return float(POINTS * _TOP.get(score, 1))


@dataclass(frozen=True, slots=True)
class CompareTest:
    """What a comparison tests: A against B on one score, by SPRT (``sprt`` given) or fixed games."""

    a: str
    b: str
    score: str = "bhabhi"
    sprt: tuple[float, float] | None = None
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if self.score not in SCORES:
            raise CompareError(f"score must be one of {', '.join(SCORES)} (got {self.score!r})")
        if self.a == self.b:
            raise CompareError(f"the two players must differ (got {self.a!r} twice; use an alias such as "
                               f"{self.a}#2 to compare a player with itself)")
        self.test()  # validates the bounds, alpha and beta

    def test(self) -> Sprt | None:
        if self.sprt is None:
            return None
        if len(self.sprt) != 2:
            raise CompareError(f"sprt must be two bounds H0,H1 in points (got {list(self.sprt)!r})")
        return Sprt(float(self.sprt[0]), float(self.sprt[1]), self.alpha, self.beta, span(self.score))

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "score": self.score,
                "sprt": None if self.sprt is None else list(self.sprt), "alpha": self.alpha, "beta": self.beta}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CompareTest":
        sprt = data.get("sprt")
        return cls(data["a"], data["b"], data.get("score", "bhabhi"), None if sprt is None else tuple(sprt),
                   data.get("alpha", 0.05), data.get("beta", 0.05))


@dataclass(frozen=True, slots=True)
class Figures:
    """Where a comparison stands: the units used (up to the verdict), the test and the fixed-games figures.

    ``diff``, ``low``, ``high`` in points (positive: A better); ``rate_a``,
    ``rate_b`` the players' mean scores per game over the same units.
    """

    test: CompareTest
    units: int
    games: int
    rate_a: float
    rate_b: float
    diff: float
    low: float
    high: float
    los: float
    wins: int
    losses: int
    p_value: float
    llrs: tuple[float, ...]
    verdict: str | None
    lower: float | None
    upper: float | None
    elo: EloDifference | None = None
    """The Elo-like rating difference from the finishing places, whatever the score (:mod:`arena.results.stats.elo`)."""

    @property
    def llr(self) -> float | None:
        return self.llrs[-1] if self.llrs else (0.0 if self.lower is not None else None)


class PairedTally:
    """Collects a comparison's games (any order) into units, in deal order, up to the test's verdict.

    Working state of one run or one read of a store; :meth:`add` says when
    the verdict is in (the run may stop sending games).
    """

    def __init__(self, test: CompareTest, size: int) -> None:
        self.test, self.size = test, size
        self.sprt = test.test()
        self.partial: dict[int, list[int]] = {}  # deal -> [A's sum, B's sum, games seen, A's and B's pairwise halves]
        self.raw: list[int] = []  # complete units in deal order: B's sum - A's sum
        self.pairs: list[tuple[float, float]] = []  # complete units: A's and B's mean pairwise score
        self.sums = [0, 0]
        self.counts: dict[float, int] = {}
        self.llrs: list[float] = []
        self.verdict: str | None = None

    @property
    def done(self) -> bool:
        return self.verdict is not None

    def add(self, index: int, record: dict) -> bool:
        """Count one game; True once the test has its verdict."""
        deal, side = unit_of(index, self.size)
        if self.done or deal < len(self.raw):
            return self.done
        name = self.test.b if side else self.test.a
        seat = record["names"].index(name)
        unit = self.partial.setdefault(deal, [0, 0, 0, 0, 0])
        unit[side] += game_score(record, seat, self.test.score)
        unit[2] += 1
        unit[3 + side] += pairwise_halves(record["result"]["ranks"], seat)
        while len(self.raw) in self.partial and self.partial[len(self.raw)][2] == 2 * self.size:
            self._close(self.partial.pop(len(self.raw)))
        return self.done

    def _close(self, unit: list[int]) -> None:
        if self.done:
            return
        self.raw.append(unit[1] - unit[0])
        halves = 2 * (self.size - 1) * self.size
        self.pairs.append((unit[3] / halves, unit[4] / halves))
        self.sums[0] += unit[0]
        self.sums[1] += unit[1]
        if self.sprt is not None:
            value, self.verdict = self.sprt.add(self.counts, self._scale() * self.raw[-1])
            self.llrs.append(value)

    def _scale(self) -> float:
        top = self.size - 1 if self.test.score == "place" else 1
        return POINTS / (self.size * top)

    def values(self) -> list[float]:
        """The units so far, in points."""
        scale = self._scale()
        return [scale * r for r in self.raw]

    def figures(self) -> Figures:
        values = self.values()
        s = Summary.of(values)
        low, high = mean_interval(s)
        games = len(values) * self.size
        scale = self._scale() * self.size / POINTS  # per-game score per summed unit
        rate = [scale * t / max(1, games) for t in self.sums]
        wins, losses = sum(x > 0 for x in values), sum(x < 0 for x in values)
        return Figures(self.test, len(values), 2 * games, rate[0], rate[1], s.mean, low, high, superiority(s),
                       wins, losses, sign_test(wins, losses), tuple(self.llrs), self.verdict,
                       self.sprt.lower if self.sprt else None, self.sprt.upper if self.sprt else None,
                       elo_difference(self.pairs))


def tally(test: CompareTest, size: int, records) -> PairedTally:
    """The tally of stored ``(index, record)`` pairs."""
    t = PairedTally(test, size)
    for index, record in records:
        t.add(index, record)
    return t


def _rate(score: str, value: float) -> str:
    return f"{100 * value:.2f}%" if score == "bhabhi" else f"{value:.3f}"


_POINT = {"bhabhi": "a point is 1% of Bhabhi rate", "place": "a point is 1/100 of the way from first to last",
          "penalty": "a point is 1/100 of a penalty point"}
_PER_GAME = {"bhabhi": "Bhabhi rate", "place": "mean place (0 first .. 1 last)", "penalty": "mean penalty points"}


def measured_text(f: Figures) -> str:
    """What was measured, in words and in its direction: ``A is worse than B by 12.50 points (95%
    interval 9.40 .. 15.60)``, the interval turned the same way as the sentence."""
    t = f.test
    if f.units == 0:
        return f"no deal complete yet: nothing measured between {t.a} and {t.b}"
    if f.diff == 0:
        head, low, high = f"{t.a} and {t.b} did equally well: 0.00 points", f.low, f.high
    elif f.diff > 0:
        head, low, high = f"{t.a} is better than {t.b} by {f.diff:.2f} points", f.low, f.high
    else:
        head, low, high = f"{t.a} is worse than {t.b} by {-f.diff:.2f} points", -f.high, -f.low
    if f.units < 2:
        return f"{head} (one deal: no interval yet)"
    return f"{head} (95% interval {low:.2f} .. {high:.2f})"


def elo_text(f: Figures) -> str:
    """The rating difference as fishtest and fastchess print one: ``Elo -123.4 +- 26.8``."""
    e = f.elo
    if e is None:
        why = "fewer than two deals" if f.units < 2 else "a player won or lost every pairing"
        return f"Elo difference from places: none ({why})"
    return (f"Elo difference from places: {e.value:+.1f} +- {e.margin:.1f} (95%; {f.test.a} finished ahead "
            f"in {100 * e.score_a:.1f}% of its pairings, {f.test.b} in {100 * e.score_b:.1f}%)")


def _count(n: int, noun: str) -> str:
    """``1 deal``, ``2 deals``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _signed(points: float) -> str:
    return "0" if points == 0 else f"{points:+g}"


def verdict_text(f: Figures) -> str:
    """The test's state in words: which hypothesis, and what that says about the two players."""
    t = f.test
    if t.sprt is None:
        return f"fixed games: {_count(f.units, 'deal')}"
    mu0, mu1 = t.sprt
    if f.verdict == "H1":
        so = f"{t.a} is better than {t.b}" if mu0 == 0 else f"the difference is above {_signed(mu0)} points"
        return (f"H1 accepted after {_count(f.units, 'deal')}: a difference of {_signed(mu1)} points fits the games "
                f"better than {_signed(mu0)}, so {so}")
    if f.verdict == "H0":
        so = (f"{t.a} is not {mu1:g} point{'' if mu1 == 1 else 's'} better than {t.b}" if mu1 > 0
              else f"the difference is below {_signed(mu1)} points")
        return (f"H0 accepted after {_count(f.units, 'deal')}: a difference of {_signed(mu0)} points fits the games "
                f"better than {_signed(mu1)}, so {so}")
    return f"no verdict yet after {_count(f.units, 'deal')}"


def figures_lines(f: Figures) -> list[str]:
    """The comparison's figures as text lines (the CLI prints them, the report shows the same): what was
    measured and which way first, then the rating difference, the other statistics, the test's verdict."""
    t = f.test
    lines = [f"{t.a} against {t.b}: score {t.score} ({_POINT[t.score]}), {_count(f.units, 'deal')}, "
             f"{_count(f.games, 'game')}",
             f"  {measured_text(f)}",
             f"  {_PER_GAME[t.score]}: {t.a} {_rate(t.score, f.rate_a)}, {t.b} {_rate(t.score, f.rate_b)}; "
             f"likelihood of superiority {100 * f.los:.1f}%",
             f"  {elo_text(f)}",
             f"  sign test: {f.wins} deals favour {t.a}, {f.losses} favour {t.b} (ties dropped), "
             f"p = {f.p_value:.3g}"]
    if t.sprt is not None:
        lines.append(f"  SPRT H0 {t.sprt[0]:g} against H1 {t.sprt[1]:g} points (alpha {t.alpha:g}, beta {t.beta:g}): "
                     f"LLR {f.llr:+.3f}, bounds {f.lower:+.3f} .. {f.upper:+.3f}")
    lines.append(f"  {verdict_text(f)}")
    return lines
