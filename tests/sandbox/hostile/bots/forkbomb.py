"""Hostile: a bounded fork bomb (at most 20 forks, each child sleeps 30 s and exits).

It reports how many forks succeeded, then plays legally. Expect: every fork
refused (seccomp), no extra process in its group, no fault.
"""

import json
import os
import subprocess
import sys
import time

import arena

TRIES = 20


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "bombed", False):
            self.bombed = True
            print("REPORT " + json.dumps(bomb()), flush=True)
        return view.legal[0]


def bomb() -> dict:
    forked, errors = 0, []
    for _ in range(TRIES):
        try:
            pid = os.fork()
        except OSError as e:
            errors.append(type(e).__name__)
            continue
        if pid == 0:  # a child, if the sandbox let one through: bounded
            time.sleep(30)
            os._exit(0)
        forked += 1
    try:
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        spawned = "started"
    except OSError as e:
        spawned = type(e).__name__
    return {"forked": forked, "errors": sorted(set(errors)), "refused": len(errors),
            "subprocess": spawned}
