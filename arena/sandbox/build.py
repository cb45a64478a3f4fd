"""A program bot's build step (``bot.toml``'s ``build``), run confined: at a ladder submission, never in the harness.

The build is the submitter's code as much as the bot is, and unlike a bot it
must start processes and exec compilers, so it gets a sandbox of its own:
bubblewrap (``bwrap``, the tool Flatpak confines apps with) puts it in new
user, mount, PID, network, IPC, UTS and cgroup namespaces, with every
capability dropped, no new user namespaces, a new session (no terminal to push
keys into) and a seccomp filter (stage ``build`` of :mod:`arena.sandbox.seccomp`:
no ptrace, mounts, namespaces, bpf, perf, keys, io_uring). It sees the system's
programs and libraries read-only (:data:`arena.sandbox.paths.SYSTEM`, and
``/etc/alternatives`` for the compilers' links), nothing of ``/home``, ``/root``,
the harness or the ladder; its network is a loopback of its own, down. It
runs as nobody inside and, when the harness is root, outside too (see
:func:`_unprivileged`).

Its folder is a tmpfs of :attr:`BuildLimits.folder_mb` (``/bot``, the staged
files unpacked inside from a tar on its stdin: nothing of the harness's file
system is bound in but the system's), its ``/tmp`` another: what it writes is
bounded by their sizes, not by the disk.
A control group caps its processes and its memory (those tmpfs pages count),
each process has a CPU-time rlimit, and the whole build a wall-clock limit,
past which everything in its group is killed. When the build succeeds, ``tar``
(inside, on the built folder) streams it back on stdout into one file of at
most ``max_output`` bytes: the caller unpacks that file as untrusted data
(:mod:`arena.ladder.program_install`). Its stdout and stderr are its log, the
last :attr:`BuildLimits.log_bytes` kept. Every outcome is a
:class:`BuildResult`; nothing the build does raises here.
"""

from __future__ import annotations

import os
import selectors
import shutil
import signal
import subprocess
import tarfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import IO

from arena.bots.safetext import printable
from arena.sandbox import cgroups, seccomp
from arena.sandbox.errors import LimitsError
from arena.sandbox.paths import SYSTEM

SYSTEM_LINKS = ("/etc/alternatives",)
"""Read-only besides :data:`SYSTEM`: Debian's links from ``cc``, ``c++`` and the like to the compilers."""
ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8",
       "LC_ALL": "C.UTF-8", "CARGO_NET_OFFLINE": "true"}
NOBODY = 65534
"""The build's user and group inside its namespace, and outside it too when the harness is root."""
_SCRIPT = """tar -x -f - -C /bot --no-same-owner || exit 90
"$@" >&2
status=$?
if [ "$status" -ne 0 ]; then exit 91; fi
exec tar -c -f - --format=posix --numeric-owner --no-acls --no-xattrs --sort=name .
"""
"""Inside: unpack the staged files (a tar on stdin), run the build (its stdout goes to the log), stream the
folder back (a tar on stdout)."""
_COPY_FAILED, _BUILD_FAILED = 90, 91


@dataclass(frozen=True, slots=True)
class BuildLimits:
    """What one build may take: ``wall_s`` seconds in all, ``cpu_s`` of CPU time each process, ``memory_mb``
    and ``tasks`` (processes and threads) in all, ``folder_mb`` and ``tmp_mb`` of files in its folder and
    its ``/tmp``; ``log_bytes`` of its output kept."""

    wall_s: float = 300.0
    cpu_s: int = 300
    memory_mb: int = 2048
    tasks: int = 256
    folder_mb: int = 256
    tmp_mb: int = 256
    log_bytes: int = 16 << 10

    def __post_init__(self) -> None:
        wrong = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if not isinstance(getattr(self, f.name), (int, float)) or getattr(self, f.name) <= 0]
        if wrong:
            raise LimitsError(f"build limits must be positive numbers (got {', '.join(wrong)})")


DEFAULT_BUILD = BuildLimits()


@dataclass(frozen=True, slots=True)
class BuildResult:
    """How a build ended: ``ok`` (its folder streamed into the output file) or why not, in one line."""

    ok: bool
    detail: str
    log: str
    seconds: float
    confinement: str


def unavailable() -> str | None:
    """Why builds cannot run on this machine (None: they can)."""
    if shutil.which("bwrap") is None:
        return "builds need bubblewrap, which is not installed here (apt-get install bubblewrap)"
    try:
        done = subprocess.run([*_unprivileged(), "bwrap", "--unshare-all", "--unshare-user", "--disable-userns",
                               "--die-with-parent", *_system_binds(), "--", "/bin/true"],
                              capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"builds need bubblewrap to run, and it could not: {exc}"
    if done.returncode != 0:
        said = (done.stderr.decode("utf-8", "replace").strip().splitlines() or [""])[-1]
        said = printable(said)[:200]
        return f"builds need user namespaces, which bubblewrap could not make here ({said or 'no reason given'})"
    return None


def run_build(source: str, argv: Sequence[str], output: str, max_output: int,
              limits: BuildLimits = DEFAULT_BUILD) -> BuildResult:
    """Run ``argv`` in a copy of the folder ``source`` under ``limits``; on success the built folder, as a tar
    stream, is in the new file ``output`` (at most ``max_output`` bytes, else the build is refused)."""
    source, output = os.path.abspath(source), os.path.abspath(output)  # the build runs from /
    why = unavailable()
    if why is not None:
        return BuildResult(False, why, "", 0.0, "none")
    group, group_detail = cgroups.create(limits.tasks, limits.memory_mb << 20)
    seccomp_r = _seccomp_fd()
    confinement = _confinement(group is not None, group_detail, seccomp_r is not None)
    join = "".join(f'echo $$ > "{f}" || exit 89\n' for f in (group.procs_files() if group else ()))
    caps = (f"ulimit -t {limits.cpu_s}\n" if group else
            f"ulimit -t {limits.cpu_s}; ulimit -v {limits.memory_mb << 10}; ulimit -u {limits.tasks}\n")
    start = time.monotonic()
    log = _Log(limits.log_bytes)
    fds = [] if seccomp_r is None else [seccomp_r]
    sent = f"{output}.source.tar"
    command = ["/bin/sh", "-c", f'{join}{caps}exec "$@"', "arena-build", *_unprivileged(),
               *_bwrap(limits, seccomp_r), "/bin/sh", "-c", _SCRIPT, "build", *argv]
    try:
        _pack(source, sent)  # sent on stdin: nothing of the harness's file system is bound into the build's
        fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as out, open(sent, "rb") as given:
            proc = subprocess.Popen(command, stdin=given, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, cwd="/", env=dict(ENV), close_fds=True,
                                    pass_fds=fds, start_new_session=True)
            try:
                stopped = _collect(proc, out, log, max_output, start + limits.wall_s, limits.wall_s)
            finally:
                _kill(proc, group)
    except OSError as exc:
        return BuildResult(False, f"the build could not start: {exc.strerror or exc}", log.text(),
                           time.monotonic() - start, confinement)
    finally:
        for fd in fds:
            os.close(fd)
        if group is not None:
            group.remove()
        if os.path.exists(sent):
            os.remove(sent)
    seconds = time.monotonic() - start
    detail = stopped or _ending(proc.returncode, argv, log, limits, seconds)
    return BuildResult(stopped is None and proc.returncode == 0, detail, log.text(), seconds, confinement)


class _Log:
    """The last ``cap`` bytes of a build's output."""

    __slots__ = ("cap", "data")

    def __init__(self, cap: int) -> None:
        self.cap, self.data = cap, b""

    def add(self, chunk: bytes) -> None:
        self.data = (self.data + chunk)[-self.cap:]

    def text(self) -> str:
        return "\n".join(printable(line) for line in self.data.decode("utf-8", "replace").splitlines())

    def last_line(self) -> str:
        lines = [line for line in self.text().splitlines() if line.strip()]
        return lines[-1].strip()[:200] if lines else ""


def _collect(proc: subprocess.Popen[bytes], out: IO[bytes], log: _Log, max_output: int, deadline: float,
             wall_s: float) -> str | None:
    """Copy its stdout into ``out`` and its stderr into the log until both end; why it was stopped, or None."""
    late, written = f"the build did not finish within {wall_s:g} s (stopped)", 0
    with selectors.DefaultSelector() as sel:
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                os.set_blocking(stream.fileno(), False)
                sel.register(stream, selectors.EVENT_READ)
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                return late
            for key, _ in sel.select(left):
                try:
                    chunk = os.read(key.fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    sel.unregister(key.fileobj)
                elif key.fileobj is proc.stderr:
                    log.add(chunk)
                else:
                    written += len(chunk)
                    if written > max_output:
                        return f"the built folder is over {max_output >> 10} KiB as an archive (stopped)"
                    out.write(chunk)
    try:
        proc.wait(max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        return late
    return None


def _ending(code: int | None, argv: Sequence[str], log: _Log, limits: BuildLimits, seconds: float) -> str:
    said = log.last_line()
    tail = f": {said}" if said else ""
    if code == 0:
        return f"built in {seconds:.1f} s"
    if code == _COPY_FAILED:
        return f"the submission could not be copied into the build's folder of {limits.folder_mb} MiB{tail}"
    if code == _BUILD_FAILED:
        return f"the build {printable(' '.join(argv))[:80]!r} failed{tail}"
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
        return f"the build was killed by {name} (memory {limits.memory_mb} MiB, {limits.tasks} tasks){tail}"
    if said.startswith("bwrap:"):
        return f"the build's sandbox could not start{tail}"
    return f"the built folder could not be read back (status {code}){tail}"


def _unprivileged() -> list[str]:
    """A root harness's build runs as nobody outside its namespaces too: as uid 0 there, even without a
    capability, it would own every root-owned file and sysctl it can reach (``/proc/sys`` is writable by uid 0
    alone: ``core_pattern`` would run a program as root on the host)."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--no-new-privs"]


def _pack(source: str, into: str) -> None:
    """The folder's regular files and folders as a tar (its links and special files left out)."""
    with tarfile.open(into, "w", format=tarfile.PAX_FORMAT) as tar:
        for here, dirs, names in os.walk(source):
            dirs.sort()
            for name in sorted(names):
                path = os.path.join(here, name)
                if os.path.isfile(path) and not os.path.islink(path):
                    tar.add(path, os.path.relpath(path, source), recursive=False)
            for name in dirs:
                path = os.path.join(here, name)
                if not os.path.islink(path):
                    tar.add(path, os.path.relpath(path, source), recursive=False)


def _bwrap(limits: BuildLimits, seccomp_fd: int | None) -> list[str]:
    args = ["bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session",
            "--cap-drop", "ALL", "--uid", str(NOBODY), "--gid", str(NOBODY), "--hostname", "build", "--clearenv",
            *[a for k, v in ENV.items() for a in ("--setenv", k, v)], *_system_binds(),
            "--proc", "/proc", "--dev", "/dev",
            "--size", str(limits.tmp_mb << 20), "--tmpfs", "/tmp",
            "--size", str(limits.folder_mb << 20), "--tmpfs", "/bot",
            "--chdir", "/bot"]
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    return [*args, "--"]


def _system_binds() -> list[str]:
    """The system's folders read-only, its top-level links as links (``/bin`` -> ``usr/bin``)."""
    args: list[str] = []
    for path in (*SYSTEM, *SYSTEM_LINKS):
        if os.path.islink(path) and os.path.dirname(path) == "/":
            args += ["--symlink", os.readlink(path), path]
        elif os.path.exists(path):
            args += ["--ro-bind", path, path]
    return args


def _seccomp_fd() -> int | None:
    """A pipe's read end holding the build's BPF filter (None: seccomp is not available here)."""
    try:
        program = seccomp.compile_bpf(0, stage="build")
    except (ImportError, RuntimeError, OSError):
        return None
    r, w = os.pipe()
    try:
        os.write(w, program)  # a few KiB: well under a pipe's buffer
    finally:
        os.close(w)
    return r


def _confinement(grouped: bool, group_detail: str, filtered: bool) -> str:
    caps = "a control group (memory, tasks)" if grouped else f"rlimits only ({group_detail})"
    return f"bubblewrap namespaces, no network, {'seccomp' if filtered else 'no seccomp'}, tmpfs folders, {caps}"


def _kill(proc: subprocess.Popen[bytes], group: cgroups.Group | None) -> None:
    """Everything it started: its session and its control group, then the process reaped."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    if group is not None:
        group.kill()
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
    proc.wait()
