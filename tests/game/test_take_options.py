"""neighbour_take's take_from and take_order: views, records, the CLI, the solver and the sampler."""

import random

import pytest

from arena import Game, Rules
from arena.game.solver import Solver
from arena.game.views import view_from_events
from players.sampler import SamplerBot, sim_supports
from players.sampler_sim import UnsupportedRules, check_rules, new_sim

FIRST = Rules.preset("bhabho", take_from="first_trick")


def test_a_take_before_trick_one_shows_others_only_the_count():
    """A take before trick 1: the taker's view has the cards, every other seat only the count."""
    g = Game.deal(FIRST, 4, seed=3)
    asker = g.current
    victim = g.next_active(asker)
    taken = {str(c) for c in g.hand(victim)}
    g.apply(True)
    for seat in range(4):
        e = [e for e in g.seat_events(seat) if e["type"] == "take"][0]
        assert e["count"] == len(taken) and e["from"] == victim
        view = g.view(seat)
        assert view.first_trick and view.hand_sizes == tuple(h.bit_count() for h in g.hands)
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


@pytest.mark.parametrize("overrides, named", [
    (dict(take_from="first_trick"), "take_from='first_trick'"),
    (dict(take_order="dealer_left"), "take_order='dealer_left'"),
])
def test_the_sampler_playouts_refuse_the_new_take_values(overrides, named):
    """The playout state refuses the take options it does not model, with one error naming the option."""
    rules = Rules.preset("bhabho", **overrides)
    with pytest.raises(UnsupportedRules, match=named):
        check_rules(rules)
    with pytest.raises(UnsupportedRules, match="do not support neighbour_take"):
        new_sim(rules, 3, [1, 2, 4], [True] * 3, [], [], 0, 0, [], False, -1, False, random.Random(0))
    assert not sim_supports(rules)
    # with neighbour_take off the take options change nothing, so they are accepted
    check_rules(Rules.preset("getaway", **overrides))
    check_rules(Rules.preset("bhabho"))


def test_the_sampler_bot_falls_back_to_the_heuristic_under_the_new_values():
    """Under rules its playouts refuse, the sampler plays the heuristic player's cards (no error)."""
    rules = Rules.preset("bhabho", take_from="first_trick", take_order="dealer_left")
    g = Game.deal(rules, 4, seed=1)
    bot = SamplerBot(seed=1)
    while not g.is_over:
        view = g.view(g.current)
        if g.decision == "take":
            g.apply(bot.take(view))
        else:
            card = bot.play(view)
            assert card == bot.fallback.play(view)
            g.apply(card)
