"""The learned player with three players left at a larger table: the sampler's card, and only there."""

from __future__ import annotations

from arena import Rules
from players.learned.bot import WORLDS, LearnedBot
from players.sampler import SamplerBot
from support.reference_games import first_two_left, reference_game

GETAWAY = Rules.preset("getaway")


def decisions(seats: int, seed: int):
    """The view of every play decision with a choice of cards in one game of the reference players
    (seated by ``seed``), in the order they come."""
    for _game, view in reference_game(GETAWAY, seats, seed):
        if view.decision == "play" and len(view.legal) > 1:
            yield view


def test_with_three_left_of_four_it_plays_the_samplers_card():
    """At every decision with three of four players in, the learned player's card is the one a sampler of
    the same seed and as many worlds picks by its playouts; on some the network alone would have played another."""
    differs, checked = 0, 0
    for seed in range(1, 40):
        for view in decisions(4, seed):
            if sum(view.active) != 3:
                continue
            card = LearnedBot(7).act(view)
            assert card == SamplerBot(7, worlds=WORLDS).sampled_card(view)
            differs += card != LearnedBot(7, worlds=0).act(view)
            checked += 1
        if differs >= 2 and checked >= 20:
            break
    assert differs >= 2 and checked >= 20, (differs, checked)


def test_elsewhere_the_sampler_is_not_asked():
    """Four players in, or three at a three-seat table: the same card as with ``worlds=0`` (the network's)."""
    seen = {3: 0, 4: 0}
    for seats in (3, 4):
        for seed in range(1, 4):
            for view in decisions(seats, seed):
                if sum(view.active) == seats:
                    assert LearnedBot(7).act(view) == LearnedBot(7, worlds=0).act(view)
                    seen[seats] += 1
    assert min(seen.values()) >= 10, seen


def test_the_samplers_card_never_asks_the_solver():
    """``sampled_card`` with two players left plays out worlds (no solver); ``play`` asks the solver first."""
    found = first_two_left(GETAWAY, 4, 2)
    assert found is not None, "deal 2 never came to two players with a choice"
    view = found[1]
    sampler = SamplerBot(3)
    assert sampler.sampled_card(view) in view.legal
    assert sampler.last["solver"] is None and sampler.last["worlds"] == 120
    sampler.play(view)
    assert sampler.last["solver"] is not None
