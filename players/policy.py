"""The reference policies on card masks: the heuristic one, and low and high.

One implementation each, shared by the players (:mod:`players.heuristic`,
:mod:`players.simple`), the sampler's playouts (on a :class:`arena.game.state.State`)
and the opponent models (:mod:`players.opponents`, which ask it which cards it
would have preferred).

The heuristic policy reads a *table*: what the seat to act knows. Both a rules
state (every hand known: a playout's sampled world) and :class:`ViewTable` (a
:class:`arena.PlayerView`: known voids and card counts) offer it:

- ``cur``, ``led``, ``trump`` (-1: none), ``trumps`` (the Donkey rule),
  ``legal_mask()``, ``own_hand()``;
- ``free_trick()``: trick 1 under ``first_trick = "free"`` (nobody can cut);
- ``winner()``: (suit, rank) of the card winning the trick so far;
- ``still_to_play()`` and ``others()``: seats after the one to act in this
  trick, and every other active seat;
- ``void(seat, suit)``: the seat holds none of the suit (as far as known);
- ``risky(suit, seats)``: one of ``seats`` could cut a trick in ``suit``.

The heuristic: following, it never takes the trick while someone still to play
could cut (it ducks under the winner when it can) and dumps its highest card
when nobody can; leading, it picks the suit fewest others could cut or are void
in (high when safe, low when not); cutting, it throws its highest card, from
its shortest suit (in Donkey the first off-suit card fixes trumps: it picks its
shortest suit, to be void in trumps soon).
"""

from __future__ import annotations

from arena.game.cards import PACK, SUIT_MASK

HEURISTIC, LOW, HIGH, RANDOM = 0, 1, 2, 3
NAMES = ("heuristic", "low", "high", "random")
FIRST_PACK = (1 << PACK) - 1
_BELOW = tuple(tuple((((1 << r) - 1) << (13 * s)) * (1 + (1 << PACK)) for r in range(14)) for s in range(4))
"""``_BELOW[suit][rank]``: the cards of ``suit`` (both packs) ranked below ``rank``."""


def highest(m: int) -> int:
    """The highest card of a mask within one suit (of two equal ranks, the second pack's)."""
    hi = m >> PACK
    if not hi:
        return m.bit_length() - 1
    a, b = (m & FIRST_PACK).bit_length() - 1, hi.bit_length() - 1
    return b + PACK if b >= a else a


def lowest(m: int) -> int:
    """The lowest card of a mask within one suit (of two equal ranks, the first pack's)."""
    lo, hi = m & FIRST_PACK, m >> PACK
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
    """The heuristic policy's card for the seat to act at table ``t``."""
    legal = t.legal_mask()
    if legal & (legal - 1) == 0:
        return highest(legal)
    led = t.led
    if led < 0:
        return lead_card(t, legal)
    follow = legal & SUIT_MASK[led]
    if follow:
        return follow_card(t, follow)
    if t.trump >= 0 and legal & SUIT_MASK[t.trump]:
        return follow_card(t, legal)            # Donkey: must trump, and does so like following
    return cut_card(t, legal)


def lead_card(t, legal: int) -> int:
    """Lead the suit fewest others could cut (then are void in, then the longest): high if safe, low if not."""
    others = t.others()
    best = None
    for suit in range(4):
        cards = legal & SUIT_MASK[suit]
        if cards:
            voids = 0
            for o in others:
                if t.void(o, suit):
                    voids += 1
            key = (t.risky(suit, others), voids, -cards.bit_count(), suit)
            if best is None or key < best[0]:
                best = (key, cards)
    key, cards = best
    return lead_choice(cards, key[0])


def lead_choice(cards: int, risky: bool) -> int:
    """The card it leads from the chosen suit's ``cards``: the lowest when risky, else the highest."""
    return lowest(cards) if risky else highest(cards)


def follow_card(t, follow: int) -> int:
    """Highest card when nobody after could cut, else the highest card under the winner (if any)."""
    if t.free_trick():
        return highest(follow)
    after = t.still_to_play()
    if not after or not t.risky(t.led, after):
        return highest(follow)
    suit, rank = t.winner()
    below = follow & _BELOW[suit][rank]
    return highest(below) if below else highest(follow)


def cut_card(t, legal: int) -> int:
    """Throw the highest card (ties: the shortest suit); the shortest suit when the cut fixes trumps."""
    hand = t.own_hand()
    fixing = t.trumps and t.trump < 0
    best, key = -1, None
    for suit in range(4):
        cards = legal & SUIT_MASK[suit]
        if cards:
            top = highest(cards)
            count = (hand & SUIT_MASK[suit]).bit_count()
            k = (-count, top % 13, top // PACK) if fixing else (top % 13, -count, top // PACK)
            if key is None or k > key:
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
        return sum(1 << c for c in self.view.legal)

    def own_hand(self) -> int:
        return sum(1 << c for c in self.view.hand)

    def free_trick(self) -> bool:
        return self.view.first_trick and self.view.rules.first_trick == "free"

    def winner(self) -> tuple[int, int]:
        best = self.view.winning()
        return (best[1].suit, best[1].rank) if best is not None else (self.led, 0)

    def still_to_play(self) -> tuple[int, ...]:
        return self.view.still_to_play()

    def others(self) -> list[int]:
        return [s for s in self.view.active_seats() if s != self.cur]

    def void(self, seat: int, suit: int) -> bool:
        return self.view.is_void(seat, suit)

    def risky(self, suit: int, seats) -> bool:
        """Could one of ``seats`` cut a trick in ``suit``? In Donkey only a seat void in it *and* in trumps."""
        if self.trumps:
            trump = self.trump
            if trump < 0:
                return False
            if any(self.void(s, suit) and self.void(s, trump) for s in seats):
                return True
            return self._scarce(suit, seats) and self._scarce(trump, seats)
        return any(self.void(s, suit) for s in seats) or self._scarce(suit, seats)

    def _scarce(self, suit: int, seats) -> bool:
        """Too few cards of ``suit`` may be left for every one of ``seats`` to hold one."""
        view, m = self.view, SUIT_MASK[suit]
        full = (1 << (PACK * view.rules.decks)) - 1
        unseen = (full & ~view.seen_mask & m).bit_count()
        known = sum((view.known_masks[s] & m).bit_count() for s in seats)
        return unseen + known < 2 * len(seats)
