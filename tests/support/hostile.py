"""A hostile bot author's package: every text it controls carries script payloads.

Its player's description and version, what it prints in every game, the
exception it raises now and then (a crash fault's detail and its traceback in
the game's logs) and its file names all hold markup that would run in a
visitor's browser if any page let it through unescaped. The web suite
(tests/ladder/test_ladder_web_hostile.py) submits it, lets it play, and opens
every page.
"""

from __future__ import annotations

from pathlib import Path

from support.ladder import bot_folder

PAYLOAD = "<script>alert(1)</script><img src=x onerror=alert(2)><svg onload=alert(3)>"
"""Markup that shows a dialog (or loads something) wherever it is read as HTML."""
BREAKOUT = "</pre></script></style></textarea>\"'><script>alert(4)</script>"
"""Markup that tries to leave the element a text is shown in first."""

HOSTILE = '''
from arena import Bot, PlayerSpec, hookimpl

PAYLOAD = {payload!r}
BREAKOUT = {breakout!r}


class Hostile(Bot):
    """Plays its lowest legal card, but prints markup at every decision and crashes now and then."""

    def __init__(self, seed=0, **options):
        super().__init__(seed)
        self.decisions = 0

    def play(self, view):
        self.decisions += 1
        print(PAYLOAD, BREAKOUT, flush=True)
        if self.decisions % 7 == 3:
            raise RuntimeError(PAYLOAD + BREAKOUT)
        return min(view.legal, key=lambda c: c.rank)

    def take(self, view):
        return False


@hookimpl
def arena_players():
    return [PlayerSpec("{{name}}", Hostile, "a bot " + PAYLOAD + BREAKOUT, "1.0" + PAYLOAD)]
'''


def hostile_folder(tmp: Path, name: str = "xss-bot") -> Path:
    """The hostile bot's package folder (``arena new-bot``'s layout, its code replaced). Its name must make a
    module nothing on the path has (the suite's path holds tests/sandbox/hostile/, so not ``hostile``)."""
    return bot_folder(tmp, name, HOSTILE.format(payload=PAYLOAD, breakout=BREAKOUT))
