"""SandboxClient: a seat's bot in its own confined process, seen from the referee.

The referee's :class:`arena.bots.referee.Client` protocol, answered by a host process (:mod:`arena.sandbox.host`)
that runs the bot under the OS limits of :mod:`arena.sandbox.limits`. What crosses to the bot is only what the
referee hands this seat (its own filtered events, its legal actions); what comes back is judged here and never
trusted:

- every call returns a :class:`~arena.bots.reply.Reply` whose status is ``ok`` or a fault kind (``timeout``,
  ``crash``, ``malformed``; the referee's ``check_reply`` finds ``illegal``); nothing a bot does raises here;
- time is judged by :class:`~arena.sandbox.timing.Clock` on the process's CPU time as the kernel counts it, with a
  wall-clock cap of 3x;
- after a timeout, a crash or a garbled frame the process group is killed and a fresh process started at once; it
  catches up on the seat's whole event history when it is next asked, so the game goes on.

No process ever plays two games of one deal. With namespaces, a fork server (:mod:`arena.sandbox.server`) that
imported the bot clones game processes, each checked from outside (:mod:`arena.sandbox.audit`) before it is sent
anything; a process goes on only to a deal it never played, else it is frozen while the client's other processes
play (:mod:`arena.sandbox.pool`). Elsewhere a fresh interpreter plays each game. ``close`` kills everything. If the
harness dies first, the bot dies with it: the zygote (:mod:`arena.sandbox.zygote`) kills its keepers, the server
dies with its keeper, every game process with the server, the init of their PID namespace.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from arena.bots.player_spec import PlayerSpec
from arena.bots.reply import Reply
from arena.game.cards import CARDS
from arena.game.events import as_compact
from arena.game.status import Status
from arena.sandbox import audit
from arena.sandbox.botproc import LOG_CAP, BotProcess, read_answer
from arena.sandbox.game_output import GameOutput
from arena.sandbox.kept_logs import KeptLogs
from arena.sandbox.limits import Limits, detect
from arena.sandbox.limits_spec import LimitsSpec
from arena.sandbox.pool import IdleProcesses, goes_on, spent
from arena.sandbox.serverproc import ForkServer, merged_confinement, use_server
from arena.sandbox.shared_server import SharedServer
from arena.sandbox.target import player_target, start_order
from arena.sandbox.timing import WALL_FACTOR, Clock, not_ready

_OK, _new_reply, _DECK_IDS = Status.OK, tuple.__new__, len(CARDS)

END_GAME_S = 1.0
"""CPU seconds a bot's ``end_game`` may take (its decision limit if that is longer), 3x that of wall time."""


@dataclass(slots=True)
class _Game:
    """What this seat has been shown of the current game (to catch a fresh process up)."""

    seat: int
    players: int
    rules: dict
    seed: int
    events: list = field(default_factory=list)
    deal: int | None = None


class SandboxClient:
    """Runs ``spec``'s bot in a confined process under ``limits``.

    ``limits``: an object with ``decision_ms``, ``bank_ms``, ``startup_ms`` and
    ``memory_mb`` (a :class:`~arena.sandbox.limits_spec.LimitsSpec`; None: its defaults).
    0 means "not limited" for each. ``os_limits`` replaces the OS-level
    :class:`~arena.sandbox.limits.Limits` derived from it (tests use it).
    ``share``: the bot's fork server shared with other clients that play it at
    the same time (:mod:`arena.sandbox.shared_server`); None: its own.
    """

    takes_compact = True
    """The referee hands it compact batches (:func:`arena.game.events.for_seat_compact`) and, at a
    decision, the led suit and the trump (``table``: a bot reading only those and ``legal`` needs no
    tracking), sent on to the host's framed ``SeatKnowledge`` (a wrapping client's dicts: ``as_compact``)."""

    def __init__(self, spec: PlayerSpec, limits: LimitsSpec | None = None, *, os_limits: Limits | None = None,
                 log_cap: int = LOG_CAP, python: str | None = None, share: SharedServer | None = None) -> None:
        limits = LimitsSpec() if limits is None else limits
        self.spec, self.name, self.limits = spec, spec.name, limits
        self.os_limits = os_limits or Limits(memory_mb=limits.memory_mb or None)
        self._log_cap, self._python = log_cap, python
        self._player = player_target(spec)
        self._forked = use_server(self.os_limits)
        self._server: ForkServer | None = None
        self._share = share or SharedServer()
        self._share.join()
        self._idle, self._starts = IdleProcesses(), 0
        self._server_confinement: dict | None = None
        self._proc: BotProcess | None = None
        self._spawn_error: str | None = None
        self._game: _Game | None = None
        self._clock = Clock.from_limits(limits)
        self._startup_s = limits.startup_ms / 1000 if limits.startup_ms else None  # CPU s to say ready
        self._start_failed: str | None = None
        self._logs, self._output = KeptLogs(), GameOutput()  # the logs: ended processes'
        self.pids: list[int] = []
        self.confinement: dict | None = None
        self._box: dict = {}
        self._closed = False
        self._finalizer = weakref.finalize(self, _kill_box, self._box)
        self._spawn()  # now, so its start-up overlaps the other seats'

    # ------------------------------------------------------- Client protocol
    def begin(self, seat, players, rules, seed, events, deal=None) -> Reply:
        """A new game, fed the seat's first events, in a process that never played ``deal`` (the game's
        deal seed; None: unknown): the last game's, going on; a frozen one, woken; or a fresh one."""
        self._settle()
        self._game = _Game(seat, players, rules.to_dict(), seed, list(as_compact(events)), deal)
        self._clock = Clock.from_limits(self.limits)
        self._output.begin()
        self._start_failed = None
        proc = self._proc
        if proc is not None and (proc.served or not proc.alive()) and not (
                self._forked and goes_on(proc, deal, self.os_limits.cpu_seconds)):
            self._park()
        if self._proc is None and deal is not None and self._forked:
            proc, dead = self._idle.take(deal)
            for p in dead:
                self._end(p)
            if proc is not None:
                self._proc = proc
                self._box["proc"] = proc
        return self._open_game()

    def _park(self) -> None:
        """Freeze the last game's process for a later deal, or end it."""
        proc: BotProcess = self._proc  # type: ignore[assignment]  # begin() parks only a process it has
        if not self._forked or spent(proc, self.os_limits.cpu_seconds) or proc.ready_info is None:
            self._drop(respawn=not self._forked)
            return
        self._proc = None
        self._box.pop("proc", None)
        victim = self._idle.park(proc)
        if victim is not None:
            self._end(victim)

    def _end(self, proc) -> None:
        proc.kill(wait=self._closed)
        self._logs.keep(proc)

    def decide(self, events, legal, decision, table=None) -> Reply:
        """One decision; a fresh process first catches up on the game so far (``table``: see takes_compact)."""
        if self._game is None:
            return Reply(Status.CRASH, detail="decide() before begin()")
        events = as_compact(events)
        self._game.events.extend(events)
        if self._proc is None or not self._proc.in_game:
            reply = self._open_game()
            if not reply.ok:
                return reply
            events = ()
        message = {"op": "decide", "events": events, "legal": legal,
                   "decision": decision, "time_left": self._clock.allowed, "table": table}
        return self._ask(message, "action", decision == "play")

    def finish(self, events, result) -> None:
        """The game's last events and its result, sent; the bot's ``end_game`` is awaited by
        :meth:`game_log` (or the next call), with :data:`END_GAME_S` of CPU time (a bot that
        overruns it or dies is restarted; no fault: the game is over). A bot without an ``end_game``
        of its own is sent nothing (:func:`arena.sandbox.host.ends`)."""
        proc = self._proc
        if proc is not None and proc.in_game:
            if proc.ends:
                message = {"op": "finish", "events": as_compact(events),
                           "result": None if result is None else result.to_dict()}
                self._output.finish(proc, message, max(END_GAME_S, self._clock.decision or 0.0))
            proc.in_game = False
        self._game = None

    def game_log(self) -> str:
        """What the bot printed during its last finished game (stdout and stderr, capped), with
        its faults' tracebacks; '' when it printed nothing and nothing went wrong."""
        self._settle()
        return self._output.last

    def _settle(self) -> None:
        """After finish: await end_game's answer, then take the game's output from the log pipes."""
        if self._output.ending(self._proc):
            self._drop(respawn=True)
        if self._game is None:
            self._output.end(self._server, self._proc)

    def close(self) -> None:
        """Kill the bot's processes; the client is done (it starts no more)."""
        self._settle()
        self._closed = True
        self._drop(respawn=False)
        for proc in self._idle.drain():
            self._end(proc)
        if self._share.leave():  # the last of the clients sharing the server
            self._server = self._share.live() or self._server
            self._drop_server()
        self._server = None
        self._finalizer()
        for proc in self._logs:  # game processes killed without waiting: their logs end now
            proc.log.join(2.0)

    def ping(self) -> Reply:
        """A round trip through the host without the bot (benchmarks, health checks)."""
        self._settle()
        failure = self._ensure_ready()
        if failure is not None:
            return failure
        return self._ask({"op": "ping"}, "pong")

    # ------------------------------------------------------------ inspecting
    @property
    def processes(self) -> int:
        """How many game processes (or exec'd processes) this client has started."""
        return len(self.pids)

    @property
    def starts(self) -> int:
        """How many times the bot was started from scratch (fork servers, or exec'd processes)."""
        return self._starts

    @property
    def pid(self) -> int | None:
        """The current bot process's pid (None between a failure and the next start)."""
        return None if self._proc is None else self._proc.pid

    def log_text(self) -> str:
        """The bot's stdout and stderr, per process (the last few), each capped: complete for each
        ended process (after ``close`` or a restart); a live one's latest may still be in its pipe."""
        return self._logs.text([*self._idle, *([self._proc] if self._proc is not None else [])], self._server)

    # --------------------------------------------------------------- private
    def _open_game(self) -> Reply:
        """Start the process if needed, then send it the game so far."""
        failure = self._ready_for_game()
        if failure is not None:
            return failure
        g: _Game = self._game  # type: ignore[assignment]  # begin() made it
        proc: BotProcess = self._proc  # type: ignore[assignment]  # ready: _ensure_ready made it
        reply = self._ask({"op": "game", "seat": g.seat, "players": g.players, "rules": g.rules,
                           "seed": g.seed, "events": g.events}, "ok")
        if reply.ok:
            proc.in_game = proc.served = True
            proc.ends = not isinstance(reply.value, dict) or reply.value.get("ends") is not False
        return reply

    def _ready_for_game(self) -> Reply | None:
        """None once the process is ready for the current game (and counted as having seen its deal);
        else the start-up fault, kept: the process is not started again this game."""
        if self._start_failed is not None:
            return Reply(Status.CRASH, detail=f"not restarted again this game: {self._start_failed}")
        failure = self._ensure_ready()
        if failure is not None:
            self._start_failed = failure.detail
            self._output.fault(str(failure.status), failure.detail, None, self._server, self._proc)
            return failure
        proc: BotProcess = self._proc  # type: ignore[assignment]  # ready: _ensure_ready made it
        deal = self._game.deal  # type: ignore[union-attr]  # a game is open: begin() made it
        if proc.deals is not None:  # what this process will have seen
            proc.deals = None if deal is None else proc.deals | {deal}
        return None

    def _ensure_ready(self) -> Reply | None:
        """None once a process has said ready; else the start-up fault (one sharing client at a time)."""
        if self._proc is not None and self._proc.ready_info is not None:
            return None
        with self._share.lock:
            return self._get_ready()

    def _get_ready(self) -> Reply | None:
        if self._forked and self._proc is None:
            failure = self._fork_game()
            if failure is not None:
                return failure
        elif self._proc is None and not self._spawn():
            return Reply(Status.CRASH, detail=f"start-up: {self._spawn_error}")
        startup = self._startup_s
        proc: BotProcess = self._proc  # type: ignore[assignment]  # forked or spawned above
        answer = proc.ready(startup, None if startup is None else WALL_FACTOR * startup)
        value = answer.value if isinstance(answer.value, dict) else {}
        problem = None
        if answer.ok and value.get("ready") is True:
            problem = self._audit()
            if problem is None:
                proc.ready_info = value
                self.confinement = merged_confinement(self._server_confinement, value.get("confinement"))
                return None
        status = Status.CRASH if answer.ok else answer.status
        detail = problem or answer.detail or str(value.get("error") or "no ready answer")[:300]
        if status == Status.TIMEOUT:
            detail = not_ready(startup, detail)  # type: ignore[arg-type]  # a timeout had a limit
        self._drop(respawn=False)
        if problem is not None:
            self._drop_server()
        return Reply(status, None, answer.cpu, answer.wall, f"start-up: {detail}")

    def _fork_game(self) -> Reply | None:
        """A game process from the fork server (started, and waited for, if needed)."""
        self._server = self._share.live()  # another sharing client may have replaced it
        if self._server is None and not self._start_server():
            return Reply(Status.CRASH, detail=f"start-up: {self._spawn_error}")
        server = self._server
        if server.ready_info is None:
            startup = self._startup_s
            ready = server.ready(startup, None if startup is None else WALL_FACTOR * startup)
            if not ready.ok:
                self._drop_server()
                detail = ready.detail
                if ready.status == Status.TIMEOUT:
                    detail = not_ready(startup, detail)  # type: ignore[arg-type]  # a timeout had a limit
                return ready._replace(detail=f"start-up: {detail}")
            self._server_confinement = server.ready_info.get("confinement")  # type: ignore[attr-defined]
        proc = server.start_game(keep=set(server.games))  # every sharing client's, live or frozen
        if isinstance(proc, str):
            self._drop_server()
            return Reply(Status.CRASH, detail=f"start-up: {proc}")
        proc.deals = set()
        self._proc = proc
        self._box["proc"] = proc
        self.pids.append(proc.pid)
        return None

    def _audit(self) -> str | None:
        """The harness's outside check of a forked game process (None: it holds)."""
        if not self._forked or self._server is None:
            return None
        proc: BotProcess = self._proc  # type: ignore[assignment]  # the game process just started
        seccomp = "seccomp" not in self.os_limits.disable and detect().available("seccomp")
        return audit.check_game(self._server.server_pid, proc.pid,  # type: ignore[arg-type]  # it runs
                                (proc._cmd, proc._reply, proc.log.fd), seccomp=seccomp,
                                others=set(self._server.games) - {proc.pid})

    def _start_server(self) -> bool:
        if self._closed:
            self._spawn_error = "the client is closed"
            return False
        with self._share.lock:
            self._server = self._share.live()
            if self._server is None:
                order = start_order(self._player, self.os_limits, forked=True)
                self._server, self._spawn_error = self._share.start(
                    order, self.os_limits, self._idle.size, python=self._python, log_cap=self._log_cap)
                self._starts += self._server is not None
            return self._server is not None

    def _drop_server(self) -> None:
        server, self._server = self._server, None
        if server is not None and self._share.forget(server):  # else another sharing client killed it
            server.kill()
            self._output.collect(server)
            self._logs.keep(server)

    def _ask(self, message: dict, key: str, card: bool = False) -> Reply:
        """One timed request to a ready process; faults end the process. ``card``: an answer that
        is a card's id comes back as the :class:`~arena.game.cards.Card` (what the referee checks first)."""
        clock = self._clock
        allowed = clock.allowed
        answer = self._proc.request(  # type: ignore[union-attr]  # asked only of a ready process
            message, allowed, None if allowed is None else WALL_FACTOR * allowed)
        late = clock.charge(answer.cpu, answer.wall)
        value = answer.value
        if late is None and answer.status is _OK and type(value) is dict and len(value) == 1 and key in value:
            value = value[key]   # the usual answer: {key: value}, in time
            if card and type(value) is int and 0 <= value < _DECK_IDS:
                value = CARDS[value]
            return _new_reply(Reply, (_OK, value, answer.cpu, answer.wall, ""))
        status, value, detail = answer.status, None, answer.detail
        if answer.ok:
            status, value, detail = read_answer(answer.value, key)
        if late is not None and status == Status.OK:
            status, detail = Status.TIMEOUT, f"{late}; its answer came too late"
        elif late is not None and status == Status.TIMEOUT:
            detail = f"{late}; {detail}"
        if status != Status.OK:
            self._output.fault(str(status), detail, answer.value, self._server, self._proc)
        if not answer.ok or status in (Status.TIMEOUT, Status.CRASH):
            self._drop(respawn=True)
        return Reply(status, value, answer.cpu, answer.wall, detail)

    def _spawn(self) -> bool:
        """Start an exec'd process (not waiting for it); False if the OS refused or the client is closed."""
        if self._forked or self._closed:  # a closed client's start is refused there
            return self._start_server()
        try:
            order = start_order(self._player, self.os_limits, forked=False)
            self._proc = BotProcess(order, python=self._python, log_cap=self._log_cap)
        except (OSError, RuntimeError) as exc:  # RuntimeError: no thread for its log drain
            self._proc, self._spawn_error = None, f"could not start the bot process: {exc}"
            return False
        self._box["proc"] = self._proc
        self.pids.append(self._proc.pid)
        self._starts += 1
        return True

    def _drop(self, respawn: bool) -> None:
        """Kill the current process (keeping its log); maybe start the next one."""
        proc, self._proc = self._proc, None
        self._box.pop("proc", None)
        if proc is not None:
            proc.kill(wait=self._closed or not self._forked)
            self._output.collect(self._server, proc)
            self._logs.keep(proc)
        if respawn and self._start_failed is None and not self._forked:
            self._spawn()


def _kill_box(box: dict) -> None:
    """Finalizer: kill a client's process if it was never closed (the server is its share's)."""
    proc = box.pop("proc", None)
    if proc is not None:
        proc.kill()
