"""Hostile: reads the zygote's variables left on its stack (its keeper was forked mid-request).

At import (in its fork server), walks up its own call stack to the zygote's
frames and reports their local variables. Expect: nothing about any other
bot, in particular no pid of another bot's keeper.
"""

import json
import sys

import arena


def zygote_frames() -> dict[str, dict[str, str]]:
    found, frame = {}, sys._getframe()
    while frame is not None:
        if frame.f_code.co_filename.endswith("zygote.py"):
            found[frame.f_code.co_name] = {k: repr(v)[:300] for k, v in frame.f_locals.items()}
        frame = frame.f_back
    return found


AT_IMPORT = zygote_frames()


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "told", False):
            self.told = True
            print("REPORT " + json.dumps(AT_IMPORT), flush=True)
        return view.legal[0]
