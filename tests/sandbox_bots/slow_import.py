"""A bot whose module takes a minute to import inside the sandbox."""

import time

import arena
from sandbox_bots import in_sandbox

if in_sandbox():
    time.sleep(60)


class Bot(arena.Bot):
    def play(self, view):
        return view.legal[0]
