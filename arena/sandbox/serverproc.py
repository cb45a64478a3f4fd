"""A bot's fork server seen from the harness: start it, fork a process per game, kill it all.

:class:`ForkServer` starts the bot's keeper, :mod:`arena.sandbox.server` (see that
module), forked from this process's zygote (:mod:`arena.sandbox.zygoteproc`) or exec'd
where there is none, in the bot's own control group, sends it ``init`` over a SOCK_SEQPACKET
socket and waits for it to import the bot. :meth:`ForkServer.start_game` then
hands it three fresh pipes and gets back a :class:`~arena.sandbox.botproc.BotProcess`
for the new game process, timed on that process's own CPU clock. Before the
client sends any game data it checks the new process and the server from
outside (:mod:`arena.sandbox.audit`).

Every failure is data: a string saying what went wrong, never an exception.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Set as AbstractSet

from arena.bots.reply import Reply
from arena.game.status import Status
from arena.sandbox import cgroups, processes, wire, zygoteproc
from arena.sandbox.botproc import LOG_CAP, BotProcess, _cpu_clock, _pipe, clean_command
from arena.sandbox.processes import describe_exit
from arena.sandbox.layers import Limits
from arena.sandbox.limits import detect
from arena.sandbox.roots import make_root

MAX_MESSAGE = 1 << 20
TMP_OPTIONS = "size=64m,nr_inodes=4096,mode=1777"
"""Each game process's private tmpfs (on /tmp, or /var/tmp when the checkout or the
virtual environment is under /tmp): 64 MiB and 4,096 files at most."""


class ForkServer:
    """One bot's server process tree: keeper, server (PID 1 of its namespaces), games."""

    def __init__(self, init: dict, *, python: str | None = None, log_cap: int = LOG_CAP,
                 pids_max: int | None = None, memory_bytes: int | None = None,
                 use_cgroups: bool = True) -> None:
        """Start the keeper (raises OSError if the OS refuses)."""
        self.root = make_root()
        self.group, _ = cgroups.create(pids_max, memory_bytes) if use_cgroups else (None, "")
        self._log_cap = log_cap
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.maps, maps = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        log_r, log_w = os.pipe()
        try:
            self.proc = _keeper(python or sys.executable, theirs.fileno(), maps.fileno(), log_w)
        except BaseException:
            for fd in (log_r, log_w):
                os.close(fd)
            for sock in (ours, theirs, maps, self.maps):
                sock.close()
            self._cleanup()
            raise
        theirs.close()
        maps.close()
        os.close(log_w)
        self.ctl = ours
        self.ctl.setblocking(False)
        try:
            self.log = wire.LogDrain(log_r, log_cap, close=True).start()
        except RuntimeError as e:  # no thread left: give up on this bot, not the harness
            processes.kill_group(self.proc)
            os.close(log_r)
            self.ctl.close()
            self.maps.close()
            self._cleanup()
            raise OSError(f"cannot watch the bot's output: {e}") from None
        self.started = time.monotonic()
        self.pid = self.proc.pid
        self.server_pid: int | None = None
        self.ready_info: dict | None = None
        self.closed = False
        self.games: set[int] = set()  # the game processes started and not ended (live or frozen)
        message = {**init, "root": self.root, "tmp": TMP_OPTIONS,
                   "cgroups": [] if self.group is None else self.group.procs_files()}
        self.ctl.send(json.dumps(message).encode())

    # ------------------------------------------------------------- start-up
    def ready(self, cpu_limit: float | None, wall_limit: float | None) -> Reply:
        """Wait for the server to import the bot: ok, or the timeout or crash that stopped it."""
        deadline = None if wall_limit is None else self.started + wall_limit
        clock = None
        while True:
            message, problem = self._receive(deadline, clock, cpu_limit)
            cpu = _clock_seconds(clock)
            wall = time.monotonic() - self.started
            if problem is not None:
                status = Status.TIMEOUT if problem.startswith("stopped") else Status.CRASH
                return Reply(status, None, cpu, wall, problem)
            if "server" in message and self.server_pid is None:
                self.server_pid = int(message["server"])
                clock = _cpu_clock(self.server_pid)
                continue
            if message.get("ready") is True and self.server_pid is not None:
                self.ready_info = message
                self._freeze()
                return Reply(Status.OK, None, cpu, wall)
            return Reply(Status.CRASH, None, cpu, wall, str(message.get("error") or f"unexpected {message}")[:500])

    def _receive(self, deadline: float | None, clock: int | None,
                 cpu_limit: float | None) -> tuple[dict, str | None]:
        """The next control message, or ({}, why none came)."""
        poller = select.poll()
        poller.register(self.ctl, select.POLLIN)
        while True:
            wait = None if deadline is None else max(0, int((deadline - time.monotonic()) * 1000) + 1)
            if cpu_limit is not None and clock is not None:
                wait = 20 if wait is None else min(wait, 20)
            if poller.poll(wait):
                try:
                    data = self.ctl.recv(MAX_MESSAGE)
                except BlockingIOError:
                    continue
                except OSError as e:
                    return {}, f"its control socket failed: {e}"
                if not data:
                    return {}, self._ended("it ended before it was ready")
                try:
                    message = json.loads(data)
                except ValueError:
                    return {}, "its control socket carried nonsense"
                return (message, None) if isinstance(message, dict) else ({}, "bad message")
            if deadline is not None and time.monotonic() >= deadline:
                return {}, f"stopped waiting (wall-clock cap at {time.monotonic() - self.started:.3f} s)"
            used = _clock_seconds(clock)
            if cpu_limit is not None and used > cpu_limit:
                return {}, f"stopped waiting (CPU limit at {used:.3f} s)"

    def _ended(self, what: str) -> str:
        try:
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return what
        return f"{what}: the bot process {describe_exit(code)}"

    # ---------------------------------------------------------------- games
    def start_game(self, timeout: float = 10.0, keep: AbstractSet[int] = frozenset()) -> BotProcess | str:
        """A fresh game process (its pipes and pid), or why it could not start.

        ``keep``: the client's frozen game processes; every other process under
        the server is killed first.
        """
        if self.closed or self.server_pid is None or self.ready_info is None:
            return "the bot's server is not running"
        self.clear(keep)
        self._thaw()
        try:
            return self._start_game(timeout, keep)
        finally:
            self._freeze()

    def _freeze(self) -> None:
        """Stop the server between game starts: bot code left in it (a timer, a signal
        handler) can neither compute nor signal while games are played."""
        _signal(self.server_pid, signal.SIGSTOP)

    def _thaw(self) -> None:
        _signal(self.server_pid, signal.SIGCONT)

    def _start_game(self, timeout: float, keep: AbstractSet[int]) -> BotProcess | str:
        opened: list[int] = []
        cmd_r, cmd_w = _pipe(opened)
        reply_r, reply_w = _pipe(opened)
        log_r, log_w = _pipe(opened)
        try:
            socket.send_fds(self.ctl, [b'{"op": "game"}'], [cmd_r, reply_w, log_w])
        except OSError as e:
            for fd in opened:
                os.close(fd)
            return f"the bot's server stopped taking games: {e}"
        for fd in (cmd_r, reply_w, log_w):
            os.close(fd)
        message, problem = self._receive(time.monotonic() + timeout, None, None)
        pid = None if problem else self._game_pid(keep)
        if not problem and "forked" in message and pid is not None:
            problem = self._let_go(pid, cmd_w)
        elif not problem:
            problem = str(message.get("error") or "the game process did not start")
        if problem:
            for fd in (cmd_w, reply_r, log_r):
                os.close(fd)
            if pid is not None:
                self.end_game(pid)
            return problem
        game: int = pid  # type: ignore[assignment]  # no problem: the game's pid was found
        try:
            proc = BotProcess.adopt(game, cmd_w, reply_r, log_r, lambda: self.end_game(game),
                                    log_cap=self._log_cap)
            self.games.add(game)
            return proc
        except (OSError, RuntimeError) as e:  # e.g. no thread left for its log drain
            for fd in (cmd_w, reply_r, log_r):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self.end_game(game)
            return f"could not watch the game process: {e}"

    def _let_go(self, pid: int, cmd: int, timeout: float = 5.0) -> str | None:
        """Have the keeper write the game process's id maps, then tell it to go."""
        try:
            self.maps.send(json.dumps({"map": pid}).encode())
            if not select.select([self.maps], [], [], timeout)[0]:
                return "the bot's keeper did not answer"
            answer = json.loads(self.maps.recv(4096) or b"{}")
            if answer.get("ok") is not True:
                return str(answer.get("error") or "the bot's keeper ended")[:300]
            wire.write_frame_bytes(cmd, wire.encode({"op": "go"}))
        except (OSError, ValueError) as e:
            return f"could not start the game process: {e}"
        return None

    def _game_pid(self, keep: AbstractSet[int]) -> int | None:
        server: int = self.server_pid  # type: ignore[assignment]  # start_game checked it runs
        kids = [p for p in processes.thread_children(server) if p not in keep]
        return kids[0] if len(kids) == 1 else None

    def end_game(self, pid: int) -> int | None:
        """Kill a game process (its namespace dies with it); its exit status if it had one.

        Not waited for: :meth:`clear` waits before the next game starts.
        """
        self.games.discard(pid)
        code = processes.exit_status(pid, timeout=0)
        if code is None:
            _kill(pid)
        return code

    def clear(self, keep: AbstractSet[int] = frozenset()) -> None:
        """Kill every process under the server but the frozen game processes in keep
        (the last game's, any the bot left), and wait until they are gone."""
        if self.server_pid is None:
            return
        doomed = [p for p in processes.thread_children(self.server_pid) if p not in keep]
        for pid in doomed:
            _kill(pid)  # each is PID 1 of its namespace: what it started dies with it
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            if all(processes.state(p) in (None, "Z", "X") for p in doomed):
                return
            time.sleep(0.001)

    # -------------------------------------------------------------- ending
    def alive(self) -> bool:
        return not self.closed and self.proc.poll() is None

    def kill(self) -> None:
        """Kill the whole tree (its control group, if any), reap the keeper, clean up."""
        if self.closed:
            return
        self.closed = True
        if self.server_pid is not None:
            for pid in processes.descendants(self.server_pid) + [self.server_pid]:
                _kill(pid)
        processes.kill_group(self.proc)
        self.ctl.close()
        self.maps.close()
        self.log.join(2.0)
        self._cleanup()

    def _cleanup(self) -> None:
        if self.group is not None:
            self.group.remove()
        try:
            os.rmdir(self.root)  # empty here: the bot's root was a tmpfs in its own namespace
        except OSError:
            pass

    def log_text(self) -> str:
        return self.log.text()


def _keeper(python: str, ctl: int, maps: int, log: int) -> zygoteproc.Child | subprocess.Popen:
    """The keeper, forked from the zygote; exec'd as ``python -m arena.sandbox.server`` if there is none."""
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        return zygoteproc.spawn("keeper", (null, log, log), [ctl, maps], python=python)
    except OSError:
        return subprocess.Popen(
            clean_command(python, "arena.sandbox.server", ctl, maps, os.getpid()),
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, pass_fds=(ctl, maps),
            close_fds=True, start_new_session=True, cwd="/", env=zygoteproc.environment())
    finally:
        os.close(null)


def _kill(pid: int) -> None:
    _signal(pid, signal.SIGKILL)


def _signal(pid: int | None, sig: int) -> None:
    if pid is None:
        return
    try:
        os.kill(pid, sig)
    except OSError:
        pass


def _clock_seconds(clock: int | None) -> float:
    if clock is None:
        return 0.0
    try:
        return time.clock_gettime_ns(clock) / 1e9
    except OSError:
        return 0.0


NOBODY = 65534


def bot_uid(limits: Limits) -> int | None:
    """The uid a root harness's fork server runs its bot as: Limits.run_as, or nobody when
    no cgroup caps its tasks (the kernel enforces RLIMIT_NPROC for every uid but 0)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    if limits.run_as is not None:
        return limits.run_as
    caps = detect()
    cgroups = caps.available("cgroups") and "cgroups" not in limits.disable
    return None if cgroups else NOBODY


def use_server(limits: Limits) -> bool:
    """Whether bots get a fork server here (namespaces work and it is not disabled)."""
    return "forkserver" not in limits.disable and detect().available("forkserver")


def merged_confinement(server: dict | None, game: dict | None) -> dict | None:
    """One confinement report: the server's layers, then the game process's."""
    if server is None:
        return game
    steps = [dict(s, name=f"server:{s['name']}") for s in server.get("steps", ())]
    steps += [dict(s, name=f"game:{s['name']}") for s in (game or {}).get("steps", ())]
    return {"steps": steps}
