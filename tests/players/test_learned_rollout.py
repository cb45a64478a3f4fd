"""The trainer's rollout targets: a rollout is the game its policies would play, and leaves the game alone."""

from __future__ import annotations

import pytest

from arena import Game
from arena.game.cards import CARDS
from arena.game.rules import PRESETS
from players.learned.bot import LearnedBot, load_net
from players.learned.rollout import heuristic_rollout, net_rollout
from players.policy import HIGH, LOW, HEURISTIC
from players.sampler import PLACE_WEIGHT, seat_score
from players.simple import HighBot, LowBot

KINDS = [HEURISTIC, LOW, HIGH, LOW]     # seat 0 learns; low and high play the same card on views and on states


def _first_choice(seed: int) -> Game:
    """The game of deal ``seed`` at seat 0's first play decision with a choice (seats 1-3 low, high, low)."""
    game = Game.deal(PRESETS["getaway"], 4, seed)
    bots = [LearnedBot(seed, visits=0, worlds=0), LowBot(seed), HighBot(seed), LowBot(seed)]
    while True:
        view = game.view(game.current)
        if game.current == 0 and len(view.legal) > 1:
            return game
        game.apply(bots[game.current].act(view))


def _played_out(game: Game, card: int) -> float:
    """``card`` at seat 0, then the real bots to the end (seat 0: the net alone): seat 0's rollout score."""
    game = Game.from_record(game.to_record())
    bots = [LearnedBot(0, visits=0, worlds=0), LowBot(0), HighBot(0), LowBot(0)]
    game.apply(CARDS[card])
    while not game.is_over and game.state.active[0]:
        game.apply(bots[game.current].act(game.view(game.current)))
    return seat_score(game.state, 0, 4)


@pytest.mark.parametrize("seed", [3, 4, 11, 16])   # where the heuristic policy would go on otherwise
def test_a_net_rollout_is_the_game_the_net_and_the_others_would_play(seed):
    """Every legal card's net rollout scores what the real game scores when seat 0 plays that card and then
    the net's cards from its views, and the others their bots: the same policy, on a fork of the game."""
    game = _first_choice(seed)
    net = load_net()
    legal = [int(c) for c in game.view(0).legal]
    scores = [net_rollout(game, 0, c, KINDS, seed, net) for c in legal]
    assert scores == [_played_out(game, c) for c in legal]
    assert all(s == 1.0 or 0 <= s <= PLACE_WEIGHT for s in scores)


def test_rollouts_leave_the_game_alone_and_repeat():
    """A rollout changes neither the game's state nor its events, and the same seed gives the same score."""
    game = _first_choice(5)
    before = (game.to_record(), game.state.hands[:], len(game.events))
    card = int(game.view(0).legal[-1])
    first = (net_rollout(game, 0, card, KINDS, 7, load_net()), heuristic_rollout(game, 0, card, KINDS, 7))
    assert (game.to_record(), game.state.hands[:], len(game.events)) == before
    assert (net_rollout(game, 0, card, KINDS, 7, load_net()), heuristic_rollout(game, 0, card, KINDS, 7)) == first
