"""The one status of a bot call: ``ok`` or a fault kind.

Every layer uses this enum: the engine's fault events, the referee's and the
sandbox's replies, the wire, check-bot, the ratings and the store. It is a
``str`` enum, so a stored value ("timeout", "crash", ...) is the plain
string it always was, in records, JSON and SQLite alike.
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """How one call to a bot went (docs/sandbox.md, Faults)."""

    OK = "ok"
    TIMEOUT = "timeout"
    """Over its CPU time, its wall-clock cap, or it stopped reading its commands."""
    CRASH = "crash"
    """It raised, died, or its stream ended."""
    ILLEGAL = "illegal"
    """A card the rules do not allow here."""
    MALFORMED = "malformed"
    """An answer that is not a card or a take bool, or a garbled frame."""


FAULT_KINDS: tuple[Status, ...] = tuple(s for s in Status if s is not Status.OK)
"""Every fault kind, in the order tables and stores list them."""
