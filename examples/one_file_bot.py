"""A bot in one file: no package, no hooks. Seat it by its path and class name:

    arena play --seats examples/one_file_bot.py:Ducker,random,low,high --seed 1

It runs sandboxed like any third-party bot; its sandbox may read this file and
the modules beside it (docs/writing-a-bot.md, "A bot in one file").
"""

from arena import Bot


class Ducker(Bot):
    """Ducks under the trick when it follows, cuts with its highest card, leads low from its longest suit."""

    def play(self, view):
        legal = view.legal
        if view.led_suit is None:  # its lead: the lowest card of the suit it holds most of
            longest = max(range(4), key=lambda suit: (len(view.suit_cards(suit)), -suit))
            own = [c for c in legal if c.suit == longest]
            return min(own or legal, key=lambda c: c.rank)
        following = [c for c in legal if c.suit == view.led_suit]
        if not following:  # a thulla: rid itself of its highest card
            return max(legal, key=lambda c: c.rank)
        winning = view.winning()
        under = [c for c in following if winning is None or c.rank < winning[1].rank]
        if under:  # the highest card that still loses the trick
            return max(under, key=lambda c: c.rank)
        return min(following, key=lambda c: c.rank)
