"""One definition of each card mask, of the suit letters' table and of the list of fault kinds, on the source.

The card layout's masks (a suit's bits in one pack or both, the first pack's or
a game's whole deck, the second pack's first bit) and the function that turns
cards into a mask are defined in arena/game/cards.py; every other module
imports them. The fault kinds are listed once, by ``arena.game.status.Status``
(``FAULT_KINDS``): a table, a query or a legend over them is built from that
list, never spelt out. Docstrings and comments may name the kinds in prose.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CARDS = "arena/game/cards.py"
STATUS = "arena/game/status.py"
MASK = re.compile(r"0x1FFF\s*<<|\b1 << \(?(?:\d+ \* )?(?:PACK|52|104)\b")
"""An expression building a suit's or a pack's mask (a 13-bit block shifted into place, a pack's bits)."""
MASK_FUNCTIONS = {"_mask", "mask_of", "cards_mask", "_mask_of"}
SUIT_TABLE = re.compile(r"enumerate\((?:SUITS|SUIT_SYMBOLS|\"CDHS\")|(?:SUITS|\"CDHS\")\.index\(")
"""A suit's number looked up from its letter or symbol by hand (``arena.game.cards.SUIT_OF_TEXT`` is the table)."""
KINDS = ("timeout", "crash", "illegal", "malformed")
_KIND_WORD = re.compile(r"\b(" + "|".join(KINDS) + ")")


def _sources():
    for path in sorted([*(ROOT / "arena").rglob("*.py"), *(ROOT / "players").rglob("*.py")]):
        yield path.relative_to(ROOT).as_posix(), path.read_text()


def _docstrings(tree: ast.AST) -> list[ast.Constant]:
    """The docstrings of ``tree``, and the bare strings that document a name."""
    out = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            for stmt in body if isinstance(body, list) else ():
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                        and isinstance(stmt.value.value, str):
                    out.append(stmt.value)
    return out


def mask_definitions(name: str, source: str) -> list[str]:
    """Where ``source`` builds a card mask or defines a cards-to-mask function."""
    tree = ast.parse(source)
    prose = {n for d in _docstrings(tree) for n in range(d.lineno, d.end_lineno + 1)}
    found = [f"{name}:{n.lineno} defines {n.name}()" for n in ast.walk(tree)
             if isinstance(n, ast.FunctionDef) and n.name in MASK_FUNCTIONS]
    for n, line in enumerate(source.splitlines(), 1):
        if n not in prose and MASK.search(line.split("#", 1)[0]):
            found.append(f"{name}:{n} builds a mask: {line.strip()}")
    return found


def listed_kinds(name: str, source: str) -> list[str]:
    """Where ``source`` spells out two fault kinds or more: in one text (a query, a header) or one literal
    collection (a tuple, a list, a dict's keys), docstrings aside."""
    tree = ast.parse(source)
    docs = {id(d) for d in _docstrings(tree)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            kinds = set(_KIND_WORD.findall(node.value))
            if len(kinds) >= 2:
                found.append(f"{name}:{node.lineno} text names {', '.join(sorted(kinds))}")
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
            items = node.keys if isinstance(node, ast.Dict) else node.elts
            kinds = {i.value for i in items if isinstance(i, ast.Constant) and i.value in KINDS}
            if len(kinds) >= 2:
                found.append(f"{name}:{node.lineno} literal lists {', '.join(sorted(kinds))}")
    return found


def test_card_masks_are_defined_in_cards_only():
    """No module but arena/game/cards.py builds a suit or pack mask or a cards-to-mask function."""
    assert [f for name, src in _sources() if name != CARDS for f in mask_definitions(name, src)] == []


def test_cards_defines_each_mask():
    """The masks the others import are all there (one definition each)."""
    names = {t.id for n in ast.parse((ROOT / CARDS).read_text()).body if isinstance(n, (ast.Assign, ast.AnnAssign))
             for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}
    assert {"PACK_MASK", "DECK_MASK", "SECOND_PACK", "PACK_SUIT_MASK", "SUIT_MASK", "SUIT_OF", "BIT"} <= names


def suit_tables(name: str, source: str) -> list[str]:
    """Where ``source`` makes its own letter-to-suit table or looks a suit letter up by hand."""
    return [f"{name}:{n} reads suit letters: {line.strip()}" for n, line in enumerate(source.splitlines(), 1)
            if SUIT_TABLE.search(line.split("#", 1)[0])]


def test_suit_letters_are_read_in_cards_only():
    """One table from a suit's letter or symbol to its number: ``SUIT_OF_TEXT``, in arena/game/cards.py."""
    assert [f for name, src in _sources() if name != CARDS for f in suit_tables(name, src)] == []
    assert suit_tables("m.py", '_SUIT = {s: i for i, s in enumerate(SUITS)}\nt = SUITS.index(e["suit"])\n') == [
        'm.py:1 reads suit letters: _SUIT = {s: i for i, s in enumerate(SUITS)}',
        'm.py:2 reads suit letters: t = SUITS.index(e["suit"])']


def test_fault_kinds_are_listed_in_status_only():
    """Every table, query and legend over fault kinds is built from FAULT_KINDS."""
    assert [f for name, src in _sources() if name != STATUS for f in listed_kinds(name, src)] == []


def test_the_kinds_listed_are_the_status_enum():
    """The kinds this check looks for are exactly the enum's fault kinds."""
    from arena.game.status import FAULT_KINDS
    assert tuple(FAULT_KINDS) == KINDS


def test_the_checks_see_a_violation():
    """Not vacuous: a hand-built suit mask, a private _mask, an SQL column list and a colour dict are found."""
    source = ('"""Docs may say timeout, crash or illegal."""\n'
              "FULL = (1 << PACK) - 1\nSUITS = tuple(0x1FFF << (13 * s) for s in range(4))\n"
              "def _mask(cards):\n    return sum(1 << c for c in cards)\n"
              'Q = "SELECT timeout, crash FROM seats"\nCOLORS = {"timeout": 1, "malformed": 2}\n')
    assert mask_definitions("m.py", source) == [
        "m.py:4 defines _mask()", "m.py:2 builds a mask: FULL = (1 << PACK) - 1",
        "m.py:3 builds a mask: SUITS = tuple(0x1FFF << (13 * s) for s in range(4))"]
    assert listed_kinds("m.py", source) == ["m.py:6 text names crash, timeout",
                                            "m.py:7 literal lists malformed, timeout"]
