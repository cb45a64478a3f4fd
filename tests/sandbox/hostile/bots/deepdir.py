"""Hostile: makes a 1,500-deep folder in its temporary folder (a recursive cleanup's end).

Expect: no fault, and the harness cleans up without raising.
"""

import json
import os

import arena


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "done", False):
            self.done = True
            depth = 0
            os.chdir(os.environ.get("TMPDIR") or os.getcwd())
            try:
                for _ in range(1500):
                    os.mkdir("d")
                    os.chdir("d")
                    depth += 1
            except OSError:
                pass
            print("REPORT " + json.dumps({"depth": depth}), flush=True)
        return view.legal[0]
