"""What this machine offers, found by trying each layer in a throw-away process.

:func:`run_probe` is what :func:`arena.sandbox.limits.detect` calls: it starts
``python -c`` with :func:`main`, which applies every layer for real, in the
order :func:`~arena.sandbox.limits.confine` uses, and prints one JSON list of
``{"name", "available", "detail"}``. The harness itself is never changed.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable

from arena.sandbox.layers import RLIMITS

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_HINTS = {
    "namespaces": "is kernel.unprivileged_userns_clone or "
                  "kernel.apparmor_restrict_unprivileged_userns blocking it?",
    "landlock": "kernel >= 5.13 with landlock in its lsm= list",
}


def run_probe(timeout: float = 30.0) -> tuple[list[dict], str | None]:
    """Run :func:`main` in a fresh interpreter; (layers, error text or None)."""
    # The arena this harness runs (arena/__init__ imports nothing until asked).
    code = f"import sys; sys.path.insert(0, {_ROOT!r}); from arena.sandbox.probe import main; main()"
    try:
        out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True,
                             timeout=timeout, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as e:
        return [], f"sandbox probe did not run: {e}"
    try:
        return json.loads(out.stdout.decode().strip().splitlines()[-1]), None
    except (ValueError, IndexError):
        tail = out.stderr.decode(errors="replace").strip().splitlines()[-1:]
        return [], f"sandbox probe failed (exit {out.returncode}): {' '.join(tail)}"


def main() -> None:
    """Try every layer on this very process, then print the findings."""
    found = []
    _preload()

    def trial(name: str, apply: Callable[[], str]) -> None:
        found.append(_trial(name, apply))

    trial("forkserver", _forkserver)
    trial("cgroups", _cgroups)
    for name, const in RLIMITS.items():
        trial(name, functools.partial(_rlimit, name, const))
    trial("run_as", _run_as)
    trial("dumpable", _dumpable)
    trial("subreaper", _subreaper)
    trial("namespaces", _namespaces)
    trial("drop_caps", _drop_caps)
    trial("no_new_privs", _no_new_privs)
    trial("bwrap", _bwrap)
    trial("landlock", _landlock)
    trial("seccomp", _seccomp)
    print(json.dumps(found), flush=True)


def _forkserver() -> str:
    """Clone into the server's namespaces, mount a tmpfs and /proc there, and back."""
    from arena.sandbox import namespaces

    go_r, go_w = os.pipe()
    pid = namespaces.clone(namespaces.SERVER_FLAGS)
    if pid == 0:
        os.close(go_w)
        os.read(go_r, 1)
        try:
            namespaces.mount(None, "/", None, namespaces.MS_REC | namespaces.MS_PRIVATE)
            namespaces.mount("tmpfs", "/tmp", "tmpfs", namespaces.MS_NOSUID, "size=64k")
            namespaces.mount("proc", "/proc", "proc", namespaces.MS_NOSUID)
            os._exit(0 if os.getpid() == 1 else 3)
        except OSError as e:
            os._exit(10 + (e.errno or 0) % 100)
    os.close(go_r)
    try:
        namespaces.write_id_maps(pid, f"0 {os.geteuid()} 1", f"0 {os.getegid()} 1")
    finally:
        os.write(go_w, b"g")
        os.close(go_w)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise _No(f"a process in new namespaces could not mount its /tmp and /proc "
                  f"(errno {code - 10})" if code >= 10 else f"probe child exited {code}")
    return ("a fork server per bot, a fresh process per game: own user, PID, mount, "
            "network, IPC and UTS namespaces, a read-only root, a private /tmp")


def _cgroups() -> str:
    from arena.sandbox import cgroups

    version, detail = cgroups.available()
    if version is None:
        raise _No(detail)
    return detail


class _No(Exception):
    """A layer that is missing for a reason we can name ourselves."""


def _preload() -> None:
    """Load pyseccomp now: its import runs ldconfig, which Landlock would stop."""
    try:
        from arena.sandbox import seccomp

        seccomp.binding()
    except (ImportError, RuntimeError):
        pass


def _trial(name: str, apply: Callable[[], str]) -> dict:
    """One layer's finding: never raises."""
    try:
        return {"name": name, "available": True, "detail": apply()}
    except _No as e:
        return {"name": name, "available": False, "detail": str(e)}
    except (ImportError, RuntimeError) as e:
        return {"name": name, "available": False, "detail": _missing(name, e)}
    except OSError as e:
        return {"name": name, "available": False, "detail": _refused(name, e)}


def _refused(name: str, e: OSError) -> str:
    code = errno.errorcode.get(e.errno or 0, str(e.errno))
    text = f"not supported: {code}" if e.errno == errno.ENOSYS else f"refused: {code}"
    hint = _HINTS.get(name)
    return f"{text} ({hint})" if hint else f"{text} ({e.strerror})"


def _missing(name: str, e: Exception) -> str:
    if name == "seccomp" and isinstance(e, ImportError):
        return "pyseccomp is not installed (pip install pyseccomp)"
    if name == "seccomp":
        return "libseccomp.so.2 not found (apt-get install libseccomp2)"
    return f"unavailable: {e}"


def _rlimit(name: str, const: str) -> str:
    import resource

    resource_id = getattr(resource, const)
    soft, hard = resource.getrlimit(resource_id)
    resource.setrlimit(resource_id, (soft, hard))
    if name == "rlimit_nproc" and os.geteuid() == 0:
        return ("set, but the kernel exempts uid 0 even inside a user namespace; "
                "Limits.run_as makes it count")
    return f"{const} (now {_fmt(soft)})"


def _fmt(value: int) -> str:
    import resource

    return "unlimited" if value == resource.RLIM_INFINITY else str(value)


def _run_as() -> str:
    if os.geteuid() != 0:
        raise _No(f"not root (uid {os.geteuid()}): bots already run unprivileged")
    return "root: may switch bots to Limits.run_as (off unless set)"


def _dumpable() -> str:
    from arena.sandbox import linux

    linux.set_dumpable(False)
    return "PR_SET_DUMPABLE 0"


def _subreaper() -> str:
    from arena.sandbox import linux

    linux.set_subreaper()
    return "PR_SET_CHILD_SUBREAPER 1"


def _namespaces() -> str:
    from arena.sandbox import linux

    linux.unshare_user_net()
    return "unshare(CLONE_NEWUSER|CLONE_NEWNET|CLONE_NEWIPC): no network"


def _drop_caps() -> str:
    from arena.sandbox import linux

    linux.drop_capabilities()
    return "all capabilities dropped"


def _no_new_privs() -> str:
    from arena.sandbox import linux

    linux.set_no_new_privs()
    return "PR_SET_NO_NEW_PRIVS 1"


def _bwrap() -> str:
    path = shutil.which("bwrap")
    if path is None:
        raise _No("not installed (apt-get install bubblewrap); not needed")
    return f"{path} (present; not used by the harness)"


def _landlock() -> str:
    from arena.sandbox import landlock

    abi = landlock.abi_version()
    landlock.restrict(abi, writable=None, readable=["/"])
    return landlock.describe(abi)


def _seccomp() -> str:
    from arena.sandbox import seccomp

    seccomp.load(os.getpid(), deny_writes=False)
    return seccomp.describe()
