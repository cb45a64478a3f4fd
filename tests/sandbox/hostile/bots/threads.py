"""Hostile: starts 3,000 threads that sleep forever (a pid-limited machine's death).

Reports how many it got. Expect: a few dozen at most (the bot's own task
cap), the honest bots and the harness still able to start theirs.
"""

import json
import threading
import time

import arena


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "done", False):
            self.done = True
            started, error = 0, None
            for _ in range(3000):
                try:
                    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
                    started += 1
                except RuntimeError as e:
                    error = str(e)
                    break
            print("REPORT " + json.dumps({"started": started, "error": error}), flush=True)
        return view.legal[0]
