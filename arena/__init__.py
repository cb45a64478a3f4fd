"""The Bhabhi bot arena: a tournament harness for bots that play Bhabhi (Thulla, Getaway).

The names below are imported on first use (PEP 562), so importing one part of
the arena (a sandbox module in a fresh bot process, the sandbox probe) does
not import the whole library.
"""

import importlib

_EXPORTS = {
    "arena.bots.bot": ("Bot",),
    "arena.game.cards": ("ACE_OF_SPADES", "CARDS", "Card", "card", "parse_card", "parse_cards"),
    "arena.game.engine": ("Game",),
    "arena.game.errors": ("ArenaError", "CardError", "IllegalAction", "PositionError", "ReplayError",
                          "RulesError"),
    "arena.game.result": ("Result",),
    "arena.game.rules": ("PRESETS", "Rules"),
    "arena.game.views": ("PlayerView",),
    "arena.plugins.registry": ("PlayerSpec", "PluginError", "hookimpl"),
}
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = [
    "ACE_OF_SPADES", "CARDS", "Card", "card", "parse_card", "parse_cards",
    "Bot", "PlayerSpec", "PluginError", "hookimpl", "Game", "Result", "Rules", "PRESETS", "PlayerView",
    "ArenaError", "CardError", "IllegalAction", "PositionError", "ReplayError", "RulesError",
]
__version__ = "0.1.0"


def __getattr__(name: str):
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'arena' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])
