"""The zygote: ``python -m arena.sandbox.zygote CTL PARENT``, a clean interpreter that forks bots' keepers.

A bot's fork server starts with its keeper (:mod:`arena.sandbox.server`), an
interpreter that imports the arena before it clones the bot's server: about
0.1 s of CPU a bot, paid again for every bot a harness starts. The zygote pays
it once per harness process: it is exec'd like a keeper (the same scrubbed
environment, flags and folder), imports the keeper's code, and then only
forks. Each fork becomes a keeper (or a plugin's discovery process,
:mod:`arena.plugins.host`) exactly as an exec'd one would be:

- its own session (process group), in ``/``, its stdin, stdout and stderr on
  the descriptors the harness passed for them (SCM_RIGHTS), and the
  environment the harness asked for (the zygote's own, a keeper's, by default);
- every descriptor closed but those three and the others the harness passed:
  the zygote's own socket is closed first, so no keeper, server, bot or
  plugin can ask the zygote for anything; the pids of the processes forked
  before it are dropped from its copy of the zygote's memory;
- it dies with the zygote (``PR_SET_PDEATHSIG`` in the entry point's ``main``,
  whose parent check names the zygote).

The zygote never sees a bot's ``init`` (the harness sends it to the keeper),
a game or a seed: its memory holds the interpreter, the imported arena and
pyseccomp (loaded once, :func:`_preload`), and its requests, whose only data
are the pids it forked and how they ended
(a fork drops its copy of the live ones; memory freed earlier may still
hold some: processes outside the bot's PID namespace, nothing about a game). It runs only its
registered entry points (:data:`ENTRIES`), never a module named in a request.

The protocol, one JSON message a datagram on a SOCK_SEQPACKET socket, each
answered at once:

- ``{"spawn": "keeper", "env": {...} or absent}`` with descriptors attached
  (stdin, stdout, stderr, then the entry point's own) → ``{"pid": N}`` or
  ``{"error": why}``; the entry point is called with its descriptors' numbers
  and the zygote's pid, as an exec'd one gets them on its command line;
- ``{"wait": N}`` → ``{"running": true}`` or ``{"exit": code}`` (as
  ``Popen.returncode``; the child is reaped then, never before, so its pid
  cannot be reused while the harness may still signal it) or ``{"error": why}``.

When the harness's end closes (it ended, or died by ``kill -9``), the zygote
kills the process groups of the children it has not reaped, reaps them and
ends. The harness side is :mod:`arena.sandbox.zygoteproc`.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import socket
import sys
import traceback

from arena.plugins import host
from arena.sandbox import seccomp, server

MAX_MESSAGE = 1 << 16
MAX_FDS = 8
ENTRIES = {"keeper": (server.main, 2), "plugin-host": (host.main, 0)}
"""What a spawn may run: the entry point, and how many descriptors it takes besides stdin, stdout
and stderr."""


def main(argv: list[str] | None = None) -> int:
    """Answer the harness's requests until it hangs up; then kill what is left of the children."""
    ctl_fd, parent = (int(a) for a in (sys.argv[1:] if argv is None else argv))
    if os.getppid() != parent:
        return 0
    ctl = socket.socket(fileno=ctl_fd)
    children: set[int] = set()
    _preload()
    gc.collect()
    gc.freeze()  # forks copy fewer pages (no collector writes to the imported modules' objects)
    try:
        for data, fds in server.requests(ctl, MAX_MESSAGE, MAX_FDS):
            try:
                answer = _handle(ctl, json.loads(data), fds, children)
            except (ValueError, TypeError, KeyError) as e:
                answer = {"error": f"bad request: {type(e).__name__}: {e}"}
            except OSError as e:  # no fork (a process limit): this request fails, the zygote serves on
                answer = {"error": f"{type(e).__name__}: {e}"}
            finally:
                for fd in fds:  # the fork has its copies
                    with contextlib.suppress(OSError):
                        os.close(fd)
            ctl.send(json.dumps(answer).encode())
        return 0
    finally:
        _kill_all(children)


def _preload() -> None:
    """Load pyseccomp once, here: every keeper's server and discovery process loads it before its
    layers, and its import runs ``ldconfig -p`` (about 5 ms of CPU in a process that imported the
    arena); a fork has it loaded. A machine without it gets the layer's own report."""
    with contextlib.suppress(ImportError, RuntimeError):
        seccomp.binding()


def _handle(ctl: socket.socket, request: dict, fds: list[int], children: set[int]) -> dict:
    if "spawn" in request:
        entry, count = ENTRIES[request["spawn"]]
        env = request.get("env")
        if len(fds) != count + 3:
            return {"error": f"expected {count + 3} descriptors (stdin, stdout, stderr and "
                             f"{count} more), got {len(fds)}"}
        if env is not None and not (isinstance(env, dict) and all(
                isinstance(k, str) and isinstance(v, str) for k, v in env.items())):
            return {"error": f"expected an environment of strings, got {str(env)[:80]}"}
        pid = os.fork()
        if pid == 0:
            children.clear()  # the fork's copy: its siblings' pids are none of its business
            _become(ctl, entry, fds, env)  # never returns
        children.add(pid)
        return {"pid": pid}
    pid = int(request["wait"])
    if pid not in children:
        return {"error": f"process {pid} is not a child of this zygote"}
    done, status = os.waitpid(pid, os.WNOHANG)
    if not done:
        return {"running": True}
    children.discard(pid)
    return {"exit": os.waitstatus_to_exitcode(status)}


def _become(ctl: socket.socket, entry, fds: list[int], env: dict[str, str] | None) -> None:
    """In the fork: turn into a freshly started process running ``entry``, then exit."""
    code = 1
    try:
        ctl.close()
        os.setsid()
        os.chdir("/")
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        stdio, passed = fds[:3], fds[3:]
        for number, fd in enumerate(stdio):  # the zygote's own 0-2 are taken: fd > 2
            os.dup2(fd, number)
        keep = sorted({0, 1, 2, *passed})
        for low, high in zip(keep, keep[1:] + [1 << 16]):
            os.closerange(low + 1, high)
        args = [*(str(fd) for fd in passed), str(os.getppid())]
        sys.argv[:] = [sys.modules[entry.__module__].__file__, *args]  # type: ignore[list-item]  # entries are files
        code = entry(args)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:  # noqa: BLE001 - as an interpreter would: print it and fail
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code if isinstance(code, int) else 1)


def _kill_all(children: set[int]) -> None:
    for pid in children:
        for kill in (os.killpg, os.kill):
            try:
                kill(pid, signal.SIGKILL)
            except OSError:
                pass
    for pid in children:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass


if __name__ == "__main__":
    sys.exit(main())
