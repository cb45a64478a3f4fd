"""neighbour_take's take_from and take_order: views, records, the CLI, the solver and the sampler."""

import random

import pytest

from arena import Game, Rules
from arena.game.solver import Solver
from arena.game.knowledge import view_from_events
from players.playout import PlayoutRandom, World, play_out
from players.policy import HEURISTIC
from players.sampler import SamplerBot

FIRST = Rules.preset("bhabho", take_from="first_trick")


def test_a_take_before_trick_one_shows_others_only_the_count():
    """A take before trick 1: the taker's view has the cards, every other seat only the count."""
    g = Game.deal(FIRST, 4, seed=3)
    asker = g.current
    victim = g.state.next_active(asker)
    taken = {str(c) for c in g.hand(victim)}
    g.apply(True)
    for seat in range(4):
        e = next(e for e in g.seat_events(seat) if e["type"] == "take")
        assert e["count"] == len(taken) and e["from"] == victim
        view = g.view(seat)
        assert view.first_trick and view.hand_sizes == tuple(h.bit_count() for h in g.state.hands)
        if seat == asker:
            assert set(e["cards"]) == taken and taken <= {str(c) for c in view.hand}
        else:
            assert "cards" not in e
            if seat != victim:
                assert not taken & {str(c) for c in view.known_cards(asker)}
        rebuilt = view_from_events(seat, 4, FIRST.to_dict(), g.seat_events(seat))
        assert rebuilt.hand == view.hand and rebuilt.hand_sizes == view.hand_sizes


@pytest.mark.parametrize("overrides", [dict(take_from="first_trick"), dict(take_order="dealer_left"),
                                       dict(take_from="first_trick", take_order="dealer_left")])
def test_records_with_the_new_options_replay_exactly(overrides):
    """Games under the new values replay exactly from their JSON records (with takes said yes)."""
    rules = Rules.preset("bhabho", **overrides)
    for seed in range(20):
        g = Game.deal(rules, 5, seed, dealer=seed % 5)
        rng = random.Random(seed)
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(rng.random() < 0.3 if g.decision == "take" else legal[rng.randrange(len(legal))])
        record = g.to_record()
        assert record["rules"]["take_from"] == rules.take_from
        assert record["rules"]["take_order"] == rules.take_order
        assert Game.from_record(record).events == g.events


def test_old_records_without_the_new_keys_load_with_the_defaults():
    """A record written before take_from/take_order existed replays under the defaults."""
    g = Game.deal(Rules.preset("bhabho"), 4, seed=9)
    rng = random.Random(9)
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    record = g.to_record()
    del record["rules"]["take_from"], record["rules"]["take_order"]
    replayed = Game.from_record(record)
    assert (replayed.rules.take_from, replayed.rules.take_order) == ("second_trick", "leader")
    assert replayed.events == g.events


def test_variants_shows_the_new_options(capsys):
    """`arena variants` lists take_from and take_order with their values."""
    from arena.cli.app import main
    try:
        main(["variants", "--format", "plain"])  # one line per option (the default wraps to the terminal)
    except SystemExit:
        pass
    out = capsys.readouterr().out
    line_from = next(line for line in out.splitlines() if line.startswith("take_from "))
    line_order = next(line for line in out.splitlines() if line.startswith("take_order "))
    assert "second_trick" in line_from and "first_trick" in line_from
    assert "leader" in line_order and "dealer_left" in line_order


def test_the_solver_ignores_the_take_options():
    """Two players never take, so the solver gives the same values under every take option."""
    hands = (0b1011 << 13 | 0b101, 0b0100 << 13 | 0b1010)
    universe = hands[0] | hands[1]
    base = Solver(Rules.preset("bhabho"), universe=universe).solve(*hands)
    for overrides in (dict(take_from="first_trick"), dict(take_order="dealer_left")):
        assert Solver(Rules.preset("bhabho", **overrides), universe=universe).solve(*hands) == base


@pytest.mark.parametrize("overrides", [dict(take_from="first_trick"), dict(take_order="dealer_left")])
def test_the_sampler_playouts_decline_takes_under_every_take_option(overrides):
    """The playouts run on the rules core: its take decisions come up and every seat declines."""
    rules = Rules.preset("bhabho", **overrides)
    for seed in range(10):
        game = Game.deal(rules, 4, seed=seed)
        state = World.of(game.state)
        state.log, state.rng = [], PlayoutRandom(seed)
        play_out(state, (HEURISTIC,) * 4)
        asked = [e for e in state.log if e[0] == "take"]
        assert state.over and asked and not any(e[2] for e in asked)


def test_the_sampler_plays_out_its_cards_under_the_new_values():
    """Under every take option the sampler samples worlds for each choice and plays legal cards."""
    rules = Rules.preset("bhabho", take_from="first_trick", take_order="dealer_left")
    g = Game.deal(rules, 4, seed=1)
    bot = SamplerBot(seed=1, worlds=8)
    while not g.is_over:
        view = g.view(g.current)
        if g.decision == "take":
            g.apply(bot.take(view))
            continue
        card = bot.play(view)
        assert card in view.legal
        if len(view.legal) > 1 and sum(view.active) > 2:
            assert bot.last["worlds"] == 8
        g.apply(card)
