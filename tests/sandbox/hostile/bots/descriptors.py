"""Hostile: looks for a descriptor that leads out of its sandbox (the harness's, the zygote's).

Lists what its descriptors point to at import (in its fork server) and at its
first decision (in the game process), and reports both. Expect: nothing but
its own pipes and files; no socket of the zygote that forked its keeper.
"""

import json
import os

import arena


def links() -> dict[str, str]:
    found = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            found[fd] = os.readlink(f"/proc/self/fd/{fd}")
        except OSError as e:
            found[fd] = type(e).__name__
    return found


AT_IMPORT = links()


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "looked", False):
            self.looked = True
            print("REPORT " + json.dumps({"import": AT_IMPORT, "game": links()}), flush=True)
        return view.legal[0]
