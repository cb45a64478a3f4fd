"""Many games stepped at once: numpy arrays in and out (self-play: the caller acts for every seat).

``Batch(rules="getaway", players=4, size=64, seed=0)`` holds ``size`` games.
At any time each game has one seat to act; :meth:`Batch.observe` gives, for
every game, that seat's observation, action mask and number, and
:meth:`Batch.step` takes one action per game (an integer array) and steps
them all. A game that ends is dealt anew at once (its next deal seed), its
rewards for every seat returned by that step; so every row always holds a
decision. Game ``i`` of the batch plays the deal seeds ``seed + i``,
``seed + i + size``, ``seed + i + 2 * size``, ...; each is the AEC
environment's game of that seed (:mod:`arena.rl.aec`).

The numbers are those of :mod:`arena.rl.encoding` and :mod:`arena.rl.rewards`.
The arrays handed out are the batch's own, overwritten by the next step:
copy what you keep.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arena.game.cards import CARDS
from arena.game.rules import Presets, Rules
from arena.rl.encoding import ACTIONS, CARD_PLANES_SIZE, NO_TAKE, RULES_START, SIZE, TAKE
from arena.rl.observation import layout, planes, unpack_planes, write_numbers
from arena.rl.errors import EnvError
from arena.rl.rewards import check_reward, rewards
from arena.rl.table import Table, check_seed, table_rules


class Batch:
    """``size`` games of one rule set and table size, stepped together."""

    def __init__(self, rules: str | Rules = "getaway", players: int = 4, size: int = 64, seed: int = 0,
                 reward: str = "bhabhi", presets: Presets | None = None, **options: Any) -> None:
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise EnvError(f"size must be a whole number >= 1 (got {size!r})")
        self.rules = table_rules(rules, players, presets, **options)
        self.players, self.size, self.reward_kind = players, size, check_reward(reward)
        self.deals = list(range(check_seed(seed), seed + size))
        """The deal seed of each game now being played."""
        self.tables = [Table(self.rules, players, d) for d in self.deals]
        self.observations = np.zeros((size, SIZE), dtype=np.float32)
        self.masks = np.zeros((size, ACTIONS), dtype=np.int8)
        self.seats = np.zeros(size, dtype=np.int64)
        self.rewards = np.zeros((size, players), dtype=np.float32)
        self.done = np.zeros(size, dtype=bool)
        self.finished = 0
        """Games played to the end so far."""
        self.layout = layout(self.rules, players)
        self.observations[:] = self.layout.template
        self._flat = self.observations.data.cast("B").cast("f")   # the rows one after another, as floats
        self._observe()

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(observations, masks, seats)``: shapes ``(size, SIZE)`` float32, ``(size, ACTIONS)`` int8,
        ``(size,)`` the seat to act in each game."""
        return self.observations, self.masks, self.seats

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Take ``actions[i]`` in game ``i``; return ``(observations, masks, seats, rewards, done)``.

        ``rewards`` is ``(size, players)``: each seat's reward in a game that ended on
        this step (0 elsewhere); ``done[i]`` says game ``i`` ended (and was dealt anew:
        ``observations[i]`` is already the new game's first decision).
        """
        actions = np.asarray(actions)
        if actions.shape != (self.size,) or not np.issubdtype(actions.dtype, np.integer):
            raise EnvError(f"actions must be {self.size} integers, one per game (got shape {actions.shape}, "
                           f"dtype {actions.dtype})")
        offered = self.masks[np.arange(self.size), np.clip(actions, 0, ACTIONS - 1)]
        illegal = np.flatnonzero((offered == 0) | (actions < 0) | (actions >= ACTIONS))
        if illegal.size:
            i = int(illegal[0])
            legal = np.flatnonzero(self.masks[i]).tolist()
            raise EnvError(f"game {i} (seat {self.seats[i]}): action {int(actions[i])} is not legal "
                           f"(legal: {', '.join(map(str, legal))}); no game was stepped")
        self.rewards[:] = 0.0
        self.done[:] = False
        for i, (table, action) in enumerate(zip(self.tables, actions.tolist())):
            table.game.apply(CARDS[action] if action < NO_TAKE else action == TAKE)  # legal: checked on the masks
            result = table.game.result
            if result is not None:  # table.over
                self.rewards[i] = rewards(result, self.reward_kind)
                self.done[i] = True
                self.finished += 1
                self.deals[i] += self.size
                self.tables[i] = Table(self.rules, self.players, self.deals[i])
        self._observe()
        return self.observations, self.masks, self.seats, self.rewards, self.done

    def _observe(self) -> None:
        """Write every game's observation, mask and seat: the numbers that are not 0 written into each row
        (on the template's), then the card planes of all of them unpacked and the masks set, one call each."""
        lay, flat = self.layout, self._flat
        obs = self.observations
        obs[:, CARD_PLANES_SIZE:RULES_START] = lay.template[CARD_PLANES_SIZE:RULES_START]
        raws: list[bytes] = []
        at: list[int] = []
        legal: list[int] = []
        seats: list[int] = []
        for i, table in enumerate(self.tables):
            # every game has a decision (an ended one is dealt anew): never None
            seat: int = table.current  # type: ignore[assignment]
            t, hand, seen = table.knowledge(seat)
            decision = table.game.state.decision
            raws.append(planes(t, seat, hand, seen, lay))
            write_numbers(flat, i * SIZE, t, seat, hand, decision, lay)
            actions = _TAKES if decision == "take" else table.legal()
            at += [i] * len(actions)
            legal += actions
            seats.append(seat)
        obs[:, :CARD_PLANES_SIZE] = unpack_planes(b"".join(raws), self.size)
        self.masks.fill(0)
        self.masks[at, legal] = 1
        self.seats[:] = seats


_TAKES = (NO_TAKE, TAKE)
