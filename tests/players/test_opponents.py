"""Opponent models: inferring low/high/random/heuristic from public plays, and their policies in the sim."""

from __future__ import annotations

import random

from players.opponents import HEURISTIC, HIGH, LOW, NAMES, RANDOM, infer, reference_games
from players.sampler_sim import new_sim
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


def test_sim_plays_low_high_and_random_as_the_reference_players_do():
    """In the sim, the low and high policies pick the reference players' cards; random picks a legal card."""
    compared = 0
    for game, names, view in reference_games(30, 3):
        sim = new_sim(game.rules, game.players, game.state.hands, game.state.active, game.state.out, game.state.pile,
                      game.state.leader, game.current, list(zip(game.state.tseats, game.state.tcards)),
                      game.state.first, game.state.must, game.state.drawn_lead, random.Random(0),
                      kinds=[LOW, HIGH, RANDOM, HEURISTIC])
        seat = view.seat
        if seat == 0:
            assert sim.policy() == int(LowBot(0).play(view))
        elif seat == 1:
            assert sim.policy() == int(HighBot(0).play(view))
        elif seat == 2:
            assert sim.policy() in {int(c) for c in view.legal}
        compared += 1
    assert compared > 1000
