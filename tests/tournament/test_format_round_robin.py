"""Tests for arena.tournament.formats.round_robin: counts, combinations, hands, seating, the house."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from arena.tournament.errors import ScheduleError

from schedule_checks import NAMES, check_structure, groups, rr

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
