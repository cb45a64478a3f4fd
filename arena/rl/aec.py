"""The PettingZoo AEC environment: one game of Bhabhi, one agent per seat.

``env(rules="getaway", players=4, seed=0, reward="bhabhi")`` builds it
(docs/training.md). Agents are ``player_0`` .. ``player_{n-1}``, the seats.
Each observation is a dict: ``observation`` (:func:`arena.rl.encoding.encode`
of the agent's own view) and ``action_mask`` (its legal actions; all 0 when it
is not its turn); :meth:`BhabhiEnv.view` gives the structured
:class:`~arena.game.views.PlayerView` instead. Every seat stays an agent
until the game ends (a seat that got away simply has no more turns); then
all are terminated at once with their rewards (:mod:`arena.rl.rewards`) and
``infos[agent]["result"]`` holds the game's result.

Seeds: an episode's seed is the deal seed of :meth:`arena.Game.deal`. ``reset(seed=s)``
deals game ``s``; a ``reset()`` without a seed deals the next one (``s + 1``,
...), starting from the ``seed`` the environment was made with.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from arena.game.display import hand_text
from arena.game.rules import Presets, Rules
from arena.game.views import PlayerView
from arena.rl.encoding import ACTIONS, SIZE
from arena.rl.errors import EnvError
from arena.rl.rewards import check_reward, rewards
from arena.rl.table import Table, check_illegal, check_seed, table_rules


def env(rules: str | Rules = "getaway", players: int = 4, seed: int = 0, reward: str = "bhabhi",
        presets: Presets | None = None, render_mode: str | None = None, illegal: str = "raise",
        **options: Any) -> BhabhiEnv:
    """A Bhabhi AEC environment: ``rules`` a preset name (or :class:`arena.Rules`) with ``options``
    changed (any rule option, e.g. ``escape="pass"``), ``players`` seats, episodes dealt from
    ``seed`` on, ``reward`` one of ``bhabhi``, ``place``, ``penalty``; an illegal action is refused
    (``illegal="raise"``) or the seat's fault (``"fault"``: what it costs a bot)."""
    return BhabhiEnv(table_rules(rules, players, presets, **options), players, seed, reward, render_mode, illegal)


class BhabhiEnv(AECEnv):
    """Bhabhi as a PettingZoo AEC environment (build it with :func:`env`)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "bhabhi_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, rules: Rules, players: int, seed: int = 0, reward: str = "bhabhi",
                 render_mode: str | None = None, illegal: str = "raise") -> None:
        super().__init__()
        rules.check_players(players)
        if render_mode not in (None, "ansi"):
            raise EnvError(f"render_mode must be 'ansi' or None (got {render_mode!r})")
        self.rules, self.players, self.reward_kind = rules, players, check_reward(reward)
        self.render_mode, self.fault = render_mode, check_illegal(illegal)
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        observation = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = {a: spaces.Discrete(ACTIONS) for a in self.possible_agents}
        self._next_seed = check_seed(seed)
        self.table: Table | None = None

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    # ----------------------------------------------------------------- episodes
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal game ``seed`` (default: the one after the last)."""
        if seed is not None:
            self._next_seed = check_seed(seed)
        self.seed_used = self._next_seed
        self._next_seed += 1
        self.table = table = Table(self.rules, self.players, self.seed_used)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[table.current]  # type: ignore[index]  # a new deal has a turn

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._table()
        table.step(action, self.fault)
        result = table.game.result
        if result is None:   # every reward is 0 until the end: nothing to clear or add up
            self.agent_selection = self.possible_agents[table.current]  # type: ignore[index]  # not over: a turn
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for a, r in zip(self.possible_agents, rewards(result, self.reward_kind)):
            self.rewards[a] = r
            self.terminations[a] = True
            self.infos[a] = {"result": result.to_dict()}
        self._accumulate_rewards()

    # ------------------------------------------------------------- observations
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        observation, mask = self._table().observe(self._seat[agent])   # straight from its knowledge, no view
        return {"observation": observation, "action_mask": mask}

    def view(self, agent: str) -> PlayerView:
        """The agent's structured view: what a bot in its seat is shown now."""
        return self._table().view(self._seat[agent])

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self._table().game
        lines = [f"{self.rules.name}, deal {self.seed_used}, "
                 + ("over" if game.is_over else f"{self.agent_selection} to {game.decision}")]
        lines += [f"  seat {s}: {hand_text(game.hand(s))}" for s in range(self.players)]
        lines.append("  trick: " + " ".join(f"{s}:{c}" for s, c in game.trick))
        return "\n".join(lines)

    def close(self) -> None:
        self.table = None

    def _table(self) -> Table:
        table = self.table
        if table is None:
            raise EnvError("no game: call reset() first")
        return table
