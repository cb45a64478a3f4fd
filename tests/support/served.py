"""Test helpers for a server started as a process of its own (`arena ladder serve`): a free port, whether
it answers, and stopping it with its whole process group."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
from contextlib import suppress


def free_port() -> int:
    """A port on 127.0.0.1 nothing listens on now (another process may take it before the server binds)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port: int) -> bool:
    """Whether something accepts a connection on 127.0.0.1:``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return True
    except OSError:
        return False


def stop(*procs: subprocess.Popen) -> None:
    """SIGINT each process's group (Ctrl-C, as a user stops the server), SIGKILL what is left after 20 s."""
    for p in procs:
        if p.poll() is not None:
            continue
        try:
            os.killpg(p.pid, signal.SIGINT)
            p.wait(20)
        except (subprocess.TimeoutExpired, ProcessLookupError):
            with suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()
