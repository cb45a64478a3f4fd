"""A stand-in for a game's RNG, to enumerate chance draws in brute-force searches."""

from __future__ import annotations


class Scripted:
    """Stands in for the game's RNG: records ``randrange(n)`` and answers ``index``."""

    def __init__(self, index: int = 0) -> None:
        self.index, self.asked = index, None

    def randrange(self, n: int) -> int:
        self.asked = n
        return self.index
