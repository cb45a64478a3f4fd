"""Tests for arena.tournament.formats.gauntlet: one candidate per table, a shared field and deals."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from arena.tournament.errors import ScheduleError
from arena.tournament.formats import make_format

from schedule_checks import NAMES, check_structure

# ---------------------------------------------------------------- gauntlet


def test_gauntlet_one_candidate_per_table():
    """Every table has exactly one candidate and field players, all rotations."""
    fmt = make_format(
        "gauntlet", candidates=["x", "y"], field=NAMES[:5], table_sizes=[3, 4], deals=2, rules="getaway", seed=2
    )
    games = check_structure(fmt)
    assert len(games) == 2 * 2 * (math.comb(5, 2) * 3 + math.comb(5, 3) * 4)
    for g in games:
        assert sum(p in ("x", "y") for p in g.seats) == 1


def test_gauntlet_candidates_share_field_and_deals():
    """Both candidates meet the same field tables with the same deal seeds."""
    fmt = make_format("gauntlet", candidates=["x", "y"], field=NAMES[:6], table_sizes=[4], rules="g", seed=2)
    games = fmt.games()
    seen = {}
    for g in games:
        cand = "x" if "x" in g.seats else "y"
        rest = frozenset(g.seats) - {cand}
        seen.setdefault((rest, g.deal_seed, g.rotation), set()).add(cand)
    assert all(v == {"x", "y"} for v in seen.values())


def test_gauntlet_house_fill_and_sample():
    """A short field is topped up from the house; a budget samples the field."""
    small = make_format("gauntlet", candidates=["x"], field=["a"], table_sizes=[3], rules="g", seed=1)
    assert all(sorted(g.seats) == ["a", "random", "x"] for g in small.games())
    big = make_format(
        "gauntlet", candidates=["x"], field=NAMES[:12], table_sizes=[5], rules="g", seed=1, budget=200
    )
    games = check_structure(big)
    assert big.sampled and len(games) <= 200
    field = Counter(p for g in games if g.rotation == 0 for p in g.seats if p != "x")
    assert max(field.values()) - min(field.values()) <= 1


def test_gauntlet_refuses_candidate_in_field():
    """A candidate may not also be in the field."""
    with pytest.raises(ScheduleError, match="gauntlet: field must be a list without the candidates"):
        make_format("gauntlet", candidates=["a"], field=["a", "b", "c"], table_sizes=[3], rules="g", seed=1)
