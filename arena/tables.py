"""Precomputed lookups that keep the engine's inner loop cheap."""

from __future__ import annotations

from .cards import CARDS, PACK

_CHUNKS = tuple(
    tuple(tuple(CARDS[base + r] for r in range(13) if bits >> r & 1) for bits in range(1 << 13))
    for base in range(0, 2 * PACK, 13)
)
"""For each 13-card block (a suit of one pack) and each 13-bit pattern, its Cards."""

SUIT_CARDS = _CHUNKS[:4]
"""``SUIT_CARDS[suit][bits]``: the first-pack Cards of ``suit`` for a 13-bit rank pattern."""

_CACHE: dict[int, tuple] = {}
_CACHE_LIMIT = 1 << 18


def legal_tuple(mask: int) -> tuple:
    """The Cards of a hand bitmask as a tuple, lowest id first (memoised)."""
    found = _CACHE.get(mask)
    if found is not None:
        return found
    out: tuple = ()
    block, m = 0, mask
    while m:
        bits = m & 0x1FFF
        if bits:
            out += _CHUNKS[block][bits]
        m >>= 13
        block += 1
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[mask] = out
    return out
