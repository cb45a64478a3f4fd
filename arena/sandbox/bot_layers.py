"""The layer actions :func:`arena.sandbox.limits.confine` runs, in order.

Each action returns a short detail of what it did, raises
:class:`~arena.sandbox.layers.Skip` when there is nothing to do, and lets
OSError through when the kernel refuses.
"""

from __future__ import annotations

import os
import sys

try:
    import resource
except ImportError:  # Windows: confine() skips every layer before one needs it
    resource = None  # type: ignore[assignment]  # never read there
from collections.abc import Iterable

from arena.sandbox import landlock, linux, seccomp
from arena.sandbox.layers import RLIMIT_LAYERS, RLIMITS, Limits, Skip

_MIB = 1 << 20


def apply_all(steps, limits: Limits, writable_dir: str | None,
              readable: Iterable[str] | None, stage: str = "process",
              program: bytes | None = None, listable: Iterable[str] = (),
              executable: Iterable[str] = ()) -> None:
    """Run every bot layer through steps (a :class:`~arena.sandbox.layers.Steps`), in order.

    ``stage``: ``process`` (an exec'd bot process, every layer here), ``server``
    (the fork server, already in its namespaces and read-only root: Landlock is
    left to each game process, since it would forbid their mounts) or ``game``
    (a game process cloned by the server, in namespaces of its own: it drops
    the capabilities it holds there, then Landlock and its own seccomp filter;
    ``executable``: where a program bot's game process may run files from) or
    ``program-server`` (a program bot's fork server: the server's layers, its
    seccomp filter allowing exec) or ``program-process`` (a program bot's exec'd
    process: every layer of ``process``, Landlock's execute right on
    ``executable`` only, its seccomp filter allowing exec).
    """
    _preload_seccomp()
    if stage == "game":
        _game_layers(steps, writable_dir, program, executable)
        return
    if stage in ("server", "program-server"):
        _server_layers(steps, limits, stage)
        return
    was_root = os.geteuid() == 0
    switched = steps.run("run_as", lambda: _run_as(limits.run_as, writable_dir))
    in_ns = steps.run("namespaces", _namespaces)
    uid0 = was_root and not switched
    for name in RLIMIT_LAYERS:
        steps.run(name, lambda name=name: _rlimit(name, limits, in_ns, uid0))
    steps.run("dumpable", _dumpable)
    steps.run("drop_caps", _drop_caps)
    steps.run("no_new_privs", _no_new_privs)
    fenced = steps.run("landlock", lambda: _landlock(writable_dir, readable, listable, executable))
    steps.run("seccomp", lambda: seccomp.load(os.getpid(), deny_writes=not fenced, stage=stage))


def _server_layers(steps, limits: Limits, stage: str = "server") -> None:
    steps.run("run_as", lambda: _mapped_uid(limits))
    steps.run("namespaces", lambda: "new user, PID, mount, network, IPC and UTS namespaces; "
                                    "a read-only root with only the runtime and the bot's package")
    uid0 = os.geteuid() == 0 and _outer_uid() == 0
    for name in RLIMIT_LAYERS:
        steps.run(name, lambda name=name: _rlimit(name, limits, True, uid0))
    steps.run("dumpable", _dumpable)
    steps.run("drop_caps", _drop_caps)
    steps.run("no_new_privs", _no_new_privs)
    steps.run("landlock", lambda: _skip("applied in each game process"))
    steps.run("seccomp", lambda: seccomp.load(os.getpid(), deny_writes=False, stage=stage))


def _game_layers(steps, writable_dir: str | None, program: bytes | None, executable: Iterable[str] = ()) -> None:
    steps.run("namespaces", lambda: "its own user, PID and mount namespaces, "
                                    "a fresh /tmp and /proc")
    steps.run("dumpable", _still_undumpable)
    steps.run("drop_caps", _drop_game_caps)
    steps.run("no_new_privs", _no_new_privs)
    fenced = steps.run("landlock", lambda: landlock.restrict(
        landlock.abi_version(), writable=writable_dir, readable=["/"], executable=executable))
    if program is not None and fenced:
        steps.run("seccomp", lambda: seccomp.load_bpf(program))
    else:
        steps.run("seccomp", lambda: seccomp.load(os.getpid(), deny_writes=not fenced,
                                                  stage="game"))


def _drop_game_caps() -> str:
    """Empty the capability sets a game process holds in its own user namespace.

    The bounding set may stay: with no exec (seccomp) and no new privileges
    nothing can raise capabilities from it again.
    """
    linux.drop_capabilities(bounding=False)
    return "no capabilities left (in its own user namespace)"


def _still_undumpable() -> str:
    """The server's PR_SET_DUMPABLE 0 is inherited (and locked by its seccomp filter)."""
    if linux.prctl(linux.PR_GET_DUMPABLE) != 0:
        raise OSError(1, "the game process is dumpable")
    return "PR_SET_DUMPABLE 0 (the server's, locked)"


def _mapped_uid(limits: Limits) -> str:
    outer = _outer_uid()
    if outer == 0:
        raise Skip("uid 0 outside (its own user namespace; no capability outside it)")
    return f"uid {outer} outside its user namespace" + (" (Limits.run_as)" if limits.run_as else "")


def _skip(why: str) -> str:
    raise Skip(why)


def _outer_uid() -> int:
    """The uid this process has outside its user namespace (from uid_map)."""
    me = os.geteuid()
    try:
        with open("/proc/self/uid_map") as f:
            for line in f:
                inside, outside, count = (int(x) for x in line.split())
                if inside <= me < inside + count:
                    return outside + me - inside
    except (OSError, ValueError):
        pass
    return me


def _preload_seccomp() -> None:
    """Import pyseccomp first: its import runs ldconfig, which later layers stop."""
    try:
        seccomp.binding()
    except (ImportError, RuntimeError):
        pass  # the seccomp step reports it


def _run_as(uid: int | None, writable_dir: str | None) -> str:
    if uid is None:
        raise Skip("Limits.run_as not set: stays uid 0")
    if writable_dir is not None:
        os.chown(writable_dir, uid, uid)
    linux.switch_user(uid, uid)
    return f"uid and gid {uid}, no supplementary groups"


def _namespaces() -> str:
    linux.unshare_user_net()
    return "new user, network and IPC namespaces: no network, no capability outside"


def _limit_value(name: str, limits: Limits) -> int | None:
    mib = {"rlimit_as": limits.memory_mb, "rlimit_fsize": limits.file_size_mb}
    if name in mib:
        mib_value = mib[name]
        return None if mib_value is None else mib_value * _MIB
    return {"rlimit_cpu": limits.cpu_seconds, "rlimit_nofile": limits.open_files,
            "rlimit_core": 0, "rlimit_nproc": limits.processes}[name]


def _rlimit(name: str, limits: Limits, in_ns: bool, uid0: bool) -> str:
    value = _limit_value(name, limits)
    if value is None:
        raise Skip("not limited (None in Limits)")
    if name == "rlimit_nproc" and not in_ns and not uid0:
        raise Skip("needs the user namespace, else it counts every process of this uid")
    which = getattr(resource, RLIMITS[name])
    soft, hard = _clamp(value, name == "rlimit_cpu", resource.getrlimit(which)[1])
    resource.setrlimit(which, (soft, hard))
    if name == "rlimit_nproc" and uid0:
        return f"{soft}, but not enforced for uid 0 (seccomp stops new processes)"
    return f"{soft}" if soft == hard else f"{soft} (hard {hard})"


def _clamp(value: int, cpu: bool, hard_now: int) -> tuple[int, int]:
    """(soft, hard): RLIMIT_CPU gets a 1 s grace to SIGKILL after SIGXCPU."""
    hard = value + 1 if cpu else value
    if hard_now != resource.RLIM_INFINITY:
        hard = min(hard, hard_now)
    return min(value, hard), hard


def _dumpable() -> str:
    linux.set_dumpable(False)
    return "PR_SET_DUMPABLE 0"


def _drop_caps() -> str:
    linux.drop_capabilities()
    return "no capabilities left, bounding set empty"


def _no_new_privs() -> str:
    linux.set_no_new_privs()
    return "PR_SET_NO_NEW_PRIVS 1"


def _landlock(writable_dir: str | None, readable: Iterable[str] | None,
              listable: Iterable[str] = (), executable: Iterable[str] = ()) -> str:
    paths = ["/"] if readable is None else _with_python_paths(readable)
    return landlock.restrict(landlock.abi_version(), writable=writable_dir, readable=paths,
                             listable=[p for p in listable if os.path.exists(p)], executable=executable)


def _with_python_paths(readable: Iterable[str]) -> list[str]:
    """readable plus the interpreter's prefixes and the import paths inside them.

    Not every sys.path entry: PYTHONPATH names the folder the arena package is
    in (a checkout, say), and only its packages, listed in readable, may be read.
    """
    prefixes = [sys.prefix, sys.base_prefix, sys.exec_prefix]
    inside = tuple(os.path.realpath(p) + os.sep for p in prefixes)
    own = prefixes + [p for p in sys.path if p and (os.path.realpath(p) + os.sep).startswith(inside)]
    paths = [p for p in list(readable) + own if p and os.path.exists(p)]  # as the bot sees them
    return list(dict.fromkeys(os.path.abspath(p) for p in paths))
