"""Hostile: opens a TCP connection to 127.0.0.1:CONFIG["port"] (a listener of the test).

Expect: refused (no sockets; its own network namespace); no fault.
"""

import json
import socket

import arena


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "dialled", False):
            self.dialled = True
            try:
                with socket.create_connection(("127.0.0.1", CONFIG["port"]), timeout=1):  # noqa: F821
                    outcome = "connected"
            except OSError as e:
                outcome = f"{type(e).__name__}: {e.strerror}"
            print("REPORT " + json.dumps({"connect": outcome}), flush=True)
        return view.legal[0]
