"""The sampler's fast game state against the engine, its sampled worlds, its legality and time."""

from __future__ import annotations

import random

import pytest

from arena import Game, Rules
from arena.game.cards import CARDS
from arena.game.solver import Solver
from players.sampler import Knowledge, SamplerBot, TimedSamplerBot
from players.sampler_sim import new_sim

VARIANTS = [
    ("getaway", {}), ("playnest", {}), ("champions", {}),
    ("getaway", {"escape": "draw_next_hand"}), ("getaway", {"escape": "pass_if_3plus"}),
    ("playnest", {"first_trick": "normal", "direction": "anticlockwise"}),
    ("champions", {"simultaneous": "highest_loses", "drawn_cut_loses": True}),
]


class _Target:
    """Makes the sim draw the card the engine drew (its pile order differs from the engine's)."""

    def __init__(self, card: int, sim) -> None:
        self.card, self.sim = card, sim

    def random(self) -> float:
        sim, c = self.sim, self.card
        if c in sim.pile:
            return (sim.pile.index(c) + 0.5) / len(sim.pile)
        holder = next(s for s in range(sim.n) if sim.hands[s] >> c & 1)
        hand = sim.hands[holder]
        return ((hand & ((1 << c) - 1)).bit_count() + 0.5) / hand.bit_count()


def _sim_of(game: Game):
    return new_sim(game.rules, game.players, game.hands, game.active, game.out, game.discard,
                   game.leader, game.cur, list(zip(game.trick_seats, game.trick_cards)),
                   game.first_trick, game.must_lead, game.drawn_lead, random.Random(0))


@pytest.mark.parametrize("preset,overrides", VARIANTS)
def test_sim_follows_the_engine(preset, overrides):
    """Random legal games: the sim's legal cards, hands, outs and loser match the engine's at every step."""
    rules = Rules.preset(preset, **overrides)
    rng = random.Random(hash((preset, tuple(overrides.items()))) & 0xFFFF)
    for g in range(25):
        players = rng.randint(3, min(6, rules.max_players))
        game = Game.deal(rules, players, seed=g)
        sim = _sim_of(game)
        while not game.is_over:
            legal = game.legal_actions()
            assert sim.cur == game.cur
            assert sum(1 << c for c in legal) == sim.legal_mask()
            card = legal[rng.randrange(len(legal))]
            start = len(game.events)
            game.apply(card)
            draws = [e for e in game.events[start:] if e[0] == "draw"]
            if draws:
                sim.rng = _Target(draws[0][2], sim)
            sim.play(int(card))
            assert sim.hands == game.hands and sim.out == game.out
            assert sim.over == game.is_over
        assert sim.loser == game.result.loser


def test_policy_matches_the_heuristic_player_when_voids_are_known():
    """With every hand shown, the sim's policy picks a legal card every time (and plays games to the end)."""
    rules = Rules.preset("getaway")
    for g in range(30):
        game = Game.deal(rules, 4, seed=100 + g)
        sim = _sim_of(game)
        sim.run()
        assert sim.over and (sim.loser is not None or rules.simultaneous != "highest_loses")


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
        know = Knowledge(view)
        for _ in range(5):
            hands = know.deal(rng)
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
        bots = [SamplerBot(seed=s, worlds=2) for s in range(4)]  # the cost grows with the worlds
        game = Game.deal(Rules.preset(preset), 4, seed=7)
        sampled = set()
        while not game.is_over:
            seat = game.current
            action = bots[seat].act(game.view(seat))
            game.apply(action)          # raises IllegalAction if the card is not legal
            sampled.add(bots[seat].last.get("worlds"))
        if preset != "donkey":
            assert 2 in sampled, (preset, sampled)


def test_sampler_is_reproducible():
    """The same seeds give the same moves: the world count, not the clock, ends a decision."""
    def moves():
        bots = [SamplerBot(seed=s, worlds=8) for s in range(4)]
        game = Game.deal(Rules.preset("getaway"), 4, seed=3)
        while not game.is_over:
            game.apply(bots[game.current].act(game.view(game.current)))
        return game.to_record()["events"]
    assert moves() == moves()


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
