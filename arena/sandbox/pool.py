"""Game processes kept between games, frozen, and never given a deal they have seen.

The guarantee the sandbox owes is that no process carries anything from one
game of a deal to another game of the same deal. A fresh process per game
gives it, at a few milliseconds a game; this pool gives it too and costs
almost nothing. A process whose next game is of a deal it never played goes
on to it (:meth:`arena.sandbox.client.SandboxClient.begin`); else it is
stopped (SIGSTOP: none of its threads runs, so it can neither compute nor
signal to anyone while it waits), and it is woken (SIGCONT) only for a game
of a deal it has never played. So while one of a client's processes plays,
its others are frozen. Each process remembers the deals it played
(:attr:`BotProcess.deals`; ``None`` for a process whose games' deals are
unknown: never reused). With duplicate rotations a client thus holds one
process per rotation, each living across deals, which is legitimate
opponent modelling.
"""

from __future__ import annotations

import os
import signal
from collections import deque

from arena.sandbox.botproc import BotProcess

SIZE = 4
"""Frozen processes kept per client (the oldest is killed beyond it)."""


class IdleProcesses:
    """The frozen game processes of one client, oldest first."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._procs: deque[BotProcess] = deque()

    def park(self, proc: BotProcess) -> BotProcess | None:
        """Freeze proc for later; returns a process to kill instead (it, or the oldest)."""
        if proc.deals is None or not proc.alive() or not _signal(proc, signal.SIGSTOP):
            return proc
        self._procs.append(proc)
        return self._procs.popleft() if len(self._procs) > self.size else None

    def take(self, deal) -> tuple[BotProcess | None, list[BotProcess]]:
        """(a live process that never played ``deal``, woken; or None), and dead ones found."""
        dead: list[BotProcess] = []
        for proc in reversed(self._procs):  # the most recently used first
            if deal in proc.deals:  # type: ignore[operator]  # park() keeps only processes with a set of deals
                continue
            self._procs.remove(proc)
            if proc.alive() and _signal(proc, signal.SIGCONT):
                return proc, dead
            dead.append(proc)
        return None, dead

    def pids(self) -> set[int]:
        return {p.pid for p in self._procs}

    def drain(self) -> list[BotProcess]:
        """Every frozen process, taken out of the pool (to kill)."""
        procs, self._procs = list(self._procs), deque()
        return procs

    def __iter__(self):
        return iter(list(self._procs))


def goes_on(proc: BotProcess, deal, backstop: float | None) -> bool:
    """Whether a forked game process, its game over, may play ``deal`` next as it is, neither frozen
    nor woken: it never played it, said ready, is alive and has not :func:`spent` its CPU backstop."""
    if deal is None or proc.deals is None or deal in proc.deals or proc.ready_info is None:
        return False
    return proc.alive() and not spent(proc, backstop)


def spent(proc: BotProcess, backstop: float | None) -> bool:
    """Whether the process has used more than half its CPU backstop (it is then ended, not kept)."""
    if backstop is None:
        return False
    used = proc.cpu()
    return used is not None and used > backstop / 2


def _signal(proc: BotProcess, sig: int) -> bool:
    try:
        os.kill(proc.pid, sig)
        return True
    except OSError:
        return False
