"""`arena` commands in fresh processes forked from one interpreter that imported the command line once.

A fresh interpreter spends 0.2-0.3 s of CPU importing the arena, typer and rich (and compiling
what it finds no bytecode for) before a command does anything: most of a short command's cost.
tests/test_docs.py runs some eighty commands; a :class:`Zygote` starts one interpreter, imports
every command module of ``arena.cli`` (nothing else: no numpy, no Dask, no thread), and forks it
for each command. The child is what ``python -c RUN_ARENA SITE ARGS`` would be
(:data:`support.install.RUN_ARENA`): its own working folder, environment and site folder
(``.pth`` files read), stdin from /dev/null, stdout and stderr to files, ``main(ARGS)``, then
the interpreter's own exit steps (non-daemon threads joined, ``atexit`` handlers, streams
flushed). What it does not share with a fresh interpreter: the modules already imported (so a
plugin found on the site folder is imported then, as a fresh one would; the arena's own modules
are not read again) and settings read only at start-up (``PYTHON*`` variables other than
``PYTHONPATH``, which the child's site folder stands for, as in RUN_ARENA).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

SERVE = r"""
import json, os, sys
from arena.cli.app import build, main
build()  # every command module imported now, once

def child(request):
    import atexit, site, threading, traceback
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.path.insert(1, request["site"])
    site.addsitedir(request["site"])
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
        os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), fd)
    sys.stdin = open(os.devnull)
    code = 1
    try:
        code = main(request["argv"])
    except SystemExit as exc:
        code = exc.code
    except BaseException:
        traceback.print_exc()
    try:
        threading._shutdown()
        atexit._run_exitfuncs()
    finally:
        if isinstance(code, str):
            print(code, file=sys.stderr)
        code = 0 if code is None else code if isinstance(code, int) else 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code & 0xFF)

replies = os.fdopen(int(sys.argv[1]), "w")
for line in sys.stdin:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        replies.close()
        child(request)
    replies.write(json.dumps({"pid": pid}) + "\n")
    replies.flush()
    _, status = os.waitpid(pid, 0)
    replies.write(json.dumps({"code": os.waitstatus_to_exitcode(status)}) + "\n")
    replies.flush()
"""


class Zygote:
    """One forking server of `arena` commands (:meth:`run`); :meth:`close` ends it."""

    def __init__(self, env: dict[str, str] | None = None) -> None:
        self._replies, replies = os.pipe()
        self.process = subprocess.Popen([sys.executable, "-c", SERVE, str(replies)], stdin=subprocess.PIPE,
                                        stdout=subprocess.DEVNULL, text=True, env=env, pass_fds=(replies,))
        os.close(replies)
        self._read = b""  # replies read and not yet taken
        self._scratch = Path(tempfile.mkdtemp(prefix="arena-zygote-"))

    def run(self, argv: list[str], cwd: Path, env: dict[str, str], site: Path,
            timeout: float) -> subprocess.CompletedProcess:
        """``arena ARGV`` in a child forked for it; its completed process (stdout and stderr as text)."""
        out, err = self._scratch / "stdout", self._scratch / "stderr"
        request = {"argv": argv, "cwd": str(cwd), "env": env, "site": str(site), "stdout": str(out),
                   "stderr": str(err)}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        pid = self._reply(timeout)["pid"]
        try:
            code = self._reply(timeout)["code"]
        except subprocess.TimeoutExpired:
            os.kill(pid, signal.SIGKILL)
            self._reply(timeout)
            raise
        return subprocess.CompletedProcess(["arena", *argv], code, out.read_text(errors="replace"),
                                           err.read_text(errors="replace"))

    def _reply(self, timeout: float) -> dict:
        """The zygote's next reply line (read from the pipe itself: two replies may come in one read)."""
        while b"\n" not in self._read:
            if not select.select([self._replies], [], [], timeout)[0]:
                raise subprocess.TimeoutExpired(["arena"], timeout)
            chunk = os.read(self._replies, 4096)
            if not chunk:
                raise RuntimeError(f"the zygote ended (exit code {self.process.poll()})")
            self._read += chunk
        line, self._read = self._read.split(b"\n", 1)
        return json.loads(line)

    def close(self) -> None:
        self.process.stdin.close()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._replies)
        for path in self._scratch.iterdir():
            path.unlink()
        self._scratch.rmdir()
