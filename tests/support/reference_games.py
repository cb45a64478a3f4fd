"""Games of the reference players (random, low, high, heuristic), for tests that need real positions."""

from __future__ import annotations

import random
from collections.abc import Iterator

from arena import Game, PlayerView, Rules
from players.heuristic import HeuristicBot
from players.simple import HighBot, LowBot, RandomBot

TABLE = (RandomBot, LowBot, HighBot, HeuristicBot)
"""The reference players; a table of ``seats`` draws its players from two of each."""


def reference_game(rules: Rules, seats: int, seed: int) -> Iterator[tuple[Game, PlayerView]]:
    """Every decision of one game of reference players seated (and seeded) by ``seed``: the game and the
    view of the seat to act, before its move; the move is made when the next item is asked for."""
    game = Game.deal(rules, seats, seed=seed)
    order = random.Random(seed).sample(TABLE * 2, seats)
    bots = [order[s](seed * 8 + s) for s in range(seats)]
    while not game.is_over:
        view = game.view(game.current)
        yield game, view
        game.apply(bots[view.seat].act(view))


def first_two_left(rules: Rules, seats: int, seed: int) -> tuple[Game, PlayerView] | None:
    """The first decision of such a game with two players in and a choice of cards to play (the game and the
    view, before the move); None when the game ends without one."""
    for game, view in reference_game(rules, seats, seed):
        if sum(view.active) == 2 and view.decision == "play" and len(view.legal) > 1:
            return game, view
    return None
