"""The logs of a client's ended processes, the last few kept, rendered for ``log_text``.

A :class:`~arena.sandbox.client.SandboxClient` kills and restarts processes
(after a fault, between games, at ``close``); each ended process's (or fork
server's) stdout and stderr stay readable here, the oldest dropped beyond
:data:`KEPT_LOGS` with a note of how many were.
"""

from __future__ import annotations

from collections import deque

from arena.sandbox.botproc import BotProcess

KEPT_LOGS = 4
"""Ended processes whose logs a client keeps."""


class KeptLogs:
    """The ended processes of one client, oldest first (at most :data:`KEPT_LOGS`)."""

    def __init__(self, size: int = KEPT_LOGS) -> None:
        self._procs: deque = deque(maxlen=size)
        self.dropped = 0

    def keep(self, proc) -> None:
        """Keep an ended process's (or server's) log; the oldest goes beyond the cap."""
        if len(self._procs) == self._procs.maxlen:
            self.dropped += 1
        self._procs.append(proc)

    def __iter__(self):
        return iter(list(self._procs))

    def text(self, live, server) -> str:
        """Every kept log, then the ``live`` processes' and the fork ``server``'s (None: none), one section each.

        A live process's latest output may still be in its pipe; an ended one's log is complete.
        """
        parts = [_section(p) for p in [*self._procs, *live]]  # a drain may still be reading: render now
        if server is not None and server.log_text():
            parts.append(f"[bot fork server {server.pid}]\n{server.log_text()}")
        head = [f"[{self.dropped} earlier processes' logs dropped]"] if self.dropped else []
        return "\n".join(head + parts)


def _section(proc: BotProcess) -> str:
    text = proc.log_text()
    return f"[bot process {proc.pid}]" + (f"\n{text}" if text else " (no output)")
