"""Three simple reference players: random, low and high (the last two from :mod:`players.policy`)."""

from __future__ import annotations

from arena import Bot
from arena.game.cards import CARDS, SUIT_MASK, mask_of

from players.policy import high_card, low_card


class RandomBot(Bot):
    """A uniformly random legal card; never takes."""

    name = "random"

    def play(self, view):
        return view.legal[self.rng.randrange(len(view.legal))]


class LowBot(Bot):
    """Its lowest legal card; its highest card when it cuts."""

    name = "low"

    def play(self, view):
        legal = mask_of(view.legal)
        cutting = view.led_suit is not None and not legal & SUIT_MASK[view.led_suit]
        return CARDS[low_card(legal, cutting)]


class HighBot(Bot):
    """Its highest legal card."""

    name = "high"

    def play(self, view):
        return CARDS[high_card(mask_of(view.legal))]
