"""Killing a bot's process group and reaping what it leaves behind.

Bots are started as the leaders of their own process group (``Popen(...,
start_new_session=True)``), so the group id is the bot's pid. With the harness
a child subreaper (:func:`arena.sandbox.limits.harden_harness`), descendants
whose parent died are re-parented to the harness, where these helpers find,
kill and reap them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Collection
from typing import Protocol


class Leader(Protocol):
    """What kill_group takes besides a pid: a ``Popen``, or a zygote's child used as one."""

    pid: int

    def wait(self, timeout: float | None = ...) -> int: ...


def kill_group(target: int | Leader, *, timeout: float = 2.0) -> int | None:
    """SIGKILL the group led by target and reap it; the leader's exit status.

    ``target``: the pid of a child of ours, its ``Popen``, or an object used as
    one (a keeper forked by the zygote, :class:`arena.sandbox.zygoteproc.Child`).
    The status is as ``Popen.returncode`` (``-9`` when our kill did it), or
    None when the leader is not our child or did not die within timeout.
    Group members re-parented to us are reaped as well.
    """
    pid = target if isinstance(target, int) else target.pid
    deadline = time.monotonic() + timeout
    _signal_group(pid, signal.SIGKILL)
    status = _wait_leader(target, deadline)
    _reap_group(pid, deadline)
    return status


def reap_orphans(keep: Collection[int] = ()) -> tuple[int, ...]:
    """SIGKILL and reap every child of ours not in keep; their pids.

    Pass in keep every child the harness started on purpose and still wants
    (live bots, pool workers): everything else is a leftover.
    """
    reaped = []
    for pid in children():
        if pid in keep:
            continue
        _kill(pid)
        if _reap(pid, time.monotonic() + 1.0):
            reaped.append(pid)
    return tuple(reaped)


def exists(pid: int) -> bool:
    """Whether process ``pid`` exists (another user's too; a zombie too), by ``kill(pid, 0)``: no /proc needed."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it exists
        return True
    return True


def children(parent: int | None = None) -> list[int]:
    """The pids whose parent is parent (default: this process), zombies too."""
    parent = os.getpid() if parent is None else parent
    found = []
    for name in _proc_pids():
        stat = _stat(name)
        if stat is not None and stat[1] == parent:
            found.append(name)
    return found


def group_members(pgid: int) -> list[tuple[int, str, int]]:
    """(pid, state, ppid) of every process in group pgid, zombies included."""
    found = []
    for pid in _proc_pids():
        stat = _stat(pid)
        if stat is not None and stat[2] == pgid:
            found.append((pid, stat[0], stat[1]))
    return found


def _proc_pids() -> list[int]:
    try:
        return [int(n) for n in os.listdir("/proc") if n.isdigit()]
    except OSError:
        return []


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, ppid, pgrp) of pid from /proc, or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0].decode(), int(fields[1]), int(fields[2])


def _signal_group(pgid: int, sig: int) -> bool:
    try:
        os.killpg(pgid, sig)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _wait_leader(target: int | Leader, deadline: float) -> int | None:
    if not isinstance(target, int):  # a Popen, or a zygote's child used as one
        try:
            return target.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            return None
    return _reap(target, deadline)


def _reap(pid: int, deadline: float) -> int | None:
    """waitpid(pid) until deadline; its status as Popen.returncode, or None."""
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return None
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.002)


def _reap_group(pgid: int, deadline: float) -> None:
    """Kill and reap what is left of pgid until no member lives or deadline.

    Zombies that are not our children are their parents' (or init's) to reap.
    """
    me = os.getpid()
    while True:
        members = group_members(pgid)
        for pid, _state, ppid in members:
            if ppid == me:
                _kill(pid)
                _reap(pid, time.monotonic())
        if all(state == "Z" and ppid != me for _, state, ppid in members):
            return
        if time.monotonic() >= deadline:
            return
        time.sleep(0.002)


def state(pid: int) -> str | None:
    """pid's state letter (R, S, Z, ...) from /proc, or None if it is gone."""
    stat = _stat(pid)
    return None if stat is None else stat[0]


def exit_status(pid: int, *, timeout: float = 0.2) -> int | None:
    """The exit status of pid, not our child, while it is a zombie (as Popen.returncode).

    Read from /proc/<pid>/stat's exit_code field (Linux 3.5+); None if pid does
    not turn into a zombie within timeout, or is already reaped.
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            return None
        if fields[0] in (b"Z", b"X") and len(fields) >= 50:
            return os.waitstatus_to_exitcode(int(fields[49]))
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.002)


def thread_children(pid: int) -> list[int]:
    """The children of every thread of pid (from /proc/<pid>/task/*/children)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                found.extend(int(x) for x in f.read().split())
        except (OSError, ValueError):
            continue
    return found


def descendants(pid: int) -> list[int]:
    """Every process below pid, breadth first (without pid)."""
    found: list[int] = []
    todo = [pid]
    while todo and len(found) < 100_000:
        kids = thread_children(todo.pop(0))
        found.extend(kids)
        todo.extend(kids)
    return found


def remove_tree(path: str) -> None:
    """Remove a folder a bot may have filled: never follows links, never recurses, never raises.

    Depth-first with an explicit stack of open folder fds, so a 100,000-deep
    tree costs memory, not the interpreter's stack.
    """
    try:
        top = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        _unlink(None, path)
        return
    stack: list[tuple[int, tuple[int, str] | None, set[str]]]
    stack = [(top, None, set())]  # (folder fd, (parent fd, name) to rmdir after, names left)
    while stack:
        fd, where, stuck = stack[-1]
        child = _next_entry(fd, stuck)
        if child is None:
            stack.pop()
            os.close(fd)
            if where is not None:
                _rmdir(*where)
            continue
        try:
            sub = os.open(child, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
        except OSError:
            if not _unlink(fd, child):
                stuck.add(child)
            continue
        if len(stack) > 10_000:  # deeper than any fd budget: leave this branch
            os.close(sub)
            stuck.add(child)
            continue
        stack.append((sub, (fd, child), set()))
    _rmdir(None, path)


def _next_entry(fd: int, skip: set[str]) -> str | None:
    """A name in the folder that is not in skip, or None."""
    try:
        with os.scandir(fd) as entries:
            for entry in entries:
                if entry.name not in skip:
                    return entry.name
    except OSError:
        pass
    return None


def _unlink(fd: int | None, name: str) -> bool:
    try:
        os.unlink(name, dir_fd=fd)
        return True
    except OSError:
        return False


def _rmdir(fd: int | None, name: str) -> None:
    try:
        os.rmdir(name, dir_fd=fd)
    except OSError:
        pass


def describe_exit(code: int | None) -> str:
    """A Popen return code in words ("exited with status 3", "was killed by SIGSEGV")."""
    if code is None:
        return "did not exit"
    if code >= 0:
        return f"exited with status {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    return f"was killed by {name}" + _SIGNAL_HINTS.get(name, "")


_SIGNAL_HINTS = {
    "SIGSEGV": " (segmentation fault)",
    "SIGKILL": " (the harness, the CPU backstop or the kernel's OOM killer)",
    "SIGXCPU": " (its CPU-time backstop, RLIMIT_CPU)",
    "SIGSYS": " (a system call the seccomp filter kills)",
    "SIGABRT": " (aborted)",
}
