"""python_bhabhi against OpenSpiel's own checks, and what the game is: the deal, the draws, the returns, clones.

``pyspiel.random_sim_test`` plays random games through the C++ API checking it at every state (legal actions,
chance outcomes summing to 1, the observation and information strings and tensors, clones, returns); the
other tests are the ones OpenSpiel's Python games have (open_spiel/python/games/*_test.py): the game loads
by name with its parameters, a game played by hand gives the returns the rules say.
"""

from __future__ import annotations

import random

import pyspiel
import pytest

from arena import Game, Rules
from arena.game.cards import PACK, card
from players.openspiel.core import MAX_MOVES, NO_TAKE, TAKE, Table
from players.openspiel.errors import OpenSpielError
from players.openspiel.game import SHORT_NAME, BhabhiState

CASES = [("getaway", 3), ("getaway", 4), ("getaway", 8), ("playnest", 6), ("champions", 5), ("donkey", 4),
         ("bhabho", 3), ("bhabho", 6)]


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_random_sim_test(preset, players):
    game = pyspiel.load_game(SHORT_NAME, {"rules": preset, "players": players})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_random_sim_test_with_two_packs_and_rule_options():
    for params in ({"rules": "getaway-2deck", "players": 7},
                   {"rules": '{"preset": "getaway", "escape": "draw_next_hand"}', "players": 4}):
        pyspiel.random_sim_test(pyspiel.load_game(SHORT_NAME, params), num_sims=1, serialize=False, verbose=False)


def test_the_game_type_and_info():
    game = pyspiel.load_game(SHORT_NAME, {"players": 5})
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (kind.min_num_players, kind.max_num_players) == (3, 8)
    assert game.num_players() == 5 and game.max_chance_outcomes() == PACK
    assert game.num_distinct_actions() == TAKE + 1 and game.max_game_length() == MAX_MOVES
    assert game.min_utility() == -1 and game.max_utility() == pytest.approx(0.25) and game.utility_sum() == 0
    assert game.get_parameters() == {"rules": "getaway", "players": 5}


def test_table_sizes_the_rules_refuse_are_refused():
    with pytest.raises(Exception, match="players must be 3-6"):
        pyspiel.load_game(SHORT_NAME, {"rules": "playnest", "players": 8})
    with pytest.raises(OpenSpielError, match="deal must be 'single'"):
        pyspiel.load_game(SHORT_NAME, {"rules": '{"preset": "getaway", "deal": "piles"}', "players": 4})


def _deal(state: BhabhiState, pack: list[int]) -> None:
    for c in pack:
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert c in {a for a, _ in outcomes}
        state.apply_action(c)


def test_the_deal_is_the_engines_deal_card_by_card():
    """Dealt the shuffled pack of ``Game.deal(rules, 4, seed)`` in order, the hands are that game's."""
    for players, dealer_seed in ((4, 11), (5, 12), (3, 13)):
        game = pyspiel.load_game(SHORT_NAME, {"players": players})
        state = game.new_initial_state()
        pack = list(range(PACK))
        random.Random(dealer_seed).shuffle(pack)
        _deal(state, pack)
        assert not state.is_chance_node()
        engine = Game.deal(Rules.preset("getaway"), players, dealer_seed)
        assert [state.table.game.hand(s) for s in range(players)] == [engine.hand(s) for s in range(players)]
        assert state.current_player() == engine.current and state.legal_actions() == [0 + 51]  # AS leads


def _play_randomly(state, rng: random.Random, until=lambda s: False):
    while not state.is_terminal() and not until(state):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            assert sum(probs) == pytest.approx(1.0) and len(set(probs)) == 1
            state.apply_action(rng.choice(actions))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_draw_is_a_chance_node_over_the_pile():
    """Under ``escape = "draw"`` a winner with no cards draws: a chance node, one outcome per pile card, each
    outcome the card the rules core draws; the player then leads it."""
    game = pyspiel.load_game(SHORT_NAME, {"players": 4})
    rng = random.Random(5)
    seen = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            state = _play_randomly(state, rng, until=lambda s: s.is_chance_node() and s.table.game is not None)
            if state.is_terminal():
                break
            pile = list(state.table.game.state.pile)
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == list(range(len(pile)))
            trial = state.clone()
            choice = rng.randrange(len(pile))
            trial.apply_action(choice)
            drawn = [e for e in trial.table.game.events if e[0] == "draw"][-1]
            assert drawn[2] == pile[choice]
            if not trial.is_terminal() and trial.current_player() == drawn[1]:
                assert trial.legal_actions() == [pile[choice]]
            seen += 1
            state.apply_action(choice)
        if seen >= 3:
            break
    assert seen >= 3


def test_returns_minus_one_for_the_bhabhi_and_a_share_for_the_others():
    rng = random.Random(2)
    for preset, players in (("getaway", 4), ("bhabho", 5), ("champions", 3)):
        game = pyspiel.load_game(SHORT_NAME, {"rules": preset, "players": players})
        for _ in range(5):
            state = _play_randomly(game.new_initial_state(), rng)
            result = state.table.game.result
            returns = state.returns()
            assert sum(returns) == pytest.approx(0.0)
            if result.loser is None:
                assert returns == [0.0] * players
            else:
                assert returns[result.loser] == -1
                assert all(r == pytest.approx(1 / (players - 1)) for s, r in enumerate(returns) if s != result.loser)


def test_a_drawn_game_returns_zero_to_everyone():
    """``champions`` (simultaneous = "draw"): every hand empties on one clean trick, no Bhabhi."""
    game = pyspiel.load_game(SHORT_NAME, {"rules": "champions", "players": 3})
    table = Table(game.rules, 3)
    table.start(Game.from_position(game.rules, [["2C"], ["3C"], ["4C"]], leader=0))
    state = game.new_initial_state(table)
    for c in ("2C", "3C", "4C"):
        state.apply_action(int(card(c)))
    assert state.is_terminal() and state.table.game.result.draw
    assert state.returns() == [0.0, 0.0, 0.0]


def test_takes_are_two_actions():
    game = pyspiel.load_game(SHORT_NAME, {"rules": "bhabho", "players": 4})
    rng = random.Random(1)
    state = _play_randomly(game.new_initial_state(), rng,
                           until=lambda s: not s.is_chance_node() and s.legal_actions() == [NO_TAKE, TAKE])
    assert state.action_to_string(state.current_player(), TAKE) == "take"
    before = sum(state.table.game.state.active)
    state.apply_action(TAKE)
    assert sum(state.table.game.state.active) == before - 1


def test_a_clone_is_independent_and_plays_on_the_same():
    game = pyspiel.load_game(SHORT_NAME, {"rules": "getaway", "players": 4})
    state = _play_randomly(game.new_initial_state(), random.Random(3), until=lambda s: s.move_number() > 80)
    text, history = str(state), state.history()
    copy = state.clone()
    assert str(copy) == text and copy.history() == history
    a = _play_randomly(copy, random.Random(9))
    assert str(state) == text and state.history() == history and not state.is_terminal()
    b = _play_randomly(state.clone(), random.Random(9))
    assert a.history() == b.history() and a.returns() == b.returns()
