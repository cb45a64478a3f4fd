"""The sampler looking one own decision further (players/lookahead.py): its values, its stop, its errors."""

from __future__ import annotations

import pytest

from arena import Game, Rules
from players.errors import PlayerOptionError
from players.heuristic import HeuristicBot
from players.lookahead import LookaheadSampler, to_my_choice
from players.playout import PlayoutRandom, World
from players.policy import HEURISTIC, HIGH, LOW, RANDOM


def _decision(seed: int, plays: int = 6):
    """A getaway game of heuristic players taken to a play decision with a choice after ``plays`` moves."""
    game = Game.deal(Rules.preset("getaway"), 4, seed=seed)
    bots = [HeuristicBot(seed * 8 + s) for s in range(4)]
    done = 0
    while True:
        view = game.view(game.current)
        if done >= plays and view.decision == "play" and len(view.legal) > 1:
            return game, view
        game.apply(bots[game.current].act(view))
        done += 1


@pytest.mark.parametrize("mode", ["policies", "per-world"])
def test_values_score_every_legal_card_the_same_way_twice(mode):
    _, view = _decision(3)
    a = LookaheadSampler(5, mode=mode, worlds=8).values(view)
    b = LookaheadSampler(5, mode=mode, worlds=8).values(view)
    assert a == b
    assert len(a) == len(view.legal)
    assert all(0.0 <= v <= 1.05 for v in a)


def test_its_card_is_the_sampler_choice_over_its_values():
    _, view = _decision(11, plays=10)
    bot = LookaheadSampler(2, worlds=10, gate_z=None)
    values = bot.values(view)
    card = LookaheadSampler(2, worlds=10, gate_z=None).sampled_card(view)
    assert values[list(view.legal).index(card)] == min(values)


def test_per_world_never_scores_a_card_worse_than_its_worlds_policies():
    """Per world, the best of every next card is at most the best of three policies' next cards."""
    _, view = _decision(7)
    fused = LookaheadSampler(4, mode="per-world", worlds=12, gate_z=None).values(view)
    by_policy = LookaheadSampler(4, mode="policies", worlds=12, gate_z=None).values(view)
    assert all(f <= p + 1e-9 for f, p in zip(fused, by_policy))
    assert sum(fused) < sum(by_policy)


def test_to_my_choice_stops_at_the_seat_next_decision_with_a_choice():
    game, view = _decision(5)
    me = view.seat
    world = World.of(game.state)
    world.rng = PlayoutRandom(1)
    world.play(int(view.legal[0]))
    kinds = [HEURISTIC, HIGH, LOW, RANDOM]
    if to_my_choice(world, kinds, me):
        legal = world.legal_mask()
        assert world.cur == me and legal & (legal - 1)
    else:
        assert world.cur is None or not world.active[me]


def test_a_game_to_its_end_is_not_the_seat_choice():
    game, view = _decision(5)
    world = World.of(game.state)
    world.rng = PlayoutRandom(1)
    me = view.seat
    while world.cur is not None and world.active[me]:
        to_my_choice(world, [HEURISTIC] * 4, me)
        if world.cur == me and world.active[me]:
            world.play(world.legal_mask().bit_length() - 1)
    assert to_my_choice(world, [HEURISTIC] * 4, me) is False


def test_an_unknown_mode_and_a_forced_decision_are_refused():
    with pytest.raises(PlayerOptionError, match="lookahead mode must be one of policies, per-world"):
        LookaheadSampler(0, mode="deeper")
    game = Game.deal(Rules.preset("getaway"), 4, seed=1)
    bots = [HeuristicBot(s) for s in range(4)]
    view = game.view(game.current)
    while len(view.legal) != 1:
        game.apply(bots[game.current].act(view))
        view = game.view(game.current)
    with pytest.raises(PlayerOptionError, match="a play decision with a choice"):
        LookaheadSampler(0, worlds=4).values(view)
