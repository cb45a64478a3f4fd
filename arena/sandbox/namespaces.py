"""Linux namespaces for bot processes: clone into new ones, build a read-only root.

A few ctypes calls (``clone``, ``mount``, ``umount2``, ``pivot_root``), the
id maps of a new user namespace, and :func:`enter_tree`, which turns a fresh
mount namespace into a minimal file system: a small tmpfs as ``/`` holding
read-only bind mounts of exactly the listed paths (the Python runtime, the
arena package, the bot's own package), ``/dev/null`` and friends, a fresh
``/proc`` of the bot's own PID namespace, and a tmpfs on its scratch folder
(``/tmp``, or ``/var/tmp``) where the bot's import may write, on which each game
process mounts its own. Everything else on the machine (results folders, the
checkout, home folders, other processes) is simply not there.

Plugin discovery uses :func:`private_tmpfs`: a tmpfs on one folder of the harness's own file
system, in a mount namespace of the caller's own.

Each function raises ``OSError`` with the kernel's errno when it says no.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterable

from arena.sandbox.linux import libc, syscall, unshare

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
SIGCHLD = 17

SERVER_FLAGS = (CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET
                | CLONE_NEWIPC | CLONE_NEWUTS)
"""The fork server's namespaces: nothing of the machine's processes, network,
IPC objects, host name or mounts."""
GAME_FLAGS = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS
"""A game process's own namespaces, inside the server's (its network, IPC and
host name are the server's: empty, and seccomp refuses sockets, SysV and POSIX
IPC and sethostname, so nothing can be left there for the next game)."""

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
FULL_PROC = "/.arena/proc"
"""An uncovered ``/proc`` in the server's root, under a folder of mode 0 that nothing without a capability
can enter: the kernel lets a game process mount a fresh ``/proc`` only while one instance in its mount
namespace is fully visible (not covered in part), and the server's own ``/proc`` is covered."""
PROC_COVERED = ("sys", "sysrq-trigger", "irq", "bus", "acpi", "fs", "scsi", "tty", "driver", "sysvipc")
"""What of a bot's ``/proc`` is the machine's rather than its processes' (sysctls, the SysRq trigger,
interrupts, devices): read-only for it."""
MNT_DETACH = 2

SYS_CLONE = {"x86_64": 56, "aarch64": 220}
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}
DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")
ROOT_OPTIONS = "size=4m,nr_inodes=4096,mode=0755"
IMPORT_TMP_OPTIONS = "size=64m,nr_inodes=4096,mode=1777"
"""The tmpfs on the server's scratch folder, its ``HOME`` and ``TMPDIR`` while it imports the bot
(caches, model files): capped as a game process's own; each game process mounts its own on top."""


def _number(table: dict[str, int]) -> int:
    machine = os.uname().machine
    if machine not in table:
        raise OSError(38, f"no system call number for {machine}")
    return table[machine]


def clone(flags: int) -> int:
    """fork() into new namespaces: 0 in the child, the child's pid in the parent.

    The raw system call with no new stack behaves as fork: the child goes on
    from here on a copy of the caller's memory. Only for a single-threaded
    caller (as fork after exec is). The child runs CPython's after-fork hooks.
    """
    pid = syscall(_number(SYS_CLONE), flags | SIGCHLD, 0, 0, 0, 0)
    if pid == 0:
        ctypes.pythonapi.PyOS_AfterFork_Child()
    return pid


def setns(fd: int, nstype: int) -> None:
    """Join the namespace fd refers to (single-threaded callers only, for a user namespace)."""
    fn = libc().setns
    if fn(ctypes.c_int(fd), ctypes.c_int(nstype)) == -1:
        err = ctypes.get_errno()
        raise OSError(err, f"setns: {os.strerror(err)}")


def mount(source: str | None, target: str, fstype: str | None, flags: int,
          data: str | None = None) -> None:
    """mount(2); OSError naming the target on refusal."""
    fn = libc().mount
    fn.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong,
                   ctypes.c_char_p]
    if fn(_b(source), _b(target), _b(fstype), flags, _b(data)) == -1:
        err = ctypes.get_errno()
        raise OSError(err, f"mount {fstype or 'bind'} on {target}: {os.strerror(err)}")


def umount(target: str, flags: int = 0) -> None:
    fn = libc().umount2
    if fn(_b(target), ctypes.c_int(flags)) == -1:
        err = ctypes.get_errno()
        raise OSError(err, f"umount {target}: {os.strerror(err)}")


def pivot_root(new_root: str, put_old: str) -> None:
    fn = libc().syscall
    fn.restype = ctypes.c_long
    if fn(ctypes.c_long(_number(SYS_PIVOT_ROOT)), _b(new_root), _b(put_old)) == -1:
        err = ctypes.get_errno()
        raise OSError(err, f"pivot_root {new_root}: {os.strerror(err)}")


def write_id_maps(pid: int | str, uid_map: str, gid_map: str) -> None:
    """Write a user namespace's uid and gid maps (setgroups denied first)."""
    base = f"/proc/{pid}"
    for name, text in (("setgroups", "deny"), ("uid_map", uid_map), ("gid_map", gid_map)):
        fd = os.open(f"{base}/{name}", os.O_WRONLY)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)


def scratch_folder(readable: Iterable[str]) -> str:
    """Where a game process's private tmpfs goes: /tmp, unless something the bot must read
    lives under /tmp (a checkout or a virtual environment there), then /var/tmp."""
    inside = [p for p in readable if os.path.abspath(p).startswith("/tmp/")]
    return "/var/tmp" if inside else "/tmp"


def enter_tree(root: str, readable: Iterable[str], scratch: str = "/tmp") -> None:
    """Make ``root`` (an empty folder) this mount namespace's ``/``, read-only.

    Call in a new mount namespace, as the init of a new PID namespace (for
    ``/proc``), with capabilities in the owning user namespace. Afterwards only
    the readable paths (at their own absolute paths), the devices, ``/proc``
    and a tmpfs on ``scratch`` (:data:`IMPORT_TMP_OPTIONS`: the server's ``HOME``
    and ``TMPDIR``, where the bot's import may write; each game process mounts a
    fresh tmpfs of its own on top, so no game sees it) exist.
    """
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, ROOT_OPTIONS)
    readable = [p for p in readable if p and os.path.lexists(p)]
    for path in _outermost(os.path.realpath(p) for p in readable):
        _bind(root, path)
    for path in readable:  # /lib -> usr/lib and the like, as links
        path = os.path.abspath(path)
        if os.path.islink(path) and not os.path.lexists(root + path):
            _place(root, os.path.dirname(path), directory=True)
            os.symlink(os.readlink(path), root + path)
    for dev in DEVICES:
        if os.path.exists(dev):
            _place(root, dev, directory=False)
            mount(dev, root + dev, None, MS_BIND)
    for folder in ("/proc", "/tmp", scratch, "/.old", FULL_PROC):
        os.makedirs(root + folder, exist_ok=True)
    mount("proc", root + FULL_PROC, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)  # for the kernel alone, below
    os.chmod(root + os.path.dirname(FULL_PROC), 0)
    mount("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    cover_proc(root + "/proc")
    mount("tmpfs", root + scratch, "tmpfs", MS_NOSUID | MS_NODEV, IMPORT_TMP_OPTIONS)
    pivot_root(root, root + "/.old")
    os.chdir("/")
    umount("/.old", MNT_DETACH)
    os.rmdir("/.old")
    mount(None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


def game_mounts(tmp_options: str, scratch: str = "/tmp") -> None:
    """In a game process's new mount namespace: its own tmpfs (on scratch) and /proc."""
    mount("tmpfs", scratch, "tmpfs", MS_NOSUID | MS_NODEV, tmp_options)
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    cover_proc("/proc")


def cover_proc(proc: str) -> None:
    """Make the machine-wide corners of a fresh ``/proc`` read-only (:data:`PROC_COVERED`).

    A root harness's bot is uid 0 outside its user namespace, where no capability
    is needed to write what uid 0 owns and ``/proc/sys`` is writable by uid 0
    alone: ``kernel/core_pattern`` would run a program as root on the host. The
    fork server, where a bot's import runs, has no Landlock (it would forbid the
    game processes' mounts); this holds there, and in every game process too.
    """
    for name in PROC_COVERED:
        path = f"{proc}/{name}"
        if os.path.lexists(path):
            mount(path, path, None, MS_BIND | MS_REC)
            mount(None, path, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)


def private_tmpfs(folder: str, options: str) -> None:
    """Mount a tmpfs (``options``: its caps) on ``folder`` that this process alone sees.

    For plugin discovery (:mod:`arena.plugins.host`), which runs on the harness's own file
    system: a new mount namespace (with a user namespace of its own, mapping this uid and gid
    to themselves, when this process may not make one alone), every mount made private in it
    first, so that nothing mounted here shows outside. The tmpfs goes when the process does.
    Single-threaded callers only; OSError when the kernel says no.
    """
    uid, gid = os.geteuid(), os.getegid()
    try:
        unshare(CLONE_NEWNS)
    except PermissionError:  # not privileged: a user namespace gives the capability
        unshare(CLONE_NEWUSER | CLONE_NEWNS)
        write_id_maps("self", f"{uid} {uid} 1", f"{gid} {gid} 1")
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, options)



def _outermost(paths: Iterable[str]) -> list[str]:
    """Existing absolute paths, without those inside another listed folder."""
    found = sorted({os.path.abspath(p) for p in paths if os.path.exists(p)})
    kept: list[str] = []
    for p in found:
        if not any(p.startswith(k.rstrip("/") + "/") for k in kept if os.path.isdir(k)):
            kept.append(p)
    return kept


def _bind(root: str, path: str) -> None:
    """Mirror path (no symlink in it) under root as a read-only bind."""
    _place(root, path, directory=os.path.isdir(path))
    try:
        mount(path, root + path, None, MS_BIND)
    except OSError as e:
        if e.errno != 22:  # EINVAL: locked submounts need a recursive bind
            raise
        mount(path, root + path, None, MS_BIND | MS_REC)
    mount(None, root + path, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


def _place(root: str, path: str, *, directory: bool) -> None:
    """Create path's mount point under root (its parents as plain folders)."""
    target = root + path
    if directory:
        os.makedirs(target, exist_ok=True)
        return
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if not os.path.lexists(target):
        os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))


def _b(text: str | None) -> bytes | None:
    return None if text is None else os.fsencode(text)
