"""Random play over every preset and table size, and hypothesis properties of the engine."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena import PRESETS, Game, Rules
from arena.game.rules import CHOICES
from support.positions import random_position

GAMES_PER_TABLE = 200
PRESET_TABLES = [(name, n) for name, rules in PRESETS.items()
                 for n in range(rules.seat_range[0], rules.seat_range[1] + 1)]


def replay_matches(game: Game, through_json: bool = True) -> None:
    """The record replays to the same record and state, directly and (by default) through JSON text."""
    record = game.to_record()
    again = Game.from_record(record)
    assert again.to_record() == record
    assert again.result == game.result and again.state.hands == game.state.hands and again.state.pile == game.state.pile
    if through_json:
        text = json.loads(json.dumps(record))
        assert Game.from_record(text).to_record() == text


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_play_every_preset_and_table_size(preset, check_step, check_result, play_out):
    """200 random games per allowed table size: cards conserved, legal moves follow suit, results whole, replays exact.

    Every game is replayed from its record; every fourth also through JSON text.
    """
    rules = Rules.preset(preset)
    lo, hi = rules.seat_range
    reasons = set()
    for players in range(lo, hi + 1):
        for seed in range(GAMES_PER_TABLE):
            game = Game.deal(rules, players, seed, dealer=seed % players)
            check_step(game)
            play_out(game, random.Random(seed), each=check_step)
            check_result(game)
            reasons.add(game.result.reason)
            replay_matches(game, through_json=seed % 4 == 0)
    assert "last_player" in reasons


def test_preset_tables_cover_every_allowed_size():
    """The random-play tables include every preset and every seat count it allows."""
    assert {p for p, _ in PRESET_TABLES} == set(PRESETS)
    assert ("playnest", 7) not in PRESET_TABLES and ("getaway-2deck", 6) not in PRESET_TABLES
    assert ("getaway-2deck", 7) in PRESET_TABLES and ("getaway", 3) in PRESET_TABLES


VARIANTS = [
    dict(escape="pass"), dict(escape="draw_next_hand"), dict(escape="pass_if_3plus"),
    dict(first_trick="normal"), dict(direction="anticlockwise"), dict(deal="piles"),
    dict(shootout=True, escape="draw"), dict(simultaneous="draw", escape="pass"),
    dict(trumps=True, neighbour_take=True, escape="draw_next_hand"),
    dict(trumps=True, first_trick="normal", drawn_cut_loses=True),
    dict(neighbour_take=True, shootout=True, escape="pass_if_3plus", direction="anticlockwise"),
    dict(decks=2, trumps=True), dict(decks=2, neighbour_take=True, deal="piles"),
    dict(neighbour_take=True, take_from="first_trick"),
    dict(neighbour_take=True, take_order="dealer_left", direction="anticlockwise", escape="draw_next_hand"),
    dict(neighbour_take=True, take_from="first_trick", take_order="dealer_left", first_trick="normal",
         trumps=True),
]


@pytest.mark.parametrize("overrides", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_random_play_option_combinations(overrides, check_step, check_result, play_out):
    """Option combinations outside the presets keep every invariant and replay exactly."""
    rules = Rules.preset("getaway", drawn_cut_loses=False).replace(**overrides)
    lo, hi = rules.seat_range
    for seed in range(60):
        players = lo + seed % (hi - lo + 1)
        game = Game.deal(rules, players, seed, dealer=seed % players)
        play_out(game, random.Random(seed), each=check_step)
        check_result(game)
        if seed % 3 == 0:
            replay_matches(game)


def test_special_endings_happen_in_random_play(play_out):
    """Random play reaches shootouts and drawn cuts, not only last-player endings.

    (Simultaneous finishes are rare in random play: with two players left a
    clean trick removes two cards and a pick-up none, so the parity of their
    card total never changes; they are covered by known positions.)
    """
    seen = set()
    for preset in ("champions", "getaway"):
        for seed in range(200):
            game = Game.deal(Rules.preset(preset), 4, seed)
            play_out(game, random.Random(seed))
            seen.add(game.result.reason)
    assert {"shootout", "drawn_cut", "last_player"} <= seen


def play_with_faults(game: Game, rng: random.Random, fault_rate: float, check_step) -> Game:
    """Random play where each decision is a fault (of a random kind) with probability ``fault_rate``."""
    while game.current is not None:
        if rng.random() < fault_rate:
            game.apply_fault(rng.choice(["timeout", "crash", "illegal", "malformed"]))
        else:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        check_step(game)
    return game


@pytest.mark.parametrize("policy", ["penalty", "random"])
def test_random_play_with_faults(policy, check_step, check_result):
    """Games with random faults keep the invariants; forfeited seats are placed last; records replay."""
    for seed in range(150):
        preset, players = PRESET_TABLES[seed % len(PRESET_TABLES)]
        rules = Rules.preset(preset, fault_policy=policy, max_faults=1 + seed % 4)
        game = play_with_faults(Game.deal(rules, players, seed), random.Random(seed), 0.05, check_step)
        check_result(game)
        r = game.result
        if game.forfeited:
            assert r.reason == "forfeit" and r.loser == game.forfeited[0]
            assert list(r.order[-len(game.forfeited):]) == game.forfeited[::-1]
        assert sum(game.faults) == sum(e[0] == "fault" for e in game.events)
        replay_matches(game)


# ------------------------------------------------------------- hypothesis
option_values = st.fixed_dictionaries({}, optional={
    opt: st.sampled_from(vals) for opt, vals in CHOICES.items() if opt not in ("decks",)})


@st.composite
def rules_and_players(draw):
    """Any preset with any overrides, and a table size it allows."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    rules = Rules.preset(preset, **draw(option_values))
    lo, hi = rules.seat_range
    return rules, draw(st.integers(lo, hi))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rp=rules_and_players(), seed=st.integers(0, 2**32), choice_seed=st.integers(0, 2**16),
       fault_rate=st.sampled_from([0.0, 0.0, 0.02, 0.2]))
def test_property_every_game_keeps_the_invariants(rp, seed, choice_seed, fault_rate, check_step, check_result):
    """Any rules, any seed, any choices: cards conserved, legal moves per the rules, a whole result, an exact replay."""
    rules, players = rp
    game = Game.deal(rules, players, seed, dealer=seed % players)
    check_step(game)
    play_with_faults(game, random.Random(choice_seed), fault_rate, check_step)
    check_result(game)
    replay_matches(game)


@settings(max_examples=100, deadline=None)
@given(rp=rules_and_players(), seed=st.integers(0, 2**32), choice_seed=st.integers(0, 2**16))
def test_property_views_agree_with_the_engine(rp, seed, choice_seed):
    """At every decision the acting seat's view has its true hand, the legal actions, sizes, trick, trump and
    out list."""
    rules, players = rp
    game = Game.deal(rules, players, seed)
    rng = random.Random(choice_seed)
    while game.current is not None:
        seat = game.current
        view = game.view(seat)
        assert sorted(view.hand) == game.hand(seat)
        assert view.legal == tuple(game.legal_actions()) and view.decision == game.decision
        assert view.hand_sizes == tuple(h.bit_count() for h in game.state.hands)
        assert view.out == tuple(game.state.out)
        assert view.trick == tuple(game.trick)
        assert view.trump == (game.state.trump if game.state.trump >= 0 else None)
        assert view.active == tuple(game.state.active)
        # a hidden draw takes an unknown card off the pile: discarded() may still list it
        assert len(set(view.discarded()) - set(game.state.pile)) <= sum(view.hidden_draws)
        for other in range(players):
            assert set(view.known_cards(other)) <= set(game.hand(other))
            for suit in view.void_suits(other):
                assert not any(c.suit == suit for c in game.hand(other))
        assert not set(view.unseen()) & (set(game.state.pile) | set(game.hand(seat)) | set(game.state.tcards))
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


@settings(max_examples=60, deadline=None)
@given(rp=rules_and_players(), seed=st.integers(0, 2**32), choice_seed=st.integers(0, 2**16))
def test_property_same_inputs_same_game(rp, seed, choice_seed, play_out):
    """The engine is deterministic: the same rules, seed and choices give the same record."""
    rules, players = rp
    records = []
    for _ in range(2):
        game = play_out(Game.deal(rules, players, seed), random.Random(choice_seed))
        records.append(json.dumps(game.to_record(), sort_keys=True))
    assert records[0] == records[1]


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_property_result_scores_follow_the_order(data, play_out):
    """Penalties are 0, 1, 2.. by finishing rank and 3 for the Bhabhi; ranks invert the order."""
    rules, players = data.draw(rules_and_players())
    game = play_out(Game.deal(rules, players, data.draw(st.integers(0, 10**6))),
                    random.Random(data.draw(st.integers(0, 10**6))))
    r = game.result
    for place, seat in enumerate(r.order):
        if seat not in r.tied:
            assert r.ranks[seat] == place
            expected = 3 if seat == r.loser else min(place, 2)
            assert r.penalty[seat] == expected
    for seat in r.tied:
        assert r.ranks[seat] == min(r.order.index(s) for s in r.tied)


@st.composite
def positions(draw):
    """A random hand-made position under any preset with any overrides (trick 1 done or not)."""
    rules, players = draw(rules_and_players())
    rng = random.Random(draw(st.integers(0, 2**32)))
    pos = random_position(rules, players, rng, per_seat=7, trick_one=True, partial_pile=True, drawn=True)
    return pos.game(rules, rng.randrange(2**32)), rng


@settings(max_examples=150, deadline=None)
@given(pos=positions())
def test_property_positions_play_out_and_replay(pos, check_result):
    """From any hand-made position: the cards in play stay in exactly one place, play ends well, the record replays."""
    game, rng = pos
    in_play = sum(game.state.hands) | sum(1 << c for c in game.state.pile)
    count = sum(h.bit_count() for h in game.state.hands) + len(game.state.pile)
    while game.current is not None:
        legal = game.legal_actions()
        if rng.random() < 0.05:
            game.apply_fault("timeout")
        else:
            game.apply(legal[rng.randrange(len(legal))])
        where = list(game.state.hands) + [1 << c for c in list(game.state.tcards) + list(game.state.pile)]
        assert sum(m.bit_count() for m in where) == count
        mask = 0
        for m in where:
            mask |= m
        assert mask == in_play
        assert game.state.n_active == sum(game.state.active)
    check_result(game)
    replay_matches(game)
