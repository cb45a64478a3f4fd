"""Play order: every prefix of the games sent to the executor is balanced (arena/tournament/interleave.py)."""

from __future__ import annotations

from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from arena.tournament.formats import make_format
from arena.tournament.interleave import PREFIX_BOUND
from tournament.schedule_checks import NAMES, rr

HOUSE = ["h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8"]


def worst_spread(order) -> float:
    """The largest spread, over every prefix, of the players' lead over their share of the schedule."""
    total = Counter(p for g in order for p in g.seats)
    count = Counter()
    worst = 0.0
    for t, g in enumerate(order, 1):
        count.update(g.seats)
        lead = [count[p] - t * total[p] / len(order) for p in total]
        worst = max(worst, max(lead) - min(lead))
    return worst


def check_order(fmt):
    games = fmt.games()
    order = fmt.play_order(games)
    assert sorted(g.index for g in order) == [g.index for g in games]  # the same games, each once
    assert fmt.play_order(fmt.games()) == order  # deterministic
    per_table: dict = {}
    for g in order:
        per_table.setdefault((str(g.rules), frozenset(g.seats)), []).append(g.index)
    assert all(ix == sorted(ix) for ix in per_table.values())  # a table's games keep their index order
    return order


def test_getaway_prefix_holds_every_player():
    """The issue's case: 24 of getaway.toml's 440 games used to seat 3 of the 5 players."""
    fmt = rr(players=["sampler", "heuristic", "low", "high", "random"], sizes=(3, 4, 5), deals=8, seed=3)
    order = check_order(fmt)
    first = Counter(p for g in order[:24] for p in g.seats)
    assert len(first) == 5 and max(first.values()) - min(first.values()) <= 2
    assert len({len(g.seats) for g in order[:24]}) == 3  # every table size has started
    assert worst_spread(fmt.games()) > 50 > PREFIX_BOUND >= worst_spread(order)  # index order was skewed


def test_full_round_robin_counts_within_two():
    order = check_order(rr(players=6, sizes=(3, 4, 5), deals=2, rules=("getaway", "donkey")))
    count = Counter(dict.fromkeys(NAMES[:6], 0))
    for g in order:
        count.update(g.seats)
        assert max(count.values()) - min(count.values()) <= 2
    assert worst_spread(order) <= 2


def test_paired_alternates_candidates_in_deal_order():
    fmt = make_format("paired", candidates=["a", "b"], field=["c", "d", "e", "f"], table_sizes=[4], deals=3,
                      rules=["getaway"], seed=1)
    order = fmt.play_order(fmt.games())
    assert sorted(g.index for g in order) == list(range(24))
    assert [g.index // 8 for g in order] == sorted(g.index // 8 for g in order)  # deal by deal
    count = Counter()
    for g in order:
        count.update(p for p in g.seats if p in "ab")
        assert abs(count["a"] - count["b"]) <= 1


sizes_st = st.lists(st.integers(3, 8), min_size=1, max_size=3, unique=True)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(players=st.integers(2, 9), sizes=sizes_st, deals=st.integers(1, 3), rules=st.integers(1, 2),
       kind=st.sampled_from(["full", "budget", "gauntlet"]), seed=st.integers(0, 2**32))
def test_property_every_prefix_is_balanced(players, sizes, deals, rules, kind, seed):
    """Any round robin (full or sampled) or gauntlet: at every prefix the players' leads over their
    shares differ by at most PREFIX_BOUND games (by at most 2 in a full round robin)."""
    rule_sets = ["getaway", "donkey"][:rules]
    if kind == "gauntlet":
        fmt = make_format("gauntlet", candidates=NAMES[:1 + players % 2], field=NAMES[2:players + 2],
                          table_sizes=sizes, deals=deals, rules=rule_sets, seed=seed, house=HOUSE)
    else:
        budget = None
        if kind == "budget":
            full = rr(players=players, sizes=sizes, deals=deals, rules=rule_sets, house=HOUSE).count()
            budget = max(full // 2, sum(deals * n * rules for n in sizes))
        fmt = rr(players=players, sizes=sizes, deals=deals, rules=rule_sets, seed=seed, house=HOUSE,
                 budget=budget)
    assume(fmt.count() <= 4000)  # keep the test quick
    order = check_order(fmt)
    bound = 2 if kind == "full" else PREFIX_BOUND
    assert worst_spread(order) <= bound
