"""Hostile: the process exits (os._exit(3)) mid-decision (expect: crash, exit status 3)."""

import os

import arena


class Bot(arena.Bot):
    def play(self, view):
        os._exit(3)
