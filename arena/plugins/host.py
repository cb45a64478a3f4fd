"""The confined side of plugin discovery: ``main([PARENT])`` in a fork of the harness's zygote
(:mod:`arena.sandbox.zygote`), or ``python -s -P -B -m arena.plugins.host PARENT``.

Started by :func:`arena.plugins.discovery.discover` with a scrubbed environment, in
``/``, as the leader of its own process group. In order, it:

1. asks the kernel to kill it when the harness dies (``PR_SET_PDEATHSIG``);
2. imports the arena library (the harness's own code, which every plugin
   imports) while still unconfined;
3. reads its request from stdin: the plugin's name and entry point, the
   folders to put on ``sys.path``, the limits, the harness's :func:`detect`
   report and what it may read;
4. points its stdout at ``/dev/null`` (a plugin's prints go nowhere; the
   report has its own copy of the pipe) and confines itself
   (:func:`arena.sandbox.limits.confine`: no writable folder at all);
5. only then imports the plugin's module, calls its hooks
   (:func:`arena.plugins.registry.describe_plugin`) and writes one JSON report:
   ``{"players": [{"name", "description", "version", "factory"}],
   "presets": [Rules.to_dict()], "observes": bool, "module_version": str,
   "problems": [str]}``, or ``{"error": ...}`` when it could not be confined.

The harness trusts none of it: it checks every field, caps sizes and strips
control characters (:func:`arena.plugins.registry.load`).

:func:`load_plugin` and :func:`plugin_factory` are also what a bot's sandbox
host (:mod:`arena.sandbox.host`, confined too) uses to build a third-party
player: it loads only that player's plugin. Nothing in this module is ever
called in the harness, since all of it runs plugin code.
"""

from __future__ import annotations

import importlib.metadata as metadata
import json
import os
import signal
import sys
from typing import Any, Callable

import pluggy

import arena
from arena.bots import hookspecs
from arena.plugins.errors import PluginError
from arena.plugins.options import accepted_options
from arena.plugins.registry import ENTRY_POINT_GROUP, PluginProblem, offered_players, offered_presets
from arena.sandbox import linux
from arena.sandbox.limits import Capabilities, Limits, confine

MAX_REQUEST = 1 << 20
PLUGIN_API = arena.api()
"""The library plugins import, loaded before confinement."""
PR_SET_PDEATHSIG = 1


def main(argv: list[str] | None = None) -> int:
    """Serve one request (see the module docstring); the exit status."""
    parent = int((sys.argv[1:] if argv is None else argv)[0])
    _die_with(parent)
    request = json.loads(sys.stdin.buffer.read(MAX_REQUEST))
    report_fd = _quiet_stdio()
    for folder in reversed(request["path"]):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    confinement = confine(Limits.from_dict(request["limits"]), writable_dir=None,
                          readable=request["readable"] + request["path"],  # the plugin's own folders
                          caps=Capabilities.from_dict(request["caps"]))
    if not confinement.ok:
        failed = "; ".join(f"{s.name}: {s.detail}" for s in confinement.steps if s.status == "failed")
        _send(report_fd, {"error": f"its discovery process could not be confined ({failed})"})
        return 1
    _die_with(parent)  # credential changes may have cleared it
    _send(report_fd, describe_plugin(request["plugin"], request["entry_point"]))
    return 0


def _die_with(parent: int) -> None:
    try:
        linux.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass  # not Linux: the harness's timeout stops us instead
    if os.getppid() != parent:
        os._exit(0)


def _quiet_stdio() -> int:
    """A private copy of stdout for the report; fds 0 and 1 become /dev/null."""
    report_fd = os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    return report_fd


def _send(fd: int, report: dict) -> None:
    data = json.dumps(report, ensure_ascii=True).encode()
    while data:
        data = data[os.write(fd, data):]
    os.close(fd)


# ------------------------------------------------- what runs plugin code
def load_plugin(name: str, entry_point: str) -> tuple[pluggy.PluginManager, Any]:
    """Import one plugin's entry point and register it alone (in a confined process only)."""
    obj = metadata.EntryPoint(name=name, value=entry_point, group=ENTRY_POINT_GROUP).load()
    pm = pluggy.PluginManager("arena")
    pm.add_hookspecs(hookspecs)
    pm.register(obj, name=name)
    return pm, obj


def describe_plugin(name: str, entry_point: str) -> dict:
    """What one plugin offers, as the plain data of the report."""
    try:
        pm, obj = load_plugin(name, entry_point)
    except BaseException as exc:  # noqa: BLE001 - a plugin's import: anything may happen
        return {"players": [], "presets": [], "problems": [f"failed to load: {type(exc).__name__}: {exc}"]}
    problems: list[PluginProblem] = []
    players = [{"name": s.name, "description": _text(s.description), "version": _text(s.version),
                "factory": _qualified(s.factory), "accepts": accepted_options(s.factory)}
               for s in offered_players(pm, name, problems)]
    presets = [rules.to_dict() for rules in offered_presets(pm, problems)]
    return {"players": players, "presets": presets, "module_version": _text(getattr(obj, "__version__", "")),
            "observes": bool(pm.hook.arena_game_finished.get_hookimpls()),
            "problems": [p.message for p in problems]}


def plugin_factory(plugin: str, entry_point: str, player: str) -> Callable[..., Any]:
    """The factory of ``player``, from the one plugin named (in a bot's sandbox host)."""
    pm, _ = load_plugin(plugin, entry_point)
    problems: list[PluginProblem] = []
    for spec in offered_players(pm, plugin, problems):
        if spec.name == player:
            return spec.factory
    why = f" ({problems[0].message})" if problems else ""
    raise PluginError(f"plugin {plugin} does not offer player {player!r}{why}")


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _qualified(factory: Any) -> str:
    module, qualname = getattr(factory, "__module__", None), getattr(factory, "__qualname__", None)
    return f"{module}:{qualname}" if isinstance(module, str) and isinstance(qualname, str) else ""


if __name__ == "__main__":
    status = main()
    sys.stderr.flush()
    os._exit(status)  # no waiting for threads or atexit handlers a plugin left behind
