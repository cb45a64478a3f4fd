"""Hostile: allocates 10 GiB on every decision (expect: crash, MemoryError under RLIMIT_AS)."""

import arena


class Bot(arena.Bot):
    def play(self, view):
        hoard = bytearray(10 << 30)
        return view.legal[len(hoard) % len(view.legal)]
