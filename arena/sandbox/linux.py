"""Thin ctypes wrappers over the Linux process controls the sandbox uses.

Each function raises ``OSError`` (with the kernel's errno) when the kernel says
no; callers in :mod:`arena.sandbox.limits` turn that into data.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys

PR_GET_DUMPABLE = 3
PR_SET_DUMPABLE = 4
PR_CAPBSET_READ = 23
PR_CAPBSET_DROP = 24
PR_SET_CHILD_SUBREAPER = 36
PR_GET_CHILD_SUBREAPER = 37
PR_SET_NO_NEW_PRIVS = 38
PR_GET_NO_NEW_PRIVS = 39
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4

CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
CLONE_THREAD = 0x00010000

_LINUX_CAPABILITY_VERSION_3 = 0x20080522
_libc = None


def libc() -> ctypes.CDLL:
    """The C library of this process (raises OSError off Linux)."""
    global _libc
    if _libc is None:
        if not sys.platform.startswith("linux"):
            raise OSError(errno.ENOSYS, f"not Linux ({sys.platform})")
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def _check(result: int) -> int:
    """Raise OSError with errno when a libc call returned -1."""
    if result == -1:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return result


def syscall(number: int, *args: int | None) -> int:
    """Call a raw system call by number with integer or NULL arguments."""
    cargs = [ctypes.c_long(a) if a is not None else ctypes.c_void_p(None) for a in args]
    fn = libc().syscall
    fn.restype = ctypes.c_long
    return _check(fn(ctypes.c_long(number), *cargs))


def prctl(option: int, arg2: int = 0, arg3: int = 0) -> int:
    """prctl(2) with up to two arguments."""
    fn = libc().prctl
    fn.restype = ctypes.c_int
    return _check(fn(ctypes.c_int(option), ctypes.c_ulong(arg2), ctypes.c_ulong(arg3),
                     ctypes.c_ulong(0), ctypes.c_ulong(0)))


def prctl_pointer(option: int, arg2: int, pointer: int) -> int:
    """prctl(2) whose third argument is an address."""
    fn = libc().prctl
    fn.restype = ctypes.c_int
    return _check(fn(ctypes.c_int(option), ctypes.c_ulong(arg2), ctypes.c_void_p(pointer),
                     ctypes.c_ulong(0), ctypes.c_ulong(0)))


def set_dumpable(value: bool) -> None:
    """PR_SET_DUMPABLE: 0 makes /proc/<pid>/mem, environ, ... ptrace-protected."""
    prctl(PR_SET_DUMPABLE, int(value))
    if prctl(PR_GET_DUMPABLE) != int(value):
        raise OSError(errno.EINVAL, "PR_SET_DUMPABLE did not stick")


def set_subreaper() -> None:
    """PR_SET_CHILD_SUBREAPER: orphaned descendants are re-parented to us."""
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    flag = ctypes.c_int(0)
    fn = libc().prctl
    _check(fn(ctypes.c_int(PR_GET_CHILD_SUBREAPER), ctypes.byref(flag),
              ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0)))
    if flag.value != 1:
        raise OSError(errno.EINVAL, "PR_SET_CHILD_SUBREAPER did not stick")


def set_no_new_privs() -> None:
    """PR_SET_NO_NEW_PRIVS: no setuid gains; lets us load seccomp and Landlock."""
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    if prctl(PR_GET_NO_NEW_PRIVS) != 1:
        raise OSError(errno.EINVAL, "PR_SET_NO_NEW_PRIVS did not stick")


def unshare(flags: int) -> None:
    """Move into the new namespaces ``flags`` names (CLONE_NEW*; single-threaded only); OSError (a
    PermissionError when not allowed) with the kernel's errno."""
    if hasattr(os, "unshare"):  # Python 3.12+
        os.unshare(flags)
    else:
        _check(libc().unshare(ctypes.c_int(flags)))


def unshare_user_net() -> None:
    """Move into new user, network and SysV IPC namespaces (single-threaded only)."""
    unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWIPC)


def last_cap() -> int:
    """The highest capability number this kernel knows."""
    try:
        with open("/proc/sys/kernel/cap_last_cap") as f:
            return int(f.read())
    except OSError:
        return 40


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def drop_capabilities(bounding: bool = True, effective: bool = True) -> None:
    """Empty the bounding set (unless ``bounding`` is false), then the ambient, effective,
    permitted and inheritable sets (unless ``effective`` is false)."""
    for cap in range(last_cap() + 1) if bounding else ():
        if not prctl(PR_CAPBSET_READ, cap):
            continue  # gone already (dropping needs CAP_SETPCAP, which may be gone too)
        try:
            prctl(PR_CAPBSET_DROP, cap)
        except OSError as e:
            if e.errno != errno.EINVAL:  # EINVAL: cap unknown to this kernel
                raise
    if not effective:
        return
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    _check(libc().capset(ctypes.byref(header), ctypes.byref(data)))


def switch_user(uid: int, gid: int) -> None:
    """Drop to an unprivileged uid/gid for good (needs root)."""
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)


def thread_count() -> int:
    """OS threads in this process (C extensions' threads included)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1
