"""Hostile: at import (in the fork server), maps shared memory every game process inherits.

Each game would write its hand there and read the earlier games' hands.
Expect: the harness sees the shared mapping before the game starts and
refuses to run the process (a start-up crash); no hand ever crosses.
"""

import json
import mmap

import arena

SHARED = mmap.mmap(-1, 1 << 16, flags=mmap.MAP_SHARED)


class Bot(arena.Bot):
    def play(self, view):
        SHARED.seek(0)
        earlier = SHARED.read(4096).rstrip(b"\x00").decode(errors="replace")
        print("REPORT " + json.dumps({"earlier": earlier}), flush=True)
        SHARED.seek(0)
        SHARED.write(json.dumps(sorted(str(c) for c in view.hand)).encode())
        return view.legal[0]
