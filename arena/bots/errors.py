"""The exceptions of the bots layer, all :class:`~arena.game.errors.ArenaError`.

:class:`PluginError` is here, below the plugins layer, because the contract a bot
author meets raises it: :meth:`arena.bots.player_spec.PlayerSpec.create` when a
factory fails, option typing when an option is unknown or of the wrong type; the
registry (:mod:`arena.plugins.registry`) raises it for an unknown player.
"""

from __future__ import annotations

from arena.game.errors import ArenaError


class PluginError(ArenaError, LookupError):
    """An unknown player, or a player whose plugin is broken."""
