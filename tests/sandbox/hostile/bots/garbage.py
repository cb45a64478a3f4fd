"""Hostile: writes a frame of garbage (not JSON) straight into its reply pipe.

The reply fd is the host's second argument. Expect: malformed; the process
is replaced (the stream is out of step).
"""

import os
import struct
import sys

import arena

JUNK = b"this is not json \x00\xff at all"


class Bot(arena.Bot):
    def play(self, view):
        os.write(int(sys.argv[2]), struct.pack(">I", len(JUNK)) + JUNK)
        return view.legal[0]
