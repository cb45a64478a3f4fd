"""Tests for the schedule every format shares: values, seeds, budgets and samples, parameters."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.game.errors import ArenaError
from arena.game.seeds import Secret, derive_seed
from arena.tournament.errors import ScheduleError
from arena.tournament.formats import FORMATS, make_format

from schedule_checks import NAMES, check_structure, groups, pair_counts, rr, tables

# ---------------------------------------------------------------- seeds and values


def test_derive_seed_is_stable_and_label_sensitive():
    """derive_seed is a fixed function of its inputs and fits 63 bits."""
    assert derive_seed(1, "deal", 4) == derive_seed(1, "deal", 4)
    assert derive_seed(1, "deal", 4) != derive_seed(2, "deal", 4)
    assert derive_seed(1, "deal", 4) != derive_seed(1, "deal", 5)
    assert derive_seed(1, {"b": 1, "a": 2}) == derive_seed(1, {"a": 2, "b": 1})
    assert 0 <= derive_seed(7, "x") < 2**63


def test_derive_seed_known_value():
    """The derivation is pinned: changing it would change every stored tournament."""
    assert derive_seed(0) == 4857045267964511016


def test_gamespec_is_frozen():
    """GameSpec is a frozen value with slots."""
    g = rr().games()[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.rotation = 3
    assert not hasattr(g, "__dict__")
    assert g.table_size == 4


def test_bot_seeds_differ_by_seat_and_rotation():
    """Each seat of each game gets its own bot seed."""
    games = rr(players=4).games()
    seeds = {seed for g in games for seed in g.bot_seeds(Secret(bytes(32)))}
    assert len(seeds) == 16


def test_registry_has_both_formats():
    """Formats are made by name."""
    assert {"round-robin", "gauntlet"} <= set(FORMATS)


# ---------------------------------------------------------------- budget sample


def test_budget_not_needed_keeps_full_schedule():
    """A budget at or above the full count changes nothing."""
    assert rr(players=5, deals=2, budget=40).games() == rr(players=5, deals=2).games()


def test_sampled_schedule_respects_budget_and_whole_groups():
    """A budget below the full count gives whole rotation groups within it."""
    fmt = rr(players=12, sizes=(4, 6), deals=2, budget=600)
    games = check_structure(fmt)
    assert fmt.sampled
    assert 600 - 12 < len(games) <= 600
    assert all(len(gs) == len(gs[0].seats) for gs in groups(games).values())
    assert len(set(tables(games))) == len(tables(games)) // 2  # two deals per table


def test_sampled_seat_and_pair_balance():
    """Sampled: tables per player per size differ by at most one; pairs by at most 2.

    Tolerance: pair meetings (counted in tables) max - min <= 2 here; the sweep
    behind the property test below never exceeded 4.
    """
    fmt = rr(players=10, sizes=(4,), deals=1, budget=480)
    games = check_structure(fmt)
    seats = Counter((name, seat) for g in games for seat, name in enumerate(g.seats))
    assert len(set(seats.values())) == 1  # rotations make seats exact
    pairs = pair_counts(games, NAMES[:10])
    assert max(pairs) - min(pairs) <= 2


def test_sample_deterministic_and_seed_dependent():
    """The sample is a function of the seed."""
    a = rr(players=12, sizes=(5,), budget=200, seed=3).games()
    assert a == rr(players=12, sizes=(5,), budget=200, seed=3).games()
    assert a != rr(players=12, sizes=(5,), budget=200, seed=4).games()


def test_budget_split_across_sizes():
    """Each table size gets a near-equal share of the budget in games."""
    games = rr(players=12, sizes=(3, 8), budget=480).games()
    by_size = Counter(len(g.seats) for g in games)
    assert abs(by_size[3] - by_size[8]) <= 8


def test_budget_too_small():
    """A budget below one table per size and rule set is refused."""
    with pytest.raises(ScheduleError, match=r"budget must be >= 7 .* \(got 6\)"):
        rr(players=9, sizes=(3, 4), budget=6)


def test_huge_schedule_needs_budget():
    """A full schedule beyond the limit asks for a budget."""
    names = [f"b{i}" for i in range(40)]
    with pytest.raises(ScheduleError, match="budget must be set"):
        rr(players=names, sizes=(8,))
    assert rr(players=names, sizes=(8,), budget=800).count() == 800


# ---------------------------------------------------------------- bad parameters


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"table_sizes": [2, 4]}, r"round-robin: table_sizes must be distinct integers from 3 to 8 \(got \[2, 4\]\)"),
        ({"table_sizes": [4, 4]}, r"table_sizes must be .* \(got \[4, 4\]\)"),
        ({"table_sizes": []}, r"table_sizes must be .* \(got \[\]\)"),
        ({"deals": 0}, r"round-robin: deals must be an integer >= 1 \(got 0\)"),
        ({"deals": "2"}, r"deals must be an integer >= 1 \(got '2'\)"),
        ({"budget": 0}, r"budget must be an integer >= 1 \(got 0\)"),
        ({"seed": 1.5}, r"seed must be an integer \(got 1.5\)"),
        ({"players": ["a", "a", "b"]}, r"players must be a list of distinct non-empty names \(got \['a', 'a', 'b'\]\)"),
        ({"players": "abc"}, r"players must be a list of distinct non-empty names \(got 'abc'\)"),
        ({"players": []}, r"players must be a non-empty list of distinct names \(got \[\]\)"),
        ({"rules": []}, r"rules must be a rule set or a non-empty list of rule sets \(got \[\]\)"),
        ({"rules": ["g", "g"]}, r"rules must be a list of distinct rule sets \(got \['g', 'g'\]\)"),
        ({"house": [""]}, r"house must be a list of distinct non-empty names \(got \[''\]\)"),
        ({"colour": "red"}, r"round-robin: unknown parameter 'colour'; expected one of .*players"),
    ],
)
def test_bad_params_refused(params, message):
    """Each bad parameter is refused in one line naming it, the value and what is allowed."""
    base = {"players": NAMES[:5], "table_sizes": [4], "rules": ["g"], "seed": 1}
    with pytest.raises(ScheduleError, match=message) as info:
        make_format("round-robin", **{**base, **params})
    assert "\n" not in str(info.value)


def test_unknown_format_and_missing_parameter():
    """Unknown names and missing parameters say what is expected."""
    with pytest.raises(ScheduleError, match=r"format must be one of gauntlet, paired, round-robin \(got 'swiss'\)"):
        make_format("swiss")
    with pytest.raises(ScheduleError, match=r"parameter 'players' is required"):
        make_format("round-robin", table_sizes=[3], rules="g", seed=1)


def test_schedule_error_is_arena_and_value_error():
    """ScheduleError fits both except clauses."""
    assert issubclass(ScheduleError, ArenaError) and issubclass(ScheduleError, ValueError)


def test_describe_is_one_line():
    """describe() says the format, sizes and game count in one line."""
    text = rr(players=5, deals=2).describe()
    assert "\n" not in text
    assert text.startswith("round-robin: 5 players") and "40 games (full)" in text
    assert "sampled to a budget of 100" in rr(players=12, budget=100).describe()


# ---------------------------------------------------------------- properties

sizes_st = st.lists(st.integers(3, 8), min_size=1, max_size=3, unique=True)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(1, 9), sizes=sizes_st, deals=st.integers(1, 2), seed=st.integers(-(2**40), 2**40))
def test_property_full_round_robin(players, sizes, deals, seed):
    """Any valid round robin: structure holds and count matches the formula."""
    house = ["h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8"]
    fmt = rr(players=players, sizes=sizes, deals=deals, seed=seed, house=house)
    games = check_structure(fmt)
    pool = {n: max(players, n) for n in sizes}
    assert len(games) == sum(math.comb(pool[n], n) * deals * n for n in sizes)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    players=st.integers(6, 14),
    sizes=sizes_st,
    deals=st.integers(1, 2),
    seed=st.integers(0, 2**32),
    share=st.floats(0.05, 0.9),
)
def test_property_sampled_balance(players, sizes, deals, seed, share):
    """Sampled schedules: within budget, seats per size within one table, pairs within 4."""
    sizes = [n for n in sizes if n <= players] or [3]
    full = rr(players=players, sizes=sizes, deals=deals).count()
    budget = max(int(full * share), sum(deals * n for n in sizes))
    fmt = rr(players=players, sizes=sizes, deals=deals, seed=seed, budget=budget)
    games = check_structure(fmt)
    assert len(games) <= budget
    for n in sizes:
        counts = Counter(p for g in games if g.rotation == 0 and len(g.seats) == n for p in g.seats)
        tables_n = [counts[p] for p in NAMES[:players]]
        assert max(tables_n) - min(tables_n) <= deals  # one table = `deals` rotation groups
    pairs = pair_counts(games, NAMES[:players])
    assert max(pairs) - min(pairs) <= 4
