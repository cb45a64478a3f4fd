"""The escape rule of the rules core: what happens when a clean trick's winner played their last card
(docs/rules.md, ``escape``): a draw from the pile or the next hand, passing the lead, or the end of the
game. A part of :class:`arena.game.state.State` kept in a file of its own: its functions take the state
as their first argument and call its methods."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.game import events as ev
from arena.game.cards import BIT
from arena.game.rulings import ALONE, DRAW, PASS, SIMULTANEOUS, TIED, winner_without_cards
from arena.game.lookup import legal_tuple

if TYPE_CHECKING:
    from arena.game.state import State


def winner_escapes(state: State, winner: int, cards: list, emptied: list[int]) -> None:
    """The escape rule: the clean-trick winner played their last card."""
    others = [s for s in emptied if s != winner]
    holders = [s for s in range(state.n) if state.active[s] and state.hands[s]]
    mode = winner_without_cards(state.escape, len(holders), bool(state.pile), state.highest_loses)
    if mode == TIED:                            # every hand emptied on this trick
        state.pile.extend(cards)
        state._finish(None, "draw", tied=emptied)
        return
    if mode == SIMULTANEOUS or mode == ALONE:   # the winner is the last player: the Bhabhi
        state.pile.extend(cards)
        state._go_out(others)
        state._finish(winner, "simultaneous" if mode == SIMULTANEOUS else "last_player")
        return
    if mode == PASS:
        state.pile.extend(cards)
        state._go_out(emptied)
        if not state._maybe_over(None):
            state._next_trick(state.next_active(winner))
        return
    if mode == DRAW:
        _draw_from_pile(state, winner)
        state.pile.extend(cards)
        state._go_out(others)
    else:
        state.pile.extend(cards)
        state._go_out(others)
        _draw_from_next_hand(state, winner)
    if not state._maybe_over(winner):
        state._next_trick(winner, True)

def _draw_from_pile(state: State, seat: int) -> None:
    pile = state.pile
    i = state.rng.randrange(len(pile))
    c = pile[i]
    pile[i] = pile[-1]
    pile.pop()
    state.hands[seat] |= BIT[c]
    state.must = c
    state._log((ev.DRAW, seat, c, -1))

def _draw_from_next_hand(state: State, seat: int) -> None:
    victim = state.next_active(seat)
    held = legal_tuple(state.hands[victim])
    c = int(held[state.rng.randrange(len(held))])
    state.hands[victim] ^= BIT[c]
    state.hands[seat] |= BIT[c]
    state.must = c
    state._log((ev.DRAW, seat, c, victim))
    if not state.hands[victim]:
        state._go_out([victim])
