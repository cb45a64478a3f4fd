"""Hostile: at import (in the fork server), starts a thread that would outlive the import.

In the server, such a thread could pick up game processes' pipes and keep
what it reads for the next game. Expect: the harness sees the server's second
thread before any game data is sent and refuses (a start-up crash).
"""

import sys
import threading
import time

import arena

if sys.argv[0].endswith(("server.py", "host.py")):  # only in the bot's process, not the test's
    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()


class Bot(arena.Bot):
    def play(self, view):
        return view.legal[0]
