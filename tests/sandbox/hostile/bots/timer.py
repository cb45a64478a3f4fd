"""Hostile: at import (in the fork server), arms a timer whose handler burns CPU.

A server left running between games would compute on every tick, uncharged,
slowing everyone on its core (or signalling by contention). Expect: the
server is stopped between game starts, so its CPU time does not move while
games are played.
"""

import signal
import sys
import time

import arena


def _burn(signum, frame):
    end = time.thread_time() + 0.004
    while time.thread_time() < end:
        pass


if sys.argv[0].endswith(("server.py", "host.py")):  # only in the bot's process, not the test's
    signal.signal(signal.SIGALRM, _burn)
    signal.setitimer(signal.ITIMER_REAL, 0.005, 0.005)


class Bot(arena.Bot):
    def play(self, view):
        return view.legal[0]
