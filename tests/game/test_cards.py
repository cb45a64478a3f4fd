"""Cards: ids, text forms, parsing, bitmasks."""

import pickle

import pytest

from arena import ACE_OF_SPADES, CARDS, Card, CardError, card, parse_card, parse_cards
from arena.game.cards import (BIT, DECK_MASK, PACK_MASK, PACK_SUIT_MASK, SECOND_PACK, SUIT_MASK, SUIT_OF, cards_of,
                              deck, mask_of, sort_hand)


def test_every_card_round_trips_through_its_text():
    """Each of the 104 cards prints as rank+suit (``*`` for the second pack) and parses back."""
    texts = [str(c) for c in CARDS]
    assert len(set(texts)) == 104
    for c in CARDS:
        assert parse_card(str(c)) is c
    assert str(CARDS[0]) == "2C" and str(CARDS[51]) == "AS" and str(CARDS[103]) == "AS*"


def test_ids_encode_copy_suit_and_rank():
    """A card's id is copy*52 + suit*13 + rank, with C D H S and 2..A."""
    c = parse_card("QH*")
    assert (c.copy, c.suit, c.rank) == (1, 2, 10)
    assert int(c) == 52 + 26 + 10
    assert parse_card("AS") == ACE_OF_SPADES and ACE_OF_SPADES.rank == 12 and ACE_OF_SPADES.suit == 3


@pytest.mark.parametrize("text, expected", [
    ("10H", "TH"), ("th", "TH"), ("Q♥", "QH"), ("A♠", "AS"), ("2♣", "2C"), ("K♦", "KD"),
    (" as ", "AS"), ("10♠*", "TS*"), ("a♤", "AS"),
])
def test_alternative_texts_parse(text, expected):
    """``10H``, lower case, suit symbols and ``*`` all parse to the canonical card."""
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["", "A", "1H", "11H", "AX", "ZS", "AS**", "10", "*", "A S", "AS1"])
def test_malformed_card_text_is_refused_naming_it(text):
    """A text that is not a card raises CardError quoting the text and the expected form."""
    with pytest.raises(CardError) as err:
        parse_card(text)
    assert f"not a card: {text!r}" in str(err.value)
    assert "expected rank" in str(err.value)


@pytest.mark.parametrize("value", [None, 3.5, True, -1, 104, ["AS"]])
def test_card_refuses_other_values(value):
    """``card()`` refuses ids out of range, bools and non-card objects with CardError."""
    with pytest.raises(CardError) as err:
        card(value)
    assert repr(value) in str(err.value) or str(value) in str(err.value)


def test_parse_card_refuses_non_strings():
    """``parse_card`` given a non-string raises CardError, not AttributeError."""
    with pytest.raises(CardError, match="must be a string"):
        parse_card(51)


def test_card_error_is_a_value_error():
    """CardError is an ArenaError that also behaves as a ValueError."""
    with pytest.raises(ValueError):
        parse_card("XX")


def test_parse_cards_splits_on_spaces_and_commas():
    """``parse_cards`` accepts a spaced or comma list and iterables of texts and ids."""
    assert [str(c) for c in parse_cards("AS, 10H  2c")] == ["AS", "TH", "2C"]
    assert parse_cards(["AS", 0]) == [ACE_OF_SPADES, CARDS[0]]


def test_masks_and_suit_masks():
    """A hand is a bitmask; SUIT_MASK selects one suit from both packs."""
    hand = parse_cards("AS AS* 2H KD")
    m = mask_of(hand)
    assert m.bit_count() == 4
    assert cards_of(m & SUIT_MASK[3]) == parse_cards("AS AS*")
    assert cards_of(m) == sorted(hand)


def test_each_mask_holds_exactly_its_cards():
    """The layout's masks, checked card by card: a suit's in one pack and in both, a pack's, a deck's."""
    for suit in range(4):
        assert cards_of(PACK_SUIT_MASK[suit]) == [c for c in deck(1) if c.suit == suit]
        assert cards_of(SUIT_MASK[suit]) == [c for c in deck(2) if c.suit == suit]
    assert cards_of(PACK_MASK) == deck(1) and cards_of(DECK_MASK[1]) == deck(1)
    assert cards_of(DECK_MASK[2]) == deck(2) and DECK_MASK[0] == 0
    assert cards_of(SECOND_PACK) == [card("2C*")] and all(BIT[c] < SECOND_PACK for c in deck(1))
    assert [SUIT_OF[c] for c in CARDS] == [c.suit for c in CARDS]


def test_mask_of_takes_ids_cards_and_any_iterable():
    """mask_of: one bit per distinct card, from ids, Cards, a generator; cards_of undoes it."""
    hand = parse_cards("AS AS* 2H KD")
    assert mask_of(hand) == mask_of(int(c) for c in hand) == mask_of([*hand, hand[0]])
    assert mask_of(()) == 0 and mask_of(deck(2)) == DECK_MASK[2]
    assert cards_of(mask_of(reversed(hand))) == sorted(hand)


def test_sort_hand_orders_by_suit_then_high_rank():
    """Hands sort by suit (C D H S), then rank high to low."""
    assert [str(c) for c in sort_hand(parse_cards("2S AH 3C KH TS"))] == ["3C", "AH", "KH", "TS", "2S"]


def test_cards_are_interned_and_pickle_to_the_same_object():
    """Cards are shared objects; pickling returns the interned card."""
    c = card("7D")
    assert card(int(c)) is c
    assert pickle.loads(pickle.dumps(c)) is c
    assert repr(c) == "Card('7D')" and c.pretty == "7♦" and card("TD").pretty == "10♦"
    assert isinstance(c, Card) and isinstance(c, int)


def test_deck_sizes():
    """One pack has 52 distinct cards, two packs 104."""
    assert len(set(deck(1))) == 52 and len(set(deck(2))) == 104


def test_held_order_is_the_sorted_hand_for_one_and_two_packs():
    """tables.held_order (the views' fast path) orders a mask exactly as sort_hand does."""
    import random

    from arena.game.lookup import held_order
    rng = random.Random(11)
    masks = [0, (1 << 52) - 1, (1 << 104) - 1] + [rng.getrandbits(52) for _ in range(300)]
    masks += [rng.getrandbits(104) & rng.getrandbits(104) for _ in range(300)]
    for m in masks:
        assert held_order(m) == tuple(sort_hand(cards_of(m)))
    assert [str(c) for c in held_order(mask_of(parse_cards("2S AH 3C KH TS")))] == ["3C", "AH", "KH", "TS", "2S"]


def test_parse_card_takes_canonical_and_other_spellings_alike():
    """The canonical text fast path and the general parser give the same interned cards."""
    for c in CARDS:
        assert parse_card(str(c)) is c
        assert parse_card(" " + str(c).lower() + " ") is c
    assert parse_card("10♥") is card("TH")
