"""The paired format: A and B on the same deals, seats, opponents and bot seeds; its refusals."""

from __future__ import annotations

import pytest

from arena.game.seeds import Secret
from arena.results.errors import CompareError
from arena.results.stats.paired import CompareTest, game_index, unit_of
from arena.tournament.compare import compare_spec, field_for
from arena.tournament.errors import ConfigError, ScheduleError
from arena.tournament.formats import make_format

SECRET = Secret(bytes(range(32)))


def spec_of(test, games=400, **keys):
    return compare_spec(test, field_for(test.a, test.b), games, sandbox="never", seed=3, **keys)


def test_halves_of_a_deal_differ_only_in_the_candidate():
    """A's and B's games of a deal: same deal seed, rotation, opponents in the same seats, same bot seeds."""
    test = CompareTest("heuristic", "low")
    games = spec_of(test).schedule_format().games()
    n = 4
    for deal in range(5):
        for r in range(n):
            ga, gb = games[game_index(deal, 0, r, n)], games[game_index(deal, 1, r, n)]
            assert (ga.deal_seed, ga.rotation) == (gb.deal_seed, gb.rotation)
            assert [p for p in ga.seats if p != "heuristic"] == [p for p in gb.seats if p != "low"]
            assert ga.seats.index("heuristic") == gb.seats.index("low")
            assert ga.bot_seeds(SECRET) == gb.bot_seeds(SECRET)
            assert unit_of(ga.index, n) == (deal, 0) and unit_of(gb.index, n) == (deal, 1)
    assert "heuristic#field" in {p for g in games for p in g.seats}
    drawn = {frozenset(games[game_index(d, 0, 0, n)].seats) - {"heuristic"} for d in range(50)}
    assert len(drawn) > 1  # the opponents are drawn per deal


def test_paired_format_refuses_what_it_cannot_pair():
    """Two table sizes, three candidates, a candidate in the field or a budget are refused naming the key."""
    test = CompareTest("heuristic", "low")
    with pytest.raises(ConfigError, match="key 'table_sizes': table_sizes must be one table size"):
        spec_of(test, table_sizes=[3, 4])
    params = dict(table_sizes=[4], rules="getaway", seed=1)
    with pytest.raises(ScheduleError, match=r"candidates must be two players, A and B \(got \['a', 'b', 'c'\]\)"):
        make_format("paired", candidates=["a", "b", "c"], field=["d", "e", "f"], **params)
    with pytest.raises(ScheduleError, match="field must be a list without the candidates"):
        make_format("paired", candidates=["a", "b"], field=["a", "e", "f"], **params)
    with pytest.raises(ScheduleError, match="budget must be unset"):
        make_format("paired", candidates=["a", "b"], field=["d", "e", "f"], budget=80, **params)
    with pytest.raises(CompareError, match="must differ"):
        CompareTest("low", "low")
