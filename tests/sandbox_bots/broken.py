"""A bot whose module fails to import inside the sandbox (and imports fine in the test)."""

import arena
from sandbox_bots import in_sandbox

if in_sandbox():
    raise RuntimeError("this bot's import fails, on purpose")


class Bot(arena.Bot):
    def play(self, view):
        return view.legal[0]
