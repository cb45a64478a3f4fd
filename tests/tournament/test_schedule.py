"""Tests for arena.tournament.schedule: tournament formats, counts, balance, seeds."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.game.errors import ArenaError
from arena.tournament import paired  # noqa: F401  (registers the "paired" format, as arena.tournament.spec does)
from arena.tournament.schedule import (
    FORMATS,
    GameSpec,
    ScheduleError,
    make_format,
)
from arena.game.seeds import Secret, derive_seed

NAMES = [f"p{i:02d}" for i in range(20)]


def rr(players=5, sizes=(4,), deals=1, rules=("getaway",), seed=1, **kw):
    """A round robin over the first ``players`` names."""
    names = NAMES[:players] if isinstance(players, int) else players
    return make_format(
        "round-robin", players=names, table_sizes=list(sizes), deals=deals, rules=list(rules), seed=seed, **kw
    )


def groups(games):
    """Games grouped by table and deal (one rotation group each), in order."""
    out: dict[str, list[GameSpec]] = {}
    for g in games:
        out.setdefault(g.game_id.rsplit("-r", 1)[0], []).append(g)
    return out


def tables(games):
    """The distinct tables (player sets with their rule set label) of a schedule."""
    return [(gs[0].game_id.split("-")[1], frozenset(gs[0].seats)) for gs in groups(games).values()]


def pair_counts(games, names):
    """How many tables (counted once per table, not per game) each pair shared."""
    seen = Counter()
    for _, players in set(tables(games)):
        seen.update(itertools.combinations(sorted(players), 2))
    return [seen[p] for p in itertools.combinations(sorted(names), 2)]


def check_structure(fmt):
    """Invariants every schedule keeps."""
    games = fmt.games()
    assert [g.index for g in games] == list(range(len(games)))
    assert len({g.game_id for g in games}) == len(games)
    assert fmt.count() == len(games)
    for g in games:
        assert len(set(g.seats)) == len(g.seats), g
        assert g.dealer == 0
    for gs in groups(games).values():
        n = len(gs[0].seats)
        assert [g.rotation for g in gs] == list(range(n))
        assert len({g.deal_seed for g in gs}) == 1
        base = gs[0].seats
        for g in gs:
            r = g.rotation
            assert g.seats == tuple(base[(s - r) % n] for s in range(n))
    return games


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


# ---------------------------------------------------------------- round robin


def test_round_robin_count():
    """5 players, tables of 4, 2 deals: C(5,4) tables x 2 deals x 4 rotations."""
    fmt = rr(players=5, sizes=(4,), deals=2)
    games = check_structure(fmt)
    assert len(games) == math.comb(5, 4) * 2 * 4 == 40
    assert not fmt.sampled


def test_round_robin_mixed_sizes_and_rule_sets():
    """Every rule set times every table size times every combination."""
    fmt = rr(players=6, sizes=(3, 5), deals=1, rules=("getaway", ("getaway", {"escape": "pass"})))
    games = check_structure(fmt)
    per = math.comb(6, 3) * 3 + math.comb(6, 5) * 5
    assert len(games) == 2 * per
    assert [g.rules for g in games[:per]] == ["getaway"] * per
    assert games[per].rules == ("getaway", {"escape": "pass"})


def test_every_combination_present():
    """The full round robin holds each combination of players exactly once per deal."""
    games = rr(players=6, sizes=(4,), deals=3).games()
    combos = Counter(frozenset(g.seats) for g in games if g.rotation == 0)
    assert set(combos) == {frozenset(c) for c in itertools.combinations(NAMES[:6], 4)}
    assert set(combos.values()) == {3}


def test_every_player_holds_every_hand():
    """Within a deal, each player sits once at each seat (so holds each hand)."""
    for gs in groups(rr(players=5, sizes=(5,)).games()).values():
        for name in gs[0].seats:
            assert sorted(g.seats.index(name) for g in gs) == list(range(5))


def test_full_round_robin_seat_balance():
    """Each player sits in each seat equally often at each table size."""
    games = rr(players=7, sizes=(3, 4), deals=2).games()
    by_size = Counter((len(g.seats), name, seat) for g in games for seat, name in enumerate(g.seats))
    for n in (3, 4):
        assert len({by_size[n, p, s] for p in NAMES[:7] for s in range(n)}) == 1


def test_seating_varies_neighbours_across_deals():
    """Each deal shuffles the circle, so a player does not sit behind the same opponent all event."""
    games = rr(players=4, sizes=(4,), deals=12).games()
    behind = Counter((g.seats[s], g.seats[(s + 1) % 4]) for g in games for s in range(4))
    assert len(behind) == 12  # every ordered pair of the 4 players are neighbours at some deal


def test_game_ids_name_table_deal_rotation():
    """Game ids are short and say rule set, size, table, deal and rotation."""
    games = rr(players=5, sizes=(4,), deals=2).games()
    assert games[0].game_id == "rr-0-4p-0000-d0-r0"
    assert games[-1].game_id == "rr-0-4p-0004-d1-r3"


def test_determinism():
    """The same parameters give identical specs; another seed, other deals (same tables)."""
    a, b, c = rr(seed=11).games(), rr(seed=11).games(), rr(seed=12).games()
    assert a == b
    assert [frozenset(g.seats) for g in a] == [frozenset(g.seats) for g in c]
    assert {g.deal_seed for g in a}.isdisjoint({g.deal_seed for g in c})


def test_deal_seeds_distinct_between_tables_and_deals():
    """Only the rotations of one deal share a deal seed."""
    games = rr(players=6, sizes=(3, 4), deals=2).games()
    assert len({g.deal_seed for g in games}) == len(groups(games))


def test_house_fill_in():
    """A pool smaller than the table is topped up from the house list."""
    games = check_structure(rr(players=3, sizes=(3, 4)))
    four = [g for g in games if len(g.seats) == 4]
    assert len(four) == 4
    assert all("random" in g.seats for g in four)
    assert all("random" not in g.seats for g in games if len(g.seats) == 3)


def test_custom_house_and_house_name_in_pool():
    """House names already in the pool are skipped, never seated twice."""
    games = rr(players=["random", "a", "b"], sizes=(5,), house=["random", "first", "last"]).games()
    assert all(sorted(g.seats) == ["a", "b", "first", "last", "random"] for g in games)


def test_pool_plus_house_too_small():
    """When even the house cannot fill a table, the error names size and counts."""
    with pytest.raises(ScheduleError, match=r"table size 6 needs 6 distinct players; 3 players and 1 house"):
        rr(players=3, sizes=(3, 6))


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
