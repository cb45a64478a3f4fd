"""The exceptions of the learning layer, all :class:`~arena.game.errors.ArenaError`."""

from __future__ import annotations

from arena.game.errors import ArenaError


class EnvError(ArenaError, ValueError):
    """An environment asked for something it cannot do: an unknown reward, an illegal action, a bad batch."""
