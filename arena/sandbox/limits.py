"""Limits and OS isolation for bot processes, layered and detected at start.

- :class:`Limits`: the configurable values (frozen; ``to_dict``/``from_dict``).
- :func:`detect`: which layers this machine offers (probed once, in a child).
- :func:`confine`: called inside a fresh bot process after its imports and
  before any bot code runs; applies every available layer, in this order:
  ``run_as`` (root only, when set), ``namespaces`` (new user + network
  namespace), the rlimits, ``dumpable`` 0, ``drop_caps``, ``no_new_privs``,
  ``landlock`` (read everywhere, write only in ``writable_dir``), ``seccomp``.
  rlimits come after the namespaces so that RLIMIT_NPROC counts only the
  sandbox's own processes (the new namespace's ceiling is the harness's limit).
- :func:`harden_harness`: ``PR_SET_DUMPABLE 0`` and child subreaper on the
  harness; :func:`kill_group` and :func:`reap_orphans` clean up after bots.

As root (CI): the user namespace, Landlock and seccomp all hold. The kernel
never enforces RLIMIT_NPROC for uid 0, not even inside a new user namespace, so
a root harness relies on seccomp to stop new processes, unless ``run_as`` names
an unprivileged uid (every file the bot imports later must then be readable by
that uid). In the new user namespace the bot has no capability over the
harness: it cannot ptrace it or read its /proc/<pid>/mem or environ; seccomp
and Landlock (ABI 6+) stop it signalling anyone but itself.

Without Landlock, seccomp refuses every open for writing instead, so even
``writable_dir`` is then read-only. With ``run_as``, ``writable_dir`` is
chowned to that uid and its parent folders must be searchable by it.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from arena.game.errors import ArenaError
from arena.sandbox.processes import kill_group, reap_orphans

__all__ = ["Limits", "LimitsError", "Layer", "Capabilities", "Step", "Confinement",
           "detect", "confine", "harden_harness", "kill_group", "reap_orphans",
           "LAYERS"]

RLIMIT_LAYERS = ("rlimit_as", "rlimit_cpu", "rlimit_nofile", "rlimit_fsize",
                 "rlimit_core", "rlimit_nproc")
BOT_LAYERS = ("run_as", "namespaces") + RLIMIT_LAYERS + (
    "dumpable", "drop_caps", "no_new_privs", "landlock", "seccomp")
PROCESS_LAYERS = ("forkserver", "cgroups")
"""How bot processes are made and capped (the client's, not confine's)."""
LAYERS = PROCESS_LAYERS + BOT_LAYERS + ("subreaper", "bwrap")


class LimitsError(ArenaError, ValueError):
    """A limit value or layer name that is not allowed."""


class Skip(Exception):
    """Raised by a layer action that has nothing to do; the message says why."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What a bot process may use. None means "not limited" for a number.

    ``memory_mb`` (RLIMIT_AS), ``cpu_seconds`` (RLIMIT_CPU backstop; the
    per-move clock lives in the referee), ``open_files``, ``file_size_mb``,
    ``processes`` (RLIMIT_NPROC: threads count too), ``run_as`` (a uid to
    switch to when the harness is root), ``disable`` (layer names to skip).
    """

    memory_mb: int | None = 1024
    cpu_seconds: int | None = 600
    open_files: int | None = 64
    file_size_mb: int | None = 1
    processes: int | None = 32
    run_as: int | None = None
    disable: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        for name in ("memory_mb", "cpu_seconds", "open_files", "file_size_mb",
                     "processes", "run_as"):
            _check_positive(name, getattr(self, name))
        if isinstance(self.disable, str):
            raise LimitsError(f"limit 'disable' must be a list of layer names "
                              f"(got the string {self.disable!r})")
        disable = frozenset(self.disable)
        unknown = sorted(disable - set(PROCESS_LAYERS + BOT_LAYERS))
        if unknown:
            raise LimitsError(f"disable names unknown layer {unknown[0]!r}; "
                              f"expected some of {', '.join(PROCESS_LAYERS + BOT_LAYERS)}")
        object.__setattr__(self, "disable", disable)

    def to_dict(self) -> dict:
        """Plain JSON-able data."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        data["disable"] = sorted(self.disable)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Limits:
        """The inverse of :meth:`to_dict`; unknown keys are an error."""
        known = {f.name for f in dataclasses.fields(cls)}
        for key in data:
            if key not in known:
                raise LimitsError(f"unknown limit {key!r}; expected one of "
                                  f"{', '.join(sorted(known))}")
        return cls(**data)


def _check_positive(name: str, value) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise LimitsError(f"limit {name!r} must be a positive integer or None "
                          f"(got {value!r})")


@dataclass(frozen=True, slots=True)
class Layer:
    """One isolation layer as detected: usable here or not, and why."""

    name: str
    available: bool
    detail: str


@dataclass(frozen=True, slots=True)
class Capabilities:
    """Every layer this machine offers, for ``confine`` and ``sandbox-info``."""

    layers: tuple[Layer, ...]
    platform: str
    root: bool
    warning: str | None = None

    def get(self, name: str) -> Layer:
        """The named layer (an unavailable one if never probed)."""
        for layer in self.layers:
            if layer.name == name:
                return layer
        return Layer(name, False, "not probed on this platform")

    def available(self, name: str) -> bool:
        """Whether the named layer works here."""
        return self.get(name).available

    def rows(self) -> list[tuple[str, str, str]]:
        """(layer, "yes"/"no", detail) rows for a table."""
        return [(x.name, "yes" if x.available else "no", x.detail) for x in self.layers]

    def lines(self) -> list[str]:
        """The rows as aligned text lines, then the warning if any."""
        width = max((len(x.name) for x in self.layers), default=0)
        out = [f"{n:<{width}}  {a:<3}  {d}" for n, a, d in self.rows()]
        return out + ([f"warning: {self.warning}"] if self.warning else [])

    def to_dict(self) -> dict:
        """Plain JSON-able data (to hand to a bot process)."""
        return {"platform": self.platform, "root": self.root, "warning": self.warning,
                "layers": [dataclasses.asdict(x) for x in self.layers]}

    @classmethod
    def from_dict(cls, data: dict) -> Capabilities:
        """The inverse of :meth:`to_dict`."""
        layers = tuple(Layer(**x) for x in data["layers"])
        return cls(layers, data["platform"], data["root"], data.get("warning"))


@functools.cache
def detect() -> Capabilities:
    """Probe (once per process, in a child on Linux) which layers work here."""
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    if not sys.platform.startswith("linux"):
        return _detect_elsewhere(root)
    from arena.sandbox.probe import run_probe

    found, error = run_probe()
    layers = tuple(Layer(**x) for x in found)
    caps = Capabilities(layers, sys.platform, root)
    return dataclasses.replace(caps, warning=error or _missing_warning(caps))


def _missing_warning(caps: Capabilities) -> str | None:
    essential = ("forkserver", "rlimit_as", "namespaces", "landlock", "seccomp")
    missing = [n for n in essential if not caps.available(n)]
    if not missing:
        return None
    return f"bots run with weaker isolation: no {', '.join(missing)} here"


def _detect_elsewhere(root: bool) -> Capabilities:
    """macOS and others: the rlimits the resource module has; Windows: none."""
    try:
        import resource
    except ImportError:
        return Capabilities((), sys.platform, root, f"{sys.platform}: no OS limits or "
                            "isolation; bots get deadlines only")
    from arena.sandbox.probe import RLIMITS

    layers = tuple(Layer(n, hasattr(resource, c), c if hasattr(resource, c) else
                         "not on this platform") for n, c in RLIMITS.items())
    return Capabilities(layers, sys.platform, root, f"{sys.platform}: rlimits and "
                        "deadlines only; no namespaces, Landlock or seccomp, so bots "
                        "can read and write files and use the network")


@dataclass(frozen=True, slots=True)
class Step:
    """What confine or harden_harness did about one layer."""

    name: str
    status: str  # "applied", "skipped" or "failed"
    detail: str


@dataclass(frozen=True, slots=True)
class Confinement:
    """The report of :func:`confine`: one step per layer, in order."""

    steps: tuple[Step, ...]

    @property
    def ok(self) -> bool:
        """True when no layer that should have applied failed."""
        return not self.failed

    @property
    def applied(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.steps if s.status == "applied")

    @property
    def failed(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.steps if s.status == "failed")

    def rows(self) -> list[tuple[str, str, str]]:
        """(layer, status, detail) rows for a table."""
        return [(s.name, s.status, s.detail) for s in self.steps]

    def to_dict(self) -> dict:
        """Plain JSON-able data (a bot host can send it to the harness)."""
        return {"steps": [dataclasses.asdict(s) for s in self.steps]}


class _Steps:
    """Runs layer actions in order, turning each outcome into a Step."""

    def __init__(self, limits: Limits, caps: Capabilities | None) -> None:
        """caps None: try every layer."""
        self.limits, self.caps, self.steps = limits, caps, []

    def run(self, name: str, action: Callable[[], str]) -> bool:
        """Apply one layer unless disabled or unavailable; True if applied."""
        if name in self.limits.disable:
            return self._add(name, "skipped", "disabled by Limits.disable")
        if self.caps is not None and not self.caps.available(name):
            return self._add(name, "skipped", f"unavailable: {self.caps.get(name).detail}")
        try:
            detail = action()
        except Skip as e:
            return self._add(name, "skipped", str(e))
        except (OSError, ValueError, ImportError, RuntimeError) as e:
            return self._add(name, "failed", f"{type(e).__name__}: {e}")
        return self._add(name, "applied", detail)

    def _add(self, name: str, status: str, detail: str) -> bool:
        self.steps.append(Step(name, status, detail))
        return status == "applied"

    def done(self) -> Confinement:
        return Confinement(tuple(self.steps))


def confine(limits: Limits = Limits(), *, writable_dir: str | None = None,
            readable: Iterable[str] | None = None,
            caps: Capabilities | None = None, stage: str = "process",
            program: bytes | None = None, listable: Iterable[str] = ()) -> Confinement:
    """Confine this (fresh, single-threaded) bot process for good; the report.

    ``writable_dir``: the one folder the bot may write in (None: nowhere).
    ``readable``: paths the bot may read (None: the whole file system,
    read-only; else these plus Python's own import paths). ``caps``: the
    harness's :func:`detect` result (default: probe here, ~50 ms). A failed
    step means the process is less confined than detect promised: the caller
    should not run the bot then. ``stage``: ``process``, ``server`` or ``game``
    (see :func:`arena.sandbox.bot_layers.apply_all`).
    """
    from arena.sandbox import bot_layers, linux

    if not hasattr(os, "geteuid"):  # Windows: no rlimits, no isolation
        return Confinement(tuple(Step(n, "skipped", f"not on {sys.platform}")
                                 for n in BOT_LAYERS))
    caps = caps if caps is not None else detect()
    threads = linux.thread_count() if sys.platform.startswith("linux") else 1
    if threads > 1:
        return Confinement((Step("confine", "failed", f"{threads} threads running; "
                                 "confine before starting any"),))
    steps = _Steps(limits, caps)
    bot_layers.apply_all(steps, limits, writable_dir, readable, stage, program, listable)
    sys.dont_write_bytecode = True
    return steps.done()


def harden_harness() -> Confinement:
    """PR_SET_DUMPABLE 0 and child subreaper on the harness process itself.

    Dumpable 0 keeps same-uid processes out of our /proc/<pid>/mem, environ
    and ptrace; the subreaper flag brings orphaned bot descendants to us, for
    :func:`reap_orphans`. Neither changes how the harness runs its children.
    """
    from arena.sandbox import linux

    names = ("dumpable", "subreaper")
    if not sys.platform.startswith("linux"):
        return Confinement(tuple(Step(n, "skipped", f"not on {sys.platform}") for n in names))
    steps = _Steps(Limits(), None)
    steps.run("dumpable", lambda: linux.set_dumpable(False) or "PR_SET_DUMPABLE 0")
    steps.run("subreaper", lambda: linux.set_subreaper() or "PR_SET_CHILD_SUBREAPER 1")
    return steps.done()
