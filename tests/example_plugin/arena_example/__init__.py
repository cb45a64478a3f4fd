"""An example arena plugin: one bot, ``example-ducker``, offered through ``arena_players``."""

from arena import Bot, PlayerSpec, hookimpl


def _rank(card):
    return (card.rank, card.copy)


class DuckerBot(Bot):
    """Follows under the winning card when it can, cuts with its highest card, leads low."""

    def play(self, view):
        legal = sorted(view.legal, key=_rank)
        best = view.winning()
        if best is None:  # leading
            return legal[0]
        if legal[0].suit != view.led_suit:  # cutting: get rid of the most dangerous card
            return legal[-1]
        below = [c for c in legal if c.suit == best[1].suit and c.rank < best[1].rank]
        return below[-1] if below else legal[-1]

    def take(self, view):
        return view.hand_sizes[view.next_seat(view.seat)] <= 1


@hookimpl
def arena_players():
    return [PlayerSpec("example-ducker", DuckerBot, "ducks under the winning card; cuts with its highest")]
