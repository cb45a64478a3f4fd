"""Hostile: tries to read its parent's (the harness's) /proc/<pid>/mem and environ.

Reports what each attempt got. Expect: both refused, no fault.
"""

import json
import os

import arena


def attempt(path: str, offset: int = 0) -> str:
    try:
        with open(path, "rb", buffering=0) as f:
            if offset:
                f.seek(offset)
            data = f.read(4096)
        return f"read {len(data)} bytes: {data[:64]!r}"
    except OSError as e:
        return f"{type(e).__name__}: {e.strerror}"


def heap_start(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/maps") as f:
            return int(f.readline().split("-")[0], 16)
    except (OSError, ValueError):
        return 0x400000


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "snooped", False):
            self.snooped = True
            parent = os.getppid()
            report = {"parent": parent,
                      "mem": attempt(f"/proc/{parent}/mem", heap_start(parent)),
                      "environ": attempt(f"/proc/{parent}/environ")}
            print("REPORT " + json.dumps(report), flush=True)
        return view.legal[0]
