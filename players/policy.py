"""The reference policies on card masks: the heuristic one, and low and high.

One implementation each, shared by the players (:mod:`players.heuristic`,
:mod:`players.simple`), the sampler's playouts (on a :class:`players.playout.World`,
a rules state) and the opponent models (:mod:`players.opponents`, which ask it
which cards it would have preferred). One exception: a playout of one pack without
trumps chooses with :func:`players.playout.plain_card`, the heuristic policy written
out on a world's masks for speed, which tests/players/test_playout.py holds to this
one's card at every step.

The heuristic policy reads a *table*: what the seat to act knows. Both a
:class:`players.playout.World` (every hand known: a playout's sampled deal) and
:class:`ViewTable` (a :class:`arena.PlayerView`: known voids and card counts)
offer it:

- ``led``, ``trump`` (-1: none), ``trumps`` (the Donkey rule), ``legal_mask()``;
- ``under_winner()``: when a seat still to play to this trick could cut it
  (never in trick 1 under ``first_trick = "free"``), the mask of the cards
  ranked under the winning card in its suit; -1 when nobody could;
- ``lead_risks()``: for each suit ``risky << 4 | voids``: could one of the
  other active seats cut a trick led in it (0 or 1), and how many of them hold
  none of it, as far as known.

The heuristic: following, it never takes the trick while someone still to play
could cut (it ducks under the winner when it can) and dumps its highest card
when nobody can; leading, it picks the suit fewest others could cut or are void
in (high when safe, low when not); cutting, it throws its highest card, from
its shortest suit (in Donkey the first off-suit card fixes trumps: it picks its
shortest suit, to be void in trumps soon).
"""

from __future__ import annotations

from arena.game.cards import DECK_MASK, PACK, PACK_MASK, SECOND_PACK, SUIT_MASK, mask_of
from arena.game.rulings import rule_flags

HEURISTIC, LOW, HIGH, RANDOM = 0, 1, 2, 3
NAMES = ("heuristic", "low", "high", "random")
BELOW = tuple(tuple((((1 << r) - 1) << (13 * s)) * (1 + SECOND_PACK) for r in range(14)) for s in range(4))
"""``BELOW[suit][rank]``: the cards of ``suit`` (both packs) ranked below ``rank``."""


def highest(m: int) -> int:
    """The highest card of a mask within one suit (of two equal ranks, the second pack's).

    Hot callers inline the one-pack case: ``m.bit_length() - 1`` when ``m < SECOND_PACK``."""
    hi = m >> PACK
    if not hi:
        return m.bit_length() - 1
    a, b = (m & PACK_MASK).bit_length() - 1, hi.bit_length() - 1
    return b + PACK if b >= a else a


def lowest(m: int) -> int:
    """The lowest card of a mask within one suit (of two equal ranks, the first pack's)."""
    lo, hi = m & PACK_MASK, m >> PACK
    if not hi:
        return (lo & -lo).bit_length() - 1
    b = (hi & -hi).bit_length() - 1
    if not lo:
        return b + PACK
    a = (lo & -lo).bit_length() - 1
    return a if a <= b else b + PACK


def _rank_key(c: int) -> tuple[int, int]:
    return c % 13, c // PACK


# ------------------------------------------------------------------ heuristic
def heuristic_card(t) -> int:
    """The heuristic policy's card for the seat to act at table ``t``.

    Following (in Donkey also trumping, which it does alike): its highest card
    when nobody still to play could cut, else its highest card under the winner
    (if it has one). Leading: :func:`lead_card`. Cutting: :func:`cut_card`.
    """
    legal = t.legal_mask()
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1           # the only legal card
    led = t.led
    if led < 0:
        return lead_card(t, legal)
    if not legal & SUIT_MASK[led] and not (t.trump >= 0 and legal & SUIT_MASK[t.trump]):
        return cut_card(legal, legal, t.trumps and t.trump < 0)
    under = t.under_winner()
    if under >= 0 and legal & under:
        legal &= under
    return legal.bit_length() - 1 if legal < SECOND_PACK else highest(legal)


def lead_card(t, legal: int) -> int:
    """Lead the suit fewest others could cut (then are void in, then the longest): high if safe, low if not."""
    risks = t.lead_risks()
    best, key = 0, -1
    for suit in range(4):
        cards = legal & SUIT_MASK[suit]
        if cards:
            k = risks[suit] << 8 | (63 - cards.bit_count()) << 2 | suit     # (risky, voids, -count, suit)
            if key < 0 or k < key:
                best, key = cards, k
    return lowest(best) if key >> 12 else highest(best)      # low when risky, else high


def cut_card(legal: int, hand: int, fixing: bool) -> int:
    """Throw the highest card (ties: the shortest suit of ``hand``); the shortest suit when the cut
    fixes trumps (Donkey). Cutting, every card in hand is legal: the policy passes ``legal`` twice."""
    best, key = -1, -1
    for suit in range(4):
        cards = legal & SUIT_MASK[suit]
        if cards:
            top = cards.bit_length() - 1 if cards < SECOND_PACK else highest(cards)
            short = 31 - (hand & SUIT_MASK[suit]).bit_count()
            rank, copy = top % 13, top // PACK
            k = (short << 5 | rank << 1 | copy) if fixing else (rank << 6 | short << 1 | copy)
            if k > key:
                best, key = top, k
    return best


# ---------------------------------------------------------------- low, high
def low_card(legal: int, cutting: bool) -> int:
    """``low``: its lowest legal card (ties: the lowest card id); its highest card when it cuts."""
    if cutting:
        return high_card(legal)
    best = -1
    for suit in range(4):
        cards = legal & SUIT_MASK[suit]
        if cards:
            c = lowest(cards)
            if best < 0 or _rank_key(c) < _rank_key(best):
                best = c
    return best


def high_card(legal: int) -> int:
    """``high``: its highest legal card (ties: the lowest card id)."""
    best = -1
    for suit in range(4):
        cards = legal & SUIT_MASK[suit]
        if cards:
            c = highest(cards)
            if best < 0 or _rank_key(c) > _rank_key(best):
                best = c
    return best


def nth_card(legal: int, k: int) -> int:
    """The ``k``-th lowest card id of a mask (``random`` picks ``k`` uniformly)."""
    for _ in range(k):
        legal &= legal - 1
    return (legal & -legal).bit_length() - 1


def model_card(t, kind: int, rng) -> int:
    """The card of reference policy ``kind`` (:data:`NAMES`) for the seat to act at ``t``."""
    if kind == HEURISTIC:
        return heuristic_card(t)
    legal = t.legal_mask()
    if kind == RANDOM:
        return nth_card(legal, int(rng.random() * legal.bit_count()))
    if kind == LOW:
        return low_card(legal, t.led >= 0 and not legal & SUIT_MASK[t.led])
    return high_card(legal)


# --------------------------------------------------------------- the view
class ViewTable:
    """The table protocol on a :class:`arena.PlayerView`: the heuristic player's knowledge.

    A seat is void in a suit when its thullas showed it; a suit is risky when
    someone is known void in it or too few of its cards are unaccounted for.
    """

    __slots__ = ("cur", "led", "trump", "trumps", "view")

    def __init__(self, view) -> None:
        self.view, self.cur = view, view.seat
        self.led = view.led_suit if view.led_suit is not None else -1
        self.trump = view.trump if view.trump is not None else -1
        self.trumps = view.rules.trumps

    def legal_mask(self) -> int:
        return mask_of(self.view.legal)

    def under_winner(self) -> int:
        view = self.view
        if view.first_trick and rule_flags(view.rules).free_first:
            return -1
        after = view.still_to_play()
        if not after or not self.risky(self.led, after):
            return -1
        best = view.winning()
        return BELOW[best[1].suit][best[1].rank]

    def lead_risks(self) -> list[int]:
        others = [s for s in self.view.active_seats() if s != self.cur]
        return [self.risky(suit, others) << 4 | sum(self.view.is_void(s, suit) for s in others)
                for suit in range(4)]

    def risky(self, suit: int, seats) -> bool:
        """Could one of ``seats`` cut a trick in ``suit``? In Donkey only a seat void in it *and* in trumps."""
        if self.trumps:
            trump = self.trump
            if trump < 0:
                return False
            void = self.view.is_void
            if any(void(s, suit) and void(s, trump) for s in seats):
                return True
            return self._scarce(suit, seats) and self._scarce(trump, seats)
        return any(self.view.is_void(s, suit) for s in seats) or self._scarce(suit, seats)

    def _scarce(self, suit: int, seats) -> bool:
        """Too few cards of ``suit`` may be left for every one of ``seats`` to hold one."""
        view, m = self.view, SUIT_MASK[suit]
        unseen = (DECK_MASK[view.rules.decks] & ~view.seen_mask & m).bit_count()
        known = sum((view.known_masks[s] & m).bit_count() for s in seats)
        return unseen + known < 2 * len(seats)
