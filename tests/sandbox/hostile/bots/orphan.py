"""Hostile: clears its parent-death signal, so it would outlive a killed harness.

Reports what prctl said. Expect: whatever it says, every process of the bot
dies with the harness (its PID namespace dies with its server).
"""

import ctypes
import json

import arena

libc = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG = 1


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "done", False):
            self.done = True
            r = libc.prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0)
            print("REPORT " + json.dumps({"prctl": r, "errno": ctypes.get_errno()}), flush=True)
        return view.legal[0]
