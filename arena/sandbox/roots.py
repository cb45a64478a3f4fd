"""The folders bots' fork servers take as their root: one a server, named for the process that made it.

A server's root is an empty folder in the temporary folder; a tmpfs is mounted
on it only inside the bot's own mount namespace, and the harness removes the
folder when it stops the server (:meth:`~arena.sandbox.serverproc.ForkServer.kill`).
A harness killed first (``kill -9``, the OOM killer) cannot, and its empty
folders stayed behind for good (a machine running test suites for a few hours
had 137). So a root's name carries the pid of the process that made it
(``arena-root-PID-XXXXXXXX``), and making a root first removes the empty roots
of makers that are gone (:func:`sweep`). A root of a live process, a folder
that is not empty, one of another user's that this one may not remove, and a
name without a pid (made before roots had one) are left alone.
"""

from __future__ import annotations

import os
import tempfile

from arena.sandbox.processes import exists

PREFIX = "arena-root-"


def make_root() -> str:
    """A new empty root for a fork server (mode 755), after sweeping the ones left by dead makers."""
    sweep()
    path = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")
    os.chmod(path, 0o755)
    return path


def sweep(folder: str | None = None) -> list[str]:
    """Remove the empty roots in ``folder`` (the temporary folder) whose maker is gone; the paths removed."""
    folder = folder or tempfile.gettempdir()
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    removed = []
    for name in names:
        maker = name[len(PREFIX):].split("-", 1)[0] if name.startswith(PREFIX) else ""
        if not maker.isdigit() or exists(int(maker)):
            continue
        path = os.path.join(folder, name)
        try:
            os.rmdir(path)  # only an empty folder
        except OSError:
            continue
        removed.append(path)
    return removed
