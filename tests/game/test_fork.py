"""Game.fork: a what-if copy of a game that plays on exactly as the game would, and leaves it alone."""

import random

import pytest

from arena import PRESETS, Game, PositionError, Rules


def _random_steps(game: Game, rng: random.Random, steps: int | None = None) -> None:
    while game.current is not None and (steps is None or steps > 0):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        steps = None if steps is None else steps - 1


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_fork_plays_on_as_the_game_would_and_leaves_it_alone(preset):
    """Under every preset: forked mid-game, the fork has the game's record; played on, it leaves the game's
    record and hands as they were; the game played on with the same choices ends with the fork's record."""
    rules = Rules.preset(preset)
    players = rules.seat_range[0] + 1
    for seed in range(12):
        game = Game.deal(rules, players, seed)
        _random_steps(game, random.Random(seed), steps=5 + seed * 3)
        if game.current is not None and seed % 3 == 0:
            game.apply_fault("timeout")          # faults and forfeits are part of the position
        record, hands = game.to_record(), game.state.hands[:]
        fork = game.fork()
        assert fork.to_record() == record
        _random_steps(fork, random.Random(100 + seed))
        assert game.to_record() == record and game.state.hands == hands
        _random_steps(game, random.Random(100 + seed))
        assert game.to_record() == fork.to_record()
        assert game.result == fork.result


def test_a_fork_on_the_games_own_state_is_refused():
    game = Game.deal(Rules.preset("getaway"), 4, 1)
    with pytest.raises(PositionError, match="expected a copy of the game's state"):
        game.fork(game.state)
