"""Hostile: crashes the interpreter with a segfault via ctypes (expect: crash, SIGSEGV)."""

import ctypes

import arena


class Bot(arena.Bot):
    def play(self, view):
        ctypes.string_at(0)
