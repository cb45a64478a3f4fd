"""Cards: ids, text, suits, ranks and hand bitmasks.

A card is an ``int`` subclass whose value is its id::

    id = copy * 52 + suit * 13 + rank      suit: C=0 D=1 H=2 S=3, rank: 2=0 .. A=12

so a hand is a bitmask (bit ``id`` set when the card is held, :func:`mask_of`) and
the cards of one suit in a hand are ``hand & SUIT_MASK[suit]`` (``PACK_SUIT_MASK``
for the first pack alone). Every mask of the layout is defined here and only here. Cards are interned: use
:func:`card` or :data:`CARDS`, never ``Card(...)`` directly in hot code. They print as
``AS``, ``TH``, ``2C`` and ``AS*`` (a second-pack copy) and parse from that,
from ``10H`` and from the suit symbols ``♣ ♦ ♥ ♠``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from arena.game.errors import CardError

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
MAX_DECKS = 2
PACK = 52


class Card(int):
    """One card; its ``int`` value is its id (see the module docstring)."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """0 for a two .. 12 for an ace."""
        return self % 13

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return self % 52 // 13

    @property
    def copy(self) -> int:
        """0 for the first pack, 1 for the second."""
        return self // 52

    @property
    def text(self) -> str:
        return RANKS[self % 13] + SUITS[self % 52 // 13] + ("*" if self >= 52 else "")

    @property
    def pretty(self) -> str:
        """The card with its suit symbol, as people read it: ``A♠``, ``10♥``."""
        rank = "10" if self % 13 == 8 else RANKS[self % 13]
        return rank + SUIT_SYMBOLS[self % 52 // 13] + ("*" if self >= 52 else "")

    def __str__(self) -> str:
        return TEXTS[self]

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:
        return (card, (int(self),))


CARDS: tuple[Card, ...] = tuple(Card.__new__(Card, i) for i in range(PACK * MAX_DECKS))
ACE_OF_SPADES = CARDS[SPADES * 13 + 12]
TEXTS: tuple[str, ...] = tuple(c.text for c in CARDS)
"""The text of each card id (``TEXTS[c]`` is the fast ``str(card)``)."""

_BY_TEXT: dict[str, Card] = dict(zip(TEXTS, CARDS))

BIT: tuple[int, ...] = tuple(1 << c for c in range(len(CARDS)))
"""``BIT[c]`` is card ``c``'s bit in a hand mask (a lookup instead of a shift in hot loops)."""

SUIT_OF: tuple[int, ...] = tuple(c % PACK // 13 for c in range(len(CARDS)))
"""``SUIT_OF[c]`` is card ``c``'s suit (the fast ``card.suit``)."""

PACK_MASK = (1 << PACK) - 1
"""The bits of every first-pack card: the whole deck of a one-pack game."""

SECOND_PACK = 1 << PACK
"""The first second-pack card's bit: a mask below it holds first-pack cards only."""

DECK_MASK: tuple[int, ...] = tuple((1 << (PACK * decks)) - 1 for decks in range(MAX_DECKS + 1))
"""``DECK_MASK[decks]``: the bits of every card of a game of ``decks`` packs."""

PACK_SUIT_MASK: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
"""For each suit, the bits of its first-pack cards (a one-pack game's suits)."""

SUIT_MASK: tuple[int, ...] = tuple(m | m << PACK for m in PACK_SUIT_MASK)
"""For each suit, the bits of its cards in both packs."""

SUIT_OF_TEXT: dict[str, int] = {**{c: i for i, c in enumerate(SUITS)}, **{c: i for i, c in enumerate(SUITS.lower())},
                                **{c: i for i, c in enumerate(SUIT_SYMBOLS)}, "♤": 3, "♡": 2, "♢": 1, "♧": 0}
"""A suit's number from its letter (``C``, ``d``: as records write it, or lower case) or symbol (``♠``, ``♤``)."""
_RANK_OF_TEXT = {**{c: i for i, c in enumerate(RANKS)}, **{c: i for i, c in enumerate(RANKS.lower())},
                 "10": 8}


def card(value: Card | int | str) -> Card:
    """The interned card for an id or a text such as ``AS``, ``10H``, ``Q♥``, ``AS*``."""
    if isinstance(value, Card):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < len(CARDS):
            return CARDS[value]
        raise CardError(f"card id must be 0..{len(CARDS) - 1} (got {value})")
    if isinstance(value, str):
        return parse_card(value)
    raise CardError(f"a card must be a text such as 'AS' or '10H' (got {value!r})")


def parse_card(text: str) -> Card:
    """Parse one card text; raise :class:`CardError` naming the text if it is not a card."""
    if type(text) is str:
        hit = _BY_TEXT.get(text)      # the canonical texts every record and view uses
        if hit is not None:
            return hit
    elif not isinstance(text, str):
        raise CardError(f"a card text must be a string such as 'AS' or '10H' (got {text!r})")
    raw = text.strip()
    body = raw[:-1] if raw.endswith("*") else raw
    copy = 1 if raw.endswith("*") else 0
    rank = _RANK_OF_TEXT.get(body[:-1]) if len(body) >= 2 else None
    suit = SUIT_OF_TEXT.get(body[-1:]) if body else None
    if rank is None or suit is None:
        raise CardError(
            f"not a card: {text!r} (expected rank 2-9, T or 10, J, Q, K, A then suit C, D, H, S "
            f"or a suit symbol, with '*' for a second-pack copy, e.g. 'AS', '10H', 'Q♥')"
        )
    return CARDS[copy * PACK + suit * 13 + rank]


def parse_cards(text: str | Iterable[str | int]) -> list[Card]:
    """Parse cards from a text separated by spaces or commas, or from an iterable."""
    if isinstance(text, str):
        return [parse_card(t) for t in text.replace(",", " ").split()]
    return [card(t) for t in text]


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of a collection of cards (ids or :class:`Card`; a card listed twice is one bit).

    The one cards-to-mask function: the engine's deal, the views' trackers and the
    players all use it (a loop over :data:`BIT`, faster than a ``sum`` of big ints)."""
    m = 0
    for c in cards:
        m |= BIT[c]
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a bitmask, lowest id first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def bit_list(mask: int) -> list[int]:
    """The set bit positions (card ids) of a mask as a list, lowest first (hot-path form)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_HAND_ORDER = {c: i for i, c in enumerate(sorted(CARDS, key=lambda c: (c.suit, -c.rank, c.copy)))}


def sort_hand(cards: Iterable[int]) -> list[Card]:
    """Cards sorted as a player holds them: by suit, then rank high to low."""
    return sorted((card(c) for c in cards), key=_HAND_ORDER.__getitem__)


def deck(decks: int = 1) -> list[Card]:
    """Every card of ``decks`` packs, in id order."""
    return list(CARDS[: PACK * decks])
