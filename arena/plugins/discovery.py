"""Third-party plugin discovery, harness side: nothing of a plugin is imported here.

:func:`candidates` reads the ``arena.plugins`` entry points from the installed
distributions' metadata, finds each one's top-level module with
``importlib.util.find_spec`` (which locates a module without running it) and
hashes the distribution's files. :func:`discover` then asks one confined child
process per plugin (:mod:`arena.plugins.host`, forked from this process's zygote,
:mod:`arena.sandbox.zygoteproc`, or exec'd as ``python -s -P -B -m arena.plugins.host``)
what the plugin offers; the children run in
parallel (:data:`MAX_PARALLEL` at a time). Each child gets an empty temporary folder of its own
(``arena-plugin-PID-XXXXXXXX`` in this process's temporary folder, its ``HOME``): it mounts a
private tmpfs there (:data:`TMP_OPTIONS`, in a mount namespace of its own) where the machine
allows, else writes in the folder itself; the folder is removed when the child has ended. Each
answer is plain data (JSON, at most :data:`MAX_REPORT` bytes,
within ``timeout`` seconds), or an ``{"error": ...}`` saying what went wrong:
a plugin that hangs, crashes, prints garbage or answers too much costs only
itself. Answers are cached for the life of this process, keyed by everything
that could change them (the plugin's code hash included).
"""

from __future__ import annotations

import hashlib
import importlib.metadata as metadata
import importlib.util
import json
import os
import selectors
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from arena.bots.code_hash import normalised
from arena.sandbox import processes, zygoteproc
from arena.sandbox.limits import Limits, detect
from arena.sandbox.paths import DEVICES, SYSTEM
from arena.sandbox.serverproc import TMP_OPTIONS

DISCOVERY_TIMEOUT = 15.0
"""Wall-clock seconds one plugin's discovery may take (imports of heavy libraries included)."""
LIMITS = Limits(memory_mb=1024, cpu_seconds=10, open_files=64, file_size_mb=1, processes=16)
"""The OS limits of a discovery process (it may write in its temporary folder only; its tmpfs is
capped as a game process's, :data:`TMP_OPTIONS`)."""
TMP_PREFIX = "arena-plugin-"
MAX_REPORT = 1 << 20
MAX_LOG = 16 << 10
MAX_PARALLEL = 8
"""Discovery processes at a time."""
_ARENA = Path(__file__).resolve().parent.parent
_ROOT = str(_ARENA.parent)
_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
        "PYTHONHASHSEED": "0", "PYTHONPATH": _ROOT, "PYTHONUNBUFFERED": "1"}
"""A discovery process's environment, and ``HOME``: its temporary folder."""
_CACHE: dict[tuple, dict] = {}
"""Reports already obtained in this process, by :meth:`Candidate.key`."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One third-party entry point, as its distribution's metadata and files show it."""

    name: str
    """The entry point's name: the plugin's name."""
    value: str
    """What it points at: ``module`` or ``module:attr``."""
    version: str
    """The distribution's version ("" when it has none)."""
    path: str
    """The folder the entry point's top-level module is imported from ("" if not found)."""
    paths: tuple[str, ...]
    """Folders a process loading the plugin puts on sys.path: ``path`` and the distribution's."""
    code_hash: str
    file: str = ""
    """A bot in one file (:mod:`arena.plugins.file_bots`): the file, its module ``value`` imported from
    ``path`` after Python's own paths, with no hooks; only ``readable`` of that folder is readable."""
    readable: tuple[str, ...] = ()

    def key(self, timeout: float) -> tuple:
        return (self.name, self.value, self.paths, self.code_hash, timeout)


def candidates(group: str, reserved: str) -> tuple[list[Candidate], list[tuple[str, str]]]:
    """Every entry point of ``group`` but ``reserved`` (first of each name), and (name, problem) pairs."""
    found, problems, seen = [], [], {reserved}
    for ep in sorted(metadata.entry_points(group=group), key=lambda e: e.name):
        if ep.name in seen:
            continue
        seen.add(ep.name)
        if not ep.name.isprintable() or len(ep.name) > 100 or not ep.name.strip():
            problems.append((ep.name, "its entry point name is not allowed (printable text, at most 100)"))
            continue
        found.append(_candidate(ep))
    return found, problems


def _candidate(ep: metadata.EntryPoint) -> Candidate:
    top = ep.value.split(":", 1)[0].strip().split(".", 1)[0]
    root, files = _locate(top)
    dist = getattr(ep, "dist", None)
    home = _dist_home(dist)
    paths = tuple(dict.fromkeys(p for p in (root, home) if p))
    return Candidate(ep.name, ep.value.strip(), _dist_version(dist), root or "", paths,
                     code_hash(dist, root, files))


def _locate(top: str) -> tuple[str | None, list[Path]]:
    """(import folder, .py files) of the top-level module ``top``, found without running it."""
    try:
        spec = importlib.util.find_spec(top) if top.isidentifier() else None
    except Exception:  # noqa: BLE001 - a finder that fails: the plugin's process reports the import error
        return None, []
    if spec is None:
        return None, []
    if spec.submodule_search_locations:
        package = Path(next(iter(spec.submodule_search_locations)))
        return str(package.parent), sorted(package.rglob("*.py"))
    if spec.has_location and spec.origin:
        origin = Path(spec.origin)
        return str(origin.parent), [origin]
    return None, []


def _dist_home(dist) -> str | None:
    try:
        return str(dist.locate_file("")) if dist is not None else None
    except Exception:  # noqa: BLE001 - a plugin's distribution metadata: anything may be wrong
        return None


def _dist_version(dist) -> str:
    try:
        version = dist.version if dist is not None else None
    except Exception:  # noqa: BLE001 - a plugin's distribution metadata: anything may be wrong
        return ""
    return version if isinstance(version, str) else ""


def code_hash(dist, root: str | None, files: list[Path]) -> str:
    """SHA-256 (16 hex digits) of a plugin's code, read from disk, never imported.

    The files: every ``.py`` file the distribution's RECORD lists (but
    setuptools' editable-install shims, which name folders of this machine) and
    every ``.py`` file of the entry point's top-level package (an editable
    install's RECORD does not list its sources). Each is hashed with its path
    relative to its folder, so the same install elsewhere hashes the same, and
    normalised (:func:`arena.bots.code_hash.normalised`): comments and
    docstrings do not count.
    """
    named: dict[str, Path] = {}
    try:
        listed = (dist.files or ()) if dist is not None else ()
        for f in listed:
            if f.suffix == ".py" and not f.name.startswith("__editable__"):
                named[f.as_posix()] = Path(dist.locate_file(f))
    except Exception:  # noqa: BLE001 - a plugin's distribution metadata: anything may be wrong
        pass
    if root is not None:  # else no folder, no files of a top-level package
        for f in files:
            named[f.relative_to(root).as_posix()] = f
    digest = hashlib.sha256()
    for name in sorted(named):
        data = _regular_file_bytes(named[name])
        if data is not None:
            digest.update(name.encode())
            digest.update(normalised(data))
    return digest.hexdigest()[:16] if named else "unknown"


def _regular_file_bytes(path: Path) -> bytes | None:
    """The file's bytes if it is a regular file (never a FIFO or device that would block)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        return path.read_bytes()
    except OSError:
        return None


# ------------------------------------------------------- asking the children
def discover(found: list[Candidate], timeout: float = DISCOVERY_TIMEOUT,
             limits: Limits = LIMITS) -> dict[str, dict]:
    """Each candidate's report (see :mod:`arena.plugins.host`) or ``{"error": why}``, by name.

    ``limits``: the discovery processes' OS limits (with ``namespaces`` disabled, a child writes
    in its folder on disk, as where the machine has no namespaces).
    """
    todo = [c for c in found if (*c.key(timeout), limits) not in _CACHE]
    for first in range(0, len(todo), MAX_PARALLEL):
        chunk = todo[first:first + MAX_PARALLEL]
        for c, report in zip(chunk, _run(chunk, timeout, limits)):
            _CACHE[(*c.key(timeout), limits)] = report
    return {c.name: _CACHE[(*c.key(timeout), limits)] for c in found}


def _run(todo: list[Candidate], timeout: float, limits: Limits) -> list[dict]:
    """Start one child per candidate, then (while they start) probe the machine and send each
    its request; collect every answer, each child given ``timeout`` from its request."""
    children = [_Child.start(c) for c in todo]
    try:
        caps = detect().to_dict()
        readable = _readable()
        tmpfs = None if "namespaces" in limits.disable else TMP_OPTIONS
        for child in children:
            c = child.candidate
            one_file = {"file": {"path": c.file, "module": c.value, "readable": list(c.readable)},
                        "path": []} if c.file else {}  # its folder neither on the path's front nor readable
            child.send({"plugin": c.name, "entry_point": c.value, "path": list(c.paths), "limits": limits.to_dict(),
                        "caps": caps, "readable": readable, "tmp": child.tmp, "tmpfs": tmpfs, **one_file})
        _collect(children, time.monotonic() + timeout)
    finally:
        for child in children:
            child.close()
    return [child.report(timeout) for child in children]


def _readable() -> list[str]:
    """What a discovery process may read besides Python's paths: a bot's system paths, the arena."""
    spec = importlib.util.find_spec("players")  # the built-in players' package (installed with the arena)
    players = [] if spec is None or spec.origin is None else [str(Path(spec.origin).parent)]
    paths = (*SYSTEM, *DEVICES, "/proc/self", str(_ARENA), *players)
    return [p for p in paths if os.path.exists(p)]


class _Child:
    """One discovery process: its pipes, what it said, how it ended."""

    def __init__(self, candidate: Candidate, proc: subprocess.Popen[bytes] | zygoteproc.Child | None,
                 error: str = "", tmp: str | None = None) -> None:
        self.candidate, self.proc, self.error, self.tmp = candidate, proc, error, tmp
        # the harness's ends of its three pipes (None: no process)
        self.stdin: IO[bytes] | None = None if proc is None else proc.stdin
        self.stdout: IO[bytes] | None = None if proc is None else proc.stdout
        self.stderr: IO[bytes] | None = None if proc is None else proc.stderr
        self.out, self.log = bytearray(), bytearray()
        self.late = False

    @classmethod
    def start(cls, candidate: Candidate) -> _Child:
        if not hasattr(os, "killpg"):
            return cls(candidate, None, "its discovery needs a POSIX system (as sandboxed bots do)")
        tmp = None
        try:
            tmp = tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{os.getpid()}-")
            env = {**_ENV, "HOME": tmp}
            proc = _forked(env) or subprocess.Popen(
                [sys.executable, "-s", "-P", "-B", "-m", "arena.plugins.host", str(os.getpid())],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd="/",
                env=env, close_fds=True, start_new_session=True)
        except OSError as exc:
            if tmp is not None:
                processes.remove_tree(tmp)
            return cls(candidate, None, f"its discovery process could not start: {exc}")
        child = cls(candidate, proc, tmp=tmp)
        for stream in child.streams:
            os.set_blocking(stream.fileno(), False)
        return child

    @property
    def streams(self) -> tuple[IO[bytes], ...]:
        """What it writes: its stdout and stderr (none without a process)."""
        return tuple(s for s in (self.stdout, self.stderr) if s is not None)

    def send(self, request: dict) -> None:
        if self.stdin is None:
            return
        try:
            self.stdin.write(json.dumps(request).encode())
            self.stdin.close()
        except OSError:
            pass  # it died already: its exit status tells why

    def read(self, stream) -> bool:
        """Take what the pipe holds (the report capped, the log's tail kept); True at its end."""
        try:
            chunk = os.read(stream.fileno(), 65536)
        except BlockingIOError:
            return False
        except OSError:
            chunk = b""
        if stream is self.stdout:
            self.out += chunk
            if len(self.out) > MAX_REPORT:
                self.error = f"its discovery answered more than {MAX_REPORT >> 20} MiB (stopped)"
                self.kill()
        else:
            self.log = (self.log + chunk)[-MAX_LOG:]
        return not chunk

    def finish(self, deadline: float) -> None:
        """Wait for the exit until the deadline; late if it has not exited by then."""
        if self.proc is None or self.error:
            return
        try:
            self.proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.late = True

    def kill(self) -> None:
        """SIGKILL its process group (a no-op once it has been reaped)."""
        if self.proc is None or self.proc.returncode is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        self.proc.wait()

    def close(self) -> None:
        """Kill it if it still runs, close our ends of its pipes, remove its temporary folder
        (without following links: what it left there is the plugin's)."""
        self.kill()
        for stream in (*self.streams, self.stdin):
            if stream is not None:
                stream.close()
        if self.tmp is not None:
            processes.remove_tree(self.tmp)

    def report(self, timeout: float) -> dict:
        if self.error or self.proc is None:  # no process: start() said why
            return {"error": self.error}
        code = self.proc.returncode
        if self.late or code is None:  # None: not reaped, so not ended in time either
            return {"error": f"its discovery did not finish within {timeout:g} s (stopped)"}
        if code != 0:
            return {"error": f"its discovery process {_death(code)}{_last_line(self.log)}"}
        try:
            report = json.loads(bytes(self.out))
        except ValueError:
            shown = bytes(self.out[:60]).decode("utf-8", "replace")
            return {"error": f"its discovery printed something that is not a report: {shown!r}"}
        return report if isinstance(report, dict) else {"error": "its discovery report is not an object"}


def _forked(env: dict[str, str]) -> zygoteproc.Child | None:
    """A discovery process forked from the zygote (see :mod:`arena.sandbox.zygoteproc`) with its
    three pipes, as ``Popen(..., stdin=PIPE, stdout=PIPE, stderr=PIPE)`` gives them; None if there
    is no zygote (the caller execs one then)."""
    ends: list[int] = []
    try:
        for _ in range(3):
            ends += os.pipe()
        (in_r, in_w, out_r, out_w, err_r, err_w) = ends
        child = zygoteproc.spawn("plugin-host", (in_r, out_w, err_w), env=env)
    except OSError:
        for fd in ends:
            os.close(fd)
        return None
    for fd in (in_r, out_w, err_w):
        os.close(fd)
    child.stdin, child.stdout, child.stderr = open(in_w, "wb"), open(out_r, "rb"), open(err_r, "rb")  # noqa: SIM115 - the child's pipes
    return child


def _collect(children: list[_Child], deadline: float) -> None:
    """Read every child's pipes until they end or the deadline; then wait for each exit."""
    with selectors.DefaultSelector() as sel:
        for child in children:
            for stream in child.streams:
                sel.register(stream, selectors.EVENT_READ, child)
        while sel.get_map() and deadline > time.monotonic():
            for key, _ in sel.select(deadline - time.monotonic()):
                child = key.data
                if key.fileobj not in sel.get_map():
                    continue  # its child was stopped earlier in this round
                if child.read(key.fileobj):
                    sel.unregister(key.fileobj)
                if child.error:
                    for stream in child.streams:
                        if stream in sel.get_map():
                            sel.unregister(stream)
    for child in children:
        child.finish(deadline)


def _death(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"


def _last_line(log: bytes | bytearray) -> str:
    lines = bytes(log).decode("utf-8", "replace").strip().splitlines()
    return f": {lines[-1][:200]}" if lines else ""
