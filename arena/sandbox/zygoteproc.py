"""The zygote seen from the harness: bots' keepers and plugins' discovery processes forked from one
clean interpreter.

:func:`spawn` starts a bot's keeper (:mod:`arena.sandbox.server`) or a plugin's
discovery process (:mod:`arena.plugins.host`) as a fork of this process's
zygote (:mod:`arena.sandbox.zygote`): about a millisecond instead of the tenth
of a second an interpreter takes to start and import the arena. The zygote is
started at the first such process this process asks for, one per process and
Python executable (a process forked from the harness drops its parent's and
starts its own), with the scrubbed environment of :func:`environment`, and it
ends when that process does: its end of the socket closes then, whatever the
cause (``kill -9`` too), and the zygote kills the processes it started.

The process comes back as a :class:`Child`, which a caller uses as it would
the ``Popen`` of an exec'd one (``pid``, ``poll``, ``wait``, ``returncode``;
:func:`arena.sandbox.processes.kill_group` takes it). It is not this
process's child: the zygote reaps it when asked, and only then, so its pid
stays reserved while the harness may still signal its group.

A zygote that cannot start, or has died, is reported as an ``OSError``; the
caller then execs the process itself (:class:`~arena.sandbox.serverproc.ForkServer`
and :mod:`arena.plugins.discovery` do). A dead zygote is replaced at the next request.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import IO
from collections.abc import Sequence

from arena.sandbox import processes
from arena.sandbox.botproc import clean_command, scrubbed_env

ANSWER_TIMEOUT = 30.0
"""Seconds to wait for the zygote's answer (it answers at once once started; longer means it is stopped
or stuck). It is closed then, which kills any process it forked for that request, before the caller
execs its keeper instead."""

_ZYGOTES: dict[tuple, Zygote] = {}
"""This process's zygotes, by (pid, python): module state by design (docs/design.md, "Module state"), one
per interpreter for the life of the harness; :func:`running` reads it."""
_LOCK = threading.Lock()


class Zygote:
    """One running zygote: its process and this side of its socket (thread-safe)."""

    def __init__(self, python: str, env: dict[str, str]) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = subprocess.Popen(
                clean_command(python, "arena.sandbox.zygote", theirs.fileno(), os.getpid()),
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),), close_fds=True, start_new_session=True, cwd="/", env=env)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.settimeout(ANSWER_TIMEOUT)
        self.sock = ours
        self.lock = threading.Lock()
        self.broken = ""

    def spawn(self, entry: str, fds: list[int], env: dict[str, str] | None = None) -> Child:
        """Fork ``entry`` (see ``zygote.ENTRIES``) with ``fds`` (stdin, stdout, stderr, its own)."""
        request = {"spawn": entry} if env is None else {"spawn": entry, "env": env}
        answer = self._ask(request, fds)
        if "pid" not in answer:
            raise OSError(f"the zygote did not start the process: {answer.get('error', answer)}")
        return Child(self, int(answer["pid"]))

    def status(self, pid: int) -> int | None:
        """``pid``'s exit code once it has ended (it is reaped then), None while it runs."""
        answer = self._ask({"wait": pid})
        if answer.get("running"):
            return None
        if "exit" in answer:
            return int(answer["exit"])
        raise OSError(f"the zygote could not wait for process {pid}: {answer.get('error', answer)}")

    def _ask(self, request: dict, fds: Sequence[int] = ()) -> dict:
        with self.lock:
            if self.broken:
                raise OSError(self.broken)
            try:
                socket.send_fds(self.sock, [json.dumps(request).encode()], list(fds))
                data = self.sock.recv(4096)
                if not data:
                    raise OSError("the zygote ended")
                answer = json.loads(data)
                if not isinstance(answer, dict):
                    raise ValueError(f"expected a JSON object, got {data[:80]!r}")
                return answer
            except (OSError, ValueError) as e:
                self.broken = f"the zygote is unusable: {e}"
                self.close()
                raise OSError(self.broken) from None

    def close(self) -> None:
        """Hang up: the zygote kills the keepers it started and ends."""
        self.broken = self.broken or "the zygote was closed"
        self.sock.close()
        try:
            self.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            processes.kill_group(self.proc)


class Child:
    """A process the zygote forked, used like a ``Popen``."""

    def __init__(self, zygote: Zygote, pid: int) -> None:
        self.zygote, self.pid = zygote, pid
        self.args = ["zygote", pid]
        self.returncode: int | None = None
        # as Popen's: the caller's ends of its pipes (set by whoever made them)
        self.stdin: IO[bytes] | None = None
        self.stdout: IO[bytes] | None = None
        self.stderr: IO[bytes] | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                self.returncode = self.zygote.status(self.pid)
            except OSError:  # the zygote died, and the child with it (PR_SET_PDEATHSIG)
                self.returncode = _orphan_status(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() >= deadline:
                # as Popen's: args holds the pid (an int); timeout is set where deadline is
                raise subprocess.TimeoutExpired(self.args, timeout)  # type: ignore[arg-type]
            time.sleep(0.002)
        return code


def _orphan_status(pid: int) -> int | None:
    """How a child of a dead zygote ended: reaped here if it came to this process (a subreaper)."""
    try:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
    except ChildProcessError:
        pass
    if processes.state(pid) in (None, "Z", "X"):
        return -signal.SIGKILL
    return None


def environment() -> dict[str, str]:
    """The zygote's environment, and so a keeper's: nothing of the harness's."""
    return scrubbed_env("/tmp")


def spawn(entry: str, stdio: tuple[int, int, int], fds: Sequence[int] = (), *,
          env: dict[str, str] | None = None, python: str | None = None) -> Child:
    """``entry`` (``"keeper"``, ``"plugin-host"``) forked from this process's zygote for ``python``.

    ``stdio``: its stdin, stdout and stderr; ``fds``: the descriptors its entry point takes; ``env``:
    its environment (None: :func:`environment`). The caller closes its copies afterwards. OSError
    if there is no working zygote.
    """
    python = python or sys.executable
    key = (os.getpid(), python)  # the pid: a fork's copies are dropped (_forget_inherited), but be sure
    with _LOCK:
        zygote = _ZYGOTES.get(key)
        if zygote is None or zygote.broken:
            zygote = _ZYGOTES[key] = Zygote(python, environment())
    return zygote.spawn(entry, [*stdio, *fds], env)


def running() -> list[Zygote]:
    """The zygotes this process started and may use (none in a fork of it: the fork drops its parent's)."""
    with _LOCK:
        return list(_ZYGOTES.values())


def _forget_inherited() -> None:
    """In a process forked from one that had zygotes: drop them (they are the parent's to use) and
    close their sockets here, so that a zygote still sees its harness end when the parent ends."""
    global _LOCK
    _LOCK = threading.Lock()  # another thread may have held it at the fork
    for zygote in _ZYGOTES.values():
        zygote.sock.close()
    _ZYGOTES.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_inherited)
