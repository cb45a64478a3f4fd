"""Rollout targets for training: one legal card played from the *true* position, then the game played out.

Training may look at every hand (play never does). A rollout's outcome, scored as the sampler scores its
playouts (:func:`players.sampler.seat_score`), is that card's target. The seats other than the learner play
their reference policies (``kinds``, :data:`players.policy.NAMES`) on the rules core; the learner goes on
either with the heuristic policy
(:func:`heuristic_rollout`, the sampler's playouts: one-step policy improvement over the heuristic
player) or with a network of its own (:func:`net_rollout`: the next round of policy iteration, the
learner playing the network's card from its own view at each decision with a choice).
"""

from __future__ import annotations

from arena import Game
from arena.game.cards import CARDS
from arena.game.state import TAKE

from players.learned.bot import choose
from players.learned.features import card_features
from players.learned.net import Net
from players.playout import PLAYOUT_STEPS, PlayoutRandom, World, play_out, plain_card, plain_rules
from players.policy import HEURISTIC, heuristic_card, model_card
from players.sampler import seat_score


def heuristic_rollout(game: Game, seat: int, card: int, kinds: list[int], seed: int) -> float:
    """``card`` from the true position of ``game``, then every seat its reference policy (``seat``: heuristic)."""
    world = World.of(game.state)
    world.rng = PlayoutRandom(seed)
    world.play(card)
    play_out(world, kinds)
    return seat_score(world, seat, world.n)


def net_rollout(game: Game, seat: int, card: int, kinds: list[int], seed: int, net: Net) -> float:
    """``card`` from the true position of ``game``, then ``seat`` plays ``net`` (gated by its stored gate, from
    its view, as :class:`players.learned.LearnedBot` with neither search) and the others their policies."""
    world = World.of(game.state)
    world.rng = rng = PlayoutRandom(seed)
    fork = game.fork(world)                     # the fork's views read the game's events so far
    fork.apply(CARDS[card])
    plain = plain_card if plain_rules(world) else heuristic_card
    for _ in range(PLAYOUT_STEPS):
        cur = world.cur
        if cur is None or not world.active[seat]:
            break
        if world.decision is TAKE:
            fork.apply(False)
        elif cur != seat:
            kind = kinds[cur]
            fork.apply(CARDS[plain(world) if kind == HEURISTIC else model_card(world, kind, rng)])
        else:
            legal = world.legal_mask()
            if legal & (legal - 1):
                view = fork.view(seat)
                fork.apply(view.legal[choose(net, card_features(view), net.gate)])
            else:
                fork.apply(CARDS[legal.bit_length() - 1])
    return seat_score(world, seat, world.n)
