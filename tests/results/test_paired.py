"""A comparison's figures in words: what was measured and which way first, the rating difference, the verdict."""

from __future__ import annotations

from dataclasses import replace

from arena.results.stats.elo import EloDifference
from arena.results.stats.paired import CompareTest, Figures, figures_lines, measured_text, verdict_text

TEST = CompareTest("my-bot", "low", sprt=(0, 2))


def figures(diff: float, low: float, high: float, verdict: str | None = "H0", units: int = 146) -> Figures:
    """Figures as the issue's run gave them (-12.50, 95% -15.60 .. -9.40, H0 accepted)."""
    return Figures(TEST, units, 8 * units, 0.40, 0.28, diff, low, high, 0.0, 7, 73, 1e-14, (-1.0, -2.95),
                   verdict, -2.944, 2.944, EloDifference(-90.2, -110.0, -70.4, 0.42, 0.55))


def test_a_loss_is_said_as_worse_by_with_the_interval_turned_the_same_way():
    """-12.50 (-15.60 .. -9.40) reads 'my-bot is worse than low by 12.50 points (95% interval 9.40 .. 15.60)'."""
    assert measured_text(figures(-12.5, -15.6, -9.4)) == \
        "my-bot is worse than low by 12.50 points (95% interval 9.40 .. 15.60)"
    assert measured_text(figures(2.78, -0.24, 5.8)) == \
        "my-bot is better than low by 2.78 points (95% interval -0.24 .. 5.80)"
    assert measured_text(figures(0, 0, 0)).startswith("my-bot and low did equally well: 0.00 points")
    assert measured_text(figures(3, -1e9, 1e9, units=1)) == \
        "my-bot is better than low by 3.00 points (one deal: no interval yet)"


def test_the_measurement_comes_before_the_verdict_and_the_verdict_says_what_it_means():
    """The second line is the measurement; the last the verdict, which no longer claims 'the difference is 0'."""
    lines = figures_lines(figures(-12.5, -15.6, -9.4))
    assert lines[1] == "  my-bot is worse than low by 12.50 points (95% interval 9.40 .. 15.60)"
    assert lines[-1] == ("  H0 accepted after 146 deals: a difference of 0 points fits the games better than +2, "
                         "so my-bot is not 2 points better than low")
    assert not any("the difference is 0" in line for line in lines)
    assert "  Elo difference from places: -90.2 +- 19.8 (95%; my-bot finished ahead in 42.0% of its pairings, " \
           "low in 55.0%)" in lines


def test_verdicts_in_words_for_other_bounds():
    """H1 with H0 at 0 says who is better; other bounds say where the difference lies; no verdict says so."""
    h1 = figures(3, 1, 5, verdict="H1")
    assert verdict_text(h1).endswith("a difference of +2 points fits the games better than 0, so my-bot is better "
                                     "than low")
    shifted = replace(h1, test=replace(TEST, sprt=(-1, 1)))
    assert verdict_text(shifted).endswith("so the difference is above -1 points")
    assert verdict_text(replace(shifted, verdict="H0")).endswith("so my-bot is not 1 point better than low")
    below = replace(h1, test=replace(TEST, sprt=(-3, -1)), verdict="H0")
    assert verdict_text(below).endswith("a difference of -3 points fits the games better than -1, so the "
                                        "difference is below -1 points")
    assert verdict_text(figures(3, 1, 5, verdict=None, units=9)) == "no verdict yet after 9 deals"
    assert verdict_text(replace(h1, test=replace(TEST, sprt=None))) == "fixed games: 146 deals"


def test_no_rating_difference_is_said_in_words():
    """Without a finite rating the line says why, not a number."""
    lines = figures_lines(replace(figures(-12.5, -15.6, -9.4), elo=None))
    assert "  Elo difference from places: none (a player won or lost every pairing)" in lines
