"""Landlock: read-only file access everywhere, writes only in one folder.

A few lines of ctypes over the three Landlock system calls (no maintained PyPI
binding covers ABI 4-6). Rights are chosen by the kernel's ABI version:

- ABI 1+: file system access (read, write, make, remove, execute);
- ABI 2/3/5 add refer, truncate and device ioctl rights;
- ABI 4+: TCP bind and connect are handled too, with no rule allowing any;
- ABI 6+: scoped: no signals to, and no abstract unix sockets of, processes
  outside the sandbox.

Execute is granted only to a program bot's game process (``executable``: its folder copy and the
system's folders, never what it may write); elsewhere exec is also denied by seccomp, this is a backstop.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterable

from arena.sandbox.linux import syscall

SYS_CREATE_RULESET = 444  # the same number on every architecture
SYS_ADD_RULE = 445
SYS_RESTRICT_SELF = 446
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1

EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
REFER = 1 << 13
TRUNCATE = 1 << 14
IOCTL_DEV = 1 << 15
NET_BIND_TCP = 1 << 0
NET_CONNECT_TCP = 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0
SCOPE_SIGNAL = 1 << 1
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64),
                ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def abi_version() -> int:
    """The kernel's Landlock ABI version (raises OSError: ENOSYS, EOPNOTSUPP)."""
    return syscall(SYS_CREATE_RULESET, None, 0, CREATE_RULESET_VERSION)


def handled_fs(abi: int) -> int:
    """Every file system right this ABI knows."""
    rights = (1 << 13) - 1
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    if abi >= 5:
        rights |= IOCTL_DEV
    return rights


def describe(abi: int) -> str:
    """A short text of what this ABI lets us enforce."""
    extra = ["tcp denied" if abi >= 4 else "", "signals scoped" if abi >= 6 else ""]
    return ", ".join([f"Landlock ABI {abi}"] + [e for e in extra if e])


def restrict(abi: int, *, writable: str | None, readable: Iterable[str],
             listable: Iterable[str] = (), executable: Iterable[str] = ()) -> str:
    """Restrict this thread (and its future threads) for good; returns a detail.

    ``listable``: folders whose names (beneath) may be listed, but no file read:
    the folder a bot's module is imported from, whose other files are not its.
    """
    fs = handled_fs(abi)
    attr = _RulesetAttr(fs, NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 else 0,
                        SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0)
    ruleset = syscall(SYS_CREATE_RULESET, ctypes.addressof(attr), ctypes.sizeof(attr), 0)
    try:
        for path in readable:
            _allow(ruleset, path, READ_FILE | READ_DIR)
        for path in listable:
            if os.path.isdir(path):
                _allow(ruleset, path, READ_DIR)
        for path in executable:
            if os.path.exists(path):
                _allow(ruleset, path, READ_FILE | READ_DIR | EXECUTE)
        _allow(ruleset, os.devnull, READ_FILE | WRITE_FILE | (TRUNCATE & fs))
        if writable is not None:
            _allow(ruleset, writable, fs & ~EXECUTE)
        syscall(SYS_RESTRICT_SELF, ruleset, 0)
    finally:
        os.close(ruleset)
    where = f", writes only in {writable}" if writable else ", no writes"
    return describe(abi) + where


def _allow(ruleset: int, path: str, rights: int) -> None:
    """Grant rights beneath path (file rights only, if path is not a folder)."""
    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    try:
        if not os.path.isdir(path):
            rights &= FILE_RIGHTS
        rule = _PathBeneathAttr(rights, fd)
        syscall(SYS_ADD_RULE, ruleset, RULE_PATH_BENEATH, ctypes.addressof(rule), 0)
    finally:
        os.close(fd)
