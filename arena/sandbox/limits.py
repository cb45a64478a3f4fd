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
from collections.abc import Iterable

from arena.sandbox import bot_layers, linux
from arena.sandbox.errors import LimitsError
from arena.sandbox.layers import (BOT_LAYERS, LAYERS, RLIMITS, Capabilities, Confinement, Layer,
                                  Limits, Step, Steps)
from arena.sandbox.probe import run_probe
from arena.sandbox.processes import kill_group, reap_orphans

__all__ = ["Limits", "LimitsError", "Layer", "Capabilities", "Step", "Confinement",
           "detect", "confine", "harden_harness", "kill_group", "reap_orphans",
           "LAYERS"]


@functools.cache
def detect() -> Capabilities:
    """Probe (once per process, in a child on Linux) which layers work here."""
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    if not sys.platform.startswith("linux"):
        return _detect_elsewhere(root)
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
    layers = tuple(Layer(n, hasattr(resource, c), c if hasattr(resource, c) else
                         "not on this platform") for n, c in RLIMITS.items())
    return Capabilities(layers, sys.platform, root, f"{sys.platform}: rlimits and "
                        "deadlines only; no namespaces, Landlock or seccomp, so bots "
                        "can read and write files and use the network")

def confine(limits: Limits = Limits(), *,  # noqa: B008 - a frozen dataclass
            writable_dir: str | None = None,
            readable: Iterable[str] | None = None,
            caps: Capabilities | None = None, stage: str = "process",
            program: bytes | None = None, listable: Iterable[str] = (),
            executable: Iterable[str] = ()) -> Confinement:
    """Confine this (fresh, single-threaded) bot process for good; the report.

    ``writable_dir``: the one folder the bot may write in (None: nowhere).
    ``readable``: paths the bot may read (None: the whole file system,
    read-only; else these plus Python's own import paths). ``caps``: the
    harness's :func:`detect` result (default: probe here, ~50 ms). A failed
    step means the process is less confined than detect promised: the caller
    should not run the bot then. ``stage``: ``process``, ``server`` or ``game``
    (see :func:`arena.sandbox.bot_layers.apply_all`); ``executable``: where a program bot's game
    process may run files from (Landlock's execute right; nowhere else).
    """
    if not hasattr(os, "geteuid"):  # Windows: no rlimits, no isolation
        return Confinement(tuple(Step(n, "skipped", f"not on {sys.platform}")
                                 for n in BOT_LAYERS))
    caps = caps if caps is not None else detect()
    threads = linux.thread_count() if sys.platform.startswith("linux") else 1
    if threads > 1:
        return Confinement((Step("confine", "failed", f"{threads} threads running; "
                                 "confine before starting any"),))
    steps = Steps(limits, caps)
    bot_layers.apply_all(steps, limits, writable_dir, readable, stage, program, listable, executable)
    sys.dont_write_bytecode = True
    return steps.done()


def harden_harness() -> Confinement:
    """PR_SET_DUMPABLE 0 and child subreaper on the harness process itself.

    Dumpable 0 keeps same-uid processes out of our /proc/<pid>/mem, environ
    and ptrace; the subreaper flag brings orphaned bot descendants to us, for
    :func:`reap_orphans`. Neither changes how the harness runs its children.
    """
    names = ("dumpable", "subreaper")
    if not sys.platform.startswith("linux"):
        return Confinement(tuple(Step(n, "skipped", f"not on {sys.platform}") for n in names))
    steps = Steps(Limits(), None)
    steps.run("dumpable", _not_dumpable)
    steps.run("subreaper", _subreaper)
    return steps.done()


def _not_dumpable() -> str:
    linux.set_dumpable(False)
    return "PR_SET_DUMPABLE 0"


def _subreaper() -> str:
    linux.set_subreaper()
    return "PR_SET_CHILD_SUBREAPER 1"
