"""Rules: presets, options, validation and the errors bad input raises."""

import dataclasses

import pytest

from arena import PRESETS, ArenaError, Game, Rules, RulesError
from arena.game.rules import CHOICES, OPTIONS

PRESET_TABLE = {
    # preset: (seats, first_trick, escape, simultaneous, shootout, drawn_cut_loses, trumps, neighbour_take, decks)
    "getaway": ((3, 8), "free", "draw", "highest_loses", False, True, False, False, 1),
    "playnest": ((3, 6), "free", "pass", "highest_loses", False, False, False, False, 1),
    "champions": ((3, 8), "free", "pass", "draw", True, False, False, False, 1),
    "donkey": ((3, 8), "free", "draw", "highest_loses", False, False, True, False, 1),
    "bhabho": ((3, 8), "free", "draw", "highest_loses", False, False, False, True, 1),
    "getaway-2deck": ((7, 8), "free", "draw", "highest_loses", False, True, False, False, 2),
}


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_presets_match_the_rules_table(name):
    """Each preset has exactly the options and seat range of docs/rules.md's table."""
    r = Rules.preset(name)
    seats, first, escape, simul, shootout, dcl, trumps, take, decks = PRESET_TABLE[name]
    assert r.seat_range == seats
    assert (r.first_trick, r.escape, r.simultaneous, r.shootout, r.drawn_cut_loses,
            r.trumps, r.neighbour_take, r.decks) == (first, escape, simul, shootout, dcl, trumps, take, decks)
    assert (r.direction, r.deal, r.fault_policy, r.max_faults) == ("clockwise", "single", "penalty", 5)
    assert r.name == name


def test_there_are_exactly_the_six_presets():
    """The six presets of docs/rules.md are defined (plugins may add more later)."""
    assert set(PRESET_TABLE) <= set(PRESETS)


def test_override_changes_one_option():
    """``Rules.preset(name, **overrides)`` changes only the named options."""
    r = Rules.preset("getaway", escape="pass", direction="anticlockwise")
    assert r.escape == "pass" and r.direction == "anticlockwise"
    assert r.drawn_cut_loses is True and r.name == "getaway"
    assert r.differences() == {"escape": "pass", "direction": "anticlockwise"}


@pytest.mark.parametrize("option", list(CHOICES))
def test_every_allowed_value_is_accepted(option):
    """Every listed value of every option builds valid rules (with 7-8 seats for two packs)."""
    for value in CHOICES[option]:
        r = Rules.preset("getaway", **{option: value})
        assert getattr(r, option) == value
        r.check_players(8)


def test_to_dict_from_dict_round_trip():
    """``Rules.from_dict(r.to_dict())`` gives back equal rules for every preset."""
    for name in PRESETS:
        r = Rules.preset(name, max_faults=3)
        d = r.to_dict()
        assert set(d) == {"name", *OPTIONS}
        assert Rules.from_dict(d) == r


def test_from_dict_with_a_preset_key():
    """A ``preset`` key in a dict starts from that preset."""
    r = Rules.from_dict({"preset": "champions", "shootout": False})
    assert r.simultaneous == "draw" and r.shootout is False and r.name == "champions"


def test_unknown_preset_is_refused_naming_it_and_the_known_ones():
    """An unknown preset raises RulesError naming it and listing the known presets."""
    with pytest.raises(RulesError) as err:
        Rules.preset("getawya")
    assert "unknown preset 'getawya'" in str(err.value) and "getaway" in str(err.value)


def test_unknown_option_is_refused_naming_it():
    """An unknown option raises RulesError naming it and the known options."""
    with pytest.raises(RulesError) as err:
        Rules.preset("getaway", escpae="pass")
    assert "unknown option 'escpae'" in str(err.value) and "escape" in str(err.value)


@pytest.mark.parametrize("option, value", [
    ("escape", "drwa"), ("first_trick", "fre"), ("simultaneous", "lowest_loses"), ("shootout", 1),
    ("trumps", "yes"), ("neighbour_take", None), ("direction", "left"), ("decks", 3), ("decks", 2.0),
    ("deal", "pile"), ("fault_policy", "kick"), ("drawn_cut_loses", 0),
    ("take_from", "trick_1"), ("take_from", None), ("take_order", "dealer"), ("take_order", 0),
])
def test_bad_option_value_is_refused_naming_option_allowed_and_given(option, value):
    """A bad value raises RulesError naming the option, the allowed values and the value given."""
    with pytest.raises(RulesError) as err:
        Rules.preset("getaway", **{option: value})
    msg = str(err.value)
    assert f"option {option!r} must be one of" in msg
    assert f"(got {value!r})" in msg
    assert all((str(a).lower() if isinstance(a, bool) else str(a)) in msg for a in CHOICES[option])


@pytest.mark.parametrize("option, value, expected", [
    ("max_faults", 0, "'max_faults' must be a whole number >= 1 (got 0)"),
    ("max_faults", True, "'max_faults' must be a whole number >= 1 (got True)"),
    ("min_players", 2, "'min_players' must be a whole number 3..8 (got 2)"),
    ("max_players", 9, "'max_players' must be a whole number 3..8 (got 9)"),
    ("min_players", 7, "'min_players' must not exceed max_players 6 (got 7)"),
])
def test_bad_numbers_are_refused(option, value, expected):
    """Numeric options out of range raise RulesError with the option and the value."""
    with pytest.raises(RulesError) as err:
        Rules.preset("playnest", **{option: value})
    assert expected in str(err.value)


@pytest.mark.parametrize("preset, players, expected", [
    ("getaway", 9, "players must be 3-8 for 'getaway' tables (got 9)"),
    ("getaway", 2, "players must be 3-8 for 'getaway' tables (got 2)"),
    ("playnest", 8, "players must be 3-6 for 'playnest' tables (got 8)"),
    ("playnest", 7, "players must be 3-6 for 'playnest' tables (got 7)"),
    ("getaway-2deck", 6, "players must be 7-8 for 'getaway-2deck' tables (got 6)"),
])
def test_bad_seat_count_is_refused(preset, players, expected):
    """Dealing to a table size the rules do not allow raises RulesError naming the range."""
    with pytest.raises(RulesError) as err:
        Game.deal(Rules.preset(preset), players, seed=1)
    assert expected in str(err.value)


def test_bad_seat_count_is_refused_for_positions_too():
    """A hand-made position with 9 hands is refused like a deal of 9."""
    with pytest.raises(RulesError, match=r"players must be 3-8 .*\(got 9\)"):
        Game.from_position(Rules.preset("getaway"), hands=[["2C"]] * 9, leader=0)


def test_two_packs_need_seven_or_eight_players():
    """``decks=2`` at a smaller table is refused naming the option; at 7-8 it deals."""
    r = Rules.preset("getaway", decks=2)
    assert r.seat_range == (7, 8)
    with pytest.raises(RulesError) as err:
        Game.deal(r, 5, seed=1)
    assert "option 'decks' 2 needs 7-8 players" in str(err.value) and "(got 5)" in str(err.value)
    assert Game.deal(r, 7, seed=1).players == 7


def test_two_packs_on_a_table_capped_below_seven_is_a_contradiction():
    """``playnest`` (3-6 seats) with two packs cannot seat anyone and is refused at once."""
    with pytest.raises(RulesError, match="option 'decks' 2 is for 7-8 players, but max_players is 6"):
        Rules.preset("playnest", decks=2)


def test_non_integer_seat_count_is_refused():
    """A table size that is not a whole number is refused."""
    with pytest.raises(RulesError, match="players must be a whole number"):
        Rules.preset("getaway").check_players("4")


def test_rules_errors_are_arena_and_value_errors():
    """RulesError subclasses both ArenaError and ValueError."""
    with pytest.raises(ArenaError):
        Rules.preset("nope")
    with pytest.raises(ValueError):
        Rules.preset("nope")


def test_from_dict_refuses_non_tables():
    """Rules.from_dict of something that is not a dict raises RulesError."""
    with pytest.raises(RulesError, match="rules must be a table of options"):
        Rules.from_dict(["getaway"])


def test_rules_are_frozen_and_hashable():
    """Rules are immutable values: equal options compare and hash equal."""
    a, b = Rules.preset("donkey"), Rules.preset("donkey")
    assert a == b and hash(a) == hash(b)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.escape = "pass"
