"""The sandbox's values: layer names, :class:`Limits`, what was detected and what was applied.

Plain frozen values that :mod:`arena.sandbox.limits` (detect, confine),
:mod:`arena.sandbox.bot_layers` (the layer actions) and
:mod:`arena.sandbox.probe` (the trial run) share; this module imports no
other part of the sandbox.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from arena.sandbox.errors import LimitsError

RLIMIT_LAYERS = ("rlimit_as", "rlimit_cpu", "rlimit_nofile", "rlimit_fsize",
                 "rlimit_core", "rlimit_nproc")
BOT_LAYERS = ("run_as", "namespaces") + RLIMIT_LAYERS + (
    "dumpable", "drop_caps", "no_new_privs", "landlock", "seccomp")
PROCESS_LAYERS = ("forkserver", "cgroups")
"""How bot processes are made and capped (the client's, not confine's)."""
LAYERS = PROCESS_LAYERS + BOT_LAYERS + ("subreaper", "bwrap")
RLIMITS = {"rlimit_as": "RLIMIT_AS", "rlimit_cpu": "RLIMIT_CPU",
           "rlimit_nofile": "RLIMIT_NOFILE", "rlimit_fsize": "RLIMIT_FSIZE",
           "rlimit_core": "RLIMIT_CORE", "rlimit_nproc": "RLIMIT_NPROC"}
"""Each rlimit layer and the ``resource`` constant it sets."""


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

class Steps:
    """Runs layer actions in order, turning each outcome into a Step."""

    def __init__(self, limits: Limits, caps: Capabilities | None) -> None:
        """caps None: try every layer."""
        self.limits, self.caps = limits, caps
        self.steps: list[Step] = []

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
