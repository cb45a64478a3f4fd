"""Hostile: answers with an enormous reply (a 50 MB action through the host).

Expect: malformed as soon as the header announces more than the reply cap;
the harness never reads (or holds) the body.
"""

import arena


class Bot(arena.Bot):
    def play(self, view):
        return "X" * (50 << 20)
