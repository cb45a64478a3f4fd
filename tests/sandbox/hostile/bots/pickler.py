"""Hostile: replies with a pickle whose unpickling would run code in the harness.

``payload(path)`` is a pickle that makes the folder ``path`` when loaded
(the test proves that on itself). The bot sends it as a frame for
CONFIG["marker"]. Expect: malformed, and the marker never made.
"""

import os
import pickle
import struct
import sys

import arena


class _Evil:
    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (os.mkdir, (self.path,))


def payload(path: str) -> bytes:
    return pickle.dumps(_Evil(path))


class Bot(arena.Bot):
    def play(self, view):
        body = payload(CONFIG["marker"])  # noqa: F821 (CONFIG is put in by the test)
        os.write(int(sys.argv[2]), struct.pack(">I", len(body)) + body)
        return view.legal[0]
