"""GameOutput: one sandboxed seat's output, game by game, from its processes' log pipes.

A bot process (and its fork server) may live across many games, so its
output is cut per game: everything a process wrote before the harness read
an answer is in its log pipe, and :meth:`wire.LogDrain.take` reads the pipe
to its current end. The client takes at the end of a game (after the bot's
``end_game`` answered), when a process is killed, and at a fault (so the
fault's line and traceback sit after the output that came before them):
never per decision.
"""

from __future__ import annotations

from arena.bots.output_log import OutputLog


class GameOutput:
    """The current game's :class:`OutputLog` (None between games) and the last finished game's text."""

    __slots__ = ("log", "last")

    def __init__(self) -> None:
        self.log: OutputLog | None = None
        self.last = ""

    def begin(self) -> None:
        self.log = OutputLog()

    def collect(self, *procs) -> None:
        """Move what each process (or server) wrote so far into this game's log; None entries are skipped."""
        if self.log is None:
            return
        for p in procs:
            if p is not None:
                self.log.output(*p.log.take())

    def fault(self, kind: str, detail: str, value, *procs) -> None:
        """A fault, after the output before it; ``value``: the bot's answer (its traceback, if any)."""
        if self.log is None:
            return
        self.collect(*procs)
        trace = value.get("traceback") if isinstance(value, dict) else None
        self.log.fault(kind, detail, trace if isinstance(trace, str) else None)

    def end(self, *procs) -> None:
        """The game is over: collect the rest; :attr:`last` is its text."""
        self.collect(*procs)
        self.last = "" if self.log is None else self.log.text()
        self.log = None
