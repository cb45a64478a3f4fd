"""The solver's text form: parse ``"leader: AS KS 2H / other: 3C 4C"`` and solve it (``arena solve``)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from arena.game.cards import CARDS, PACK, PACK_MASK, Card, mask_of, parse_cards
from arena.game.rules import Rules
from arena.game.errors import SolverError
from arena.game.solver import Solver, mask_text


def parse_position(text: str) -> dict[str, Any]:
    """Parse ``"leader: AS KS 2H / other: 3C 4C"`` (parts split by ``/``, ``;`` or lines).

    Keys: ``leader`` and ``other`` (hands), optional ``pile`` (default: every
    other card), ``drawn`` (a card in the leader's hand it must lead) and ``led``
    (the leader has already led this card, listed in its hand or not; the
    other player is to move).
    """
    parts = [p.strip() for p in text.replace(";", "/").replace("\n", "/").split("/") if p.strip()]
    found: dict[str, list[Card]] = {}
    for part in parts:
        key, sep, cards = part.partition(":")
        key = key.strip().lower()
        key = {"follower": "other", "discard": "pile"}.get(key, key)
        if not sep or key not in ("leader", "other", "pile", "drawn", "led"):
            raise SolverError(f"position part {part!r}: expected 'leader:', 'other:', 'pile:', 'drawn:' "
                              f"or 'led:' followed by cards")
        if key in found:
            raise SolverError(f"position gives {key!r} twice")
        found[key] = parse_cards(cards)
    for key in ("leader", "other"):
        if key not in found:
            raise SolverError(f"position needs {key!r} (e.g. 'leader: AS KS 2H / other: 3C 4C')")
    out = {k: _one_pack(v, k) for k, v in found.items()}
    for key in ("drawn", "led"):
        if key in found and len(found[key]) != 1:
            raise SolverError(f"{key!r} must be one card (got {len(found[key])})")
    if "drawn" in out and "led" in out and out["drawn"] != out["led"]:
        raise SolverError(f"with 'led', 'drawn' must be the led card, a drawn card is led at once (got led "
                          f"{found['led'][0]}, drawn {found['drawn'][0]})")
    return out


def _one_pack(cards: Iterable[int], key: str) -> int:
    """The mask of ``cards``, every one of the first pack (the solver's)."""
    for c in cards:
        if c >= PACK:
            raise SolverError(f"{key}: the solver needs one pack (got {c})")
    return mask_of(cards)


def solve_text(text: str, rules: Rules, draw_value: float = 0.5) -> list[str]:
    """Solve a position given as text; lines for the CLI (``arena solve``)."""
    pos = parse_position(text)
    leader, other = pos["leader"], pos["other"]
    led = pos.get("led")
    if led:
        leader &= ~led                  # the led card may be listed in the leader's hand or not
    held = leader | other | (led or 0)
    if leader & other or (led and led & other):
        raise SolverError(f"each card must appear once in the position (got {mask_text(other & (leader | (led or 0)))} "
                          f"twice)")
    pile = pos.get("pile", PACK_MASK & ~held)
    if pile & held:
        raise SolverError(f"the pile holds cards that are in a hand: {mask_text(pile & held)}")
    solver = Solver(rules, universe=held | pile, draw_value=draw_value)
    start = time.perf_counter()
    if led is not None:
        c = led.bit_length() - 1
        drawn = "drawn" in pos
        sol = solver.solve_reply(leader, other, c, drawn)
        who = f"other to play to {CARDS[c]}"
    else:
        must = pos["drawn"].bit_length() - 1 if "drawn" in pos else -1
        sol = solver.solve(leader, other, must)
        who = "leader to lead" + (f" (must lead the drawn {CARDS[must]})" if must >= 0 else "")
    took = time.perf_counter() - start
    lines = [(f"rules: {rules.name} (escape={rules.escape}, shootout={str(rules.shootout).lower()}, "
              f"drawn_cut_loses={str(rules.drawn_cut_loses).lower()}, simultaneous={rules.simultaneous})"),
             f"position: leader {mask_text(leader) or '-'} / other {mask_text(other)}"
             + (f" / led {CARDS[led.bit_length() - 1]}" if led else "")
             + f" / pile {pile.bit_count()} cards",
             f"to move: {who}",
             f"value: {_pct(sol.value)} chance that the player to move is the Bhabhi"
             + _verdict(sol.value),
             "best: " + " ".join(str(CARDS[c]) for c in sol.best),
             "moves: " + ", ".join(f"{CARDS[c]} {_pct(v)}" for c, v in sol.moves),
             f"solved {len(solver.memo)} states in {took:.3f} s"]
    return lines


def _pct(v: float) -> str:
    return f"{100 * v:.4g}%"


def _verdict(v: float) -> str:
    if v >= 1 - 1e-12:
        return " (lost whatever it does)"
    if v <= 1e-12:
        return " (it gets away with best play)"
    return ""
