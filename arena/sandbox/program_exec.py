"""A program bot's game process becoming the program (docs/protocol.md), after its confinement.

The game process is cloned, confined and checked from outside exactly as a
Python bot's (:mod:`arena.sandbox.server`); it then waits for the harness's
``exec`` frame, read to its last byte and no further (the program's ``hello``
follows it in the same pipe), and execs the program: stdin the commands pipe,
stdout the replies pipe, stderr the log, nothing else open, its working folder
the read-only copy of its folder, a scrubbed environment. The process keeps
its pid (and so its CPU clock, which the harness times it by), namespaces,
rlimits, control group, Landlock domain and seccomp filters.
"""

from __future__ import annotations

import os

from arena.sandbox.paths import SYSTEM
from arena.sandbox.wire import HEADER, decode

ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "ARENA_PROTOCOL": "1",
       "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""A program's environment but HOME and TMPDIR (its private tmpfs)."""
CANNOT_RUN = 127
"""A game process's exit status when its program could not be exec'd (as a shell says)."""


def executable_paths(program: dict) -> list[str]:
    """Where a program's game process may run files from: its folder copy and the system's folders."""
    return [program["dir"], *SYSTEM]


def become(cmd: int, reply: int, program: dict, home: str) -> int:
    """Wait for ``exec`` on ``cmd``, then exec ``program`` (``argv``, ``dir``); returns only on failure."""
    frame = _frame(cmd)
    if frame != {"op": "exec"}:
        return 2  # the harness never sends anything else here
    os.dup2(cmd, 0)
    os.dup2(reply, 1)
    os.closerange(3, 1 << 16)
    argv, folder = list(program["argv"]), program["dir"]
    env = {**ENV, "HOME": home, "TMPDIR": home}
    try:
        os.chdir(folder)
        if "/" in argv[0]:
            os.execve(os.path.join(folder, argv[0]), argv, env)
        os.execvpe(argv[0], argv, env)
    except OSError as e:
        os.write(2, f"arena: cannot run the program {argv[0]!r}: {e.strerror or e}\n".encode())
    return CANNOT_RUN


def _frame(fd: int):
    """One command frame, read exactly (nothing after it)."""
    (size,) = HEADER.unpack(_exact(fd, HEADER.size))
    return decode(_exact(fd, size))


def _exact(fd: int, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = os.read(fd, n - len(data))
        if not chunk:
            os._exit(0)
        data += chunk
    return data
