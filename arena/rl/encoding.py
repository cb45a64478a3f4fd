"""The fixed-size numeric observation of one seat's :class:`~arena.game.views.PlayerView`, and its actions.

:func:`encode` turns a view into a ``float32`` vector of :data:`SIZE` numbers,
each in [0, 1], the same size for every preset, option and table size
(docs/training.md lists the fields). It reads the view alone, so it holds
exactly what the seat may know: a trained policy computes the same vector from
the view its bot is handed in a tournament, sandboxed or not.

Seats are *relative*: slot 0 is the seat itself, slot ``k`` the seat ``k``
places after it in play order (the rules' ``direction``); slots from the table
size up to 7 are zero. Cards are indexed by their id (:mod:`arena.game.cards`:
``copy * 52 + suit * 13 + rank``), 104 of them whatever the number of packs.

Actions are integers: a card id (0..103) plays that card, :data:`NO_TAKE`
(104) and :data:`TAKE` (105) answer a take decision (``neighbour_take``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from arena.game.cards import CARDS, DECK_MASK, PACK, mask_of
from arena.game.rules import CHOICES
from arena.game.rulings import rule_flags
from arena.game.views import PlayerView

if TYPE_CHECKING:
    from arena.rl.table import Facts

CARD_SLOTS = len(CARDS)
"""104: every card id of two packs."""
SEAT_SLOTS = 8
"""The largest table: relative seat slots 0..7."""
NO_TAKE, TAKE = CARD_SLOTS, CARD_SLOTS + 1
ACTIONS = CARD_SLOTS + 2
"""106 actions: the card ids, then no-take and take."""
CARD_PLANES = ("hand", "seen", "unseen", "pile", "trick", *(f"known_{k}" for k in range(1, SEAT_SLOTS)))
"""The card planes, in order (104 numbers each)."""
SEAT_FEATURES = ("present", "active", "size", "hidden", "void_c", "void_d", "void_h", "void_s",
                 "in_trick", "leads_trick", "winning", "next_leader", "place")
"""The numbers of each relative seat slot, in order."""
RULE_OPTIONS = tuple(CHOICES)
"""The rule options one-hot encoded (each over ``arena.game.rules.CHOICES[option]``), in this order."""


@dataclass(frozen=True, slots=True)
class Field:
    """One named run of numbers in the observation: ``vector[start:start + size]``."""

    name: str
    start: int
    size: int
    meaning: str


def _layout() -> tuple[Field, ...]:
    parts = [
        ("hand", CARD_SLOTS, "1 for each card in the seat's hand"),
        ("seen", CARD_SLOTS, "1 for each card the seat has seen (its deal, plays, pick-ups it saw, draws shown to it)"),
        ("unseen", CARD_SLOTS, "1 for each card of the packs in play the seat has never seen (held by others)"),
        ("pile", CARD_SLOTS, "1 for each card known to be on the discard pile"),
        ("trick", CARD_SLOTS, "1 for each card in the current trick"),
        ("known", CARD_SLOTS * (SEAT_SLOTS - 1),
         "slots 1..7, 104 each: the cards that seat is known to hold (picked up in public, not played since)"),
        ("seats", len(SEAT_FEATURES) * SEAT_SLOTS,
         f"slots 0..7, {len(SEAT_FEATURES)} each: " + ", ".join(SEAT_FEATURES)),
        ("decision", 2, "one-hot: this seat decides a play, or a take (both 0: not its turn)"),
        ("led_suit", 4, "one-hot C D H S: the suit led to the current trick (0s before the lead)"),
        ("trump", 4, "one-hot C D H S: the trump suit (Donkey; 0s while none)"),
        ("first_trick", 1, "1 during trick 1"),
        ("players", 6, "one-hot: 3..8 players at the table"),
        ("rules", sum(len(v) for v in CHOICES.values()),
         "each rule option one-hot over its values: " + ", ".join(RULE_OPTIONS)),
    ]
    fields, start = [], 0
    for name, size, meaning in parts:
        fields.append(Field(name, start, size, meaning))
        start += size
    return tuple(fields)


FIELDS = _layout()
"""The observation's fields, in order (docs/training.md shows them)."""
SIZE = FIELDS[-1].start + FIELDS[-1].size
FIELD = {f.name: f for f in FIELDS}
"""Each field by name."""
_AT = {f.name: f.start for f in FIELDS}
CARD_PLANES_SIZE, RULES_START = _SEATS, _RULES = _AT["seats"], _AT["rules"]
"""Where the card planes end (the seats begin) and where the rules begin."""
_ONE_HOT = {k: [[1.0 if i == j else 0.0 for i in range(k)] for j in range(k + 1)] for k in (2, 4, 6)}
"""``_ONE_HOT[k][j]``: k numbers, 1 at j (all 0 for j = k)."""
_ZEROS = [[0.0] * k for k in range(SEAT_SLOTS * len(SEAT_FEATURES) + 1)]
_CARD_BYTES = CARD_SLOTS // 8
_NF = len(SEAT_FEATURES)


@lru_cache(maxsize=64)
def rule_bits(rules) -> np.ndarray:
    """The ``rules`` field for a rule set: each option one-hot over its values (kept per rule set: read only)."""
    bits = []
    for option, values in CHOICES.items():
        value = getattr(rules, option)
        bits += [1.0 if value == v and type(value) is type(v) else 0.0 for v in values]
    array = np.array(bits, dtype=np.float32)
    array.setflags(write=False)
    return array


@lru_cache(maxsize=64)
def encode_template(rules, players: int) -> np.ndarray:
    """The observation's numbers that are the same at every decision of a game of ``rules`` at ``players``
    seats (the ``rules``, the ``players`` one-hot, each seat slot's ``present``), every other one 0: what
    :mod:`arena.rl.observation` starts each observation from (kept per rule set and size: read only)."""
    array = np.zeros(SIZE, dtype=np.float32)
    array[_SEATS:_SEATS + players * _NF:_NF] = 1.0
    array[_AT["players"] + players - 3] = 1.0
    array[_RULES:] = rule_bits(rules)
    array.setflags(write=False)
    return array


def encode(view: PlayerView | Facts, out: np.ndarray | None = None) -> np.ndarray:
    """The observation vector of ``view`` (written into ``out`` when given: a row of a batch). It reads
    only the view's fields (:class:`arena.rl.table.Facts` has them without the view)."""
    if out is None:
        out = np.empty(SIZE, dtype=np.float32)
    raw, tail = parts(view)
    out[:_SEATS] = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
    out[_SEATS:_RULES] = tail
    out[_RULES:] = rule_bits(view.rules)
    return out


def parts(view: PlayerView | Facts) -> tuple[bytes, list[float]]:
    """The observation of ``view`` but its ``rules``, in two parts: the card planes packed (little-endian
    bits, 13 bytes a plane) and the numbers from ``seats`` to ``players`` (a batch unpacks many at once)."""
    seat, n = view.seat, view.players
    step = rule_flags(view.rules).step
    order = [(seat + step * k) % n for k in range(n)]        # slot -> seat
    known, trick, seen = view.known_masks, view.trick, view.seen_mask
    masks = [known[seat], seen, DECK_MASK[view.rules.decks] & ~seen, view.pile_mask, mask_of(c for _, c in trick)]
    masks += [known[order[k]] if k < n else 0 for k in range(1, SEAT_SLOTS)]
    tail = _seats(view, order)
    tail += _ONE_HOT[2][{None: 2, "play": 0, "take": 1}[view.decision]]
    tail += _ONE_HOT[4][4 if view.led_suit is None else view.led_suit]
    tail += _ONE_HOT[4][4 if view.trump is None else view.trump]
    tail.append(1.0 if view.first_trick else 0.0)
    tail += _ONE_HOT[6][n - 3]
    return b"".join([m.to_bytes(_CARD_BYTES, "little") for m in masks]), tail


def _seats(view: PlayerView | Facts, order: list[int]) -> list[float]:
    """The ``seats`` field, slot by slot (:data:`SEAT_FEATURES`), as a list to add the rest to."""
    n, cards = view.players, float(PACK * view.rules.decks)
    sizes, hidden, voids, active = view.hand_sizes, view.hidden_draws, view.void_masks, view.active
    places = {s: i + 1 for i, s in enumerate(view.out)}
    trick = view.trick
    played = {s for s, _ in trick}
    leader = trick[0][0] if trick else None
    best = view.winning() if trick else None
    winner = best[0] if best is not None else None
    next_leader = view.next_leader
    row: list[float] = []
    for s in order:
        v = voids[s]
        row += (1.0, 1.0 if active[s] else 0.0, sizes[s] / cards, min(hidden[s] / cards, 1.0),
                v & 1, v >> 1 & 1, v >> 2 & 1, v >> 3 & 1, s in played, s == leader, s == winner,
                s == next_leader, places.get(s, 0) / n)
    row += _ZEROS[(SEAT_SLOTS - n) * _NF]
    return row


def action_mask(view: PlayerView | Facts) -> np.ndarray:
    """1 for each legal action of ``view`` (``int8``, :data:`ACTIONS` long; all 0 when it is not this seat's turn)."""
    mask = np.zeros(ACTIONS, dtype=np.int8)
    for a in view.legal:
        mask[action_of(a)] = 1
    return mask


def action_of(legal) -> int:
    """The action number of a legal action as the arena gives it: a card, or a take bool."""
    if legal is True:
        return TAKE
    if legal is False:
        return NO_TAKE
    return int(legal)


def arena_action(action: int):
    """What the arena takes for action number ``action``: a card, or a take bool."""
    if action == TAKE:
        return True
    if action == NO_TAKE:
        return False
    return CARDS[action]
