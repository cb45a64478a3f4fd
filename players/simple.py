"""Three simple reference players: random, low and high."""

from __future__ import annotations

from arena import Bot


def _rank_key(c):
    return (c.rank, c.copy)


class RandomBot(Bot):
    """A uniformly random legal card; never takes."""

    name = "random"

    def play(self, view):
        return view.legal[self.rng.randrange(len(view.legal))]


class LowBot(Bot):
    """Its lowest legal card; its highest card when it cuts."""

    name = "low"

    def play(self, view):
        cutting = view.led_suit is not None and all(c.suit != view.led_suit for c in view.legal)
        pick = max if cutting else min
        return pick(view.legal, key=_rank_key)


class HighBot(Bot):
    """Its highest legal card."""

    name = "high"

    def play(self, view):
        return max(view.legal, key=_rank_key)
