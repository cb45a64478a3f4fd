"""ProgramClient: a program bot's seat (docs/protocol.md), in the Python bots' sandbox.

A :class:`~arena.sandbox.client.SandboxClient` whose game processes become the
program: each is cloned from the bot's fork server, confined and checked from
outside exactly as a Python bot's (:mod:`arena.sandbox.server`, :mod:`arena.sandbox.audit`),
then sent the ``exec`` frame (:mod:`arena.sandbox.program_exec`), from which on
it speaks JSON lines (:class:`~arena.sandbox.program.LineBuffer`). Everything
else is the Python client's: the process pool (a process goes on only to a deal
it never played, frozen in between), the clocks, the faults, the logs.

What a Python bot's host does inside its process is done here, in the harness:
the seat's knowledge is kept from its event dicts (a
:class:`~arena.game.knowledge.SeatKnowledge`, as an in-process seat's), and each decision's
:class:`~arena.game.views.PlayerView` is built here and sent whole
(:func:`arena.bots.wire_view.view_to_json`; the history only from where the
process was last sent it). The program's answers are judged here too, before
the referee sees them, so that a fault names the line it came on.

The program runs from a read-only copy of its folder, made when the client is,
removed at :meth:`close`; a client has a fork server of its own (never one
shared with other clients: the server's root holds this client's copy).
"""

from __future__ import annotations

import dataclasses
import os
import select
from typing import TYPE_CHECKING

from arena.bots.reply import Reply
from arena.bots.safetext import printable
from arena.bots.wire_view import PROTOCOL, view_to_json
from arena.game.cards import CARDS, TEXTS
from arena.game.knowledge import SeatKnowledge
from arena.game.status import Status
from arena.sandbox import wire
from arena.sandbox.botproc import BotProcess
from arena.sandbox.client import SandboxClient, _Game
from arena.sandbox.errors import ProgramError
from arena.sandbox.limits_spec import LimitsSpec
from arena.sandbox.program import EXEC, LineBuffer, copy_folder, line, remove_copy
from arena.sandbox.timing import WALL_FACTOR

_CARD_OF = dict(zip(TEXTS, CARDS))
_OK = Status.OK

if TYPE_CHECKING:
    class _Speaking(BotProcess):
        """A game process as :meth:`ProgramClient._get_ready` leaves it: exec'd, speaking JSON lines."""

        history_sent: int  # how much of the history the program has been sent
        speaking: bool
        _frames: LineBuffer  # type: ignore[assignment]  # a LineBuffer cuts its answers from then on


class ProgramClient(SandboxClient):
    """Runs a program bot (``spec.source.program``) in its sandbox under ``limits``."""

    takes_compact = False
    """The referee hands it event dicts: the views are built here, from them."""
    _proc: _Speaking | None  # only speaking processes get past _get_ready

    def __init__(self, spec, limits=None, *, os_limits=None, python: str | None = None, **kw) -> None:
        self._copy: str | None = None
        self._copy_error: str | None = None
        self._events: list[dict] = []
        self._seat_of: SeatKnowledge = None  # type: ignore[assignment]  # begin() makes it, before any decide
        self.hello: dict | None = None
        """What the program said of itself in its last ``hello``: its ``name`` and ``version`` (printable)."""
        source = spec.source
        try:
            self._copy = copy_folder(source.path)
            spec = dataclasses.replace(spec, source=dataclasses.replace(source, path=self._copy))
        except (ProgramError, OSError) as exc:
            self._copy_error = str(exc)
        limits = LimitsSpec() if limits is None else limits
        self._hello = {"type": "hello", "protocol": PROTOCOL, "name": spec.name,
                       "options": dict(source.program_options),
                       "limits": {k: getattr(limits, k) for k in ("decision_ms", "bank_ms", "startup_ms", "memory_mb")}}
        super().__init__(spec, limits, os_limits=os_limits, python=python, **kw)  # its own fork server

    # ------------------------------------------------------- Client protocol
    def begin(self, seat, players, rules, seed, events, deal=None) -> Reply:
        self._events = list(events)
        self._seat_of = SeatKnowledge(seat, players, rules)
        self._seat_of.feed_many(events)
        return super().begin(seat, players, rules, seed, events, deal)

    def decide(self, events, legal, decision, table=None) -> Reply:
        if self._game is None:
            return Reply(Status.CRASH, detail="decide() before begin()")
        self._events.extend(events)
        self._seat_of.feed_many(events)
        if self._proc is None or not self._proc.in_game:
            reply = self._open_game()
            if not reply.ok:
                return reply
        view = self._view(legal, decision, self._clock.allowed)
        sent = self._proc.history_sent  # type: ignore[union-attr]  # _open_game made it, or returned
        reply = self._say({"type": "decide", "view": view_to_json(view, sent)}, "action")
        if self._proc is not None:
            self._proc.history_sent = len(view.history)
        return reply if reply.status is not _OK else self._judged(reply, view)

    def finish(self, events, result) -> None:
        proc = self._proc
        if proc is not None and proc.in_game:
            self._events.extend(events)
            sent = getattr(proc, "history_sent", 0)
            message = {"type": "end_game", "history_start": sent, "history": self._events[sent:],
                       "result": None if result is None else result.to_dict()}
            self._output.finish(proc, message, max(1.0, self._clock.decision or 0.0))
            proc.in_game = False
        self._game = None

    def close(self) -> None:
        for proc in [self._proc, *self._idle]:
            if proc is not None and getattr(proc, "speaking", False) and proc.alive():
                try:
                    proc.send({"type": "shutdown"}, 0.01)
                except OSError:
                    pass
        super().close()
        if self._copy is not None:
            remove_copy(self._copy)
            self._copy = None

    # --------------------------------------------------------------- private
    def _spawn(self) -> bool:
        if self._copy_error is not None:
            self._spawn_error = self._copy_error
            return False
        return super()._spawn()

    def _view(self, legal=(), decision=None, time_left=None):
        return self._seat_of.view(legal, decision, time_left)

    def _open_game(self) -> Reply:
        if self._copy_error is not None:
            return Reply(Status.CRASH, detail=f"start-up: {self._copy_error}")
        failure = self._ready_for_game()
        if failure is not None:
            return failure
        proc: _Speaking = self._proc  # type: ignore[assignment]  # ready: _ready_for_game made it
        g: _Game = self._game  # type: ignore[assignment]  # begin() made it
        view = self._view()
        reply = self._say({"type": "new_game", "seed": g.seed, "view": view_to_json(view)}, "ok")
        if reply.ok:
            proc.in_game = proc.served = proc.ends = True
            proc.history_sent = len(view.history)
        return reply

    def _get_ready(self) -> Reply | None:
        """The Python bots' start (a game process cloned, confined, checked from outside), then the exec and
        the program's ``hello``."""
        failure = super()._get_ready()
        if failure is not None or getattr(self._proc, "speaking", False):
            return failure
        proc: _Speaking = self._proc  # type: ignore[assignment]  # the ready one super() made
        startup = self._startup_s
        try:
            wire.write_frame_bytes(proc._cmd, EXEC)
        except OSError as exc:
            return self._failed_start(Reply(Status.CRASH, detail=f"could not start the program: {exc}"))
        proc.encode, proc._frames, proc.speaking = line, LineBuffer(), True  # type: ignore[method-assign]
        answer = proc.request(self._hello, startup, None if startup is None else WALL_FACTOR * startup)
        hello = answer.value.get("hello") if answer.ok and isinstance(answer.value, dict) else None
        if not answer.ok:
            detail = answer.detail
            if answer.status == Status.CRASH and "status 127" in detail:
                detail += " (the command could not be run: the seat's log says why)"
            return self._failed_start(answer._replace(detail=f"start-up: {detail} (waiting for hello)"))
        problem = _hello_problem(hello, answer.value, proc._frames.lines)
        if problem is not None:
            return self._failed_start(Reply(Status.CRASH, None, answer.cpu, answer.wall, f"start-up: {problem}"))
        self.hello = {k: printable(str(hello.get(k, "")))[:40]  # type: ignore[union-attr]  # a hello: a dict
                      for k in ("name", "version")}
        return None

    def _failed_start(self, reply: Reply) -> Reply:
        self._drop(respawn=False)
        return reply

    def _say(self, message: dict, key: str) -> Reply:
        """One message, one timed reply line (a line nobody asked for, waiting in the pipe, is a fault)."""
        proc: _Speaking = self._proc  # type: ignore[assignment]  # said only to an open process
        if not proc._frames.buf and any(events & select.POLLIN for _, events in proc._poll.poll(0)):
            try:  # what it wrote unasked (or, at the end of file, nothing: its death is told below)
                proc._frames.buf += os.read(proc._reply, 65536)
            except OSError:
                pass
        if proc._frames.buf:
            detail = f"line {proc._frames.lines + 1} was written before it was asked for (one line a message)"
            self._output.fault(str(Status.MALFORMED), detail, None, self._server, proc)
            self._drop(respawn=True)
            return Reply(Status.MALFORMED, None, 0.0, 0.0, detail)
        reply = self._ask(message, key)
        if reply.status == Status.MALFORMED and self._proc is proc and not reply.detail.startswith("line "):
            reply = reply._replace(detail=f"line {proc._frames.lines}: {reply.detail}")
        return reply

    def _judged(self, reply: Reply, view) -> Reply:
        """A decision's answer as the referee takes it (a Card, a bool), or the fault, naming its line."""
        value, where = reply.value, f"line {self._proc._frames.lines if self._proc else '?'}"
        if view.decision == "take":
            if type(value) is bool:
                return reply
            return reply._replace(status=Status.MALFORMED, value=None,
                                  detail=f"{where}: answered {_shown(value)} to a take (expected true or false)")
        c = _CARD_OF.get(value) if type(value) is str else None
        if c is None:
            return reply._replace(status=Status.MALFORMED, value=None,
                                  detail=f"{where}: answered {_shown(value)}, not a card (expected a card text "
                                         f"of legal, such as {TEXTS[view.legal[0]]!r})")
        if c not in view.legal:
            held = "a card not in the hand" if c not in view.hand else "a card it may not play now"
            return reply._replace(status=Status.ILLEGAL, value=None,
                                  detail=f"{where}: answered {TEXTS[c]}, {held} "
                                         f"(legal: {' '.join(TEXTS[x] for x in view.legal)})")
        return reply._replace(value=c)


def _hello_problem(hello, value, lines: int) -> str | None:
    if not isinstance(hello, dict):
        return (f"line {lines} is not a hello (expected {{\"type\": \"hello\", \"protocol\": 1, ...}}, "
                f"got {_shown(value)})")
    if hello.get("protocol") != PROTOCOL:
        return f"line {lines}: the program speaks protocol {_shown(hello.get('protocol'))}, expected {PROTOCOL}"
    return None


def _shown(value) -> str:
    text = repr(value)
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= 60 else text[:60] + "..."

