"""Hostile: opens the machine's sysctls and the SysRq trigger for writing, at import and in a game.

As uid 0 outside its user namespace (a root harness), a bot needs no capability to write what uid 0
owns, and /proc/sys is writable by uid 0 alone: core_pattern would run a program as root on the host.
It only opens the files (it never writes one): an open for writing that succeeds is the hole.
Expect: every open refused, at import (in the fork server, which has no Landlock) and in the game.
"""

import json
import os

import arena

TARGETS = ("/proc/sys/kernel/core_pattern", "/proc/sys/vm/drop_caches", "/proc/sys/fs/suid_dumpable",
           "/proc/sysrq-trigger", "/.arena/proc/sys/kernel/core_pattern")


def attempt(path: str) -> str:
    try:
        fd = os.open(path, os.O_WRONLY)
    except OSError as e:
        return type(e).__name__
    os.close(fd)
    return "opened"


AT_IMPORT = {path: attempt(path) for path in TARGETS}


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "tried", False):
            self.tried = True
            print("REPORT " + json.dumps({"import": AT_IMPORT, "game": {p: attempt(p) for p in TARGETS}}),
                  flush=True)
        return view.legal[0]
