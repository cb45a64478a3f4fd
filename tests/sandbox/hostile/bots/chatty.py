"""Hostile: prints 4 MB to stdout and 4 MB to stderr on its first decision, then plays.

Expect: no fault; the harness keeps only a capped log and counts the rest.
"""

import sys

import arena

LINE = "spam " * 200 + "\n"  # 1001 bytes


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "spoke", False):
            self.spoke = True
            for _ in range(4000):
                sys.stdout.write(LINE)
                sys.stderr.write(LINE)
            sys.stdout.flush()
        return view.legal[0]
