"""The view a program bot is sent is the Python view, field for field (docs/protocol.md, section 5).

Over every preset and every value of every rule option, at every decision of
seeded games: :func:`view_to_json` is plain JSON (it survives a dump and a
load), holds every field of :class:`PlayerView` under its own name, each field
written as the protocol says, and :func:`view_from_json` rebuilds an equal view,
from the whole history or from a later ``history_start`` with the earlier events.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from arena.bots.wire_view import VIEW_FIELDS, mask_json, view_from_json, view_to_json
from arena.game.cards import TEXTS
from arena.game.engine import Game
from arena.game.match import MatchView
from arena.game.rules import CHOICES, PRESETS, Rules
from arena.game.views import PlayerView

VARIANTS = [(name, {}) for name in PRESETS] + [
    ("getaway", {option: value}) for option, values in CHOICES.items() if option != "decks" for value in values
] + [("getaway-2deck", {"trumps": True}), ("getaway-2deck", {"neighbour_take": True, "escape": "pass"})]


def _views(rules: Rules, players: int, seed: int):
    game = Game.deal(rules, players, seed)
    rng = random.Random(seed)
    for seat in range(players):
        yield game.view(seat)
    while not game.is_over:
        view = game.view(game.current)
        yield view
        game.apply(rng.choice(view.legal))


def _expected(view: PlayerView, name: str):
    """A field as the protocol writes it, made here on its own (not by the code under test)."""
    value = getattr(view, name)
    if name == "rules":
        return value.to_dict()
    if name == "hand":
        return [TEXTS[c] for c in value]
    if name == "legal":
        return list(value) if view.decision == "take" else [str(c) for c in value]
    if name == "trick":
        return [[s, str(c)] for s, c in value]
    if name in ("seen_mask", "pile_mask"):
        return [value & ((1 << 52) - 1), value >> 52]
    if name == "known_masks":
        return [[m & ((1 << 52) - 1), m >> 52] for m in value]
    if name == "match":
        return None if value is None else value.to_dict()
    if isinstance(value, tuple):
        return list(value)
    return value


@pytest.mark.parametrize("preset,options", VARIANTS, ids=[f"{p}-{o}" for p, o in VARIANTS])
def test_every_field_as_the_python_view_has_it(preset, options):
    rules = PRESETS.rules(preset, **options)
    lo, hi = rules.seat_range
    for players, seed in ((lo, 1), (hi, 2), ((lo + hi) // 2, 3)):
        for view in _views(rules, players, seed):
            data = json.loads(json.dumps(view_to_json(view)))
            assert set(data) == {*VIEW_FIELDS, "history_start"}
            assert [f.name for f in dataclasses.fields(PlayerView)] == list(VIEW_FIELDS)
            for name in VIEW_FIELDS:
                assert data[name] == _expected(view, name), name
            assert view_from_json(data) == view
            since = len(view.history) // 2
            part = json.loads(json.dumps(view_to_json(view, since)))
            assert part["history_start"] == since and len(part["history"]) == len(view.history) - since
            assert view_from_json(part, view.history[:since]) == view


def test_a_match_hand_and_two_pack_masks():
    match = MatchView(hand=2, points=6, score="places", scores=(1, 0, 3, 2), bhabhis=(0, 0, 1, 1), dealer=1)
    base = next(_views(Rules.preset("getaway"), 4, 5))
    view = dataclasses.replace(base, match=match, seen_mask=(1 << 103) | 5, pile_mask=1 << 52)
    data = json.loads(json.dumps(view_to_json(view)))
    assert data["match"] == match.to_dict()
    assert data["seen_mask"] == [5, 1 << 51] and data["pile_mask"] == [0, 1]
    assert all(x < 2 ** 52 for x in data["seen_mask"])
    assert mask_json(0) == [0, 0]
    assert view_from_json(data) == view
