"""The learned player's bot (:func:`players.learned.learned` builds it; see there)."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from arena import Bot
from arena.game.cards import CARDS
from arena.game.solver import supports

from players.endgame import VISITS, endgame_values
from players.errors import WeightsError
from players.heuristic import HeuristicBot
from players.learned.features import NAMES, card_features
from players.learned.net import Net
from players.sampler import SamplerBot

WEIGHTS = Path(__file__).with_name("weights.npz")
"""The shipped weights (package data)."""
WEIGHTS_SHA256 = "e885e6e5eaa5b653d2cd2d0825d6c65757ae50fd88c237c385a45910b66838a0"
"""The shipped weights' digest: checked at load, and part of this module's code, so new weights
change the player's code hash (which tells a tournament's player versions apart)."""
_PICK = NAMES.index("heuristic_card")


@lru_cache(maxsize=8)
def load_net(path: str = str(WEIGHTS)) -> Net:
    """The net in ``path`` (read once per process and path); the shipped file must match its digest."""
    if Path(path) == WEIGHTS:
        digest = hashlib.sha256(WEIGHTS.read_bytes()).hexdigest()
        if digest != WEIGHTS_SHA256:
            raise WeightsError(f"{WEIGHTS} has digest {digest[:16]}..., expected {WEIGHTS_SHA256[:16]}... "
                               f"(ship weights with python -m players.learned.train --ship FILE)")
    return Net.load(Path(path))[0]


WORLDS = 60
"""Worlds the sampler plays out at a decision with three players left: half the ``sampler`` player's 120. On
the ladder's field (deals 0-199, 3,200 games) 60, 90 and 120 each lost 45, with 2 to 3 games lost only by
either of two of them, and 60 a mean of 3.5 ms a decision with a choice against 4.2 ms with 120."""


class LearnedBot(Bot):
    """Plays the legal card its network scores lowest, gated towards the heuristic player's card; with three
    players left of a larger table, the sampler's card (``worlds`` playouts); with two, the card a search
    against the other's model (:mod:`players.endgame`) finds safest."""

    name = "learned"

    def __init__(self, seed: int = 0, weights: str | None = None, gate: float | None = None,
                 visits: int = VISITS, worlds: int = WORLDS, **options) -> None:
        super().__init__(seed, **options)
        self.net = load_net(str(weights) if weights else str(WEIGHTS))
        self.gate = self.net.gate if gate is None else float(gate)
        self.visits = int(visits)
        self.fallback = HeuristicBot(seed)
        self.sampler = SamplerBot(seed, worlds=int(worlds)) if int(worlds) > 0 else None

    def take(self, view) -> bool:
        return self.fallback.take(view)

    def play(self, view):
        if len(view.legal) == 1:
            return view.legal[0]
        if not supports(view.rules):  # its features assume the solver's model: one pack, no trumps
            return self.fallback.play(view)
        active = sum(view.active)
        if self.sampler is not None and active == 3 and view.players > 3:
            return self.sampler.sampled_card(view)
        card = view.legal[choose(self.net, card_features(view), self.gate)]
        if self.visits > 0 and active == 2:
            values = endgame_values(view, self.rng.random(), self.visits)
            if values is not None:      # the safest card; among equals the net's
                return CARDS[min(values, key=lambda c: (values[c], c != int(card)))]
        return card


def choose(net: Net, rows: np.ndarray, gate: float) -> int:
    """The row to play: the lowest score, unless it beats the heuristic player's row by ``gate`` or less."""
    scores = net.score(rows)
    best = int(np.argmin(scores))
    plain = int(np.argmax(rows[:, _PICK]))
    return best if scores[best] < scores[plain] - gate else plain
