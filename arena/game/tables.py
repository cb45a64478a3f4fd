"""Precomputed lookups that keep the engine's inner loop cheap."""

from __future__ import annotations

from arena.game.cards import CARDS, PACK, TEXTS, cards_of, sort_hand


def _block(base: int) -> tuple:
    """Every 13-bit pattern's Cards for the block starting at ``base`` (built by doubling)."""
    out: list[tuple] = [()]
    for r in range(13):
        one = (CARDS[base + r],)
        out += [t + one for t in out]
    return tuple(out)


_CHUNKS = tuple(_block(base) for base in range(0, 2 * PACK, 13))
"""For each 13-card block (a suit of one pack) and each 13-bit pattern, its Cards."""

_TEXT_CHUNKS = tuple(tuple(tuple(TEXTS[c] for c in cards) for cards in block) for block in _CHUNKS)
"""The same tables with each card's text (a deal's texts for its record, without a lookup a card)."""

SUIT_CARDS = _CHUNKS[:4]
"""``SUIT_CARDS[suit][bits]``: the first-pack Cards of ``suit`` for a 13-bit rank pattern."""

_C0, _C1, _C2, _C3 = _CHUNKS[:4]
_FIRST_PACK = PACK


def legal_tuple(mask: int) -> tuple:
    """The Cards of a hand bitmask as a tuple, lowest id first.

    Four (eight with a second pack) table lookups; no memo: most hands a
    leader holds are new, and a lookup costs about what a memo hit does.
    """
    out = _C0[mask & 0x1FFF] + _C1[mask >> 13 & 0x1FFF] + _C2[mask >> 26 & 0x1FFF] + _C3[mask >> 39 & 0x1FFF]
    if mask >> _FIRST_PACK:
        for block in range(4, 8):
            bits = mask >> (13 * block) & 0x1FFF
            if bits:
                out += _CHUNKS[block][bits]
    return out


def hand_texts(mask: int) -> list[str]:
    """The texts of a hand bitmask's cards, lowest id first (``[TEXTS[c] for c in legal_tuple(mask)]``)."""
    t0, t1, t2, t3 = _TEXT_CHUNKS[:4]
    out = t0[mask & 0x1FFF] + t1[mask >> 13 & 0x1FFF] + t2[mask >> 26 & 0x1FFF] + t3[mask >> 39 & 0x1FFF]
    if mask >> _FIRST_PACK:
        for block in range(4, 8):
            out += _TEXT_CHUNKS[block][mask >> (13 * block) & 0x1FFF]
    return list(out)


def held_order(mask: int) -> tuple:
    """The Cards of a hand bitmask as a player holds them: by suit, rank high to low.

    ``tuple(sort_hand(cards_of(mask)))``, from the tables for a one-pack hand.
    """
    if mask >> _FIRST_PACK:
        return tuple(sort_hand(cards_of(mask)))
    return (_C0[mask & 0x1FFF][::-1] + _C1[mask >> 13 & 0x1FFF][::-1]
            + _C2[mask >> 26 & 0x1FFF][::-1] + _C3[mask >> 39 & 0x1FFF][::-1])
