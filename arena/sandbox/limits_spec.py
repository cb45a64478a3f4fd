"""The limits a tournament (or check-bot) sets for each bot, in milliseconds and MiB.

Plain numbers, 0 meaning "not limited": :class:`~arena.sandbox.timing.Clock`
judges decisions by them, and :class:`~arena.sandbox.limits.Limits` (the OS
layers) takes the memory cap from them. See docs/sandbox.md.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LimitsSpec:
    """Per-bot limits in a tournament (see docs/sandbox.md)."""

    decision_ms: int = 1000
    bank_ms: int = 0
    startup_ms: int = 10000
    memory_mb: int = 1024
