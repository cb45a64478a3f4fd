"""The two-player solver against the engine, the text form, and the seed-002 check (fast subset)."""

from __future__ import annotations

import copy
import itertools
import random

import pytest

from arena import Game, Rules
from arena.game.cards import CARDS, mask_of
from arena.game.errors import SolverError
from arena.game.solver import Solver, SolverBudget
from arena.game.solver_text import parse_position, solve_text
from arena.research.solver_check import (
    check_seed002,
    mini_universe,
    no_shared_suit_positions,
    seed002_count,
    shared_suit_survey,
)
from support.draws import Scripted

ESCAPES = ("pass", "draw", "draw_next_hand", "pass_if_3plus")


def engine_value(game: Game, seat: int, draw_value: float) -> float:
    """``seat``'s expected loss with best play, by brute force over the engine itself."""
    if game.is_over:
        r = game.result
        return draw_value if r.loser is None else float(r.loser == seat)
    values = []
    for action in game.legal_actions():
        probe = copy.deepcopy(game)
        probe.state.rng = Scripted()
        probe.apply(action)
        n = probe.state.rng.asked
        if n is None:
            values.append(engine_value(probe, seat, draw_value))
            continue
        total = 0.0
        for i in range(n):
            branch = copy.deepcopy(game)
            branch.state.rng = Scripted(i)
            branch.apply(action)
            total += engine_value(branch, seat, draw_value)
        values.append(total / n)
    return min(values) if game.current == seat else max(values)


def _rules(rng: random.Random) -> Rules:
    return Rules.preset("getaway", escape=rng.choice(ESCAPES), shootout=rng.random() < 0.3,
                        drawn_cut_loses=rng.random() < 0.5,
                        simultaneous=rng.choice(("highest_loses", "draw")))


def _random_position(rng: random.Random, max_cards: int = 3):
    """Two small hands and a small pile inside a 4-suit x 3-rank universe."""
    universe = [s * 13 + r for s in range(4) for r in range(10, 13)]
    rng.shuffle(universe)
    a, b = rng.randint(1, max_cards), rng.randint(1, max_cards)
    pile_n = rng.randint(0, 4)
    hands = universe[:a], universe[a:a + b]
    pile = universe[a + b:a + b + pile_n]
    drawn = rng.choice(hands[0]) if rng.random() < 0.2 else None
    return hands, pile, drawn


def test_solver_matches_engine_brute_force_on_random_positions():
    """The solver's value equals an expectiminimax over the engine itself (chance draws enumerated)."""
    rng = random.Random(6)
    for _ in range(120):
        rules = _rules(rng)
        (h0, h1), pile, drawn = _random_position(rng)
        game = Game.from_position(rules, [[CARDS[c] for c in h0], [CARDS[c] for c in h1], []],
                                  leader=0, out=[2], discard=[CARDS[c] for c in pile],
                                  drawn=CARDS[drawn] if drawn is not None else None)
        solver = Solver(rules, universe=mask_of(h0) | mask_of(h1) | mask_of(pile), draw_value=0.5)
        want = engine_value(game, 0, 0.5)
        got = solver.value(mask_of(h0), mask_of(h1), drawn if drawn is not None else -1)
        assert got == pytest.approx(want, abs=1e-9), (rules.to_dict(), h0, h1, pile, drawn)


def test_solver_reply_values_match_engine():
    """Values for the follower after a lead equal the engine's brute force from that point."""
    rng = random.Random(61)
    for _ in range(60):
        rules = _rules(rng)
        (h0, h1), pile, _ = _random_position(rng, max_cards=2)
        game = Game.from_position(rules, [[CARDS[c] for c in h0], [CARDS[c] for c in h1], []],
                                  leader=0, out=[2], discard=[CARDS[c] for c in pile])
        if game.is_over:
            continue
        lead = rng.choice(game.legal_actions())
        game.apply(lead)
        if game.is_over:
            continue
        solver = Solver(rules, universe=mask_of(h0) | mask_of(h1) | mask_of(pile))
        sol = solver.solve_reply(mask_of(h0) ^ 1 << lead, mask_of(h1), int(lead))
        assert sol.value == pytest.approx(engine_value(game, 1, 0.5), abs=1e-9)


def _play_out(game: Game, solver_of, strategist: int, replies_seen: list) -> set:
    """Every result reached when ``strategist`` plays the solver's best move and the other tries all."""
    if game.is_over:
        return {game.result.loser}
    seat = game.current
    if seat == strategist:
        actions = [solver_of(game)]
    else:
        actions = list(game.legal_actions())
    losers = set()
    for a in actions:
        g = copy.deepcopy(game)
        g.apply(a)
        replies_seen.append(a)
        losers |= _play_out(g, solver_of, strategist, replies_seen)
    return losers


def _best_move(solver: Solver, hands0: int):
    def choose(game: Game):
        me = game.current
        other = 1 - me
        if not game.state.tcards:
            must = game.state.must if game.state.drawn_lead else -1
            sol = solver.solve(game.state.hands[me], game.state.hands[other], must)
        else:
            led = game.state.tcards[0]
            sol = solver.solve_reply(game.state.hands[other], game.state.hands[me], led, game.state.drawn_lead)
        return CARDS[sol.best[0]]
    return choose


@pytest.mark.parametrize("preset", ["playnest", "champions"])
def test_best_moves_realise_the_value_against_every_reply(preset):
    """Deterministic rules: the side the solver says wins does win, whatever the other plays."""
    rng = random.Random(606)
    rules = Rules.preset(preset, shootout=False)
    checked = 0
    while checked < 40:
        (h0, h1), pile, _ = _random_position(rng, max_cards=4)
        universe = mask_of(h0) | mask_of(h1) | mask_of(pile)
        solver = Solver(rules, universe=universe, draw_value=0.5)
        value = solver.value(mask_of(h0), mask_of(h1))
        if value == 0.5:
            continue
        game = Game.from_position(rules, [[CARDS[c] for c in h0], [CARDS[c] for c in h1], []],
                                  leader=0, out=[2], discard=[CARDS[c] for c in pile])
        winner = 0 if value == 0.0 else 1
        losers = _play_out(game, _best_move(solver, mask_of(h0)), winner, [])
        assert losers == {1 - winner}, (h0, h1, pile, value)
        checked += 1


def test_canonical_keys_change_no_value():
    """Memo keys up to suit permutation and rank gaps give the same values as raw keys."""
    rng = random.Random(66)
    for _ in range(150):
        rules = _rules(rng)
        deck = list(range(52))
        rng.shuffle(deck)
        a, b = rng.randint(1, 3), rng.randint(1, 3)
        ma, mb = mask_of(deck[:a]), mask_of(deck[a:a + b])
        must = deck[0] if rng.random() < 0.3 else -1
        one = Solver(rules, canonical=True).value(ma, mb, must)
        two = Solver(rules, canonical=False).value(ma, mb, must)
        assert one == pytest.approx(two, abs=1e-12)


def test_shootout_and_drawn_cut_known_positions():
    """Known endings: a shootout position is lost; a cut on a drawn lead loses under getaway."""
    champions = Rules.preset("champions")
    solver = Solver(champions)
    hand = mask_of([13 + 2, 13 + 9])            # 4D JD
    other = mask_of([11, 0])                     # KC 2C
    assert solver.value(hand, other) == 1.0
    getaway = Rules.preset("getaway")
    g = Solver(getaway)
    assert g.value(1 << 26, 1 << 0, must=26) == 1.0      # drawn 2H into a lone club: cut, leader loses
    # The other follows higher with its last card: the drawer is out, and the winner, left alone, loses.
    assert g.value(1 << 26, 1 << 27, must=26) == 0.0


def test_text_form_and_errors():
    """The text form parses and solves; bad parts are refused by name."""
    lines = solve_text("leader: 4D / other: KC 2C", Rules.preset("playnest"))
    assert any(line.startswith("value: 100%") for line in lines)
    pos = parse_position("leader: AS KS 2H / other: 3C 4C; pile: 5C")
    assert pos["pile"] == 1 << 3
    with pytest.raises(SolverError, match="'leader'"):
        parse_position("other: 3C")
    with pytest.raises(SolverError, match="expected"):
        parse_position("leader: AS / bogus: 3C")
    with pytest.raises(SolverError, match="trumps"):
        Solver(Rules.preset("donkey"))
    lines = solve_text("leader: 4D 9H / other: KC 2C 3H / led: 4D", Rules.preset("playnest"))
    assert any("other to play to 4D" in line for line in lines)


def test_budget_stops_a_big_search():
    """A state budget raises SolverBudget instead of running on."""
    rng = random.Random(3)
    deck = list(range(52))
    rng.shuffle(deck)
    solver = Solver(Rules.preset("getaway"))
    solver.max_states = 5000
    with pytest.raises(SolverBudget):
        solver.value(mask_of(deck[:13]), mask_of(deck[13:26]))


def test_seed002_count_is_792450():
    """Ordered pairs of non-empty hands with no common suit from a 4-suit x 4-rank pack: 31^4 - 2*16^4 + 1."""
    assert seed002_count(4) == 31 ** 4 - 2 * 16 ** 4 + 1 == 792_450
    assert sum(1 for _ in no_shared_suit_positions(2)) == seed002_count(2) == 7 ** 4 - 2 * 4 ** 4 + 1


def test_seed002_claim_on_a_subset():
    """Two ranks per suit (every position) and a sample of the four-rank ones: the leader never wins."""
    _, stats = check_seed002(ranks=2)
    assert stats["positions"] == seed002_count(2) and stats["leader_wins"] == 0
    rng = random.Random(2)
    solver = Solver(Rules.preset("champions", shootout=False), universe=mini_universe(4))
    sample = rng.sample(list(itertools.islice(no_shared_suit_positions(4), 0, None, 97)), 300)
    assert all(solver.value(a, b) == 1.0 for a, b in sample)


def test_shared_suit_survey_runs():
    """The survey of shared-suit positions returns one row per rule with a share in [0, 1]."""
    rows = shared_suit_survey(samples=12, seed=1, escapes=("pass", "draw"))
    assert len(rows) == 2 and all(0.0 <= r["leader_wins"] <= 1.0 for r in rows)
