"""A Gymnasium environment: one seat learns, the others are named arena players.

``SeatEnv(opponents=["heuristic", "heuristic", "heuristic"], seat=0)`` seats
the learner at ``seat`` and the named players (built-ins or installed plugins,
as ``arena play`` names them, options too: ``sampler(worlds=20)``) in the
other seats, in order. They play through the arena's own clients
(:func:`arena.plugins.runner.make_client`): a built-in in-process, a plugin's
player sandboxed (its code never runs in the harness), each with the bot seed
the referee gives it by default (:func:`arena.game.seeds.open_bot_seed` of the
deal seed), and their faults cost what the rules say. An episode is one game
dealt exactly as ``arena``'s referee deals that deal seed, so with the learner
playing as a bot would, it is the arena's own game.

Observations, actions and rewards are those of the AEC environment
(:mod:`arena.rl.aec`); :meth:`SeatEnv.view` is the learner's structured view.
An illegal action is refused (:class:`~arena.rl.errors.EnvError`), or with
``illegal="fault"`` is the learner's fault, as an illegal reply is a bot's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from arena.bots.referee import InProcessClient, check_reply
from arena.game import events as ev
from arena.game.rules import Rules
from arena.game.seeds import open_bot_seed
from arena.game.status import Status
from arena.game.views import PlayerView
from arena.plugins import registry as plugin_registry
from arena.plugins.runner import make_client
from arena.rl.encoding import ACTIONS, SIZE
from arena.rl.errors import EnvError
from arena.rl.rewards import check_reward, rewards
from arena.rl.table import Table, check_illegal, check_seed, table_rules


class SeatEnv(gymnasium.Env):
    """One seat of Bhabhi against named players; see the module docstring."""

    # gymnasium declares it an instance variable; every env sets it on the class
    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}  # type: ignore[misc]

    def __init__(self, rules: str | Rules = "getaway", opponents: Sequence[str] = ("heuristic",) * 3,
                 seat: int = 0, seed: int = 0, reward: str = "bhabhi", registry=None,
                 sandbox: bool | None = None, name: str = "learner", illegal: str = "raise",
                 **options: Any) -> None:
        opponents = list(opponents)
        self.players = len(opponents) + 1
        self.registry = registry if registry is not None else plugin_registry.load()
        self.rules = table_rules(rules, self.players, self.registry.presets, **options)
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise EnvError(f"seat must be 0..{self.players - 1} (got {seat!r})")
        self.seat, self.reward_kind, self.sandbox = seat, check_reward(reward), sandbox
        self.fault = check_illegal(illegal)
        self.names = opponents[:seat] + [name] + opponents[seat:]
        self.specs = {s: self.registry.get(n) for s, n in enumerate(self.names) if s != seat}
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
        })
        self.action_space = spaces.Discrete(ACTIONS)
        self._next_seed = check_seed(seed)
        self.table: Table | None = None
        self.clients: dict = {}
        self._sent = [0] * self.players

    # ----------------------------------------------------------------- episodes
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Deal game ``seed`` (default: the one after the last) and play to the learner's first turn
        (a game in which it has none, its cards taken under ``neighbour_take``, is skipped)."""
        super().reset(seed=seed)
        if seed is not None:
            self._next_seed = check_seed(seed)
        while True:
            self._deal(self._next_seed)
            self._next_seed += 1
            if not self._table().over:
                return self._observation(), self._info()

    def _deal(self, deal: int) -> None:
        """Deal game ``deal`` and play to the learner's first turn (or the end, when its cards are
        taken before it has one: ``reset`` then deals the next game)."""
        self.seed_used = deal
        self.table = Table(self.rules, self.players, deal)
        self._sent = [0] * self.players
        if not self.clients:            # made once, kept from game to game (as a tournament's worker keeps them)
            self.clients = {s: make_client(spec, self.sandbox) for s, spec in self.specs.items()}
        for s, client in self.clients.items():
            client.begin(s, self.players, self.rules, open_bot_seed(deal, s, self.names[s]), self._events(s),
                         deal=deal)
        self._others()

    def step(self, action):
        if self.table is None or self.table.over:
            raise EnvError("the episode is over (or not begun): call reset() first")
        self.table.step(action, self.fault)
        self._others()
        over = self.table.over
        reward = rewards(self.table.game.result, self.reward_kind)[self.seat] if over else 0.0
        return self._observation(), reward, over, False, self._info()

    def view(self) -> PlayerView:
        """The learner's structured view now."""
        return self._table().view(self.seat)

    def close(self) -> None:
        self._close_clients()

    # ------------------------------------------------------------------ inside
    def _others(self) -> None:
        """Let the named players act until it is the learner's turn or the game is over."""
        game = self._table().game
        state = game.state
        while state.cur is not None and state.cur != self.seat:
            s = state.cur
            legal, decision = game.legal_actions(), state.decision
            reply = self.clients[s].decide(self._events(s), legal, decision)
            status, action, _ = check_reply(reply, legal, decision)
            if status is Status.OK:
                game.apply(action)
            else:
                game.apply_fault(str(status))
        if state.cur is None:
            for s, client in self.clients.items():
                client.finish(self._events(s), game.result)

    def _events(self, seat: int):
        """The events ``seat``'s client has not had yet: the game's tuples in-process, else dicts."""
        game = self._table().game
        start, stop = self._sent[seat], len(game.events)
        self._sent[seat] = stop
        if type(self.clients[seat]) is InProcessClient:   # the public events taken in once for every seat
            return ev.SeatEvents(game, seat, start, stop, self._table().public)
        return game.seat_events(seat, start)

    def _observation(self) -> dict[str, np.ndarray]:
        observation, mask = self._table().observe(self.seat)   # straight from its knowledge, no view
        return {"observation": observation, "action_mask": mask}

    def _info(self) -> dict:
        game = self._table().game
        return {"result": game.result.to_dict()} if game.result is not None else {}

    def _table(self) -> Table:
        table = self.table
        if table is None:
            raise EnvError("no game: call reset() first")
        return table

    def _close_clients(self) -> None:
        for client in self.clients.values():
            client.close()
        self.clients = {}
