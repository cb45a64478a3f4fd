"""Hostile: raises on every decision (expect: crash naming the exception)."""

import arena


class Bot(arena.Bot):
    def play(self, view):
        raise RuntimeError("hostile bot raised on purpose")
