"""The learned player's inputs: a row of numbers for each legal card of a play decision, from the view alone.

One module for training (:mod:`players.learned.train`) and play
(:class:`players.learned.bot.LearnedBot`), so both compute the very same numbers.
:func:`card_features` reads a :class:`arena.PlayerView` and nothing else
(its public history through :func:`players.opponents.infer`), so it holds
what the seat may know. Every number is in about [0, 1]; :data:`NAMES` lists
them in order (the first :data:`GLOBAL` are the same for every card of the
decision, the rest describe the card).

Cards "out" are those others may hold: never seen by this seat, or known to
be held by another seat (picked up in public). Opponents are the next three
active seats in play order; each gets its hand size and the reference policy
its public plays fit (:func:`players.opponents.infer`: heuristic, high, low,
random).
"""

from __future__ import annotations

import numpy as np

from arena.game.cards import DECK_MASK, PACK, SUIT_MASK

from players.opponents import infer
from players.policy import HEURISTIC, HIGH, LOW, RANDOM, ViewTable, heuristic_card

OPPONENT_SLOTS = 3
_GLOBAL_NAMES = ("my_size", "others_active", "leading", "following", "cutting", "trick_len", "first_trick",
                 "min_other", "max_other", "mean_other", "me_minus_min", "out_total", "two_packs", "trumps",
                 *(f"opp{k}_{f}" for k in range(1, OPPONENT_SLOTS + 1)
                   for f in ("size", "heuristic", "high", "low", "random")))
_CARD_NAMES = ("rank", "out_higher", "out_lower", "mine_in_suit", "mine_higher", "voids_in_suit",
               "heuristic_card", "highest_legal", "lowest_legal", "beats_winner", "still_to_play",
               "risky_follow", "risky_lead", "last_card", "out_in_suit", "trick_led_higher")
NAMES = _GLOBAL_NAMES + _CARD_NAMES
"""Every feature's name, in column order."""
GLOBAL = len(_GLOBAL_NAMES)
SIZE = len(NAMES)
_KIND_COLUMN = {HEURISTIC: 1, HIGH: 2, LOW: 3, RANDOM: 4}


def _rank_masks() -> tuple[tuple[int, int], ...]:
    """For each card id: the cards of its suit (both packs) ranked above it, and below it."""
    out = []
    for c in range(2 * PACK):
        suit, rank = c % PACK // 13, c % 13
        above = below = 0
        for r in range(13):
            bits = 1 << (13 * suit + r) | 1 << (13 * suit + r + PACK)
            if r > rank:
                above |= bits
            elif r < rank:
                below |= bits
        out.append((above, below))
    return tuple(out)


ABOVE_BELOW = _rank_masks()


def card_features(view, legal: list[int] | None = None) -> np.ndarray:
    """``(len(legal), SIZE)`` float32: one row per legal card (``view.legal`` by default) of a play decision."""
    legal = [int(c) for c in (view.legal if legal is None else legal)]
    table = ViewTable(view)
    g = _global(view, table)
    rows = np.empty((len(legal), SIZE), dtype=np.float32)
    rows[:, :GLOBAL] = g
    pick = heuristic_card(table) if len(legal) > 1 else legal[0]
    ranks = [c % 13 for c in legal]
    top, bottom = max(ranks), min(ranks)
    hand = 0
    for c in view.hand:
        hand |= 1 << int(c)
    out = _out_mask(view)
    led = table.led
    seat, n = view.seat, view.players
    others = [s for s in view.active_seats() if s != seat]
    after = view.still_to_play() if led >= 0 else ()
    best = view.winning() if led >= 0 else None
    win_rank = best[1].rank if best is not None else -1
    risky_follow = 1.0 if led >= 0 and after and table.risky(led, after) else 0.0
    led_higher = 0
    if led >= 0:
        for _, c in view.trick:
            led_higher = max(led_higher, c.rank) if c.suit == led else led_higher
    lead_risk = [float(table.risky(u, others)) for u in range(4)] if led < 0 else [0.0] * 4
    voids = [sum(view.is_void(s, u) for s in others) / max(1, n - 1) for u in range(4)]
    last = 1.0 if len(view.hand) == 1 else 0.0
    for i, c in enumerate(legal):
        suit, rank = c % PACK // 13, c % 13
        above, below = ABOVE_BELOW[c]
        m = SUIT_MASK[suit]
        rows[i, GLOBAL:] = (
            rank / 12, (out & above).bit_count() / 13, (out & below).bit_count() / 13,
            (hand & m).bit_count() / 13, (hand & above).bit_count() / 13, voids[suit],
            c == pick, rank == top, rank == bottom,
            1.0 if led >= 0 and suit == led and rank > win_rank else 0.0, len(after) / max(1, n - 1),
            risky_follow, lead_risk[suit], last, (out & m).bit_count() / 13,
            1.0 if led >= 0 and suit == led and rank > led_higher else 0.0)
    return rows


def _out_mask(view) -> int:
    """The cards other seats may hold: never seen by this seat, or known held by another seat."""
    out = DECK_MASK[view.rules.decks] & ~view.seen_mask
    for s, m in enumerate(view.known_masks):
        if s != view.seat:
            out |= m
    return out


def _global(view, table: ViewTable) -> list[float]:
    """The numbers every card of the decision shares."""
    seat, n = view.seat, view.players
    sizes = view.hand_sizes
    order = _opponents(view)
    other_sizes = [sizes[s] / 13 for s in order] or [0.0]
    led = table.led
    legal_suits = {int(c) % PACK // 13 for c in view.legal}
    cutting = led >= 0 and led not in legal_suits
    mine = sizes[seat] / 13
    g = [mine, len(order) / max(1, n - 1), float(led < 0), float(led >= 0 and not cutting), float(cutting),
         len(view.trick) / n, float(view.first_trick), min(other_sizes), max(other_sizes),
         sum(other_sizes) / len(other_sizes), mine - min(other_sizes), _out_mask(view).bit_count() / 52,
         float(view.rules.decks == 2), float(view.rules.trumps)]
    kinds = infer(view).kinds
    for k in range(OPPONENT_SLOTS):
        slot = [0.0] * 5
        if k < len(order):
            s = order[k]
            slot[0] = sizes[s] / 13
            slot[_KIND_COLUMN[kinds[s]]] = 1.0
        g += slot
    return g


def _opponents(view) -> list[int]:
    """The other active seats in play order from this one."""
    seats, s = [], view.next_seat(view.seat)
    while s != view.seat and s not in seats:
        seats.append(s)
        s = view.next_seat(s)
    return seats
