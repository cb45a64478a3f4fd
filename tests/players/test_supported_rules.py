"""One answer to which rules the solver's model holds for: the solver refuses the others with it, and the
players built on that model (the sampler, its opponent models, the learned player) play the heuristic's moves
under them."""

from __future__ import annotations

import random

import pytest

from arena import PRESETS, Game
from arena.game.errors import SolverError
from arena.game.solver import Solver, supports, unsupported
from players.heuristic import HeuristicBot
from players.learned.bot import LearnedBot
from players.opponents import infer
from players.sampler import SamplerBot


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_solver_refuses_exactly_what_supports_says_with_its_message(preset):
    """Every preset: supported means the solver is made; unsupported means SolverError with that message."""
    rules = PRESETS[preset]
    assert supports(rules) == (rules.decks == 1 and not rules.trumps)
    if supports(rules):
        assert unsupported(rules) == "" and Solver(rules).rules == rules
    else:
        with pytest.raises(SolverError) as caught:
            Solver(rules)
        assert str(caught.value) == unsupported(rules) != ""


def _unsupported_views(limit: int = 40):
    """Views of the seat to play in random games under each unsupported preset."""
    for name in sorted(PRESETS):
        rules = PRESETS[name]
        if supports(rules):
            continue
        game, rng, views = Game.deal(rules, rules.seat_range[0], 11), random.Random(5), 0
        while not game.is_over and views < limit:
            view = game.view(game.current)
            if view.decision == "play":
                yield view
                views += 1
            game.apply(rng.choice(game.legal_actions()))


def test_under_unsupported_rules_the_model_players_play_the_heuristics_moves():
    """The sampler and the learned player answer as the heuristic does; the opponent models stay as made
    (nothing forbidden, nothing checked)."""
    seen = 0
    for view in _unsupported_views():
        expected = HeuristicBot(3).play(view)
        assert SamplerBot(3).play(view) == expected
        assert LearnedBot(3).play(view) == expected
        models = infer(view)
        assert models.forbid == [0] * view.players and models.checks == [0] * view.players
        seen += 1
    assert seen > 0
