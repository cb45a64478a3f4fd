"""One control group per bot: a cap on its tasks and memory that holds as root.

RLIMIT_NPROC is never enforced for uid 0, so a root harness caps each bot's
processes and threads with the ``pids`` controller and its memory (the
tmpfs it writes included) with the ``memory`` controller: cgroup v1 (one
hierarchy per controller, as on this project's CI machines) or v2 (one
unified hierarchy, where the harness may create groups: as root, or in a
delegated subtree). Elsewhere :func:`available` says why not and the bots get
rlimits only.

Every operation on a group is best effort and never raises: a group that
cannot be made is reported, a group that cannot be removed is left empty.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from dataclasses import dataclass

V1 = "/sys/fs/cgroup"
CONTROLLERS = ("pids", "memory")
PARENT = "bhabhi-arena"


@dataclass(frozen=True, slots=True)
class Group:
    """A bot's control group: its folder in each hierarchy (v1) or the one folder (v2)."""

    paths: tuple[str, ...]
    version: int

    def procs_files(self) -> list[str]:
        """The files a process writes its pid to, to join (one per hierarchy)."""
        return [os.path.join(p, "cgroup.procs") for p in self.paths]

    def members(self) -> list[int]:
        pids: set[int] = set()
        for f in self.procs_files():
            try:
                with open(f) as fh:
                    pids.update(int(x) for x in fh.read().split())
            except (OSError, ValueError):
                pass
        return sorted(pids)

    def kill(self, timeout: float = 2.0) -> bool:
        """SIGKILL every member until none is left (or timeout); True if empty."""
        if self.version == 2 and _write(os.path.join(self.paths[0], "cgroup.kill"), "1"):
            pass
        deadline = time.monotonic() + timeout
        while True:
            pids = self.members()
            if not pids:
                return True
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.002)

    def remove(self) -> None:
        """Kill what is left and remove the folders (errors ignored)."""
        self.kill()
        for p in self.paths:
            for _ in range(50):
                try:
                    os.rmdir(p)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)

    def stat(self, name: str) -> str | None:
        """A control file's content (e.g. ``pids.max``), or None."""
        for p in self.paths:
            try:
                with open(os.path.join(p, name)) as f:
                    return f.read().strip()
            except OSError:
                continue
        return None


def _write(path: str, text: str) -> bool:
    try:
        with open(path, "w") as f:
            f.write(text)
        return True
    except OSError:
        return False


def _v2_root() -> str | None:
    """Where the harness may create v2 groups with both controllers, or None."""
    if not os.path.exists(os.path.join(V1, "cgroup.controllers")):
        return None
    try:
        with open("/proc/self/cgroup") as f:
            own = f.read().strip().split("::", 1)[1]
    except (OSError, IndexError):
        return None
    for base in (V1, os.path.join(V1, own.lstrip("/"))):
        try:
            with open(os.path.join(base, "cgroup.controllers")) as f:
                offered = f.read().split()
        except OSError:
            continue
        if all(c in offered for c in CONTROLLERS) and os.access(base, os.W_OK):
            return base
    return None


def available() -> tuple[int | None, str]:
    """(cgroup version usable here or None, a detail for sandbox-info)."""
    v1 = [os.path.join(V1, c) for c in CONTROLLERS]
    if all(os.path.isdir(p) and os.access(p, os.W_OK) for p in v1):
        return 1, "cgroup v1: pids and memory controllers"
    if _v2_root() is not None:
        return 2, "cgroup v2: pids and memory controllers"
    if os.path.isdir(V1):
        return None, ("no writable pids and memory controllers (not root, or cgroup v2 "
                      "without a delegated subtree): processes capped by RLIMIT_NPROC only")
    return None, "no cgroup file system"


def create(pids_max: int | None, memory_bytes: int | None) -> tuple[Group | None, str]:
    """A new group with those caps: (group, detail) or (None, why not)."""
    version, detail = available()
    name = f"bot-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    if version == 1:
        paths = tuple(os.path.join(V1, c, PARENT, name) for c in CONTROLLERS)
    elif version == 2:
        base = os.path.join(_v2_root() or V1, PARENT)
        if not _prepare_v2(base):
            return None, f"cgroup v2: could not enable pids and memory under {base}"
        paths = (os.path.join(base, name),)
    else:
        return None, detail
    for p in paths:
        _remove_stale(os.path.dirname(p))
    try:
        for p in paths:
            os.makedirs(p)
    except OSError as e:
        Group(paths, version).remove()
        return None, f"could not create {paths[0]}: {e.strerror}"
    group = Group(paths, version)
    ok = _limit(group, pids_max, memory_bytes)
    if not ok:
        group.remove()
        return None, f"could not set limits in {paths[0]}"
    return group, detail


def _remove_stale(parent: str) -> None:
    """Remove the groups of harnesses that died without cleaning up (killed with -9)."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        parts = name.split("-")
        if len(parts) != 3 or parts[0] != "bot" or not parts[1].isdigit():
            continue
        if not os.path.exists(f"/proc/{parts[1]}"):
            try:
                os.rmdir(os.path.join(parent, name))  # fails (and stays) while it has members
            except OSError:
                pass


def _prepare_v2(base: str) -> bool:
    try:
        os.makedirs(base, exist_ok=True)
    except OSError:
        return False
    parent = os.path.dirname(base)
    wanted = " ".join(f"+{c}" for c in CONTROLLERS)
    _write(os.path.join(parent, "cgroup.subtree_control"), wanted)
    return _write(os.path.join(base, "cgroup.subtree_control"), wanted)


def _limit(group: Group, pids_max: int | None, memory_bytes: int | None) -> bool:
    ok = True
    if pids_max is not None:
        ok &= any(_write(os.path.join(p, "pids.max"), str(pids_max)) for p in group.paths)
    if memory_bytes is not None:
        name = "memory.limit_in_bytes" if group.version == 1 else "memory.max"
        ok &= any(_write(os.path.join(p, name), str(memory_bytes)) for p in group.paths)
        if group.version == 2:
            for p in group.paths:
                _write(os.path.join(p, "memory.swap.max"), "0")
    return bool(ok)
