"""Hostile: writes a frame header and the start of a body, then goes silent.

Expect: timeout at the wall-clock cap (the deadline covers the whole frame).
"""

import os
import struct
import sys
import time

import arena


class Bot(arena.Bot):
    def play(self, view):
        os.write(int(sys.argv[2]), struct.pack(">I", 100) + b'{"act')
        time.sleep(3600)
