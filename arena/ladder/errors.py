"""The exceptions of the ladder layer, all :class:`~arena.game.errors.ArenaError`."""

from __future__ import annotations

from arena.game.errors import ArenaError


class LadderError(ArenaError, RuntimeError):
    """A ladder that cannot be made, opened or run, or a command it refuses."""


class SubmissionError(ArenaError, ValueError):
    """A submission that cannot enter: not a wheel or bot folder, too large, damaged, already there."""


class UploadTooLarge(SubmissionError):
    """A submission's body over the ladder's cap (refused once it passes it, the rest never read)."""
