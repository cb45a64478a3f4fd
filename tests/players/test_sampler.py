"""The sampler's fast game state against the engine, its sampled worlds, its legality and time."""

from __future__ import annotations

import random

import pytest
from support.legality import expected_legal_mask

from arena import Game, Rules
from arena.game.cards import CARDS
from arena.game.solver import Solver
from players.sampler import SOLVER_STATES, Worlds, SamplerBot, TimedSamplerBot
from players.playout import PlayoutRandom, World, play_out, playout_state
from players.policy import HEURISTIC, HIGH, LOW, RANDOM, heuristic_card
from support.reference_games import first_two_left

VARIANTS = [
    ("getaway", {}), ("playnest", {}), ("champions", {}),
    ("getaway", {"escape": "draw_next_hand"}), ("getaway", {"escape": "pass_if_3plus"}),
    ("playnest", {"first_trick": "normal", "direction": "anticlockwise"}),
    ("champions", {"simultaneous": "highest_loses", "drawn_cut_loses": True}),
]
CORE_ONLY = [("donkey", {}), ("getaway-2deck", {}), ("bhabho", {"take_from": "first_trick"})]
"""Rules the sampler leaves to the heuristic player; its playout state still runs them."""


class _Target:
    """Makes a playout draw the card the engine drew (whatever the order of its pile)."""

    def __init__(self, card: int, state) -> None:
        self.card, self.state = card, state

    def randrange(self, n: int) -> int:
        state, c = self.state, self.card
        if c in state.pile:
            return state.pile.index(c)
        holder = next(s for s in range(state.n) if state.hands[s] >> c & 1)
        return (state.hands[holder] & ((1 << c) - 1)).bit_count()


def _trump_when_the_trick_began(game: Game) -> int:
    """Donkey: the trump suit before the current trick (-1 if this trick's cut fixed it)."""
    plays = 0
    for e in reversed(game.events):
        if plays == len(game.state.tcards):
            break
        if e[0] == "trump":
            return -1
        plays += e[0] == "play"
    return game.state.trump


def _playout_of(game: Game):
    """The sampler's playout state for the game's position, as the sampler builds it (from hands and the trick)."""
    st = game.state
    trick = list(zip(st.tseats, st.tcards))
    leader = trick[0][0] if trick else st.leader
    return playout_state(game.rules, game.players, st.hands, st.out, st.pile, leader, trick, st.first,
                         st.drawn_lead, random.Random(0), st.must, _trump_when_the_trick_began(game))


@pytest.mark.parametrize("preset,overrides", VARIANTS + CORE_ONLY)
def test_playout_states_follow_the_engine(preset, overrides):
    """From any point of a random game, the playout state the sampler builds matches the engine to the end.

    Legality is also checked against the independent reference (``expected_legal_mask``)."""
    rules = Rules.preset(preset, **overrides)
    rng = random.Random(hash((preset, tuple(overrides.items()))) & 0xFFFF)
    lo, hi = rules.seat_range
    for g in range(25):
        players = rng.randint(lo, min(max(lo, 6), hi))
        game = Game.deal(rules, players, seed=g)
        for _ in range(rng.randrange(40)):
            if game.current is not None:
                game.apply(rng.choice(game.legal_actions()))
        while game.decision == "take" and not game.is_over:     # the sampler builds one at a play
            game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            continue
        sim = _playout_of(game)
        while not game.is_over:
            legal = game.legal_actions()
            assert sim.cur == game.current
            assert sum(1 << c for c in legal) == sim.legal_mask() == expected_legal_mask(game)
            card = legal[rng.randrange(len(legal))]
            start = len(game.events)
            game.apply(card)
            draws = [e for e in game.events[start:] if e[0] == "draw"]
            if draws:
                sim.rng = _Target(draws[0][2], sim)
            sim.play(int(card))
            while sim.decision == "take":           # nobody takes in this test: the engine's seats decline too
                assert game.decision == "take" and sim.cur == game.current
                sim.take_answer(False)
                game.apply(False)
            assert sim.hands == game.state.hands and sim.out == game.state.out
            assert sim.over == game.is_over
        assert sim.loser == game.result.loser


@pytest.mark.parametrize("preset", ["getaway", "donkey", "getaway-2deck"])
def test_the_heuristic_policy_plays_whole_games_with_every_hand_known(preset):
    """With every hand shown (a playout's world), the policy picks a legal card every time to the end."""
    rules = Rules.preset(preset)
    for g in range(30):
        state = _playout_of(Game.deal(rules, rules.seat_range[0] if preset.endswith("2deck") else 4, seed=100 + g))
        state.rng = PlayoutRandom(g)
        while not state.over:
            card = heuristic_card(state)
            assert state.legal_mask() >> card & 1
            state.play(card)
        assert state.loser is not None or rules.simultaneous != "highest_loses"


def test_sampled_worlds_respect_what_the_seat_knows():
    """Sizes, known cards and known voids hold in every sampled world; no card is dealt twice."""
    rules = Rules.preset("getaway")
    rng = random.Random(5)
    checked = 0
    for g in range(40):
        game = Game.deal(rules, 4, seed=g)
        for _ in range(rng.randint(5, 40)):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if game.is_over:
            continue
        view = game.view(game.current)
        worlds = Worlds(view)
        for _ in range(5):
            hands = worlds.deal(rng)
            seen = 0
            for s in range(4):
                assert not hands[s] & seen
                seen |= hands[s]
                if view.active[s] and s != view.seat:
                    assert hands[s].bit_count() == view.hand_sizes[s]
                    assert hands[s] & view.known_masks[s] == view.known_masks[s]
            checked += 1
    assert checked > 50


def test_sampler_plays_legal_cards_with_a_fixed_number_of_worlds():
    """Whole games at every seat, several rule sets (Donkey falls back): legal, and exactly the worlds asked for."""
    for preset in ("getaway", "champions", "donkey", "bhabho"):
        # the cost grows with the worlds; the solver gets 30 ms of a two-player decision (not 300: the
        # Getaway and Bhabho endgames of this deal are too big to finish in either, and ran out every time)
        bots = [SamplerBot(seed=s, worlds=2, cap_ms=50) for s in range(4)]
        game = Game.deal(Rules.preset(preset), 4, seed=7)
        sampled, solved = set(), set()
        while not game.is_over:
            seat = game.current
            action = bots[seat].act(game.view(seat))
            game.apply(action)          # raises IllegalAction if the card is not legal
            sampled.add(bots[seat].last.get("worlds"))
            solved.add(bots[seat].last.get("solver"))
        if preset != "donkey":
            assert 2 in sampled, (preset, sampled)
            assert solved - {None}, (preset, solved)  # the endgame went through the solver


def test_sampler_is_reproducible():
    """The same seeds give the same moves: the world count, not the clock, ends a decision."""
    def moves():
        bots = [SamplerBot(seed=s, worlds=8) for s in range(4)]
        game = Game.deal(Rules.preset("getaway"), 4, seed=3)
        while not game.is_over:
            game.apply(bots[game.current].act(game.view(game.current)))
        return game.to_record()["events"]
    assert moves() == moves()


def test_with_two_left_a_count_of_states_not_the_clock_ends_the_solver():
    """The solver's budget is SOLVER_STATES new states a search, so a time cap a hundred times as long
    changes nothing (as a machine a hundred times as fast would not): the same card, solver outcome and
    playout totals, on endings the solver finishes and on endings it gives up."""
    seen = {True: 0, False: 0}
    for seed in range(1, 60):
        found = first_two_left(Rules.preset("getaway"), 4, seed)
        if found is None:
            continue
        view = found[1]
        quick, slow = SamplerBot(seed=5, cap_ms=2_000), SamplerBot(seed=5, cap_ms=200_000)
        assert quick.act(view) == slow.act(view)
        assert quick.last == slow.last
        unfinished = isinstance(quick.last["solver"], str)
        if unfinished:
            assert quick.last["solver"] == f"unfinished: more than {SOLVER_STATES} states"
        seen[unfinished] += 1
        if min(seen.values()) >= 2:
            return
    raise AssertionError(f"expected two endings the solver finishes and two it gives up, saw {seen}")


def test_timed_sampler_samples_at_least_one_world():
    """The anytime variant answers legally with a tiny budget, after at least one world."""
    game = Game.deal(Rules.preset("getaway"), 4, seed=5)
    bot = TimedSamplerBot(seed=1, budget_ms=1)
    while game.current is not None and len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    action = bot.act(game.view(game.current))
    assert action in game.legal_actions() and bot.last["worlds"] >= 1


def test_sampler_takes_a_solver_win_with_two_players_left():
    """Two players left: the sampler plays a card the exact solver rates best."""
    rules = Rules.preset("playnest")
    rng = random.Random(11)
    found = 0
    while found < 15:
        deck = list(range(52))
        rng.shuffle(deck)
        a, b = deck[:5], deck[5:10]
        ma, mb = sum(1 << c for c in a), sum(1 << c for c in b)
        sol = Solver(rules).solve(ma, mb)
        if sol.value != 0.0 or len(sol.best) == len(sol.moves):
            continue
        game = Game.from_position(rules, [[CARDS[c] for c in a], [CARDS[c] for c in b], []],
                                  leader=0, out=[2])
        card = SamplerBot(seed=1, budget_ms=50).act(game.view(0))
        assert int(card) in sol.best
        found += 1


@pytest.mark.parametrize("kinds", [(HEURISTIC,) * 4, (HEURISTIC, LOW, HIGH, RANDOM)])
def test_a_playout_stops_after_its_step_cap(kinds):
    """A playout ends the game, or stops unfinished at its cap (policies can cycle) and says so."""
    game = Game.deal(Rules.preset("getaway"), 4, seed=3)
    whole = World.of(game.state)
    whole.rng = PlayoutRandom(3)
    assert play_out(whole, kinds) is True and whole.cur is None
    cut = World.of(game.state)
    cut.rng = PlayoutRandom(3)
    assert play_out(cut, kinds, steps=5) is False and cut.cur is not None and cut.loser is None
