"""The live parts of a long run shared by compare and tournament run (arena/cli/live.py)."""

from __future__ import annotations

import pytest

from arena.cli.errors import UserError
from arena.cli.live import Interval, Pacer, game_line
from arena.tournament.schedule import GameSpec


@pytest.mark.parametrize("text, every, by_games", [("10", 10.0, False), ("2.5s", 2.5, False), ("200g", 200.0, True),
                                                   (" 30S ", 30.0, False)])
def test_interval_is_seconds_or_games(text, every, by_games):
    assert Interval.parse(text) == Interval(every, by_games)


@pytest.mark.parametrize("text", ["0", "1.5g", "10gs", "soon", "-3", ""])
def test_a_bad_interval_is_a_user_error(text):
    with pytest.raises(UserError, match="--interval"):
        Interval.parse(text)


def test_the_pacer_by_games_and_by_seconds():
    games = Pacer(Interval(3, True))
    assert [games.game_due() for _ in range(7)] == [False, False, True, False, False, True, False]
    assert not games.seconds_due(100.0)
    seconds = Pacer(Interval(10, False))
    assert [seconds.seconds_due(t) for t in (3, 10, 15, 19.9, 20)] == [False, True, False, False, True]
    assert not seconds.game_due()


def test_game_line_names_seats_order_bhabhi_and_faults():
    game = GameSpec(4, "rr-0-3p-0000-d1-r1", "getaway", ("a", "b", "c"), 1, 1)
    record = {"names": ["a", "b", "c"], "result": {"loser": 1, "order": [2, 0, 1]},
              "faults": [[], [{"kind": "timeout"}, {"kind": "illegal"}], []]}
    assert game_line(game, record) == ("game 4 rr-0-3p-0000-d1-r1: seats a, b, c; out in order c, a, b; "
                                       "Bhabhi b; faults b timeout, b illegal")
    record = {"names": ["a", "b", "c"], "result": {"loser": None, "order": [2, 0, 1]}}
    assert game_line(game, record).endswith("; Bhabhi none (a draw); faults none")
