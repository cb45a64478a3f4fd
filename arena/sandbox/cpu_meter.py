"""The CPU time of this process and of every process it starts, none missed: for benchmarks and ``arena bench``.

Bots run in processes of their own (a fork server's game processes, exec'd
hosts, discovery children), started by the zygote or by pool workers, some
re-parented as their parents exit; ``time.process_time()`` sees none of them
and a walk of this process's tree misses those re-parented elsewhere.

:func:`start_meter` chooses, and :attr:`CpuMeter.how` says which:

- **a cpuacct control group** (cgroup v1, as root, as on this project's CI
  machines): this process and its live descendants are moved into a group of
  their own, which every process they start afterwards joins by birth (the
  bots' own pids and memory groups are other hierarchies, so they stay in it);
  the kernel's ``cpuacct.usage`` counts every task that ever ran in it, ended
  ones included;
- **a /proc walk** elsewhere (cgroup v2, where the bots' groups would take them
  out of ours; no root): this process becomes a child subreaper, so an orphaned
  descendant is re-parented to it rather than to init and stays in the walk;
  the figure is this process's own and reaped children's time (``os.times``)
  plus every live or unreaped descendant's (``/proc/PID/stat``: its time and its
  reaped children's). A descendant reaped by a process outside the tree (none
  is, with the subreaper) would be missed: the line says "walk".

The figure is CPU seconds since the meter started. A meter is closed when done
(the group is removed, its members moved back).
"""

from __future__ import annotations

import os
import uuid
import weakref
from pathlib import Path

from arena.sandbox import linux, processes

CPUACCT = ("/sys/fs/cgroup/cpuacct", "/sys/fs/cgroup/cpu,cpuacct")
PARENT = "bhabhi-arena"
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class CpuMeter:
    """CPU seconds of this process and all it starts, from :func:`start_meter` on (:attr:`how` says how)."""

    def __init__(self, how: str, group: Path | None, base: float) -> None:
        self.how, self._group, self._base = how, group, base
        self._finalizer = weakref.finalize(self, _remove, group) if group is not None else None

    def seconds(self) -> float:
        """CPU seconds since the meter started."""
        return self._now() - self._base

    def _now(self) -> float:
        if self._group is not None:
            try:
                return int((self._group / "cpuacct.usage").read_text()) / 1e9
            except (OSError, ValueError):
                return float("nan")
        return _walked(os.getpid())

    def close(self) -> None:
        """Move the group's members back to the parent group and remove it (the walk needs nothing); also
        done when the meter is collected or the process exits."""
        self._group = None
        if self._finalizer is not None:
            self._finalizer()

    def __enter__(self) -> CpuMeter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _remove(group: Path) -> None:
    parent = group.parent.parent / "cgroup.procs"
    for pid in _members(group):
        try:
            parent.write_text(str(pid))
        except OSError:
            pass
    try:
        group.rmdir()
    except OSError:
        pass


def start_meter() -> CpuMeter:
    """A meter of this process and its descendants: a cpuacct group where one can be made, else a /proc walk."""
    group, why = _group()
    if group is not None:
        return CpuMeter("cgroup v1 cpuacct: every process started, ended ones included", group, 0.0)
    try:
        linux.set_subreaper()
        reaper = "this process a subreaper, so orphaned descendants stay in the walk"
    except (OSError, AttributeError):
        reaper = "no subreaper here: a descendant orphaned and reaped outside the tree is missed"
    return CpuMeter(f"/proc walk ({why}; {reaper})", None, _walked(os.getpid()))


def _group() -> tuple[Path | None, str]:
    """A new cpuacct group holding this process and its descendants, or (None, why not)."""
    root = next((Path(p) for p in CPUACCT if os.path.isfile(os.path.join(p, "cpuacct.usage"))), None)
    if root is None:
        return None, "no cgroup v1 cpuacct hierarchy"
    group = root / PARENT / f"meter-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    for stale in (root / PARENT).glob("meter-*"):  # of processes killed before they could remove theirs
        if not os.path.exists(f"/proc/{stale.name.split('-')[1]}"):
            _remove(stale)
    try:
        group.mkdir(parents=True)
        for pid in [os.getpid(), *processes.descendants(os.getpid())]:
            (group / "cgroup.procs").write_text(str(pid))
    except OSError as exc:
        try:
            group.rmdir()
        except OSError:
            pass
        return None, f"cannot make a cpuacct group ({exc.strerror or exc})"
    return group, ""


def _members(group: Path) -> list[int]:
    try:
        return [int(x) for x in (group / "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return []


def _cpu(pid: int) -> float:
    """CPU seconds of the process and of its reaped children (0 if it is gone), from /proc/PID/stat."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0  # ended and reaped meanwhile: its time is in its reaper's children's now
    return sum(int(x) for x in fields[11:15]) / _TICK


def _walked(root: int) -> float:
    """``root``'s own and reaped children's CPU seconds plus every live or unreaped descendant's."""
    times = os.times()
    own = times.user + times.system + times.children_user + times.children_system
    return own + sum(_cpu(pid) for pid in processes.descendants(root))
