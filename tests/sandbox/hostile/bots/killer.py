"""Hostile: tries to kill its parent, a sentinel process and another bot's process.

Targets come from CONFIG (put in by the test). Reports each attempt.
Expect: all refused; everyone alive; no fault.
"""

import json
import os
import signal

import arena


def attempt(fn, *args) -> str:
    try:
        fn(*args)
        return "delivered"
    except OSError as e:
        return type(e).__name__


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "struck", False):
            self.struck = True
            parent = os.getppid()
            report = {"parent": attempt(os.kill, parent, signal.SIGKILL),
                      "parent_group": attempt(os.killpg, os.getpgid(parent), signal.SIGKILL)}
            for name, pid in CONFIG["targets"].items():  # noqa: F821
                report[name] = attempt(os.kill, pid, signal.SIGKILL)
                report[name + "_probe"] = attempt(os.kill, pid, 0)
            print("REPORT " + json.dumps(report), flush=True)
        return view.legal[0]
