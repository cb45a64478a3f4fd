"""The playouts' fast paths against the plain ones: the same cards, the same finishing places, the same draws."""

from __future__ import annotations

import random

import pytest

from arena import Game, Rules
from players.playout import PlayoutRandom, SeededLater, World, plain_card, play_out
from players.policy import HEURISTIC, HIGH, LOW, RANDOM, heuristic_card

PLAIN = [
    ("getaway", {}), ("playnest", {}), ("champions", {}), ("bhabho", {}),
    ("getaway", {"escape": "draw_next_hand"}), ("getaway", {"escape": "pass_if_3plus"}),
    ("getaway", {"escape": "pass", "direction": "anticlockwise"}),
    ("playnest", {"first_trick": "normal"}),
    ("champions", {"simultaneous": "highest_loses", "drawn_cut_loses": True}),
    ("bhabho", {"take_from": "first_trick", "take_order": "dealer_left"}),
]
"""One pack without trumps: the rules the sampler plays, where a playout chooses its cards with plain_card."""


def _worlds(preset: str, overrides: dict, games: int, seed: int):
    """Worlds taken from random games at random points (a third in trick 1), a seat to play in each."""
    rules = Rules.preset(preset, **overrides)
    rng = random.Random(seed)
    lo, hi = rules.seat_range
    for g in range(games):
        game = Game.deal(rules, rng.randint(lo, min(hi, 7)), seed=seed * 1000 + g)
        for _ in range(rng.randrange(60) if g % 3 else g % 4):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        if not game.is_over and game.decision == "play":
            world = World.of(game.state)
            world.rng = PlayoutRandom(g)
            yield world


@pytest.mark.parametrize("preset,overrides", PLAIN)
def test_plain_card_is_the_heuristic_policy_at_every_step(preset, overrides):
    """Every play of whole playouts from many positions: plain_card chooses heuristic_card's card."""
    steps = 0
    for world in _worlds(preset, overrides, 80, len(preset) + len(overrides)):
        while world.cur is not None:
            if world.decision == "take":
                world.take_answer(False)
                continue
            card = heuristic_card(world)
            assert plain_card(world) == card, (preset, overrides, world.hands, world.tcards)
            world.play(card)
            steps += 1
    assert steps > 500


def _place(world: World, seat: int):
    return "loser" if world.loser == seat else world.out.index(seat) if seat in world.out else "in"


@pytest.mark.parametrize("preset,overrides", PLAIN[:4] + [("donkey", {}), ("getaway-2deck", {})])
@pytest.mark.parametrize("kinds", [HEURISTIC, (HEURISTIC, LOW, HIGH, RANDOM)])
def test_a_playout_stopped_when_its_seat_is_out_gives_it_the_same_place(preset, overrides, kinds):
    """The seat's place (out in which order, or the Bhabhi) is what the whole playout gives it."""
    for world in _worlds(preset, overrides, 25, 7):
        seat = world.cur
        mix = (kinds,) * world.n if kinds == HEURISTIC else tuple(kinds[s % 4] for s in range(world.n))
        whole, cut = world.copy(), world.copy()
        whole.rng, cut.rng = PlayoutRandom(3), SeededLater(3)
        assert play_out(whole, mix)
        assert play_out(cut, mix, seat=seat)
        assert _place(cut, seat) == _place(whole, seat)
        assert cut.cur is None or seat in cut.out


def test_seeded_later_draws_what_playout_random_draws():
    """Seeded at its first call, the same numbers as the generator seeded at once."""
    for seed in (0.0, 0.25, 0.7312):
        now, later = PlayoutRandom(seed), SeededLater(seed)
        assert [now.randrange(n) for n in range(1, 40)] == [later.randrange(n) for n in range(1, 40)]
        assert now.random() == later.random()
