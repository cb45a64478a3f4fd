"""openspiel-ismcts: OpenSpiel's ISMCTS seated as an arena player, in process and in its sandbox.

It must be registered like the other built-ins, play only legal cards and answers, be deterministic given its
seed, and pass check-bot in the sandbox; and OpenSpiel's ISMCTS must also run on the game's own states, whose
``resample_from_infostate`` it then calls. No test here asks how strong it is (docs/training.md, "OpenSpiel",
has the measurement).
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from arena import Bot, Game, Rules
from arena.plugins.checkbot import check_bot
from arena.plugins.registry import load
from arena.plugins.runner import play_one
from players.openspiel.bot import ISMCTSPlayer
from players.openspiel.game import SHORT_NAME

pytestmark = pytest.mark.long

REGISTRY = load(autoload=False)
SMALL = "openspiel-ismcts(simulations=8)"


def test_registered_like_the_other_builtins():
    spec = REGISTRY.get("openspiel-ismcts")
    assert spec.trusted and spec.plugin == "players" and "\n" not in spec.description
    assert spec.accepted() == {"simulations": "int", "uct_c": "float", "rollouts": "int"}
    bot = spec.create(seed=3, simulations=7)
    assert isinstance(bot, Bot) and isinstance(bot, ISMCTSPlayer) and bot.simulations == 7


def test_it_plays_legal_games_and_the_same_seed_plays_the_same():
    rules = Rules.preset("getaway")
    names = [SMALL, "sampler", "heuristic", "random"]
    first = play_one(REGISTRY, rules, names, seed=5, sandbox=False)
    again = play_one(REGISTRY, rules, names, seed=5, sandbox=False)
    assert first["result"] is not None and first["events"] == again["events"]
    assert Game.from_record(first).result.to_dict() == first["result"]   # every play legal: it replays
    assert not [e for e in first["events"] if e["type"] == "fault"]


def test_it_answers_takes_with_a_search():
    rules = Rules.preset("bhabho")
    record = play_one(REGISTRY, rules, [SMALL, "random", "random#2"], seed=2, sandbox=False)
    takes = [e for e in record["events"] if e["type"] == "take" and e["seat"] == 0]
    assert takes and not [e for e in record["events"] if e["type"] == "fault"]


def test_check_bot_in_the_sandbox():
    report = check_bot(SMALL, registry=REGISTRY, games=1, presets=["getaway", "donkey", "bhabho"],
                       table_sizes=[3, 5])
    assert report.sandboxed and report.ok, [(r.check, r.ok, r.detail) for r in report.rows]


def test_openspiels_ismcts_on_the_games_own_states():
    """Its default resampler is the state's ``resample_from_infostate``: the search runs and picks a legal action."""
    game = pyspiel.load_game(SHORT_NAME, {"players": 4})
    rng = random.Random(1)
    state = game.new_initial_state()
    while state.is_chance_node() or state.move_number() < 60 or len(state.legal_actions()) < 2:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 2.0, 20,
                           random_state=np.random.RandomState(0))
    assert bot.step(state) in state.legal_actions()
