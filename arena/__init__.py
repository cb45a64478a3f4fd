"""The Bhabhi bot arena: a tournament harness for bots that play Bhabhi (Thulla, Getaway).

The names below are imported on first use (PEP 562), so importing one part of
the arena (the sandbox probe, a sandbox module) does not import the whole
library; :func:`api` imports all of them at once.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False   # (typing is not imported for it: importing the package stays cheap)
if TYPE_CHECKING:
    from typing import Any

_EXPORTS = {
    "arena.bots.bot": ("Bot",),
    "arena.bots.errors": ("PluginError",),
    "arena.bots.hookimpl": ("hookimpl",),
    "arena.bots.player_spec": ("PlayerSpec",),
    "arena.game.cards": ("ACE_OF_SPADES", "CARDS", "Card", "card", "parse_card", "parse_cards"),
    "arena.game.engine": ("Game",),
    "arena.game.errors": ("ArenaError", "CardError", "IllegalAction", "PositionError", "ReplayError",
                          "RulesError"),
    "arena.game.result": ("Result",),
    "arena.game.rules": ("PRESETS", "Rules"),
    "arena.game.views": ("PlayerView",),
}
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = [
    "ACE_OF_SPADES", "CARDS", "Card", "card", "parse_card", "parse_cards",
    "Bot", "PlayerSpec", "PluginError", "hookimpl", "Game", "Result", "Rules", "PRESETS", "PlayerView",
    "ArenaError", "CardError", "IllegalAction", "PositionError", "ReplayError", "RulesError",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'arena' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def api() -> dict[str, Any]:
    """Every public name, imported now: a confined process (a bot host, a plugin's discovery)
    loads the library before confinement, as a bot switched to another uid may not read it later."""
    return {name: __getattr__(name) for name in __all__}


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])
