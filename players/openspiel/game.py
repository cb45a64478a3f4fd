"""Bhabhi as an OpenSpiel game, ``python_bhabhi``, over the project's one rules core (docs/training.md, "OpenSpiel").

Importing this module registers the game with pyspiel (``pyspiel.load_game("python_bhabhi", {"players": 5})``).
Its parameters: ``rules``, a preset's name (``getaway`` by default) or a JSON object of
:meth:`arena.Rules.to_dict` (``{"preset": "getaway", "escape": "pass"}``), and ``players``, the table size
(4 by default; any the rules allow, 3-8 for most presets). The game is :class:`players.openspiel.core.Table`
(the rules core, :class:`arena.Game`, stepped by numbers) behind pyspiel's ``State`` API:

- actions ``0..103`` play that card id, ``104`` / ``105`` answer a take decision no / yes;
- chance nodes deal the pack one card at a time and make each draw (outcome ``i``: the ``i``-th card the draw
  may take), every outcome equally likely;
- moves are sequential; the returns come at the end: -1 for the Bhabhi and ``1 / (players - 1)`` for each
  other seat (zero-sum), 0 for everyone in a drawn game (``simultaneous = "draw"``) or one still unfinished
  after :data:`~players.openspiel.core.MAX_MOVES` moves;
- the observation and the information state are what the seat was shown (:mod:`players.openspiel.observer`);
  ``resample_from_infostate`` deals a world consistent with it (:mod:`players.openspiel.worlds`).
"""

from __future__ import annotations

from typing import Any

import orjson
import pyspiel

from arena.game.cards import CARDS, PACK
from arena.game.rules import PRESETS, Rules

from players.openspiel.core import ACTIONS, CARD_SLOTS, MAX_MOVES, NO_TAKE, TAKE, Table, seeded
from players.openspiel.errors import OpenSpielError
from players.openspiel.observer import BhabhiObserver
from players.openspiel.worlds import resample

SHORT_NAME = "python_bhabhi"
DEFAULTS = {"rules": "getaway", "players": 4}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Bhabhi (the bhabhi-arena rules core)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def game_rules(text: str) -> Rules:
    """The ``rules`` parameter: a preset's name, or a JSON object of ``Rules.to_dict()``."""
    if text.lstrip().startswith("{"):
        try:
            data = orjson.loads(text)
        except orjson.JSONDecodeError as e:
            raise OpenSpielError(f"rules: expected a preset's name or a JSON object (got {text!r}: {e})") from e
        return Rules.from_dict(data)
    return PRESETS.rules(text)


class BhabhiGame(pyspiel.Game):
    """The game at one table size under one rule set."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**DEFAULTS, **(params or {})}
        self.rules = game_rules(str(merged["rules"]))
        self.players = int(merged["players"])
        Table(self.rules, self.players)                     # refuses rules or a table size it cannot play
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTIONS,
            max_chance_outcomes=PACK * self.rules.decks,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0 / (self.players - 1),
            utility_sum=0.0,
            max_game_length=MAX_MOVES,
        )
        super().__init__(GAME_TYPE, info, merged)

    def new_initial_state(self, table: Table | None = None) -> BhabhiState:
        """The start of a game (its deal to come), or a state at ``table``'s position."""
        return BhabhiState(self, table)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BhabhiObserver:
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return BhabhiObserver(kind, self.players, PACK * self.rules.decks, params)


class BhabhiState(pyspiel.State):
    """A state of :class:`BhabhiGame`: its :class:`~players.openspiel.core.Table` (``table``)."""

    def __init__(self, game: BhabhiGame, table: Table | None = None) -> None:
        super().__init__(game)
        self.table = table if table is not None else Table(game.rules, game.players)

    def current_player(self) -> int:
        table = self.table
        if table.over():
            return int(pyspiel.PlayerId.TERMINAL)
        if table.chance():
            return int(pyspiel.PlayerId.CHANCE)
        return table.current()

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.table.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.table.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        table = self.table
        if player == pyspiel.PlayerId.CHANCE:
            if table.game is None:
                return f"deal {CARDS[action].text}"
            return f"draw {action}"
        if action == NO_TAKE:
            return "no take"
        if action == TAKE:
            return "take"
        if not 0 <= action < CARD_SLOTS:
            raise OpenSpielError(f"action must be 0..{ACTIONS - 1} (got {action})")
        return CARDS[action].text

    def is_terminal(self) -> bool:
        return self.table.over()

    def returns(self) -> list[float]:
        return self.table.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BhabhiState:
        """A state ``player_id`` cannot tell from this one: its information state and observation the same,
        the cards it cannot see dealt at random (:func:`players.openspiel.worlds.resample`); the sampler's
        number seeds the deal."""
        table = resample(self.table, player_id, seeded(probability_sampler()))
        return BhabhiState(self.get_game(), table)

    def __str__(self) -> str:
        table = self.table
        if table.game is None:
            return f"dealing: {len(table.dealt)} of {table.deck} cards dealt"
        game = table.game
        hands = " / ".join(" ".join(c.text for c in game.hand(s)) for s in range(table.players))
        trick = " ".join(f"{s}:{c.text}" for s, c in game.trick)
        pending = f" (playing {CARDS[table.pending].text}, its draw to come)" if table.pending >= 0 else ""
        return f"hands {hands} | trick {trick} | pile {len(game.state.pile)}{pending}"


pyspiel.register_game(GAME_TYPE, BhabhiGame)
