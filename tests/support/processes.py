"""Waiting for processes in tests: an event awaited by polling /proc with a deadline, never a
fixed sleep."""

from __future__ import annotations

import os
import time
from pathlib import Path
from collections.abc import Callable, Iterable

from arena.sandbox.processes import children, state

PATIENCE = 30.0
"""Seconds a test waits for something that should happen at once: long enough for a loaded
machine, and only ever spent when the test is failing."""


def alive(pid: int) -> bool:
    """Running: neither gone nor a zombie waiting for its (new) parent to reap it."""
    return state(pid) not in (None, "Z", "X")


def wait_for(condition: Callable[[], object], timeout: float = PATIENCE,
             interval: float = 0.01) -> bool:
    """Poll ``condition()`` until it is true or ``timeout`` seconds have passed; whether it came true."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return bool(condition())
        time.sleep(interval)
    return True


def all_gone(pids: Iterable[int], timeout: float = PATIENCE) -> bool:
    """Whether every pid has ended (or is a zombie) within ``timeout`` seconds."""
    pids = list(pids)
    return wait_for(lambda: not any(alive(p) for p in pids), timeout)


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) pid has used so far, from /proc/<pid>/stat; 0.0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pool_workers(parent: int | None = None) -> list[int]:
    """The worker processes of ``parent``'s pools (default: this process) now: the children of its
    multiprocess forkserver (or, spawned, its own ``spawn_main`` children)."""
    mine = children(parent)
    servers = [pid for pid in mine if b"multiprocess.forkserver import main" in cmdline(pid)]  # not Dask's
    return sorted([pid for server in servers for pid in children(server)]
                  + [pid for pid in mine if b"spawn_main" in cmdline(pid)])


def cmdline(pid: int) -> bytes:
    """pid's command line from /proc (its words joined by NULs), or b"" once it is gone."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""
