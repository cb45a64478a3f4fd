"""The environments' fast path gives the very numbers of the reference encoding, whole games long.

The reference is the slow, obviously right way: the seat's view rebuilt from
its own event dicts (:func:`arena.game.knowledge.view_from_events`, what a
sandboxed bot's host does) and encoded field by field
(:func:`arena.rl.encoding.encode`, :func:`~arena.rl.encoding.action_mask`, what a
trained bot computes in a tournament). The fast path
(:meth:`arena.rl.table.Table.observe`, :mod:`arena.rl.observation`) writes the
observation from the knowledge the table's seats share. Every seat is compared
at every decision, on every preset at several table sizes and seeds, with faults
among the actions (a fault plays a random card: the game goes on off the policy).
"""

from __future__ import annotations

import numpy as np
import pytest

import arena.rl as rl
from arena.game.knowledge import view_from_events
from arena.game.rules import PRESETS
from arena.rl.encoding import action_mask, encode
from arena.rl.table import Table

OPTIONS = [  # the options the presets leave at one value, each set the other way
    ("bhabho", 5, {"take_from": "first_trick", "take_order": "dealer_left"}),
    ("getaway", 7, {"direction": "anticlockwise", "deal": "piles", "first_trick": "normal"}),
    ("champions", 4, {"escape": "draw_next_hand", "fault_policy": "random"}),
    ("donkey", 3, {"escape": "pass_if_3plus", "simultaneous": "draw", "shootout": True}),
]
TABLES = [(name, players, {}) for name in PRESETS for players in (3, 4, 6, 8)
          if PRESETS[name].min_players <= players <= PRESETS[name].max_players] + OPTIONS


def _reference(table: Table, seat: int) -> tuple[np.ndarray, np.ndarray]:
    game = table.game
    mine = seat == game.current
    view = view_from_events(seat, game.players, game.rules, game.seat_events(seat),
                            game.legal_actions() if mine else (), game.decision if mine else None)
    return encode(view), action_mask(view)


def _games(rules, players, seeds, rng):
    """Tables played to the end by random legal actions (one in 25 an illegal one, faulted), yielding
    each position."""
    for seed in seeds:
        table = Table(rules, players, seed)
        while not table.over:
            yield table
            legal = np.flatnonzero(table.observe(table.current)[1])
            table.step(int(rng.choice(legal)) if rng.random() > 0.04 else -1, fault=True)


@pytest.mark.parametrize(("preset", "players", "options"), TABLES)
def test_every_observation_is_the_reference_encoding(preset, players, options):
    rules = PRESETS.rules(preset, **options)
    rng = np.random.default_rng(players)
    compared = 0
    for table in _games(rules, players, range(3), rng):
        for seat in range(players):
            observation, mask = table.observe(seat)
            expected, expected_mask = _reference(table, seat)
            assert observation.dtype == np.float32 and mask.dtype == np.int8
            assert np.array_equal(observation, expected), (
                f"{preset} {players} seat {seat}: differs at {np.flatnonzero(observation != expected).tolist()}")
            assert np.array_equal(mask, expected_mask)
            compared += 1
    assert compared > 40 * players


def test_faults_and_draws_were_played():
    """Not vacuous: the games above include draws, takes and faults (the events that part seats)."""
    kinds = set()
    for preset, players, options in TABLES:
        rules = PRESETS.rules(preset, **options)
        tables = {id(t): t for t in _games(rules, players, range(3), np.random.default_rng(players))}
        kinds |= {e[0] for t in tables.values() for e in t.game.events}
    assert {"draw", "take", "fault", "pickup", "clean", "trump"} <= kinds


@pytest.mark.parametrize(("preset", "players"), [("bhabho", 4), ("donkey", 6), ("getaway-2deck", 8)])
def test_a_batchs_rows_are_the_reference_encoding(preset, players):
    batch, rng = rl.Batch(preset, players, size=3, seed=7), np.random.default_rng(1)
    for _ in range(250):
        obs, masks, seats = batch.observe()
        for i, table in enumerate(batch.tables):
            expected, expected_mask = _reference(table, int(seats[i]))
            assert np.array_equal(obs[i], expected) and np.array_equal(masks[i], expected_mask)
        batch.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    assert batch.finished >= 1      # a row dealt anew is compared too
