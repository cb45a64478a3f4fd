"""What a seat of python_bhabhi observes, and the worlds ``resample_from_infostate`` deals for it.

A seat's observation (tensor and string) and information state are made from what it was shown; a world
sampled for it agrees with all of it: the same information string, observation, seat to act and legal
actions, its own hand, and every public fact (trick, pile, hand sizes, who is out).
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

from arena.game.cards import PACK
from players.openspiel.errors import OpenSpielError
from players.openspiel.game import SHORT_NAME
from players.openspiel.observer import knowledge
from players.openspiel.worlds import resample

SAMPLER = pyspiel.UniformProbabilitySampler(0.0, 1.0)


def _step(state, rng):
    if state.is_chance_node():
        actions, _ = zip(*state.chance_outcomes())
        state.apply_action(rng.choice(actions))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _dealt(game, pack):
    state = game.new_initial_state()
    for c in pack:
        state.apply_action(c)
    return state


def test_a_seats_observation_does_not_change_when_only_hidden_cards_do():
    """Two deals that differ only in cards seat 0 cannot see (swapped between seats 1 and 2), played on with the
    same actions: seat 0's tensor and strings are the same at every step while they stay legal in both; a
    change in seat 0's own cards changes its tensor."""
    game = pyspiel.load_game(SHORT_NAME, {"players": 4})
    rng = random.Random(4)
    checked = 0
    for _ in range(20):
        pack = list(range(PACK))
        rng.shuffle(pack)
        other = pack[:]
        i, j = 1, 2                                        # (card k goes to seat (k + 1) % 4: seats 2 and 3)
        other[i], other[j] = other[j], other[i]
        a, b = _dealt(game, pack), _dealt(game, other)
        if 51 in (pack[i], pack[j]):                       # AS's holder leads: who acts would differ
            continue
        hands_a = [a.table.game.hand(s) for s in range(4)]
        hands_b = [b.table.game.hand(s) for s in range(4)]
        assert hands_a[0] == hands_b[0] and hands_a != hands_b
        while not a.is_terminal() and a.current_player() == b.current_player():
            assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
            assert a.observation_string(0) == b.observation_string(0)
            assert a.information_state_string(0) == b.information_state_string(0)
            checked += 1
            if a.is_chance_node() or b.is_chance_node():
                break
            legal = sorted(set(a.legal_actions()) & set(b.legal_actions()))
            if not legal:
                break
            action = rng.choice(legal)
            a.apply_action(action)
            b.apply_action(action)
    assert checked > 100
    mine = list(range(PACK))
    swapped = mine[:]
    swapped[0], swapped[3] = swapped[3], swapped[0]       # seat 1's first card for seat 0's
    assert not np.array_equal(_dealt(game, mine).observation_tensor(0), _dealt(game, swapped).observation_tensor(0))


def test_the_observation_holds_the_seats_hand_and_not_the_others():
    game = pyspiel.load_game(SHORT_NAME, {"players": 4})
    state = _dealt(game, list(range(PACK)))
    observer_size = len(state.observation_tensor(0))
    assert observer_size == 4 + PACK * 4 + 4 + 4 * PACK + 4 * 4 + 4 + 4 + 5 + 2
    hand = state.observation_tensor(1)[4:4 + PACK]
    assert [c for c in range(PACK) if hand[c]] == [int(c) for c in state.table.game.hand(1)]
    for seat in range(4):
        text = state.information_state_string(seat)
        for other in range(4):
            if other != seat:
                assert not any(f'"{c.text}"' in text for c in state.table.game.hand(other))


CASES = [("getaway", 4), ("getaway", 3), ("playnest", 5), ("champions", 4), ("donkey", 5), ("bhabho", 4),
         ("bhabho", 6), ("getaway", 8)]


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_resampled_states_agree_with_the_seats_information(preset, players):
    game = pyspiel.load_game(SHORT_NAME, {"rules": preset, "players": players})
    rng = random.Random(players)
    checks = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if rng.random() < 0.2 or (state.is_chance_node() and rng.random() < 0.02):
                for seat in range(players):
                    before = str(state)
                    world = state.resample_from_infostate(seat, SAMPLER)
                    assert str(state) == before
                    assert world.information_state_string(seat) == state.information_state_string(seat)
                    assert world.observation_string(seat) == state.observation_string(seat)
                    assert np.array_equal(world.observation_tensor(seat), state.observation_tensor(seat))
                    assert world.current_player() == state.current_player()
                    if state.current_player() == seat:
                        assert world.legal_actions() == state.legal_actions()
                    if state.table.game is not None and not state.is_chance_node():
                        real, sampled = state.table.game, world.table.game
                        assert sampled.hand(seat) == real.hand(seat)
                        assert [len(sampled.hand(s)) for s in range(players)] == [
                            len(real.hand(s)) for s in range(players)]
                        assert sampled.trick == real.trick and sampled.state.out == real.state.out
                        assert len(sampled.state.pile) == len(real.state.pile)
                        if not any(knowledge(state.table, seat).hidden_draws):  # (else: which card left it?)
                            assert sorted(sampled.state.pile) == sorted(real.state.pile)
                    checks += 1
            _step(state, rng)
    assert checks > 50


def test_worlds_differ_where_the_seat_cannot_see():
    """Not a copy of the truth: over a few worlds, the other seats' hands vary."""
    game = pyspiel.load_game(SHORT_NAME, {"players": 4})
    rng = random.Random(8)
    state = game.new_initial_state()
    while state.is_chance_node() or state.move_number() < PACK + 6:
        _step(state, rng)
    worlds = {tuple(tuple(resample(state.table, 0, random.Random(k)).game.hand(s)) for s in (1, 2, 3))
              for k in range(10)}
    assert len(worlds) > 5
    truth = tuple(tuple(state.table.game.hand(s)) for s in (1, 2, 3))
    assert worlds != {truth}


def test_two_packs_are_not_resampled():
    game = pyspiel.load_game(SHORT_NAME, {"rules": "getaway-2deck", "players": 7})
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        _step(state, rng)
    with pytest.raises(OpenSpielError, match="one pack only"):
        state.resample_from_infostate(0, SAMPLER)
