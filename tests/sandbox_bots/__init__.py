"""Small bots for tests/sandbox/test_client.py.

The sandbox host imports them by module path (the folder above, tests/, is
put on its sys.path), so they must stay importable modules; ``in_sandbox``
lets a module behave differently inside a host process than in the test.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

import arena


def in_sandbox() -> bool:
    """True inside a sandbox bot process (``python -m arena.sandbox.host`` or ``.server``)."""
    return sys.argv[0].endswith((os.path.join("sandbox", "host.py"),
                                 os.path.join("sandbox", "server.py")))


def report(**data) -> None:
    print("REPORT " + json.dumps(data), flush=True)


class Reporter(arena.Bot):
    """Plays its first legal card and reports the view it was given."""

    def new_game(self, view):
        report(op="new_game", history=len(view.history))

    def play(self, view):
        report(op="play", hand=[str(c) for c in view.hand], sizes=list(view.hand_sizes),
               history=len(view.history), time_left=view.time_left)
        return view.legal[0]


class CrashOnce(Reporter):
    """Reports, then ends its process at its first decision holding 10 cards or fewer (once a game)."""

    def play(self, view):
        card = super().play(view)
        faulted = any(e["type"] == "fault" and e["seat"] == view.seat for e in view.history)
        if not faulted and len(view.hand) <= 10:
            os._exit(1)
        return card


class Spender(arena.Bot):
    """Spends SPEND seconds of CPU time on every decision."""

    SPEND = 0.15

    def play(self, view):
        report(time_left=view.time_left)
        end = time.thread_time() + self.SPEND
        while time.thread_time() < end:
            pass
        return view.legal[0]


class Background(arena.Bot):
    """Starts a thread that, a second later, spins forever; answers at once.

    The second keeps the spinning out of the decision that starts it: on a loaded machine the
    answer can wait that long for a core while the other thread burns CPU against it."""

    def play(self, view):
        if not hasattr(self, "thread"):
            self.thread = threading.Thread(target=_spin, daemon=True)
            self.thread.start()
        return view.legal[0]


def _spin() -> None:
    time.sleep(1.0)
    while True:
        pass


class Environment(arena.Bot):
    """Reports what it can see of its process: environment, folder, arguments."""

    def play(self, view):
        if not hasattr(self, "told"):
            self.told = True
            report(env=sorted(os.environ), cwd=os.getcwd(), argv=sys.argv,
                   ppid=os.getppid(), pgid=os.getpgid(0), pid=os.getpid())
        return view.legal[0]


class Illegal(arena.Bot):
    """Plays a card it does not hold."""

    def play(self, view):
        return view.unseen()[0]


class NotData(arena.Bot):
    """Answers with something that is not plain data."""

    def play(self, view):
        return object()


class Chatty(arena.Bot):
    """Says hello on stdout and stderr at every new game."""

    def new_game(self, view):
        print("hello from the bot", flush=True)
        print("and from its stderr", file=sys.stderr, flush=True)

    def play(self, view):
        return view.legal[0]


class MatchReporter(arena.Bot):
    """Plays its first legal card and reports the match view of each new game and first play."""

    def new_game(self, view):
        m = view.match
        report(op="new_game", match=None if m is None else [m.hand, list(m.scores), m.dealer])

    def play(self, view):
        m = view.match
        if view.first_trick:
            report(op="play", match=None if m is None else [m.hand, list(m.scores), m.dealer])
        return view.legal[0]
