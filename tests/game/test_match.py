"""Matches (docs/rules.md, "Matches"): scoring, the end at the points total, the tie rule, the dealer."""

import pytest

from arena.game.cards import card
from arena.game.errors import MatchError
from arena.game.match import MatchRules, MatchState, dealer_of, hand_points, standings
from arena.game.result import Result


def hand(order, loser_cards=("2S",)):
    """A hand's result with ``order`` (first out first, the Bhabhi last)."""
    return Result.build(list(order), order[-1], "last_player", tuple(card(c) for c in loser_cards))


def test_places_score_0_1_2_3():
    """First out 0, second 1, any other who got away 2, the Bhabhi 3 (5 seats)."""
    result = hand([3, 1, 4, 0, 2])
    assert hand_points(result, "places") == (2, 1, 3, 0, 2)


def test_cards_score_counts_the_bhabhis_cards():
    result = hand([2, 0, 1], loser_cards=("2S", "KH", "AD", "5C"))
    assert hand_points(result, "cards") == (0, 4, 0)


def test_a_drawn_hand_scores_no_card_points():
    draw = Result.build([0, 1, 2], None, "draw", (), tied=(1, 2))
    assert hand_points(draw, "cards") == (0, 0, 0)
    assert hand_points(draw, "places") == draw.penalty


def test_match_ends_exactly_at_the_threshold():
    """Seat 2 is the Bhabhi twice: 3 + 3 = 6 ends the match after hand 2, not before."""
    state = MatchState.start(MatchRules(points=6), 3)
    state = state.after(hand([0, 1, 2]))
    assert state.scores == (0, 1, 3) and not state.over
    state = state.after(hand([1, 0, 2]))
    assert state.scores == (1, 1, 6) and state.over
    result = state.result()
    assert result.reason == "points" and result.hands == 2
    assert result.ranks == (0, 0, 2) and result.winners == (0, 1)  # tied on 1 point, no Bhabhi each
    with pytest.raises(MatchError, match="over"):
        state.after(hand([0, 1, 2]))


def test_five_points_does_not_end_a_match_to_six():
    state = MatchState.start(MatchRules(points=6), 3)
    for order in ([2, 1, 0], [0, 1, 2], [0, 2, 1]):   # seat 1: 1 + 1 + 3
        state = state.after(hand(order))
    assert state.scores[1] == 5 and not state.over
    with pytest.raises(MatchError, match="not over"):
        state.result()


def test_ties_go_to_fewer_bhabhis_then_share_the_place():
    assert standings((4, 4, 7), (1, 0, 2)) == ((1, 0, 2), (1, 0, 2))
    order, ranks = standings((4, 4, 7, 4), (1, 1, 2, 0))
    assert order == (3, 0, 1, 2) and ranks == (1, 1, 3, 0)


def test_cards_scoring_match():
    state = MatchState.start(MatchRules(points=6, score="cards"), 3)
    state = state.after(hand([0, 1, 2], loser_cards=("2S", "3S", "4S")))
    state = state.after(hand([0, 2, 1], loser_cards=("2S", "3S", "4S", "5S", "6S", "7S")))
    assert state.scores == (0, 6, 3) and state.bhabhis == (0, 1, 1) and state.over
    assert state.result().order == (0, 2, 1)


def test_hand_limit_stops_a_match_of_draws():
    draw = Result.build([0, 1, 2], None, "draw", (), tied=(1, 2))
    state = MatchState.start(MatchRules(points=6, score="cards", max_hands=4), 3)
    while not state.over:
        state = state.after(draw)
    assert state.hand == 4 and state.result().reason == "hand_limit" and state.result().ranks == (0, 0, 0)


def test_dealer_moves_one_seat_each_hand():
    assert [dealer_of(h, 4) for h in range(6)] == [0, 1, 2, 3, 0, 1]
    assert [dealer_of(h, 4, 2, "anticlockwise") for h in range(4)] == [2, 1, 0, 3]
    state = MatchState.start(MatchRules(points=30), 3, first_dealer=1)
    dealers = []
    for _ in range(4):
        dealers.append(state.view().dealer)
        state = state.after(hand([0, 1, 2]))
    assert dealers == [1, 2, 0, 1]


def test_view_is_the_score_before_the_hand():
    state = MatchState.start(MatchRules(), 3).after(hand([0, 1, 2]))
    view = state.view()
    assert (view.hand, view.scores, view.bhabhis, view.points, view.score) == (1, (0, 1, 3), (0, 0, 1), 6, "places")
    assert type(view).from_event(view.to_event()) == view


@pytest.mark.parametrize("points,score,message", [
    (0, "places", r"match_points must be a positive whole number \(got 0\)"),
    (True, "places", r"match_points must be a positive whole number \(got True\)"),
    ("6", "places", r"match_points must be a positive whole number \(got '6'\)"),
    (6, "legs", r"match_score must be one of places, cards \(got 'legs'\)"),
])
def test_bad_match_options_are_refused_in_one_line(points, score, message):
    with pytest.raises(MatchError, match=message):
        MatchRules(points, score)
