"""Tests for arena.results.stats.ratings: TrueSkill in game order and the table statistics."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.game.errors import ArenaError
from arena.results.errors import RatingsError
from arena.results.stats.head_to_head import head_to_head
from arena.results.stats.intervals import prob_above, wilson
from arena.results.stats.ratings import FAULT_KINDS, Outcome, RatingParams, breakdown, history, ranks_from_order, rate


def outcome(index, seats, order=None, *, draw=(), rules="getaway", faults=(), decision_ms=()):
    """An outcome where ``order`` (default: seat order) lists seats first out first.

    ``draw`` names seats that tie for last place (no Bhabhi).
    """
    n = len(seats)
    order = list(range(n)) if order is None else list(order)
    tied = [seats.index(p) for p in draw]
    entries = [s for s in order if s not in tied] + ([tuple(tied)] if tied else [])
    ranks = ranks_from_order(entries)
    loser = None if tied else order[-1]
    penalty = tuple(3 if s == loser else min(ranks[s], 2) for s in range(n))
    return Outcome(index, tuple(seats), ranks, loser, n, rules, penalty, faults, decision_ms)


def ordered_games(players, count, seed=0, size=None):
    """Games where the players always finish in list order, random tables and seats."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        n = size or rng.randint(3, len(players))
        table = sorted(rng.sample(players, n), key=players.index)  # finishing order
        seats = table[:]
        rng.shuffle(seats)
        order = [seats.index(p) for p in table]
        out.append(outcome(i, seats, order, rules=rng.choice(["getaway", "donkey"])))
    return out


# ---------------------------------------------------------------- wilson and maths


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [(0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0), (1, 4, 0.0456, 0.6994)],
)
def test_wilson_known_values(k, n, low, high):
    """Wilson intervals match published values to 4 places."""
    got = wilson(k, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_empty_and_bad():
    """No trials gives (0, 1); impossible counts are refused."""
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(RatingsError, match=r"0 <= successes <= n \(got \(5, 3\)\)"):
        wilson(5, 3)


@given(n=st.integers(1, 500), data=st.data())
def test_wilson_contains_the_rate(n, data):
    """The interval always contains the observed rate and stays in [0, 1]."""
    k = data.draw(st.integers(0, n))
    low, high = wilson(k, n)
    assert 0 <= low <= k / n <= high <= 1


def test_prob_above():
    """Equal skills give one half; a clear gap gives near 1."""
    assert prob_above(25, 3, 25, 4) == pytest.approx(0.5)
    assert prob_above(30, 1, 20, 1) > 0.999
    assert prob_above(20, 1, 30, 1) < 0.001


def test_ranks_from_order():
    """Finishing order to ranks, with a tied group sharing its rank."""
    assert ranks_from_order([2, 0, 1]) == (1, 2, 0)
    assert ranks_from_order([2, 0, (1, 3)]) == (1, 2, 0, 2)
    with pytest.raises(RatingsError, match="every seat once"):
        ranks_from_order([0, 2])


# ---------------------------------------------------------------- outcomes


def test_outcome_is_frozen_and_normalised():
    """Outcome is frozen; empty faults and timings become per-seat defaults."""
    o = outcome(0, ["a", "b", "c"])
    assert o.faults == ({}, {}, {}) and o.decision_ms == (None, None, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.index = 3


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seats": ("a", "a", "c")}, r"game 0: seats must be distinct names"),
        ({"ranks": (0, 1, 5)}, r"game 0: ranks must be 3 integers from 0 to 2 \(got \(0, 1, 5\)\)"),
        ({"loser": 0}, r"ranks must be the loser \(seat 0\) alone in last place"),
        ({"penalty": (0, 1, 4)}, r"penalty must be 3 integers from 0 to 3"),
        ({"faults": ({"late": 1}, {}, {})}, r"faults must be counts of timeout, crash, illegal, malformed"),
        ({"decision_ms": (1.0, -2.0, None)}, r"decision_ms must be 3 times in ms or None"),
        ({"table_size": 4}, r"game 0: seats must be 4 names"),
    ],
)
def test_bad_outcomes_refused(change, message):
    """Inconsistent outcomes are refused with a one-line message."""
    fields = dataclasses.asdict(outcome(0, ["a", "b", "c"]))
    with pytest.raises(RatingsError, match=message):
        Outcome(**{**fields, **change})


def test_ratings_error_is_arena_and_value_error():
    """RatingsError fits both except clauses."""
    assert issubclass(RatingsError, ArenaError) and issubclass(RatingsError, ValueError)


# ---------------------------------------------------------------- rate


def test_known_order_is_recovered():
    """A always first, B second, ...: the table is A, B, C, D, each surely above the next."""
    games = ordered_games(["A", "B", "C", "D"], 300, size=4)
    table = rate(games)
    assert table.players == ("A", "B", "C", "D")
    assert [r.rank for r in table.rows] == [1, 2, 3, 4]
    assert all(r.p_above_next > 0.99 for r in table.rows[:-1])
    assert table.rows[-1].p_above_next is None
    assert table.games == 300
    d = table.row("D")
    assert d.bhabhi == 300 and d.bhabhi_rate == 1.0 and d.bhabhi_ratio == pytest.approx(4.0)
    assert d.place == 1.0 and d.penalty == 3.0 and d.first_out_rate == 0.0
    a = table.row("A")
    assert a.bhabhi == 0 and a.place == 0.0 and a.first_out_rate == 1.0 and a.penalty == 0.0
    assert a.bhabhi_high == pytest.approx(wilson(0, 300)[1])


def test_known_order_mixed_tables():
    """Mixed 3-6 seat tables from a pool of six still give the true order."""
    names = ["A", "B", "C", "D", "E", "F"]
    table = rate(ordered_games(names, 400, seed=3))
    assert table.players == tuple(names)
    assert all(r.p_above_next > 0.95 for r in table.rows[:-1])


def test_conservative_rating_is_the_sort_key():
    """Rows are sorted by mu - 3 sigma, which each row carries."""
    table = rate(ordered_games(["A", "B", "C", "D", "E"], 60, seed=5))
    for r in table.rows:
        assert r.conservative == pytest.approx(r.mu - 3 * r.sigma)
    assert [r.conservative for r in table.rows] == sorted((r.conservative for r in table.rows), reverse=True)
    for r, nxt in zip(table.rows, table.rows[1:]):
        assert r.p_above_next == pytest.approx(prob_above(r.mu, r.sigma, nxt.mu, nxt.sigma))


def test_order_independence():
    """Shuffling the input order (as a parallel or resumed run would) changes nothing."""
    games = ordered_games(["A", "B", "C", "D", "E"], 120, seed=7)
    shuffled = games[:]
    random.Random(1).shuffle(shuffled)
    assert rate(shuffled) == rate(games)
    assert history(shuffled) == history(games)
    assert breakdown(shuffled, by="seat") == breakdown(games, by="seat")
    assert head_to_head(shuffled) == head_to_head(games)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), perm=st.randoms(use_true_random=False))
def test_order_independence_property(seed, perm):
    """Any permutation of any game list rates the same."""
    games = ordered_games(["A", "B", "C", "D", "E", "F"], 30, seed=seed)
    shuffled = games[:]
    perm.shuffle(shuffled)
    assert rate(shuffled) == rate(games)


def test_game_order_matters_not_arrival():
    """Rating uses index order: reversing the indices is a different run."""
    games = ordered_games(["A", "B", "C", "D", "E"], 40)
    reindexed = [dataclasses.replace(g, index=len(games) - g.index) for g in games]
    assert rate(reindexed).players == rate(games).players
    assert rate(reindexed).rows[0].mu != pytest.approx(rate(games).rows[0].mu, abs=1e-12)


def test_repeated_index_refused():
    """Two games with one index cannot be ordered."""
    g = outcome(3, ["a", "b", "c"])
    with pytest.raises(RatingsError, match=r"game index must be unique \(got 3 twice\)"):
        rate([g, g])


def test_draws_rate_with_default_draw_probability():
    """Tied last places (draws) rate cleanly; the tied players stay equal."""
    games = [outcome(i, ["a", "b", "c", "d"], draw=("c", "d")) for i in range(50)]
    table = rate(games)
    c, d = table.row("c"), table.row("d")
    assert c.mu == pytest.approx(d.mu) and c.sigma == pytest.approx(d.sigma)
    assert c.bhabhi == 0 and c.place == pytest.approx(2 / 3)
    assert table.row("a").mu > table.row("b").mu > c.mu
    assert all(r.sigma < 25 / 3 for r in table.rows)


def test_tau_and_draw_probability_are_configurable():
    """Parameters reach TrueSkill: tau > 0 keeps sigma higher."""
    games = ordered_games(["A", "B", "C", "D"], 200, size=4)
    fixed, drifting = rate(games), rate(games, tau=25 / 300, draw_probability=0.1)
    assert drifting.row("A").sigma > fixed.row("A").sigma
    assert drifting.params == RatingParams(tau=25 / 300, draw_probability=0.1)


def test_bad_parameters_refused():
    """Impossible TrueSkill settings are refused naming the setting."""
    with pytest.raises(RatingsError, match=r"draw_probability must be in \[0, 1\) \(got 1.5\)"):
        rate([], draw_probability=1.5)
    with pytest.raises(RatingsError, match=r"tau must be >= 0 \(got -1\)"):
        rate([], tau=-1)


def test_empty_input():
    """No games, no rows."""
    table = rate([])
    assert table.rows == () and table.games == 0


def test_faults_and_decision_times():
    """Faults add up by kind; decision time is the median of game medians."""
    faults = ({"timeout": 1}, {}, {"crash": 2, "illegal": 1})
    games = [outcome(i, ["a", "b", "c"], faults=faults, decision_ms=(float(i), None, 5.0)) for i in range(5)]
    table = rate(games)
    a, b, c = table.row("a"), table.row("b"), table.row("c")
    assert a.fault("timeout") == 5 and a.decision_ms == 2.0
    assert b.faults == tuple((k, 0) for k in FAULT_KINDS) and b.decision_ms is None
    assert c.fault("crash") == 10 and c.fault("illegal") == 5 and c.fault("malformed") == 0
    flat = c.to_dict()
    assert flat["faults_crash"] == 10 and flat["player"] == "c" and "faults" not in flat


def test_expected_bhabhi_rate_uses_table_sizes():
    """The Bhabhi ratio divides by the mean of 1/k over the player's tables."""
    games = [outcome(0, ["x", "a", "b"]), outcome(1, ["x", "a", "b", "c", "d", "e"], order=[1, 2, 3, 4, 5, 0])]
    x = rate(games).row("x")
    assert x.bhabhi == 1 and x.bhabhi_rate == 0.5
    assert x.bhabhi_ratio == pytest.approx(0.5 / ((1 / 3 + 1 / 6) / 2))
    assert x.place == pytest.approx((0 + 1) / 2)


# ---------------------------------------------------------------- breakdowns


@pytest.mark.parametrize("by", ["table-size", "rules", "seat"])
def test_breakdown_partitions_the_games(by):
    """Each player's games across the groups add up to their games overall."""
    games = ordered_games(["A", "B", "C", "D", "E"], 150, seed=11)
    whole = rate(games)
    groups = breakdown(games, by=by)
    for player in whole.players:
        parts = [t.row(player) for t in groups.values() if player in t.players]
        assert sum(r.games for r in parts) == whole.row(player).games
        assert sum(r.bhabhi for r in parts) == whole.row(player).bhabhi


def test_breakdown_keys():
    """Groups are keyed by table size, rules label or seat, in sorted order."""
    games = ordered_games(["A", "B", "C", "D", "E"], 100, seed=2)
    assert list(breakdown(games, by="table-size")) == [3, 4, 5]
    assert list(breakdown(games, by="rules")) == ["donkey", "getaway"]
    assert list(breakdown(games, by="seat")) == [0, 1, 2, 3, 4]
    assert sum(t.games for t in breakdown(games, by="rules").values()) == 100


def test_breakdown_by_seat_keeps_the_order():
    """Seat groups still rank the players in their true order."""
    games = ordered_games(["A", "B", "C", "D"], 400, seed=4, size=4)
    for table in breakdown(games, by="seat").values():
        assert table.players == ("A", "B", "C", "D")


def test_breakdown_bad_grouping():
    """An unknown grouping names the allowed ones."""
    with pytest.raises(RatingsError, match=r"by must be one of table-size, rules, seat \(got 'colour'\)"):
        breakdown([], by="colour")


# ---------------------------------------------------------------- head to head and history


def test_head_to_head_symmetry_and_counts():
    """share(A, B) + share(B, A) == 1; shared games counted once per game."""
    games = ordered_games(["A", "B", "C", "D", "E"], 80, seed=9)
    games += [outcome(100 + i, ["A", "B", "C", "D"], draw=("C", "D")) for i in range(5)]
    h2h = head_to_head(games)
    for a, b in itertools.permutations(h2h.players, 2):
        ab, ba = h2h.get(a, b), h2h.get(b, a)
        if ab is None:
            assert ba is None
            continue
        assert ab.games == ba.games
        assert ab.share + ba.share == pytest.approx(1.0)
        assert ab.low <= ab.share <= ab.high
    assert h2h.get("A", "B").share == 1.0
    cd = h2h.get("C", "D")
    assert 0 < cd.share < 1 and (cd.wins * 2).is_integer()


def test_head_to_head_ties_count_half():
    """A tied pair gets half a win each."""
    h2h = head_to_head([outcome(0, ["a", "b", "c"], draw=("b", "c"))])
    assert h2h.get("b", "c").wins == 0.5 and h2h.get("b", "c").share == 0.5
    assert h2h.get("a", "b").share == 1.0 and h2h.get("x", "a") is None


def test_history_tracks_each_game():
    """History has a point per player per game, ending at the table's values."""
    games = ordered_games(["A", "B", "C", "D"], 50, seed=6)
    points = history(games)
    assert len(points) == sum(g.table_size for g in games)
    assert [p.index for p in points] == sorted(p.index for p in points)
    table = rate(games)
    for player in table.players:
        last = [p for p in points if p.player == player][-1]
        assert (last.mu, last.sigma) == (table.row(player).mu, table.row(player).sigma)
