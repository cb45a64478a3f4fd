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

- reading about other processes where a PID namespace is missing: the CPU
  clocks of other pids (negative clock ids), their priorities, I/O priorities,
  CPU affinity, scheduling, process groups and sessions; and the shared-state
  channels two processes could signal through: file locks (``flock``, fcntl
  record locks), inotify/fanotify, ``mincore`` (page-cache probing), SysV and
  POSIX message queues, shared memory and semaphores, the host name.

Three stages (:func:`build`'s ``stage``):

- ``process``: an exec'd bot process (no fork server); all of the above;
- ``server``: the fork server, which must still clone its game processes into
  new namespaces and let them mount their own /tmp and /proc: clone is allowed
  only as a thread or with ``CLONE_NEWUSER``, ``mount`` is allowed (without a
  capability it fails anyway), and its parent-death signal and dumpable flag
  are locked;
- ``game``: a game process, on top of the server's filter (filters stack):
  no clone but threads, no mount;
- ``build``: a program bot's build step at a ladder submission (:mod:`arena.sandbox.build`), which must
  start processes and exec compilers: only the escapes (namespaces, mounts, ptrace and process_vm_*,
  pidfd, io_uring, bpf, perf, keys, userfaultfd, open_by_handle_at) and clone with a namespace flag;
- ``program-process``: a program bot's exec'd process (no fork server here): the ``process``
  filter but for exec, for the same reason as ``program-server``;
- ``program-server``: a program bot's fork server (docs/protocol.md): the
  ``server`` filter but for exec, which its game processes need to become the
  program (the server runs no bot code; a native program could load any code
  into its own process anyway, so an exec gives it nothing new: every filter,
  Landlock and no_new_privs hold across it, and no new process can be made).

Other architectures than the native one are killed (no int 0x80 detours).
"""

from __future__ import annotations

import ctypes
import errno
import os

from arena.sandbox.linux import prctl_pointer

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
PID_GETTERS = ("sched_getaffinity", "sched_getparam", "sched_getscheduler", "sched_getattr",
               "sched_rr_get_interval", "getpgid", "getsid", "get_robust_list")
CPU_CLOCKS = ("clock_gettime", "clock_getres", "clock_nanosleep", "timer_create",
              "clock_adjtime", "clock_settime")
CHANNELS = ("flock", "inotify_init", "inotify_init1", "fanotify_init", "mincore",
            "shmget", "shmat", "shmctl", "msgget", "msgsnd", "msgrcv", "msgctl",
            "semget", "semop", "semtimedop", "semctl", "mq_open", "mq_unlink",
            "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
            "sethostname", "setdomainname")
FCNTL_LOCKS = (5, 6, 7, 36, 37, 38)  # F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK/SETLK/SETLKW
PR_SET_PDEATHSIG, PR_SET_DUMPABLE = 1, 4
CLONE_NEWUSER = 0x10000000
CLONE_NEW = (0x00020000, 0x02000000, 0x04000000, 0x08000000, CLONE_NEWUSER, 0x20000000, 0x40000000)
"""CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID and NEWNET (NEWTIME only unshare takes: denied)."""
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
STAGES = ("process", "server", "game", "program-server", "program-process", "build")
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


def build(own_pid: int, *, deny_writes: bool, stage: str = "process"):
    """The filter object (not loaded) for a bot whose pid is own_pid."""
    if stage not in STAGES:
        raise ValueError(f"seccomp stage must be one of {', '.join(STAGES)} (got {stage!r})")
    sc = binding()
    f = sc.SyscallFilter(sc.ALLOW)
    f.set_attr(sc.Attr.ACT_BADARCH, sc.KILL_PROCESS)
    deny = sc.ERRNO(errno.EPERM)
    if stage == "game":  # the server's filter already holds the rest
        _add(f, deny, "mount")
        _add(f, deny, "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0))
        return f
    if stage == "build":  # processes, exec, signals and sessions are a build's own business
        for name in TRACE + PIDFD + tuple(n for n in ESCAPE if n not in ("setsid", "setpgid", "tkill")):
            _add(f, deny, name)
        for flag in CLONE_NEW:
            _add(f, deny, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
        _add(f, sc.ERRNO(errno.ENOSYS), "clone3")
        return f
    escape = tuple(n for n in ESCAPE if stage in ("process", "program-process") or n != "mount")
    execs = () if stage in ("program-server", "program-process") else EXEC
    for name in PROCESS + execs + SOCKETS + TRACE + PIDFD + escape + CHANNELS:
        _add(f, deny, name)
    _add(f, sc.ERRNO(errno.ENOSYS), "clone3")
    if stage in ("server", "program-server"):
        _add(f, deny, "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD | CLONE_NEWUSER, 0))
        for option in (PR_SET_PDEATHSIG, PR_SET_DUMPABLE):
            _add(f, deny, "prctl", sc.Arg(0, sc.EQ, option))
    else:
        _add(f, deny, "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0))
    _signals(sc, f, deny, own_pid)
    for name in SELF_ONLY + PID_GETTERS:
        _add(f, deny, name, sc.Arg(0, sc.NE, 0))
    for name in CPU_CLOCKS:  # another process's or thread's CPU clock: a negative id
        _add(f, deny, name, sc.Arg(0, sc.MASKED_EQ, 0x80000000, 0x80000000))
    for cmd in FCNTL_LOCKS:
        _add(f, deny, "fcntl", sc.Arg(1, sc.EQ, cmd))
    for name, which in (("setpriority", PRIO_PROCESS), ("ioprio_set", IOPRIO_WHO_PROCESS),
                        ("getpriority", PRIO_PROCESS), ("ioprio_get", IOPRIO_WHO_PROCESS)):
        _add(f, deny, name, sc.Arg(0, sc.NE, which))
        _add(f, deny, name, sc.Arg(1, sc.NE, 0))
    if deny_writes:
        _deny_writes(sc, f, deny)
    return f


def _signals(sc, f, deny, own_pid: int) -> None:
    """Signals only to the bot process itself."""
    for name in SIGNALS:
        _add(f, deny, name, sc.Arg(0, sc.NE, own_pid))


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


def compile_bpf(own_pid: int, *, stage: str = "game") -> bytes:
    """The filter as a BPF program (built once in the fork server, loaded by each game)."""
    f = build(own_pid, deny_writes=False, stage=stage)
    r, w = os.pipe()
    try:
        with os.fdopen(w, "wb", closefd=False) as out:
            f.export_bpf(out)
        os.close(w)
        w = -1
        chunks = []
        while chunk := os.read(r, 65536):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(r)
        if w != -1:
            os.close(w)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def load_bpf(program: bytes) -> str:
    """Load a program from :func:`compile_bpf` (needs no_new_privs); returns a detail."""
    if not program or len(program) % 8:
        raise OSError(errno.EINVAL, "not a BPF program")
    buf = ctypes.create_string_buffer(program, len(program))
    prog = _SockFprog(len(program) // 8, ctypes.addressof(buf))
    prctl_pointer(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(prog))
    return "on top of the server's filter: no processes, no mounts"


def load(own_pid: int, *, deny_writes: bool, stage: str = "process") -> str:
    """Build and load the filter into this thread for good; returns a detail."""
    build(own_pid, deny_writes=deny_writes, stage=stage).load()
    if stage == "game":
        return "on top of the server's filter: no processes, no mounts"
    what = ("no processes but game processes in new namespaces" if stage in ("server", "program-server")
            else "no processes")
    execs = "" if stage in ("program-server", "program-process") else "exec, "
    return (f"{what}, {execs}sockets, ptrace, pidfd, acting on or reading about other pids, "
            "file locks, inotify, SysV/POSIX IPC" + (", no file writes" if deny_writes else ""))
