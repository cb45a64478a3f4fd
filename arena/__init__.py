"""The Bhabhi bot arena: a tournament harness for bots that play Bhabhi (Thulla, Getaway)."""

from .bot import Bot
from .cards import ACE_OF_SPADES, CARDS, Card, card, parse_card, parse_cards
from .engine import Game
from .errors import ArenaError, CardError, IllegalAction, PositionError, ReplayError, RulesError
from .result import Result
from .rules import PRESETS, Rules
from .plugins import PlayerSpec, PluginError, hookimpl
from .views import PlayerView

__all__ = [
    "ACE_OF_SPADES", "CARDS", "Card", "card", "parse_card", "parse_cards",
    "Bot", "PlayerSpec", "PluginError", "hookimpl", "Game", "Result", "Rules", "PRESETS", "PlayerView",
    "ArenaError", "CardError", "IllegalAction", "PositionError", "ReplayError", "RulesError",
]
__version__ = "0.1.0"
