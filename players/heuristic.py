"""The heuristic player: the heuristic policy (:mod:`players.policy`) on what its view knows.

- Following: never be the highest card while a player known (or likely) to be
  void in the suit is still to play; duck under the current winner when it
  can. When nobody after it can cut, dump its highest card of the suit.
- Leading: lead a suit that everyone still in the game holds (nobody known
  void, enough unseen cards of it); dump a high card when that is safe,
  otherwise lead low.
- Cutting: throw its most dangerous card (highest rank, from its shortest suit).
  In Donkey the first card off suit fixes trumps: it picks its shortest suit,
  so it soon holds no trumps and can cut again.
- Donkey risk: before trumps are fixed nobody can cut; after, only a player
  void in the led suit *and* in trumps can (the others must trump).
- Taking (``bhabho``): it declines (see :meth:`HeuristicBot.take` for why).
"""

from __future__ import annotations

from arena import Bot
from arena.game.cards import CARDS

from players.policy import ViewTable, heuristic_card


class HeuristicBot(Bot):
    """Avoids pick-ups using voids, counts and known cards."""

    name = "heuristic"

    def play(self, view):
        if len(view.legal) == 1:
            return view.legal[0]
        return CARDS[heuristic_card(ViewTable(view))]

    def take(self, view) -> bool:
        """Decline: a take adds the neighbour's cards to our hand and sets the neighbour free.

        Measured over 4000 bhabho games (4 seats, duplicate deals): declining every take
        left the heuristic the Bhabhi in 1.3% of games; taking a neighbour's small hand
        (at most 2 cards, void in a suit we hold) in 2.2%; taking a single known low card
        made no difference.
        """
        return False
