"""The Bhabhi bot arena: a tournament harness for bots that play Bhabhi (Thulla, Getaway)."""

from arena.bots.bot import Bot
from arena.game.cards import ACE_OF_SPADES, CARDS, Card, card, parse_card, parse_cards
from arena.game.engine import Game
from arena.game.errors import ArenaError, CardError, IllegalAction, PositionError, ReplayError, RulesError
from arena.game.result import Result
from arena.game.rules import PRESETS, Rules
from arena.plugins.registry import PlayerSpec, PluginError, hookimpl
from arena.game.views import PlayerView

__all__ = [
    "ACE_OF_SPADES", "CARDS", "Card", "card", "parse_card", "parse_cards",
    "Bot", "PlayerSpec", "PluginError", "hookimpl", "Game", "Result", "Rules", "PRESETS", "PlayerView",
    "ArenaError", "CardError", "IllegalAction", "PositionError", "ReplayError", "RulesError",
]
__version__ = "0.1.0"
