"""Random play of whole matches over every preset, table size and option value, both scorings:
the match invariants hold and every hand replays exactly."""

import random

import pytest

from arena import PRESETS, Game, Rules
from arena.game.match import MatchRules, MatchState, dealer_of, hand_points, standings
from arena.game.rules import CHOICES
from arena.game.seeds import match_hand_seed

MATCHES = 3
OPTION_MIXES = [{option: value} for option, values in CHOICES.items() for value in values
                if option not in ("decks", "neighbour_take")] + [
    {"neighbour_take": True, "take_from": "first_trick", "take_order": "dealer_left"},
    {"trumps": True, "neighbour_take": True, "escape": "draw_next_hand"},
    {"simultaneous": "draw", "escape": "pass", "shootout": True},
]


def random_match(rules: Rules, players: int, seed: int, match: MatchRules, check_result) -> MatchState:
    """A match of random legal moves, checking every hand and the running totals."""
    rng = random.Random(seed)
    state = MatchState.start(match, players, seed % players, rules.direction)
    while not state.over:
        assert max(state.scores) < match.points and state.hand < match.max_hands
        game = Game.deal(rules, players, match_hand_seed(seed, state.hand), state.dealer)
        assert state.dealer == dealer_of(state.hand, players, seed % players, rules.direction)
        while game.current is not None:
            game.apply(rng.choice(game.legal_actions()))
        check_result(game)
        assert Game.from_record(game.to_record()).result == game.result
        before = state
        state = state.after(game.result)
        points = hand_points(game.result, match.score)
        assert all(p >= 0 for p in points) and state.scores == tuple(a + b for a, b in zip(before.scores, points))
    result = state.result()
    assert sum(map(sum, state.hand_points)) == sum(result.scores)
    assert result.reason == ("points" if max(result.scores) >= match.points else "hand_limit")
    assert (result.order, result.ranks) == standings(result.scores, result.bhabhis)
    assert min(result.scores) == result.scores[result.order[0]] and 0 in result.ranks
    return state


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("score", ["places", "cards"])
def test_random_matches_every_preset_and_table_size(preset, score, check_result):
    rules = Rules.preset(preset)
    lo, hi = rules.seat_range
    for players in range(lo, hi + 1):
        for seed in range(MATCHES):
            random_match(rules, players, seed, MatchRules(6, score), check_result)


@pytest.mark.parametrize("overrides", OPTION_MIXES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_random_matches_every_option_value(overrides, check_result):
    rules = Rules.preset("getaway").replace(**overrides)
    for seed, score in enumerate(("places", "cards", "places", "cards")):
        random_match(rules, 3 + seed % 3, seed, MatchRules(1 + seed * 3, score), check_result)


def test_same_seed_same_match(check_result):
    rules = Rules.preset("champions")
    a = random_match(rules, 4, 9, MatchRules(6, "cards"), check_result)
    b = random_match(rules, 4, 9, MatchRules(6, "cards"), check_result)
    assert a == b
