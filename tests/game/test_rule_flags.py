"""The rule flags: compiled once per Rules, each from its option; State reads them and keeps its privates.

``arena.game.rulings.rule_flags`` is the one place where an option's meaning to the code is written
(``first_trick == "free"``, the escape mode's number, the direction's step); the rules core, the
solver, the policies and the engine's deal read its :class:`RuleFlags`.
"""

import ast
import itertools
from pathlib import Path

import pytest

from arena.game.rules import CHOICES, MAX_PLAYERS, PRESETS, Rules
from arena.game.rulings import MODES, RuleFlags, rule_flags
from arena.game.state import State

ROOT = Path(__file__).resolve().parents[2]
NOT_PLAYED = {"decks", "deal", "fault_policy"}
"""The options with choices that the rules core does not play by: the engine's (the deal, faults)."""


@pytest.mark.parametrize("name,option,value", [(name, option, value) for name in PRESETS for option, values in
                                               CHOICES.items() if option != "decks" for value in values])
def test_each_flag_says_what_its_option_does(name, option, value):
    rules = PRESETS.rules(name, **{option: value})
    f = rule_flags(rules)
    assert (f.trumps, f.take, f.shootout, f.cut_loses) == (rules.trumps, rules.neighbour_take, rules.shootout,
                                                            rules.drawn_cut_loses)
    assert f.free_first == (rules.first_trick == "free")
    assert f.take_first == (rules.take_from == "first_trick")
    assert f.take_dealer == (rules.take_order == "dealer_left")
    assert f.escape == MODES[rules.escape]
    assert f.highest_loses == (rules.simultaneous == "highest_loses")
    assert f.plain == (not rules.neighbour_take and not rules.shootout)
    assert f.step == (1 if rules.direction == "clockwise" else -1)
    for n in range(1, MAX_PLAYERS + 1):
        assert f.next_seat[n] == tuple((s + f.step) % n for s in range(n))


def test_every_option_the_core_plays_by_moves_a_flag():
    """A change of any option with choices but those ``NOT_PLAYED`` changes the flags: a new option is
    compiled, or named there (``max_faults`` and the seat range are numbers, the engine's too)."""
    base = Rules()
    for option in set(CHOICES) - NOT_PLAYED:
        for value in CHOICES[option]:
            if value != getattr(base, option):
                assert rule_flags(base.replace(**{option: value})) != rule_flags(base), option


def test_compiled_once_per_rule_set():
    """Equal rule sets share one RuleFlags (the compile is a cache of a pure function), a frozen value."""
    a, b = PRESETS["bhabho"], Rules.from_dict(PRESETS["bhabho"].to_dict())
    assert a is not b and rule_flags(a) is rule_flags(b)
    with pytest.raises(AttributeError):
        rule_flags(a).take = False      # type: ignore[misc]


def test_a_state_and_its_copies_share_the_flags_and_list_none_of_them():
    rules = PRESETS["donkey"].replace(direction="anticlockwise")
    state = State(rules, 5, None, hands=[1, 2, 4, 8, 16])
    assert state.flags is rule_flags(rules) and state.copy().flags is state.flags
    assert state.nxt == (4, 0, 1, 2, 3) and state.copy().nxt is state.nxt
    assert not set(RuleFlags.__slots__) & set(State.__slots__)


def test_no_private_state_member_is_used_outside_state_py():
    """The escape rule lives in State now; nothing else calls its settling steps or reads its privates."""
    private = {n for n in itertools.chain(vars(State), State.__slots__) if n.startswith("_") and not n.startswith("__")}
    assert {"_finish", "_go_out", "_maybe_over", "_next_trick", "_log", "_winner_escapes"} <= private
    used = []
    for path in sorted([*(ROOT / "arena").rglob("*.py"), *(ROOT / "players").rglob("*.py")]):
        if path == ROOT / "arena" / "game" / "state.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Attribute) and node.attr in private:
                used.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    assert used == []
