"""Hostile: an infinite loop on every decision (expect: timeout, judged on CPU time)."""

import arena


class Bot(arena.Bot):
    def play(self, view):
        while True:
            pass
