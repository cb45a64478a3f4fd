"""A seat's observation and action mask written straight from its knowledge: the environments' fast path.

:func:`arena.rl.encoding.encode` makes the observation from a view, field by
field, as a trained bot does in a tournament. The environments make the very
same numbers (tests/rl/test_fast_path.py compares them with that reference on
every preset, whole games long) without a view, a :class:`~arena.rl.table.Facts`
or a list of floats a step:

- the card planes are the knowledge's masks, packed to bytes and unpacked by
  numpy (one call for a batch's rows);
- the rest starts from a :class:`Layout`'s template (the rules, the table size,
  which slots hold a seat: constant for an environment's life) and only the
  numbers that are not 0 are written, through a ``memoryview`` of the array;
- an action mask is set from the legal actions alone.

Knowledge ``t`` is what :meth:`arena.rl.table.Table.knowledge` hands out: the seat's own
:class:`~arena.game.knowledge.SeatKnowledge`, or the public one its table's seats
share (then with the seat's hand and seen cards beside it).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from arena.game.cards import DECK_MASK, PACK, SUIT_OF, mask_of
from arena.game.rules import Rules
from arena.game.rulings import STEP, TAKES, rule_flags
from arena.game.views import leads_next
from arena.rl.encoding import (
    ACTIONS,
    CARD_PLANES_SIZE,
    NO_TAKE,
    TAKE,
    FIELD,
    SEAT_FEATURES,
    SEAT_SLOTS,
    encode_template,
)

if TYPE_CHECKING:
    from arena.game.knowledge import SeatKnowledge

_NF = len(SEAT_FEATURES)
_ACTIVE, _SIZE, _HIDDEN, _VOID = (SEAT_FEATURES.index(f) for f in ("active", "size", "hidden", "void_c"))
_IN_TRICK, _LEADS, _WINNING, _NEXT, _PLACE = (SEAT_FEATURES.index(f) for f in
                                              ("in_trick", "leads_trick", "winning", "next_leader", "place"))
_DECISION = {"play": FIELD["decision"].start, "take": FIELD["decision"].start + 1}
_LED, _TRUMP, _FIRST = FIELD["led_suit"].start, FIELD["trump"].start, FIELD["first_trick"].start
_PLANE_BYTES = 13
_SUITS_IN = tuple(tuple(suit for suit in range(4) if v >> suit & 1) for v in range(16))
"""The suits of a 4-bit void set."""
_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))
"""Each byte with its bits reversed: packed little-endian planes made big-endian, numpy's quicker order."""
_ZERO_PLANE = bytes(_PLANE_BYTES)


@dataclass(frozen=True, slots=True)
class Layout:
    """What is constant in the observations of one rule set at one table size."""

    players: int
    cards: float
    """The cards of the packs in play, as the ``size`` and ``hidden`` numbers divide them."""
    deck: int
    step: int
    orders: tuple[tuple[int, ...], ...]
    """``orders[seat][slot]``: the seat in that relative slot (slots below the table size)."""
    starts: tuple[tuple[int, ...], ...]
    """``starts[seat][s]``: where seat ``s``'s numbers begin in ``seat``'s observation."""
    padding: bytes
    """The empty known-card planes of the slots from the table size up."""
    template: np.ndarray
    """The observation's numbers that never change (the rules, the table size, each present seat's 1),
    every other one 0 (read only)."""


@lru_cache(maxsize=64)
def layout(rules: Rules, players: int) -> Layout:
    """The :class:`Layout` of ``rules`` at ``players`` seats (kept: read only)."""
    step = rule_flags(rules).step
    orders = tuple(tuple((seat + step * k) % players for k in range(players)) for seat in range(players))
    seats = FIELD["seats"].start
    starts = []
    for order in orders:
        at = [0] * players
        for slot, s in enumerate(order):
            at[s] = seats + slot * _NF
        starts.append(tuple(at))
    return Layout(players, float(PACK * rules.decks), DECK_MASK[rules.decks], step, orders, tuple(starts),
                  _ZERO_PLANE * (SEAT_SLOTS - players), encode_template(rules, players))


def planes(t: SeatKnowledge, seat: int, hand: int, seen: int, lay: Layout) -> bytes:
    """The card planes of ``seat``'s observation, packed as :func:`arena.rl.encoding.parts` packs them."""
    trick = t.trick
    known = t.known_masks
    raw = [hand.to_bytes(13, "little"), seen.to_bytes(13, "little"), (lay.deck & ~seen).to_bytes(13, "little"),
           t.pile_mask.to_bytes(13, "little"),
           mask_of([c for _, c in trick]).to_bytes(13, "little") if trick else _ZERO_PLANE]
    for s in lay.orders[seat][1:]:
        m = known[s]
        raw.append(m.to_bytes(13, "little") if m else _ZERO_PLANE)
    raw.append(lay.padding)
    return b"".join(raw)


def write_numbers(out: memoryview[float], base: int, t: SeatKnowledge, seat: int, hand: int, decision: str | None,
                  lay: Layout) -> None:
    """Write the numbers from ``seats`` to ``first_trick`` that are not 0 into ``out[base:base + SIZE]``,
    which holds the template's there (a flat ``float32`` memoryview)."""
    at = lay.starts[seat]
    cards = lay.cards
    sizes, hidden, voids, active = t.hand_sizes, t.hidden_draws, t.void_masks, t.active
    for s, o in enumerate(at):
        o += base
        if active[s]:
            out[o + _ACTIVE] = 1.0
        z = sizes[s]
        if z:
            out[o + _SIZE] = z / cards
        if hidden[s]:
            out[o + _HIDDEN] = min(hidden[s] / cards, 1.0)
        if voids[s]:
            for suit in _SUITS_IN[voids[s]]:
                out[o + _VOID + suit] = 1.0
    n = lay.players
    for place, s in enumerate(t.out, 1):
        out[base + at[s] + _PLACE] = place / n
    trick = t.trick
    trump = t.trump
    if trick:
        best_seat, best = trick[0]
        out[base + at[best_seat] + _LEADS] = 1.0
        for s, c in trick:
            out[base + at[s] + _IN_TRICK] = 1.0
            if STEP[best][c] == TAKES or SUIT_OF[c] == trump != SUIT_OF[best]:
                best_seat, best = s, c
        out[base + at[best_seat] + _WINNING] = 1.0
    else:   # (leads_next: None mid-trick)
        leader = leads_next(seat, hand, decision, trick, t.first_trick, t.as_holder, t.active, t.lead_from, n,
                            lay.step)
        if leader is not None:
            out[base + at[leader] + _NEXT] = 1.0
    if decision is not None:
        out[base + _DECISION[decision]] = 1.0
    led = t.led_suit
    if led is not None:
        out[base + _LED + led] = 1.0
    if trump is not None:
        out[base + _TRUMP + trump] = 1.0
    if t.first_trick:
        out[base + _FIRST] = 1.0


def unpack_planes(raw: bytes, rows: int) -> np.ndarray:
    """Packed card planes (``rows`` observations' :func:`planes`, one after another) as 0s and 1s,
    ``(rows, CARD_PLANES_SIZE)`` ``uint8``."""
    return np.unpackbits(np.frombuffer(raw.translate(_REVERSED), dtype=np.uint8)).reshape(rows, CARD_PLANES_SIZE)


def observation(t: SeatKnowledge, seat: int, hand: int, seen: int, decision: str | None, lay: Layout) -> np.ndarray:
    """A new observation vector of ``seat`` (equal to :func:`arena.rl.encoding.encode` of its view)."""
    out = lay.template.copy()
    out[:CARD_PLANES_SIZE] = np.unpackbits(np.frombuffer(planes(t, seat, hand, seen, lay).translate(_REVERSED),
                                                         dtype=np.uint8))
    # (numpy's stubs give an array no __buffer__; a float32 array's memoryview has format "f")
    write_numbers(memoryview(out), 0, t, seat, hand, decision, lay)  # type: ignore[arg-type]
    return out


def action_mask(legal: tuple, decision: str | None) -> np.ndarray:
    """A new action mask: 1 for each of ``legal`` (the game's legal actions at ``decision``; equal to
    :func:`arena.rl.encoding.action_mask` of the seat's view)."""
    if decision == "take":
        return _TAKE_MASK.copy()
    mask = _NO_ACTION.copy()
    if legal:
        mv = mask.data
        for c in legal:
            mv[c] = 1
    return mask


_NO_ACTION = np.zeros(ACTIONS, dtype=np.int8)
_TAKE_MASK = _NO_ACTION.copy()
_TAKE_MASK[[NO_TAKE, TAKE]] = 1
