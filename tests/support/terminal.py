"""A command run on a pseudo-terminal of a given size, as a person at a terminal would see it."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def on_terminal(argv: list[str], columns: int = 80, env: dict | None = None, cwd=None,
                timeout: float = 300) -> tuple[int, list[str]]:
    """Run ``arena ARGV`` with stdout and stderr on a ``columns``-wide pseudo-terminal (``$COLUMNS``
    unset, so the terminal's own size counts); its exit code and the lines shown, escapes removed."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {k: v for k, v in (env or os.environ).items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.Popen([sys.executable, "-m", "arena.cli.app", *argv], stdin=subprocess.DEVNULL,
                            stdout=slave, stderr=slave, env=env, cwd=cwd)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed its end
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    code = proc.wait(timeout=timeout)
    text = _ESCAPE.sub("", b"".join(chunks).decode("utf-8", "replace"))
    lines = [line.rsplit("\r", 1)[-1] for line in text.replace("\r\n", "\n").split("\n")]
    return code, [line.rstrip() for line in lines]
