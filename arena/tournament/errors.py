"""The exceptions of the tournament layer, all :class:`~arena.game.errors.ArenaError`.

Each also subclasses the built-in it behaves like; messages name the culprit
and say what was expected and what came.
"""

from __future__ import annotations

from arena.game.errors import ArenaError


class ScheduleError(ArenaError, ValueError):
    """A format name or parameter that cannot make a schedule.

    ``param`` names the format parameter at fault (None: the format name
    itself); ``reason`` is the message without the format's name, so a spec
    can say it under its own key.
    """

    def __init__(self, reason: str, *, fmt: str = "", param: str | None = None) -> None:
        super().__init__(f"{fmt}: {reason}" if fmt else reason)
        self.reason = reason
        self.fmt = fmt
        self.param = param


class ConfigError(ArenaError, ValueError):
    """A tournament file or flag that cannot be used."""


class TournamentError(ArenaError, RuntimeError):
    """A tournament that cannot start or go on."""


class WorkerMismatch(ArenaError, RuntimeError):
    """A worker whose installed player differs from the coordinator's."""


class DaskBackendError(ArenaError, RuntimeError):
    """The Dask backend cannot start or go on (no distributed, no scheduler, lost batches)."""
