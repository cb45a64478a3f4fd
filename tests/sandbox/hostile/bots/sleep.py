"""Hostile: sleeps forever on every decision (expect: timeout at the wall-clock cap)."""

import time

import arena


class Bot(arena.Bot):
    def play(self, view):
        time.sleep(3600)
