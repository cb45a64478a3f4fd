"""The exceptions of the sandbox layer, all :class:`~arena.game.errors.ArenaError`.

A bot's failures are never exceptions (they are a :class:`~arena.game.status.Status`
on its reply); these are the harness's own mistakes in configuring a sandbox.
"""

from __future__ import annotations

from arena.game.errors import ArenaError


class LimitsError(ArenaError, ValueError):
    """A limit value or layer name that is not allowed."""


class ProgramError(ArenaError, ValueError):
    """A program bot's folder that cannot be copied to run from (too large, a link leading out of it)."""
