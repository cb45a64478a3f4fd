"""The solver against the rules core: every two-player option, values and move values by brute force over State.

The solver steps whole tricks on two masks; :class:`arena.game.state.State` plays
card by card. Both take their rule decisions from :mod:`arena.game.rulings`; these
tests catch any drift between the two (a rule changed in one and not the other).
"""

from __future__ import annotations

import itertools
import random

import pytest

from arena import Rules
from arena.game.cards import bit_list, card
from arena.game.rulings import (ALONE, CUTS, DRAW, DRAW_NEXT, HOLDS, MODES, PASS, SIMULTANEOUS, STEP, TAKES, TIED,
                                drawn_cut_ends, follow_mask, follow_step, lead_mask, winner_without_cards)
from arena.game.solver import Solver
from arena.game.state import State
from support.draws import Scripted

OPTIONS = list(itertools.product(("pass", "draw", "draw_next_hand", "pass_if_3plus"), (False, True),
                                 (False, True), ("highest_loses", "draw")))
DRAW_VALUE = 0.5


def _outcome(state: State, seat: int) -> float:
    return DRAW_VALUE if state.loser is None else float(state.loser == seat)


def move_value(state: State, c: int, seat: int) -> float:
    """``seat``'s expected loss after the seat to act plays ``c`` (chance draws enumerated), best play after."""
    probe = state.copy()
    probe.rng = Scripted()
    probe.play(c)
    n = probe.rng.asked
    if n is None:
        return state_value(probe, seat)
    total = 0.0
    for i in range(n):
        branch = state.copy()
        branch.rng = Scripted(i)
        branch.play(c)
        total += state_value(branch, seat)
    return total / n


def state_value(state: State, seat: int) -> float:
    """``seat``'s expected loss with best play by both, by expectiminimax over the rules core itself."""
    if state.cur is None:
        return _outcome(state, seat)
    values = [move_value(state, c, seat) for c in bit_list(state.legal_mask())]
    return min(values) if state.cur == seat else max(values)


def _position(rng: random.Random, ranks: int, max_cards: int):
    """Two hands and a pile inside a 4-suit universe of the top ``ranks`` ranks; sometimes a drawn lead."""
    universe = [s * 13 + r for s in range(4) for r in range(13 - ranks, 13)]
    rng.shuffle(universe)
    a, b = rng.randint(1, max_cards), rng.randint(1, max_cards)
    pile = universe[a + b:a + b + rng.randint(0, 4)]
    lead, other = universe[:a], universe[a:a + b]
    must = rng.choice(lead) if rng.random() < 0.3 else -1
    return sum(1 << c for c in lead), sum(1 << c for c in other), pile, must


def _start(rules: Rules, lead: int, other: int, pile: list[int], must: int) -> State:
    """The core at the start of a trick (trick 1 done): seat 0 leads (``must``: its drawn card)."""
    state = State(rules, 2, Scripted(), hands=[lead, other], pile=pile)
    state.begin(0, False, drawn=must)
    return state


@pytest.mark.parametrize("escape,shootout,cut_loses,simultaneous", OPTIONS)
def test_solver_values_equal_the_core_brute_force(escape, shootout, cut_loses, simultaneous):
    """Every escape / shootout / drawn_cut_loses / simultaneous option: the value and each lead's value
    equal an expectiminimax over State (random positions, chance draws enumerated)."""
    rules = Rules.preset("getaway", escape=escape, shootout=shootout, drawn_cut_loses=cut_loses,
                         simultaneous=simultaneous)
    rng = random.Random(f"{escape}{shootout}{cut_loses}{simultaneous}")
    for i in range(14):
        lead, other, pile, must = _position(rng, ranks=3 + i % 2, max_cards=3)
        universe = lead | other | sum(1 << c for c in pile)
        state = _start(rules, lead, other, pile, must)
        solver = Solver(rules, universe=universe, draw_value=DRAW_VALUE, canonical=i % 3 != 0)
        sol = solver.solve(lead, other, must)
        assert sol.value == pytest.approx(state_value(state, 0), abs=1e-9), (lead, other, pile, must)
        if state.cur is None:
            assert sol.value == 1.0 and state.reason == "shootout"
            continue
        for c, v in sol.moves:
            assert v == pytest.approx(move_value(state, c, 0), abs=1e-9), (lead, other, pile, must, c)
        c = rng.choice([m for m, _ in sol.moves])
        after = state.copy()
        after.play(c)
        reply = solver.solve_reply(lead ^ 1 << c, other, c, drawn=must >= 0)
        for f, v in reply.moves:
            assert v == pytest.approx(move_value(after, f, 1), abs=1e-9), (lead, other, pile, must, c, f)


def test_winner_without_cards_known_cases():
    """The escape rule, whole: pass, draw from the pile or the next hand, and the three endings."""
    for escape, holders, pile, want in [
        ("pass", 1, True, PASS), ("draw", 1, True, DRAW), ("draw", 1, False, PASS),
        ("draw_next_hand", 1, False, DRAW_NEXT), ("pass_if_3plus", 2, True, PASS),
        ("pass_if_3plus", 1, True, DRAW), ("pass_if_3plus", 1, False, PASS),
        ("draw", 0, True, ALONE), ("draw_next_hand", 0, True, ALONE), ("pass_if_3plus", 0, True, ALONE),
        ("pass", 0, True, SIMULTANEOUS), ("draw", 0, False, SIMULTANEOUS),
    ]:
        assert winner_without_cards(MODES[escape], holders, pile, True) == want, (escape, holders, pile)
    assert winner_without_cards(MODES["pass"], 0, True, False) == TIED
    assert winner_without_cards(MODES["draw"], 1, True, False) == DRAW


def test_legal_cards_and_drawn_cut_known_cases():
    """Follow suit if you can (Donkey: else a trump if you can), a drawn lead must be led; a drawn cut ends
    the game only with two players, on a drawn lead, under drawn_cut_loses."""
    hand = 1 << 0 | 1 << 5 | 1 << 13 | 1 << 40          # 2C 7C 2D 3S
    assert follow_mask(hand, 0) == 1 << 0 | 1 << 5
    assert follow_mask(hand, 2) == hand
    assert follow_mask(hand, 2, trump=1) == 1 << 13
    assert follow_mask(hand, 2, trump=2) == hand
    assert lead_mask(hand, -1) == hand and lead_mask(hand, 40) == 1 << 40
    assert drawn_cut_ends(True, True, 2, 1, 0)
    assert not drawn_cut_ends(False, True, 2, 1, 0) and not drawn_cut_ends(True, False, 2, 1, 0)
    assert not drawn_cut_ends(True, True, 3, 1, 0) and not drawn_cut_ends(True, True, 2, 0, 0)


def test_trick_step_known_cases():
    """The higher card of the best card's suit takes the trick; a lower one (or, two packs, an equal one
    played later) falls under it; a card of another suit cuts; STEP is follow_step's table."""
    c = {text: int(card(text)) for text in ("7H", "9H", "2H", "AC", "7H*")}
    assert follow_step(c["7H"], c["9H"]) == TAKES and follow_step(c["9H"], c["7H"]) == HOLDS
    assert follow_step(c["7H"], c["2H"]) == HOLDS and follow_step(c["7H"], c["AC"]) == CUTS
    assert follow_step(c["7H"], c["7H*"]) == HOLDS
    assert all(STEP[b][x] == follow_step(b, x) for b in range(104) for x in range(104))
