"""One bot process seen from the harness: start it, talk in frames, time it, kill it.

The process is ``python -s -P -B -m arena.sandbox.host CMD_FD REPLY_FD PARENT``
(a clean interpreter, never a fork of the harness), the leader of its own
process group, with a scrubbed environment, its own empty temporary folder
as working directory, and three pipes:

- commands: harness -> host (``CMD_FD``, passed with ``pass_fds``); the
  harness's end is non-blocking, so a bot that stops reading cannot block it;
- replies: host -> harness (``REPLY_FD``), read with :func:`wire.read_frame`
  (size-capped JSON, the deadline over the whole frame, nothing unpickled);
- the log: the bot's fd 1 and 2, drained and capped by a :class:`wire.LogDrain`.

Time is measured by the harness, not reported by the bot: the process's CPU
clock (``clock_gettime`` on the clock id of its pid: every thread, nanosecond
resolution) and the wall clock. A request's CPU time is everything the process
used since its previous answer, so work done between decisions is charged too.
"""

from __future__ import annotations

import fcntl
import math
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from arena.bots.reply import Reply
from arena.game.status import Status
from arena.sandbox import processes, wire
from arena.sandbox.processes import describe_exit, kill_group

MAX_REPLY = 64 * 1024
LOG_CAP = 64 * 1024
CMD_PIPE_SIZE = 1 << 20
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""Numerical libraries' thread pools held to one thread in a bot's environment: numpy's BLAS would
start threads at import, and a bot's fork server must run one thread (the outside check refuses more)."""
_MIN_STEP = 0.002  # seconds between CPU checks near the limit
_GONE = select.POLLHUP | select.POLLERR | select.POLLNVAL


class BotProcess:
    """A started host process; every method turns what the bot does into data.

    ``encode`` makes a command's bytes and ``_frames`` cuts the replies: frames, or a program bot's
    JSON lines once its game process has exec'd it (:mod:`arena.sandbox.program_client`)."""

    def encode(self, message: dict) -> bytes:
        """A command's bytes: a frame (a program's process has a JSON line's function instead)."""
        return wire.encode(message)

    tmpdir: str | None  # None: a fork server's game process (adopt), not our child
    proc: subprocess.Popen | None

    def __init__(self, init: dict, *, python: str | None = None, log_cap: int = LOG_CAP) -> None:
        """Start the process and queue ``init`` for it (raises OSError if it cannot start)."""
        self.tmpdir = tmpdir = tempfile.mkdtemp(prefix="arena-bot-")
        self._killer: Callable[[], int | None] | None = None  # adopt's, where proc is None
        fds: list[int] = []
        try:
            cmd_r, cmd_w = _pipe(fds)
            reply_r, rep_w = _pipe(fds)
            log_r, log_w = _pipe(fds)
            self.proc = proc = self._spawn(python or sys.executable, tmpdir, cmd_r, rep_w, log_w)
        except BaseException:
            for fd in fds:
                _close(fd)
            shutil.rmtree(tmpdir, ignore_errors=True)
            raise
        for fd in (cmd_r, rep_w, log_w):
            os.close(fd)
        self._setup(proc.pid, cmd_w, reply_r, log_r, log_cap)
        self._write(wire.encode({**init, "writable": tmpdir}), None)

    @classmethod
    def adopt(cls, pid: int, cmd: int, reply: int, log: int, killer: Callable[[], int | None], *,
              log_cap: int = LOG_CAP) -> BotProcess:
        """A game process a fork server started (not our child): its pipes and pid.

        ``killer()`` kills it (and everything in its PID namespace); its exit
        status is read from /proc while its parent has not reaped it.
        """
        self = cls.__new__(cls)
        self.tmpdir = None
        self.proc = None
        self._killer = killer
        self._setup(pid, cmd, reply, log, log_cap)
        return self

    def _setup(self, pid: int, cmd: int, reply: int, log: int, log_cap: int) -> None:
        self.started = time.monotonic()
        self.in_game = False
        self.served = False  # has had a game
        self.ends = True  # its bot has an end_game of its own (the host says at each game)
        self.deals: set | None = None  # the deals it played (None: unknown, never reuse it)
        self.ready_info: dict | None = None
        self._cmd, self._reply = cmd, reply
        _grow(self._cmd)
        os.set_blocking(self._cmd, False)
        os.set_blocking(self._reply, False)
        self._frames = wire.FrameBuffer(MAX_REPLY)
        self.pid = pid
        self.log = wire.LogDrain(log, LOG_CAP if log_cap is None else log_cap, close=True).start()
        self._poll = select.poll()
        self._poll.register(self._reply, select.POLLIN)
        self._clock = _cpu_clock(self.pid)
        self._mark = 0.0
        self.status: int | None = None
        self.closed = False

    def _spawn(self, python: str, tmpdir: str, cmd_r: int, rep_w: int, log_w: int) -> subprocess.Popen:
        argv = clean_command(python, "arena.sandbox.host", cmd_r, rep_w, os.getpid())
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log_w, stderr=log_w,
                                pass_fds=(cmd_r, rep_w), close_fds=True,
                                start_new_session=True, cwd=tmpdir, env=self._env())

    def _env(self) -> dict[str, str]:
        return scrubbed_env(self.tmpdir)  # type: ignore[arg-type]  # only _spawn asks, with the folder made

    # ---------------------------------------------------------------- talking
    def ready(self, cpu_limit: float | None, wall_limit: float | None) -> Reply:
        """Wait for the answer to ``init``: CPU since birth, wall time since spawn."""
        deadline = None if wall_limit is None else self.started + wall_limit
        return self._receive(self.started, 0.0, cpu_limit, deadline)

    def request(self, message: dict, cpu_limit: float | None,
                wall_limit: float | None) -> Reply:
        """Send one command and wait for its reply under the given limits.

        The usual round trip is one write, one poll and one read of a whole reply frame, done
        here; anything else (a part frame, a full pipe, a wait the CPU limit cuts short, a
        failure) goes the general way, :meth:`_write` and :meth:`_receive`.
        """
        start = _monotonic()
        cpu0 = self._mark
        deadline = None if wall_limit is None else start + wall_limit
        data = self.encode(message)
        try:
            sent = os.write(self._cmd, data)
        except BlockingIOError:
            sent = 0
        except OSError:  # EPIPE: the host is gone
            return self._failed("closed", start, cpu0)
        if sent != len(data):
            problem = self._write(data[sent:], deadline)
            if problem is not None:
                return self._failed(problem, start, cpu0)
        frames = self._frames
        if not frames.buf and self._poll.poll(
                _ms(_earlier(deadline, None if cpu_limit is None else start + cpu_limit))):
            try:  # (the poll waits as _wait's first does)
                chunk = os.read(self._reply, 65536)
            except OSError:  # read again by _receive, which tells the failure
                chunk = b""
            frame = frames.take(chunk) if chunk else None
            if frame is not None:
                return self._reply_of(frame, start, cpu0)
        return self._receive(start, cpu0, cpu_limit, deadline)

    def send(self, message: dict, wall_limit: float | None) -> tuple[float, float, str | None]:
        """Send a command whose reply is awaited later (:meth:`reply_to`): (start, CPU mark, write problem)."""
        start = time.monotonic()
        problem = self._write(self.encode(message), None if wall_limit is None else start + wall_limit)
        return start, self._mark, problem

    def reply_to(self, sent: tuple[float, float, str | None], cpu_limit: float | None,
                 wall_limit: float | None) -> Reply:
        """The reply to what :meth:`send` sent, its limits counted from the sending."""
        start, cpu0, problem = sent
        if problem is not None:
            return self._failed(problem, start, cpu0)
        return self._receive(start, cpu0, cpu_limit, None if wall_limit is None else start + wall_limit)

    def _receive(self, start: float, cpu0: float, cpu_limit: float | None,
                 deadline: float | None) -> Reply:
        return self._reply_of(self._next_frame(start, cpu0, cpu_limit, deadline), start, cpu0)

    def _reply_of(self, frame: tuple, start: float, cpu0: float) -> Reply:
        """The Reply of a frame (or of why none came), timed from ``start``."""
        status, value, detail = frame
        cpu, wall = self._spent(start, cpu0)
        if status is _OK:   # the usual reply, made without the NamedTuple's Python-level __new__
            return _new_reply(Reply, (_OK, value, cpu, wall, ""))
        if status == Status.CRASH:
            return Reply(Status.CRASH, None, cpu, wall, self._death(detail))
        return Reply(status, None, cpu, wall, detail)

    def _next_frame(self, start: float, cpu0: float, cpu_limit: float | None,
                    deadline: float | None) -> tuple[str, object, str]:
        """The next whole frame, or why none came (the deadline covers all of it)."""
        buf = self._frames
        frame = buf.pop()
        while frame is None:
            late = self._wait(start, cpu0, cpu_limit, deadline)
            if late is not None:
                return Status.TIMEOUT, None, f"stopped waiting ({late}): {_got(buf)}"
            try:
                chunk = os.read(self._reply, 65536)
            except BlockingIOError:
                continue
            except OSError as e:
                return Status.CRASH, None, f"reading its reply failed: {e}"
            if not chunk:
                return Status.CRASH, None, f"its reply pipe closed; {_got(buf)}"
            frame = buf.take(chunk)
        return frame

    def _wait(self, start: float, cpu0: float, cpu_limit: float | None,
              deadline: float | None) -> str | None:
        """None once the reply pipe is readable; else why we stopped waiting."""
        check = None if cpu_limit is None else start + cpu_limit
        while True:
            if self._poll.poll(_ms(_earlier(deadline, check))):
                return None
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                return f"wall-clock cap at {now - start:.3f} s"
            used = self.cpu()
            if used is None or cpu_limit is None:
                check = None
                continue
            used -= cpu0
            if used > cpu_limit:
                return f"CPU limit at {used:.3f} s"
            check = now + max(cpu_limit - used, _MIN_STEP)

    def _spent(self, start: float, cpu0: float) -> tuple[float, float]:
        """(cpu, wall) seconds since start; the CPU mark moves to now.

        Without a CPU clock (not Linux) the CPU time is taken to be the wall
        time; a process already gone reports 0.
        """
        now = self.cpu()
        wall = time.monotonic() - start
        if now is None:
            return (wall if self._clock is None else 0.0), wall
        self._mark = now
        return max(0.0, now - cpu0), wall

    def _failed(self, problem: str, start: float, cpu0: float) -> Reply:
        cpu, wall = self._spent(start, cpu0)
        if problem == "closed":
            return Reply(Status.CRASH, None, cpu, wall, self._death("its command pipe is closed"))
        return Reply(Status.TIMEOUT, None, cpu, wall, problem)

    def _write(self, data: bytes, deadline: float | None) -> str | None:
        """Write all of data to the command pipe; None, "closed" or a timeout detail."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._cmd, view):]
            except BlockingIOError:
                if not _writable(self._cmd, deadline):
                    return "the bot stopped reading its commands (pipe full)"
            except OSError:  # EPIPE: the host is gone
                return "closed"
        return None

    # ------------------------------------------------------------ inspecting
    def cpu(self) -> float | None:
        """CPU seconds the process has used so far (all its threads), or None."""
        if self._clock is None:
            return None
        try:
            return time.clock_gettime_ns(self._clock) / 1e9
        except OSError:
            return None

    def alive(self) -> bool:
        """Whether the process lives (running or frozen). One not our child (a fork server's) is gone
        when the far end of its reply pipe is closed: it alone holds it (the harness and the server
        close their copies), and a process's pipes close as it dies, before it is reaped. (A poll,
        where reading its /proc state cost 6 us warm, at every game of a pooled process.)"""
        if self.closed:
            return False
        if self.proc is None:
            return not any(events & _GONE for _, events in self._poll.poll(0))
        return self.proc.poll() is None

    def _death(self, what: str) -> str:
        """Why the reply stream ended: the exit status if the process is gone."""
        if self.proc is None:
            code = processes.exit_status(self.pid, timeout=0.2)
            if code is None:
                return f"{what}; the process is still running (killed)"
            return f"{what}: the bot process {describe_exit(code)}"
        try:
            code = self.proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            return f"{what}; the process is still running (killed)"
        return f"{what}: the bot process {describe_exit(code)}"

    # ---------------------------------------------------------------- ending
    def kill(self, wait: bool = True) -> int | None:
        """Kill the process (group), close the pipes; the exit status.

        ``wait``: also wait (up to 2 s) until its log has been read to the end.
        """
        if self.closed:
            return self.status
        self.closed = True
        if self.proc is None:
            self.status = self._killer()  # type: ignore[misc]  # proc None: adopted, so a killer set
        else:
            self.status = kill_group(self.proc)
        for fd in (self._cmd, self._reply):
            _close(fd)
        if wait:
            self.log.join(2.0)  # returns at end of file, as soon as every writer is gone
        if self.tmpdir is not None:
            processes.remove_tree(self.tmpdir)
        return self.status

    def log_text(self) -> str:
        return self.log.text()


_monotonic, _new_reply, _OK = time.monotonic, tuple.__new__, Status.OK


def read_answer(value, key: str) -> tuple[Status, object, str]:
    """(status, the answer under key, detail) from a reply frame's data."""
    if not isinstance(value, dict):
        return Status.MALFORMED, None, f"the reply is not an object (got {type(value).__name__})"
    if "error" in value:
        return Status.CRASH, None, str(value["error"])[:300]
    if "bad" in value:
        return Status.MALFORMED, None, f"the answer is not plain data: {str(value['bad'])[:200]}"
    if key not in value:
        return Status.MALFORMED, None, f"the reply has no {key!r} (keys: {', '.join(map(str, value))[:200]})"
    return Status.OK, value[key], ""


def clean_command(python: str, module: str, *args) -> list[str]:
    """The command line of a clean interpreter running ``module`` with ``args``: no user site folder,
    no script folder on the path, no bytecode written, faulthandler on. An exec'd bot host, a keeper
    where there is no zygote, and the zygote itself start so: a fork of the zygote is what an exec'd
    keeper would be."""
    return [python, "-s", "-P", "-B", "-X", "faulthandler", "-m", module, *map(str, args)]


def scrubbed_env(home: str) -> dict[str, str]:
    """A bot process's environment, nothing of the harness's in it; ``home`` is its HOME and TMPDIR."""
    return {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "HOME": home, "TMPDIR": home, "PYTHONHASHSEED": "0",
            "PYTHONPATH": _ROOT, "PYTHONUNBUFFERED": "1", **ONE_THREAD}


def _pipe(opened: list[int]) -> tuple[int, int]:
    r, w = os.pipe()  # non-inheritable (close-on-exec) since PEP 446
    opened += [r, w]
    return r, w


def _grow(fd: int) -> None:
    """A larger command pipe, so a whole game's history fits without waiting."""
    try:
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, CMD_PIPE_SIZE)
    except (OSError, AttributeError):
        pass


def _close(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


def _cpu_clock(pid: int) -> int | None:
    """The clock id of pid's process CPU clock (Linux's CPUCLOCK_SCHED), or None."""
    if not sys.platform.startswith("linux"):
        return None
    clock = ((~pid) << 3) | 2
    try:
        time.clock_gettime_ns(clock)
    except OSError:
        return None
    return clock


def _got(buf: wire.FrameBuffer) -> str:
    return f"got {buf.progress()}" if buf.buf else "no reply"


def _earlier(deadline: float | None, check: float | None) -> float:
    """The earlier of two time.monotonic() values, either None (not set); math.inf if both are."""
    if deadline is None:
        return math.inf if check is None else check
    return deadline if check is None or deadline <= check else check


def _ms(until: float) -> int | None:
    """poll() timeout in ms until a time.monotonic() value (None: forever)."""
    if until == math.inf:
        return None
    return max(0, math.ceil((until - time.monotonic()) * 1000))


def _writable(fd: int, deadline: float | None) -> bool:
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return bool(poller.poll(_ms(math.inf if deadline is None else deadline)))
