"""OutputLog: what one seat's bot printed during one game, with its faults' tracebacks, capped.

Both kinds of client keep one per game (the sandboxed client from its
process's drained stdout/stderr, the in-process client from the bot's own
``print``\\s), so ``arena play``, ``arena logs`` and the report show the same
thing whichever way a bot ran. Caps: :data:`OUTPUT_CAP` bytes of output a seat
a game (the first ones; a note counts the rest) and the first
:data:`KEPT_TRACEBACKS` tracebacks of :data:`TRACEBACK_CAP` characters each
(later faults keep their one-line detail).
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field

OUTPUT_CAP = 64 * 1024
"""Bytes of a bot's stdout and stderr kept per seat per game (the first ones)."""
TRACEBACK_CAP = 8 * 1024
"""Characters of one fault's traceback kept (its end: the innermost frames and the exception)."""
KEPT_TRACEBACKS = 4
"""Tracebacks kept in full per seat per game; later faults keep their one-line detail."""


@dataclass(slots=True)
class OutputLog:
    """One seat's log of one game, built as the game goes; :meth:`text` renders it."""

    cap: int = OUTPUT_CAP
    parts: list[str] = field(default_factory=list)
    kept: int = 0
    more: int = 0
    tracebacks: int = 0

    def output(self, data: bytes | str, more: int = 0) -> None:
        """The bot's output (bytes from a pipe, or text); ``more``: bytes already not kept before."""
        if isinstance(data, str):
            data = data.encode("utf-8", errors="replace")
        room = max(0, self.cap - self.kept)
        if len(data) > room:
            more += len(data) - room
            data = data[:room]
        self.more += more
        if data:
            self.kept += len(data)
            self.parts.append(data.decode("utf-8", errors="replace"))

    def fault(self, kind: str, detail: str, traceback: str | None = None) -> None:
        """A fault the client saw, in order with the output: a marked line, and its traceback."""
        self._line(f"[arena: {kind}: {detail}]")
        if not traceback:
            return
        self.tracebacks += 1
        if self.tracebacks > KEPT_TRACEBACKS:
            if self.tracebacks == KEPT_TRACEBACKS + 1:
                self._line(f"[arena: later tracebacks not kept: the first {KEPT_TRACEBACKS} of a game are]")
            return
        self._line(cap_traceback(traceback).rstrip("\n"))

    def note(self, text: str) -> None:
        """A line of the harness's own (e.g. the bot process was restarted)."""
        self._line(f"[arena: {text}]")

    def _line(self, text: str) -> None:
        if self.parts and not self.parts[-1].endswith("\n"):
            self.parts.append("\n")
        self.parts.append(text + "\n")

    def text(self) -> str:
        """The whole log ('' if the bot printed nothing and nothing went wrong)."""
        text = "".join(self.parts)
        if self.more:
            if text and not text.endswith("\n"):
                text += "\n"
            text += (f"[arena: {self.more} more bytes of output not kept: the log keeps the first "
                     f"{self.cap} bytes of a seat's output per game]\n")
        return text


def cap_traceback(text: str, cap: int = TRACEBACK_CAP) -> str:
    """A traceback cut to its last ``cap`` characters (the innermost frames and the exception)."""
    if len(text) <= cap:
        return text
    return f"[... the first {len(text) - cap} characters of the traceback cut]\n" + text[-cap:]


def bot_traceback(exc: BaseException, harness_file: str) -> str:
    """exc's traceback as text, without the frames of ``harness_file`` (the caller's own), capped."""
    te = traceback.TracebackException.from_exception(exc)
    te.stack = traceback.StackSummary.from_list([f for f in te.stack if f.filename != harness_file])
    return cap_traceback("".join(te.format()))
