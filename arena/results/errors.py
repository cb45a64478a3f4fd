"""Every error of the results layer, in one place; each is an :class:`arena.ArenaError`.

The CLI turns any of them into one line and exit code 2. Each also derives from
the built-in exception a caller would expect (``ValueError`` for a bad value,
``OSError`` for a file that cannot be written, ``RuntimeError`` for a store
that cannot be used).
"""

from __future__ import annotations

from arena.game.errors import ArenaError


class StoreError(ArenaError, RuntimeError):
    """A results folder that is missing, damaged, not one of this arena's, or cannot be written."""


class RatingsError(ArenaError, ValueError):
    """An outcome or rating parameter that cannot be rated."""


class TableFormatError(ArenaError, ValueError):
    """An output format or grouping that does not exist."""


class ReportError(ArenaError, ValueError):
    """A results folder or game that the report or a plot cannot show."""


class OutputError(ArenaError, OSError):
    """An output file that cannot be written (no space, read-only, not a folder)."""


class StatsError(ArenaError, ValueError):
    """A statistical test or figure asked for with parameters it cannot have."""


class CompareError(ArenaError, ValueError):
    """A comparison's settings that cannot make a test."""
