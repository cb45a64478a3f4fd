"""The legal cards worked out from the rules independently of the engine (a reference for tests).

Imported from here, never from ``conftest``: test folders have conftest modules of their own, and
under xdist ``from conftest import ...`` can find one of those instead of tests/conftest.py.
"""

from __future__ import annotations

from arena import Game
from arena.game.cards import PACK, SUIT_MASK


def expected_legal_mask(game: Game) -> int:
    """The legal cards of the current seat, worked out from the rules independently of the engine."""
    hand = game.state.hands[game.current]
    if not game.state.tcards:
        return 1 << game.state.must if game.state.must >= 0 else hand
    led = game.state.tcards[0] % PACK // 13
    follow = hand & SUIT_MASK[led]
    if follow:
        return follow
    if game.rules.trumps and game.state.trump >= 0 and hand & SUIT_MASK[game.state.trump]:
        return hand & SUIT_MASK[game.state.trump]
    return hand
