"""Opponent models: inferring low/high/random/heuristic from public plays, and their policies in the sim."""

from __future__ import annotations

import random

from players.opponents import LEAD, infer, preferred, reference_games
from players.playout import World
from players.policy import HEURISTIC, HIGH, LOW, NAMES, RANDOM, high_card, low_card, model_card
from players.simple import HighBot, LowBot


def test_forbidden_cards_are_never_held_when_the_model_is_right():
    """A seat modelled as its true policy never holds a card its model rules out."""
    checked = 0
    for game, names, view in reference_games(60, 1):
        models = infer(view)
        for s in range(4):
            if s == view.seat or not view.active[s] or NAMES[models.kinds[s]] != names[s]:
                continue
            unknown = game.state.hands[s] & ~view.known_masks[s]
            assert not models.forbid[s] & unknown, (names[s], s)
            checked += bool(models.forbid[s])
    assert checked > 500


def test_reference_players_are_recognised_once_three_are_left():
    """With three players left the model is the true policy for most seats (and heuristic players always)."""
    right = total = 0
    for _, names, view in reference_games(80, 2):
        if sum(view.active) != 3:
            continue
        models = infer(view)
        for s in range(4):
            if s != view.seat and view.active[s]:
                total += 1
                right += NAMES[models.kinds[s]] == names[s]
                if names[s] == "heuristic":
                    assert models.kinds[s] == HEURISTIC
    assert total > 300 and right > 0.8 * total, (right, total)


def test_playouts_play_low_high_and_random_as_the_reference_players_do():
    """On a playout state (every hand known) low and high pick the reference players' cards; random a legal one."""
    compared = 0
    for game, _names, view in reference_games(30, 3):
        state, seat = game.state, view.seat
        kind = (LOW, HIGH, RANDOM, HEURISTIC)[seat]
        card = model_card(World.of(state), kind, random.Random(0))
        if seat == 0:
            assert card == int(LowBot(0).play(view))
        elif seat == 1:
            assert card == int(HighBot(0).play(view))
        elif seat == 2:
            assert card in {int(c) for c in view.legal}
        compared += 1
    assert compared > 1000


def test_the_models_are_the_policies_inverted():
    """A card a model says its policy would have preferred is the one the policy plays from the pair."""
    for c in range(52):
        for x in range(52):
            pair = 1 << c | 1 << x
            if x != c and preferred(HIGH, LEAD, c, -1, -1, False) >> x & 1:
                assert high_card(pair) == x
            if x != c and preferred(LOW, LEAD, c, -1, -1, False) >> x & 1:
                assert low_card(pair, False) == x
