"""The learned player: a small neural network scores each legal card; numpy alone at play.

At a play decision with a choice it computes one row of features per legal
card from its view (:mod:`players.learned.features`), scores every row with
the shipped multilayer perceptron (:mod:`players.learned.net`, the weights in
``weights.npz`` beside this file) and plays the card with the lowest score
(the expected loss) -- unless that is not lower than the heuristic player's
card by more than the weights' ``gate``, in which case it plays the heuristic
player's card. How the weights were trained: :mod:`players.learned.train` and
docs/training.md. With three players left at a table that began with more,
it plays the sampler's card instead (:meth:`players.sampler.SamplerBot.sampled_card`:
opponent models, ``worlds`` sampled deals played out, 60 by default;
``worlds=0`` turns it off). With two players left it plays the card that a
search of its own cards against the other player's model finds safest
(:mod:`players.endgame`; among equals, the network's card; ``visits=0`` turns
the search off). Trumps (Donkey) and two packs, which it was not trained on,
are left to the heuristic player; like it, it declines every take.

Deterministic: the same seed gives the same moves (the network is an argmin,
ties to the first legal card; the ending search counts positions, not time,
and seeds its playouts from the bot's seed, as the sampler does).
"""

from __future__ import annotations


def learned(seed: int = 0, weights: str | None = None, gate: float | None = None, visits: int | None = None,
            worlds: int | None = None, **options):
    """The built-in ``learned`` player's factory: its bot (:class:`players.learned.bot.LearnedBot`).

    numpy and the network are imported here, when a learned bot is made, not when the built-in
    players are registered: every ``arena`` process and every other built-in's bot loads them,
    and numpy alone is about 0.2 s of a start."""
    from players.learned.bot import LearnedBot
    if visits is not None:
        options["visits"] = visits
    if worlds is not None:
        options["worlds"] = worlds
    return LearnedBot(seed, weights=weights, gate=gate, **options)
