"""Observations hold nothing a seat may not see.

Two games differ only in cards hidden from seat 0 (a card of seat 1 swapped
with one of seat 2). Every seat acts by a fixed function of its own
observation. While seat 0's events (what the arena shows it) are the same in
both games, its observations must be the same, although seats 1 and 2 see
different hands; and each observation is the one a sandboxed bot's view gives
(the view rebuilt from the seat's event dicts, as the bot's host does).
"""

from __future__ import annotations

import numpy as np
import pytest

from arena.game.cards import card
from arena.game.engine import Game
from arena.game.rules import PRESETS
from arena.game.knowledge import view_from_events
from arena.rl.encoding import ACTIONS, SIZE, action_mask, encode
from arena.rl.table import Table

WEIGHTS = np.random.default_rng(0).normal(size=(ACTIONS, SIZE)).astype(np.float32)


def _policy(table: Table) -> int:
    """The acting seat's choice: a fixed function of its own observation."""
    view = table.view(table.current)
    scores = WEIGHTS @ encode(view)
    scores[action_mask(view) == 0] = -np.inf
    return int(np.argmax(scores))


def _swapped(hands: list[list[str]]) -> list[list[str]]:
    """Seat 1's lowest card swapped with seat 2's card of the same suit if it has one (else its first)."""
    a = min(hands[1], key=lambda t: card(t).rank)
    b = next((t for t in hands[2] if card(t).suit == card(a).suit and t != a), hands[2][0])
    out = [list(h) for h in hands]
    out[1][out[1].index(a)], out[2][out[2].index(b)] = b, a
    return out


@pytest.mark.parametrize(("preset", "players"),
                         [("getaway", 4), ("bhabho", 4), ("bhabho", 5), ("donkey", 5), ("champions", 3),
                          ("playnest", 4), ("getaway-2deck", 7)])
def test_hidden_cards_change_no_observation_until_the_seat_could_know(preset, players):
    rules = PRESETS[preset]
    compared = hidden_differences = 0
    for seed in range(8):
        hands = Game.deal(rules, players, seed).start["hands"]
        a = Table(rules, players, seed, hands=hands)
        b = Table(rules, players, seed, hands=_swapped(hands))
        while not a.over and not b.over:
            if a.game.seat_events(0) != b.game.seat_events(0):
                break                               # seat 0 has been shown the difference
            obs_a, obs_b = encode(a.facts(0)), encode(b.facts(0))
            assert (obs_a == obs_b).all(), f"{preset} seed {seed}: seat 0's observation differs before it could know"
            assert (action_mask(a.view(0)) == action_mask(b.view(0))).all()
            compared += 1
            hidden_differences += any((encode(a.facts(s)) != encode(b.facts(s))).any() for s in (1, 2))
            a.step(_policy(a))
            b.step(_policy(b))
    assert compared > 20 and hidden_differences > 20     # not vacuous: the other seats did see the difference


@pytest.mark.parametrize(("preset", "players"), [("getaway", 4), ("bhabho", 5), ("donkey", 3), ("getaway-2deck", 8)])
def test_each_observation_is_the_one_a_sandboxed_bots_view_gives(preset, players):
    rules = PRESETS[preset]
    for seed in range(3):
        table = Table(rules, players, seed)
        while not table.over:
            game = table.game
            for seat in range(players):
                mine = seat == table.current
                rebuilt = view_from_events(seat, players, rules, game.seat_events(seat),
                                           game.legal_actions() if mine else (), game.decision if mine else None)
                for own in (table.view(seat), table.facts(seat)):      # the env's view, its fast path
                    assert (encode(rebuilt) == encode(own)).all()
                    assert (action_mask(rebuilt) == action_mask(own)).all()
            table.step(_policy(table))
