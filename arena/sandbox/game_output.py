"""GameOutput: one sandboxed seat's output, game by game, from its processes' log pipes.

A bot process (and its fork server) may live across many games, so its
output is cut per game: everything a process wrote before the harness read
an answer is in its log pipe, and :meth:`wire.LogDrain.take` reads the pipe
to its current end. The client takes at the end of a game (after the bot's
``end_game`` answered: ``finish`` is sent to each seat, then the answers are
awaited, so a table waits about one round trip, not one per seat), when a
process is killed, and at a fault (so the fault's line and traceback sit
after the output that came before them): never per decision.
"""

from __future__ import annotations

from arena.bots.output_log import OutputLog
from arena.game.status import Status
from arena.sandbox.botproc import BotProcess, read_answer
from arena.sandbox.timing import WALL_FACTOR


class GameOutput:
    """The current game's :class:`OutputLog` (None between games) and the last finished game's text."""

    __slots__ = ("log", "last", "_ending")

    def __init__(self) -> None:
        self.log: OutputLog | None = None
        self.last = ""
        # (process, what send() returned, CPU allowance) of a finish not yet answered
        self._ending: tuple[BotProcess, tuple[float, float, str | None], float] | None = None

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

    def finish(self, proc, message: dict, limit: float) -> None:
        """Send ``finish`` (the bot's ``end_game``), its answer awaited by :meth:`ending`: a table's seats
        are all sent theirs before any is waited for."""
        self._ending = (proc, proc.send(message, WALL_FACTOR * limit), limit)

    def ending(self, proc) -> bool:
        """Await the answer to :meth:`finish` (if ``proc`` is still the one it went to): an
        ``end_game`` fault is a line in the log (not the game's fault). True: the process must go."""
        ending, self._ending = self._ending, None
        if ending is None or ending[0] is not proc:
            return False
        answer = proc.reply_to(ending[1], ending[2], WALL_FACTOR * ending[2])
        status, _, detail = read_answer(answer.value, "done") if answer.ok else (answer.status, 0, answer.detail)
        if status != Status.OK:
            self.fault(f"end_game {status}", detail, answer.value, proc)
        return not answer.ok

    def end(self, *procs) -> None:
        """The game is over: collect the rest; :attr:`last` is its text (once: again, nothing changes)."""
        if self.log is None:
            return
        self.collect(*procs)
        self.last = self.log.text()
        self.log = None
