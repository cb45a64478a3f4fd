"""Precomputed lookups that keep the engine's inner loop cheap.

The first pack's four card tables are built at import (about 10 ms; every game
needs them); the second pack's and the card-text tables, each as first used
(a two-pack game, a record), so a process that plays no game, or one pack,
does not pay for them.
"""

from __future__ import annotations

from functools import cache
from typing import TypeVar

from arena.game.cards import CARDS, PACK, TEXTS, Card, cards_of, sort_hand

_T = TypeVar("_T")


def _doubled(items: list[_T]) -> tuple[tuple[_T, ...], ...]:
    """Every 13-bit pattern's tuple of ``items`` (bit r set: ``items[r]`` in), built by doubling."""
    out: list[tuple[_T, ...]] = [()]
    for item in items:
        one = (item,)
        out += [t + one for t in out]
    return tuple(out)


@cache
def _block(block: int) -> tuple[tuple[Card, ...], ...]:
    """For a 13-card block (a suit of one pack: ``block`` 0-7), each 13-bit pattern's Cards."""
    return _doubled([CARDS[13 * block + r] for r in range(13)])


@cache
def _text_block(block: int) -> tuple[tuple[str, ...], ...]:
    """The same table with each card's text (a deal's texts for its record, without a lookup a card)."""
    return _doubled([TEXTS[CARDS[13 * block + r]] for r in range(13)])


SUIT_CARDS = tuple(_block(suit) for suit in range(4))
"""``SUIT_CARDS[suit][bits]``: the first-pack Cards of ``suit`` for a 13-bit rank pattern."""

_C0, _C1, _C2, _C3 = SUIT_CARDS
_FIRST_PACK = PACK


def legal_tuple(mask: int) -> tuple[Card, ...]:
    """The Cards of a hand bitmask as a tuple, lowest id first.

    Four (eight with a second pack) table lookups; no memo: most hands a
    leader holds are new, and a lookup costs about what a memo hit does.
    """
    out = _C0[mask & 0x1FFF] + _C1[mask >> 13 & 0x1FFF] + _C2[mask >> 26 & 0x1FFF] + _C3[mask >> 39 & 0x1FFF]
    if mask >> _FIRST_PACK:
        for block in range(4, 8):
            bits = mask >> (13 * block) & 0x1FFF
            if bits:
                out += _block(block)[bits]
    return out


def hand_texts(mask: int) -> list[str]:
    """The texts of a hand bitmask's cards, lowest id first (``[TEXTS[c] for c in legal_tuple(mask)]``)."""
    out = (_text_block(0)[mask & 0x1FFF] + _text_block(1)[mask >> 13 & 0x1FFF]
           + _text_block(2)[mask >> 26 & 0x1FFF] + _text_block(3)[mask >> 39 & 0x1FFF])
    if mask >> _FIRST_PACK:
        for block in range(4, 8):
            out += _text_block(block)[mask >> (13 * block) & 0x1FFF]
    return list(out)


def held_order(mask: int) -> tuple[Card, ...]:
    """The Cards of a hand bitmask as a player holds them: by suit, rank high to low.

    ``tuple(sort_hand(cards_of(mask)))``, from the tables for a one-pack hand.
    """
    if mask >> _FIRST_PACK:
        return tuple(sort_hand(cards_of(mask)))
    return (_C0[mask & 0x1FFF][::-1] + _C1[mask >> 13 & 0x1FFF][::-1]
            + _C2[mask >> 26 & 0x1FFF][::-1] + _C3[mask >> 39 & 0x1FFF][::-1])
