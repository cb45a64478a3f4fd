"""A seccomp filter for bot processes, built with pyseccomp over libseccomp.

Default allow; these fail with EPERM (clone3 with ENOSYS):

- new processes: fork, vfork, clone without CLONE_THREAD (threads still work:
  clone3 answers ENOSYS, so glibc falls back to clone, whose flags we can see);
- exec, sockets, ptrace, process_vm_*, pidfd_*, io_uring, bpf, perf, keys,
  namespaces and mounts, session and group changes;
- signals: kill, tgkill and rt_(tg)sigqueueinfo are allowed only with the
  bot's own pid as target (known when the filter is built); tkill never.
  Signal 0 probes of other processes are denied too;
- calls that act on another process of the same uid (a root bot and a root
  harness share uid 0): prlimit64, sched_set*, migrate/move_pages only with
  pid 0 (the caller); setpriority and ioprio_set only on the caller;
- with ``deny_writes`` (used only when Landlock is missing): every open with a
  write, create or truncate flag, and every path-changing call. The writable
  folder is then not writable either; fds opened before confinement still are.

Other architectures than the native one are killed (no int 0x80 detours).
"""

from __future__ import annotations

import ctypes
import errno
import os

PROCESS = ("fork", "vfork")
EXEC = ("execve", "execveat")
SOCKETS = ("socket", "socketpair", "connect", "bind", "listen", "accept", "accept4")
TRACE = ("ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "kcmp")
PIDFD = ("pidfd_open", "pidfd_send_signal", "pidfd_getfd")
ESCAPE = ("unshare", "setns", "mount", "umount2", "pivot_root", "chroot",
          "io_uring_setup", "io_uring_enter", "io_uring_register", "bpf",
          "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key",
          "open_by_handle_at", "setsid", "setpgid", "tkill")
SIGNALS = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")
SELF_ONLY = ("prlimit64", "sched_setaffinity", "sched_setparam", "sched_setscheduler",
             "sched_setattr", "migrate_pages", "move_pages")
PRIO_PROCESS, IOPRIO_WHO_PROCESS = 0, 1
PATH_WRITES = ("creat", "truncate", "unlink", "unlinkat", "rename", "renameat",
               "renameat2", "mkdir", "mkdirat", "rmdir", "link", "linkat",
               "symlink", "symlinkat", "mknod", "mknodat", "chmod", "fchmodat",
               "chown", "lchown", "fchownat", "utimensat")
WRITE_FLAGS = (os.O_WRONLY, os.O_RDWR, os.O_CREAT, os.O_TRUNC)
CLONE_THREAD = 0x00010000


def binding():
    """The pyseccomp module (ImportError or RuntimeError when unusable)."""
    import pyseccomp  # RuntimeError when libseccomp.so.2 is missing

    return pyseccomp


def describe() -> str:
    """Which binding and library version this machine offers."""
    sc = binding()
    return f"pyseccomp {sc.__version__}, libseccomp {_library_version(sc)}"


def _library_version(sc) -> str:
    class _Version(ctypes.Structure):
        _fields_ = [("major", ctypes.c_uint), ("minor", ctypes.c_uint),
                    ("micro", ctypes.c_uint)]

    try:
        fn = sc._libseccomp.seccomp_version
        fn.restype = ctypes.POINTER(_Version)
        v = fn().contents
        return f"{v.major}.{v.minor}.{v.micro}"
    except (AttributeError, ValueError):
        return "?"


def build(own_pid: int, *, deny_writes: bool):
    """The filter object (not loaded) for a bot whose pid is own_pid."""
    sc = binding()
    f = sc.SyscallFilter(sc.ALLOW)
    f.set_attr(sc.Attr.ACT_BADARCH, sc.KILL_PROCESS)
    deny = sc.ERRNO(errno.EPERM)
    for name in PROCESS + EXEC + SOCKETS + TRACE + PIDFD + ESCAPE:
        _add(f, deny, name)
    _add(f, sc.ERRNO(errno.ENOSYS), "clone3")
    _add(f, deny, "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0))
    for name in SIGNALS:
        _add(f, deny, name, sc.Arg(0, sc.NE, own_pid))
    for name in SELF_ONLY:
        _add(f, deny, name, sc.Arg(0, sc.NE, 0))
    for name, which in (("setpriority", PRIO_PROCESS), ("ioprio_set", IOPRIO_WHO_PROCESS)):
        _add(f, deny, name, sc.Arg(0, sc.NE, which))
        _add(f, deny, name, sc.Arg(1, sc.NE, 0))
    if deny_writes:
        _deny_writes(sc, f, deny)
    return f


def _deny_writes(sc, f, deny) -> None:
    """Deny opening for write/create/truncate and every path-changing call."""
    _add(f, sc.ERRNO(errno.ENOSYS), "openat2")  # its flags sit behind a pointer
    for name in PATH_WRITES:
        _add(f, deny, name)
    for flag in WRITE_FLAGS:
        _add(f, deny, "open", sc.Arg(1, sc.MASKED_EQ, flag, flag))
        _add(f, deny, "openat", sc.Arg(2, sc.MASKED_EQ, flag, flag))


def _add(f, action: int, name: str, *args) -> None:
    """Add one rule; a call this architecture lacks is skipped."""
    try:
        f.add_rule(action, name, *args)
    except OSError:
        if binding().resolve_syscall(0, name) >= 0:
            raise


def load(own_pid: int, *, deny_writes: bool) -> str:
    """Build and load the filter into this thread for good; returns a detail."""
    build(own_pid, deny_writes=deny_writes).load()
    return "no processes, exec, sockets, ptrace, pidfd, acting on other pids" + (
        ", no file writes" if deny_writes else "")
