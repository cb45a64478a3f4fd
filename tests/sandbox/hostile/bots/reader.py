"""Hostile: reads harness data: a results database, the checkout, tournament files, /proc.

CONFIG["paths"] maps names to paths. Reports what each read got (and lists
the folders it can see). Expect: every read refused or the file absent.
"""

import json
import os

import arena


def attempt(path: str) -> str:
    try:
        if os.path.isdir(path):
            return f"listed {len(os.listdir(path))} entries"
        with open(path, "rb") as f:
            return f"read {len(f.read(4096))} bytes"
    except OSError as e:
        return type(e).__name__


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "done", False):
            self.done = True
            report = {name: attempt(path) for name, path in CONFIG["paths"].items()}  # noqa: F821
            report["own_package"] = attempt(arena.__file__)
            report["environ"] = sorted(os.environ)
            print("REPORT " + json.dumps(report), flush=True)
        return view.legal[0]
