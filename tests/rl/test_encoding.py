"""The observation encoding on known positions, field by field (docs/training.md)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from arena.game.cards import card
from arena.game.engine import Game
from arena.game.rules import CHOICES
from arena.rl.encoding import ACTIONS, FIELD, FIELDS, NO_TAKE, SEAT_FEATURES, SIZE, TAKE, action_mask, encode

DOC = Path(__file__).resolve().parents[2] / "docs" / "training.md"


def _cards(vector, name, plane=0):
    f = FIELD[name]
    row = vector[f.start + 104 * plane:f.start + 104 * (plane + 1)]
    return {str(card(int(c))) for c in np.flatnonzero(row)}


def _seat(vector, slot):
    f = FIELD["seats"]
    row = vector[f.start + slot * len(SEAT_FEATURES):f.start + (slot + 1) * len(SEAT_FEATURES)]
    return dict(zip(SEAT_FEATURES, row.tolist()))


def _one_hot(vector, name):
    f = FIELD[name]
    return np.flatnonzero(vector[f.start:f.start + f.size]).tolist()


def test_a_trick_in_progress(position, play):
    game = position("getaway", [["AS", "KS", "2H"], ["3S", "4D"], ["5C", "6C", "7H"]], leader=0)
    play(game, (0, "KS"))
    v = encode(game.view(1))
    assert v.shape == (SIZE,) and v.dtype == np.float32
    assert _cards(v, "hand") == {"3S", "4D"}
    assert _cards(v, "trick") == {"KS"}
    assert _cards(v, "unseen") == {"AS", "2H", "5C", "6C", "7H"}
    assert len(_cards(v, "pile")) == 52 - 8 and "KS" in _cards(v, "seen")
    assert _one_hot(v, "led_suit") == [3] and _one_hot(v, "trump") == [] and _one_hot(v, "decision") == [0]
    assert _one_hot(v, "players") == [0] and v[FIELD["first_trick"].start] == 0.0
    me, after, leader = _seat(v, 0), _seat(v, 1), _seat(v, 2)       # seats 1, 2, 0 (clockwise)
    assert me == {**me, "present": 1.0, "active": 1.0, "in_trick": 0.0, "place": 0.0}
    assert me["size"] == np.float32(2 / 52)
    assert after["size"] == np.float32(3 / 52) and after["in_trick"] == 0.0
    assert leader == {**leader, "in_trick": 1.0, "leads_trick": 1.0, "winning": 1.0}
    assert _seat(v, 3) == dict.fromkeys(SEAT_FEATURES, 0.0)            # no fourth seat
    assert np.flatnonzero(action_mask(game.view(1))).tolist() == [card("3S")]


def test_a_pickup_makes_cards_known_and_a_void(position, play):
    game = position("getaway", [["AS", "KS", "2H"], ["3S", "4D"], ["5C", "6C", "7H"]], leader=0)
    play(game, (0, "KS"), (1, "3S"), (2, "5C"))                       # seat 2 cannot follow: seat 0 picks up
    v = encode(game.view(1))
    assert _cards(v, "known", plane=1) == {"KS", "3S", "5C"}           # slot 2 is seat 0
    assert _cards(v, "known", plane=0) == set()                        # slot 1, seat 2: nothing known
    assert _seat(v, 1)["void_s"] == 1.0 and _seat(v, 1)["void_c"] == 0.0
    assert _seat(v, 2)["size"] == np.float32(5 / 52) and _seat(v, 2)["next_leader"] == 1.0
    assert _one_hot(v, "decision") == [] and not action_mask(game.view(1)).any()


def test_slots_follow_the_direction_of_play(position):
    game = position("getaway", [["AS", "KS"], ["3S", "4D"], ["5C", "6C", "7H"]], leader=0,
                    overrides={"direction": "anticlockwise"})
    v = encode(game.view(0))
    assert _seat(v, 1)["size"] == np.float32(3 / 52)                   # slot 1 is seat 2 anticlockwise
    assert _seat(v, 0)["next_leader"] == 1.0 and _one_hot(v, "decision") == [0]


def test_a_take_decision(rules):
    game = Game.deal(rules("bhabho", take_from="first_trick"), 4, seed=1)
    assert game.decision == "take"
    view = game.view(game.current)
    assert np.flatnonzero(action_mask(view)).tolist() == [NO_TAKE, TAKE] == [ACTIONS - 2, ACTIONS - 1]
    assert _one_hot(encode(view), "decision") == [1]


def test_rule_options_are_one_hot(rules):
    v = encode(Game.deal(rules("donkey", escape="pass"), 5, seed=0).view(0))
    bits = v[FIELD["rules"].start:]
    at = 0
    for option, values in CHOICES.items():
        chosen = [values[i] for i in np.flatnonzero(bits[at:at + len(values)])]
        assert chosen == [getattr(rules("donkey", escape="pass"), option)]
        at += len(values)
    assert _one_hot(v, "players") == [2]


def test_the_docs_list_every_field_with_its_place():
    """docs/training.md's table of fields is the encoding's (name, first index, size)."""
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", DOC.read_text(), re.M)
    assert [(n, int(a), int(b)) for n, a, b in rows] == [(f.name, f.start, f.size) for f in FIELDS]
    assert f"{SIZE} numbers" in DOC.read_text()
