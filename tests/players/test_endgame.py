"""The ending search with two players left: exact against a deterministic opponent where nothing is random,
checked against a brute force over the rules engine itself; refusals; determinism; the learned player's use."""

from __future__ import annotations

import copy
import random

import pytest

from arena import Game, Rules
from arena.game.cards import CARDS
from players.endgame import endgame_values
from players.learned.bot import LearnedBot
from players.opponents import infer
from players.playout import World
from players.policy import RANDOM, model_card
from support.reference_games import first_two_left


def two_left(rules: Rules, seed: int, max_cards: int) -> tuple[Game, int] | None:
    """A game of four reference players (seated by ``seed``) played until two are left and one of them has
    a choice of cards, each holding at most ``max_cards``; None when the deal does not get there."""
    found = first_two_left(rules, 4, seed)
    if found is None or any(len(found[0].hand(p)) > max_cards for p in range(4)):
        return None
    return found[0], found[1].seat


def escapes(game: Game, me: int, kind: int) -> bool:
    """Brute force on the engine: is there a line of ``me``'s cards after which the other seat, playing the
    reference policy ``kind`` on the true hands (as the search models it), is the Bhabhi?"""
    while not game.is_over:
        s = game.current
        view = game.view(s)
        if s != me:
            game.apply(CARDS[model_card(World.of(game.state), kind, None)])
            continue
        if view.decision != "play":
            game.apply(False)
            continue
        for card in view.legal:
            g = copy.deepcopy(game)
            g.apply(card)
            if escapes(g, me, kind):
                return True
        return False
    return game.result.loser != me


def expected_loss(game: Game, me: int) -> float:
    """Brute force on the engine against a uniformly random other player: ``me``'s least expected loss."""
    while not game.is_over:
        view = game.view(game.current)
        if len(view.legal) == 1:
            game.apply(view.legal[0])
            continue
        after = []
        for card in view.legal:
            g = copy.deepcopy(game)
            g.apply(card)
            after.append(expected_loss(g, me))
        return min(after) if game.current == me else sum(after) / len(after)
    return 1.0 if game.result.loser == me else 0.0


def positions(rules: Rules, count: int, max_cards: int) -> list[tuple[Game, int]]:
    found, seed = [], 0
    while len(found) < count:
        seed += 1
        got = two_left(rules, seed, max_cards)
        if got is not None:
            found.append(got)
    return found


def test_against_the_opponents_model_without_draws_the_search_is_exact():
    """Under ``playnest`` (no draws), an unbudgeted search against the policy the other seat's plays fit
    rates a card 0 exactly when some line after it gets away (a brute force over the engine and that
    policy's bot), and against a random seat gives the least expected loss the engine's brute force finds."""
    rules = Rules.preset("playnest")
    checked = set()
    for game, me in positions(rules, 16, 4):
        view = game.view(me)
        other = next(s for s in range(4) if view.active[s] and s != me)
        kind = infer(view).kinds[other]
        values = endgame_values(view, 0.5, visits=10 ** 7)
        assert values is not None and set(values) == {int(c) for c in view.legal}
        for card in view.legal:
            g = copy.deepcopy(game)
            g.apply(card)
            if kind == RANDOM:
                assert values[int(card)] == pytest.approx(expected_loss(g, me)), (card, values)
            else:
                assert values[int(card)] in (0.0, 1.0)
                assert (values[int(card)] == 0.0) == escapes(g, me, kind), (card, values)
            checked.add((kind, values[int(card)] in (0.0, 1.0)))
    assert len(checked) >= 3            # a deterministic model and a random one, won and lost cards


def test_draws_are_chance_nodes_and_the_search_is_deterministic():
    """Under ``getaway`` (draws from the pile) values are expected losses in [0, 1]; the same seed gives the
    same values, and a budget of positions (not time) bounds the work."""
    for game, me in positions(Rules.preset("getaway"), 6, 8):
        view = game.view(me)
        first = endgame_values(view, 0.25, visits=2000)
        assert first is not None and first == endgame_values(view, 0.25, visits=2000)
        assert all(0.0 <= v <= 1.0 for v in first.values())


def test_refused_unless_exactly_two_players_are_left_under_one_pack_without_trumps():
    game = Game.deal(Rules.preset("getaway"), 4, seed=3)
    assert endgame_values(game.view(game.current), 0.5) is None           # four players in
    for g, me in positions(Rules.preset("donkey"), 2, 13):                # trumps
        assert endgame_values(g.view(me), 0.5) is None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_learned_player_plays_the_searched_card_with_two_left(seed):
    """With two left the learned player plays a card the search rates lowest (the network's on a tie);
    with ``visits=0`` it plays the network's card, as before the search."""
    rules = Rules.preset("getaway")
    game, me = positions(rules, seed, 8)[-1]
    view = game.view(me)
    bot, plain = LearnedBot(7), LearnedBot(7, visits=0)
    card = bot.act(view)
    values = endgame_values(view, random.Random(7).random(), bot.visits)
    assert values is not None and values[int(card)] == min(values.values())
    net_card = plain.act(view)
    if values[int(net_card)] == min(values.values()):
        assert card == net_card
