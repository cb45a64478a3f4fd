"""What a seat of the OpenSpiel game observes: a tensor and a string made from its
:class:`~arena.game.knowledge.SeatKnowledge`, fed the event dicts it was shown and nothing else.

The observation (``perfect_recall=False``) is the seat's knowledge now, the planes below, with ``C`` card slots
(52 a pack) and ``n`` seats, in this order:

    player   n      the observing seat, one-hot
    hand     C      its cards                         (private: with ``private_info`` SINGLE_PLAYER)
    trick    C      the cards of the trick under way
    leader   n      who led it, one-hot (none before the lead)
    pile     C      the cards seen go to the discard pile and not come back
    seen     C      every card the seat has seen
    known    n x C  the cards each seat is known to hold (picked up, taken or drawn in sight; its own: none)
    voids    n x 4  the suits each seat is known to be void in
    sizes    n      each seat's hand size, over C
    active   n      who is still in
    trump    5      no trump yet, or its suit (Donkey), one-hot
    first    1      trick 1 is under way or to come
    take     1      the seat is asked whether to take (``neighbour_take``)

The information state (``perfect_recall=True``) is a string only: every event the seat has seen, in order
(:meth:`players.openspiel.core.Table.info_string`); the game offers no information-state tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from arena.game.cards import CARDS, SUITS, cards_of
from arena.game.knowledge import SeatKnowledge
from arena.game.state import TAKE as TAKE_DECISION

from players.openspiel.errors import OpenSpielError


def knowledge(table: Any, seat: int) -> SeatKnowledge:
    """What ``seat`` knows of ``table``'s game now (while dealing: the cards it was dealt so far)."""
    k = SeatKnowledge(seat, table.players, table.rules)
    if table.game is None:
        for i, c in enumerate(table.dealt):
            if table.order[i % table.players] == seat:
                k.hand_mask |= 1 << c
        return k
    for e in table.events(seat):
        k.feed(e)
    return k


def pieces(players: int, slots: int, private: bool, public: bool) -> list[tuple[str, int, tuple[int, ...]]]:
    out: list[tuple[str, int, tuple[int, ...]]] = [("player", players, (players,))]
    if private:
        out.append(("hand", slots, (slots,)))
    if public:
        out += [("trick", slots, (slots,)), ("leader", players, (players,)), ("pile", slots, (slots,)),
                ("seen", slots, (slots,)), ("known", players * slots, (players, slots)),
                ("voids", players * 4, (players, 4)), ("sizes", players, (players,)),
                ("active", players, (players,)), ("trump", 5, (5,)), ("first", 1, (1,)), ("take", 1, (1,))]
    return out


class BhabhiObserver:
    """A PyObserver (open_spiel/python/observation.py): ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, iig_obs_type: Any, players: int, slots: int, params: Any = None) -> None:
        if params:
            raise OpenSpielError(f"the Bhabhi observer takes no parameters (got {params!r})")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.slots = slots
        layout = [] if self.perfect_recall else pieces(players, slots, self.private, self.public)
        self.tensor = np.zeros(sum(size for _, size, _ in layout), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size, shape in layout:
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    def set_from(self, state: Any, player: int) -> None:
        self.tensor.fill(0)
        if self.perfect_recall:
            return
        table = state.table
        k = knowledge(table, player)
        d, slots = self.dict, self.slots
        d["player"][player] = 1
        if self.private:
            _bits(d["hand"], k.hand_mask, slots)
        if not self.public:
            return
        for _, c in k.trick:
            d["trick"][c] = 1
        if k.trick:
            d["leader"][k.trick[0][0]] = 1
        _bits(d["pile"], k.pile_mask, slots)
        _bits(d["seen"], k.seen_mask, slots)
        for s in range(table.players):
            if s != player:
                _bits(d["known"][s], k.known_masks[s], slots)
            for u in range(4):
                d["voids"][s][u] = k.void_masks[s] >> u & 1
            d["sizes"][s] = k.hand_sizes[s] / slots
            d["active"][s] = k.active[s]
        d["trump"][0 if k.trump is None else 1 + k.trump] = 1
        d["first"][0] = k.first_trick
        d["take"][0] = _asked_to_take(state, player)

    def string_from(self, state: Any, player: int) -> str:
        table = state.table
        if self.perfect_recall:
            return str(table.info_string(player))
        k = knowledge(table, player)
        parts = [f"p{player}"]
        if self.private:
            parts.append("hand " + _texts(k.hand_mask))
        if self.public:
            parts.append("trick " + " ".join(f"{s}:{CARDS[c].text}" for s, c in k.trick))
            parts.append("pile " + _texts(k.pile_mask))
            parts.append("sizes " + ",".join(map(str, k.hand_sizes)))
            parts.append("out " + ",".join(map(str, k.out)))
            parts.append("known " + ";".join(_texts(k.known_masks[s]) if s != player else ""
                                             for s in range(table.players)))
            parts.append("voids " + ";".join("".join(SUITS[u] for u in range(4) if k.void_masks[s] >> u & 1)
                                             for s in range(table.players)))
            parts.append("trump " + ("-" if k.trump is None else SUITS[k.trump]))
            parts.append("first" if k.first_trick else "later")
            if _asked_to_take(state, player):
                parts.append("take?")
        return " | ".join(parts)


def _asked_to_take(state: Any, player: int) -> bool:
    table = state.table
    if table.game is None or table.chance() or table.over():
        return False
    return bool(table.current() == player and table.game.state.decision is TAKE_DECISION)


def _bits(row: np.ndarray, mask: int, slots: int) -> None:
    for c in cards_of(mask & ((1 << slots) - 1)):
        row[int(c)] = 1


def _texts(mask: int) -> str:
    return " ".join(c.text for c in cards_of(mask))
