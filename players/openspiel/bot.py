"""OpenSpiel's ISMCTS bot (``open_spiel.python.algorithms.ismcts``) as an arena player, ``openspiel-ismcts``.

At each decision with a choice it makes a state of the OpenSpiel game (:mod:`players.openspiel.game`) from its
own view only: its hand and its events as given, the hidden hands dealt at random consistent with the view
(:func:`players.openspiel.worlds.from_view`, the sampler's :class:`~players.sampler.Worlds`), and asks
OpenSpiel's ISMCTS for an action, with a resampler that deals a new such world for each simulation. The
action number is mapped back to the card (or the take answer). The search sees nothing but the view, so the
player runs sandboxed like any other. Deterministic: every generator (the worlds, ISMCTS's and its random
rollouts') is seeded from the bot's seed, decision by decision. Two packs, which the worlds do not model, are
left to the heuristic player.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import orjson
from absl import logging as absl_logging
from open_spiel.python.algorithms import ismcts, mcts

from arena import Bot
from arena.game.cards import CARDS

from players.heuristic import HeuristicBot
from players.openspiel.core import TAKE
from players.openspiel.game import BhabhiGame, BhabhiState
from players.openspiel.worlds import from_view
from players.sampler import Worlds

# absl (imported by OpenSpiel) makes a log handler on the sys.stderr of the moment, which in process is the seat's
# captured log; at exit logging closes it, which a capture cannot be: the handler writes to the real stderr
absl_logging.get_absl_handler().python_handler.stream = sys.__stderr__


class ISMCTSPlayer(Bot):
    """OpenSpiel's ISMCTS: ``simulations`` a decision, UCT constant ``uct_c``, ``rollouts`` random playouts
    to evaluate a new node."""

    name = "openspiel-ismcts"

    def __init__(self, seed: int = 0, simulations: int = 100, uct_c: float = 2.0, rollouts: int = 1,
                 **options: Any) -> None:
        super().__init__(seed, **options)
        self.simulations, self.uct_c, self.rollouts = simulations, uct_c, rollouts
        self.fallback = HeuristicBot(seed)
        self._games: dict[Any, BhabhiGame] = {}

    def play(self, view: Any) -> Any:
        if len(view.legal) == 1:
            return view.legal[0]
        if view.rules.decks != 1:
            return self.fallback.play(view)
        return CARDS[self.search(view)]

    def take(self, view: Any) -> bool:
        if view.rules.decks != 1:
            return self.fallback.take(view)
        return self.search(view) == TAKE

    def search(self, view: Any) -> int:
        """ISMCTS's action at ``view``'s decision (its final policy: the most visited, ties drawn at random)."""
        game = self._game(view)
        worlds = Worlds(view)
        rng = self.rng
        root = BhabhiState(game, from_view(view, rng, worlds))

        def resampler(state: Any, player: int) -> BhabhiState:
            return BhabhiState(game, from_view(view, rng, worlds))

        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, np.random.RandomState(rng.getrandbits(32)))
        bot = ismcts.ISMCTSBot(game, evaluator, self.uct_c, self.simulations,
                               random_state=np.random.RandomState(rng.getrandbits(32)))
        bot.set_resampler(resampler)
        return int(bot.step(root))

    def _game(self, view: Any) -> BhabhiGame:
        key = (view.rules, view.players)
        game = self._games.get(key)
        if game is None:
            rules = orjson.dumps(view.rules.to_dict()).decode()   # (as JSON: any options included)
            game = self._games[key] = BhabhiGame({"rules": rules, "players": view.players})
        return game
