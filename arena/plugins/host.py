"""The confined side of plugin discovery: ``main([PARENT])`` in a fork of the harness's zygote
(:mod:`arena.sandbox.zygote`), or ``python -s -P -B -m arena.plugins.host PARENT``.

Started by :func:`arena.plugins.discovery.discover` with a scrubbed environment, in
``/``, as the leader of its own process group. In order, it:

1. asks the kernel to kill it when the harness dies (``PR_SET_PDEATHSIG``);
2. imports the arena library (the harness's own code, which every plugin
   imports) while still unconfined;
3. reads its request from stdin: the plugin's name and entry point, the
   folders to put on ``sys.path``, the limits, the harness's :func:`detect`
   report, what it may read, and its temporary folder (``tmp``, made by the
   harness, empty, its ``HOME`` and working folder; the harness removes it
   afterwards) with the options of the tmpfs to mount there (``tmpfs``);
4. mounts that tmpfs on its temporary folder in a mount namespace of its own
   (:func:`arena.sandbox.namespaces.private_tmpfs`: size and files capped,
   seen by no other process, gone when it exits); where it cannot, or
   ``tmpfs`` is None, it writes in the harness's folder itself; makes it
   ``tempfile``'s folder (``tempfile.tempdir``);
5. points its stdout at ``/dev/null`` (a plugin's prints go nowhere; the
   report has its own copy of the pipe) and confines itself
   (:func:`arena.sandbox.limits.confine`: the temporary folder is the only
   writable one);
6. only then imports the plugin's module, calls its hooks
   (:func:`describe_plugin`) and writes one JSON report:
   ``{"players": [{"name", "description", "version", "factory"}],
   "presets": [Rules.to_dict()], "observes": bool, "module_version": str,
   "problems": [str]}``, or ``{"error": ...}`` when it could not be confined.
   A module that fails to import is one problem in words for its author
   (:func:`load_failure`): a write outside the temporary folder, a module
   that is not installed, else the exception's type and message. A bot in one file
   (``file`` in the request, :mod:`arena.plugins.file_bots`) has its module imported and its
   class looked up instead (:func:`arena.plugins.file_host.describe_file`).

The harness trusts none of it: it checks every field, caps sizes and strips
control characters (:func:`arena.plugins.registry.load`).

:func:`load_plugin` and :func:`plugin_factory` are also what a bot's sandbox
host (:mod:`arena.sandbox.host`, confined too) uses to build a third-party
player: it loads only that player's plugin. Nothing in this module is ever
called in the harness, since all of it runs plugin code.
"""

from __future__ import annotations

import errno
import importlib.metadata as metadata
import importlib.util
import json
import os
import signal
import sys
import tempfile
import traceback
from typing import Any
from collections.abc import Callable

try:
    import resource
except ImportError:  # Windows: discovery needs a POSIX system anyway
    resource = None  # type: ignore[assignment]  # a module or None: every use checks it first

import pluggy

import arena
from arena.bots import hookspecs
from arena.bots.errors import PluginError
from arena.bots.hookimpl import PROJECT
from arena.bots.options import accepted_options
from arena.plugins.file_host import describe_file
from arena.plugins.registry import ENTRY_POINT_GROUP, PluginProblem, offered_players, offered_presets
from arena.sandbox import linux, namespaces
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
    tmp = private_tmp(request["tmp"], request.get("tmpfs"))
    one_file = request.get("file")  # a bot in one file: its modules readable, its folder listable only
    confinement = confine(Limits.from_dict(request["limits"]), writable_dir=tmp,
                          readable=request["readable"] + request["path"]  # the plugin's own folders
                          + (one_file["readable"] if one_file else []),
                          listable=[os.path.dirname(one_file["path"])] if one_file else (),
                          caps=Capabilities.from_dict(request["caps"]))
    if not confinement.ok:
        failed = "; ".join(f"{s.name}: {s.detail}" for s in confinement.steps if s.status == "failed")
        _send(report_fd, {"error": f"its discovery process could not be confined ({failed})"})
        return 1
    _die_with(parent)  # credential changes may have cleared it
    writable = tmp if "landlock" in confinement.applied else (
        "" if "seccomp" in confinement.applied else None)  # seccomp alone refuses every write
    _send(report_fd, describe_file(one_file) if one_file else
          describe_plugin(request["plugin"], request["entry_point"], writable))
    return 0


def private_tmp(folder: str, tmpfs: str | None) -> str:
    """Make ``folder`` (the harness's, empty) this process's temporary folder: a private tmpfs
    mounted on it when ``tmpfs`` (its options) is given and the kernel allows, else the folder as
    it is; also the working folder and ``tempfile``'s (``HOME`` is it already). The folder."""
    if tmpfs and sys.platform.startswith("linux"):
        try:
            namespaces.private_tmpfs(folder, tmpfs)
        except OSError:
            pass  # no mount namespace here: the harness's folder, which it removes afterwards
    os.chdir(folder)
    tempfile.tempdir = folder
    return folder


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
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(obj, name=name)
    return pm, obj


def describe_plugin(name: str, entry_point: str, writable: str | None = None) -> dict:
    """What one plugin offers, as the plain data of the report (``writable``, for the words of a
    failed import: see :func:`load_failure`)."""
    try:
        pm, obj = load_plugin(name, entry_point)
    except BaseException as exc:  # noqa: BLE001 - a plugin's import: anything may happen
        return {"players": [], "presets": [], "problems": [load_failure(exc, entry_point, writable)]}
    problems: list[PluginProblem] = []
    players = [{"name": s.name, "description": _text(s.description), "version": _text(s.version),
                "factory": _qualified(s.factory), "accepts": accepted_options(s.factory)}
               for s in offered_players(pm, name, problems)]
    presets = [rules.to_dict() for rules in offered_presets(pm, problems)]
    return {"players": players, "presets": presets, "module_version": _text(getattr(obj, "__version__", "")),
            "observes": bool(pm.hook.arena_game_finished.get_hookimpls()),
            "problems": [p.message for p in problems]}


def load_failure(exc: BaseException, entry_point: str, writable: str | None) -> str:
    """A failed import in words for the plugin's author, one line (the harness strips controls).

    ``writable``: the one folder the process may write in ("": none; None: writes are not fenced
    here). The place named is the innermost frame in the plugin's own files.
    """
    top = entry_point.split(":", 1)[0].strip().split(".", 1)[0]
    kind, where = type(exc).__name__, _plugin_frame(exc, top)
    at = f" ({where})" if where else ""
    if isinstance(exc, ModuleNotFoundError) and isinstance(exc.name, str) and exc.name:
        return f"failed to load: {kind}: " + _missing(exc.name[:100], top, at)
    if isinstance(exc, OSError):
        said = _os_error(exc, at, writable)
        if said:
            return f"failed to load: {kind}: {said}"
    return f"failed to load: {kind}: {_said(exc)}"


def _missing(module: str, top: str, at: str) -> str:
    if module == top:
        return f"no module named {module!r}: the package does not hold the module its entry point names"
    if module.split(".", 1)[0] == top:
        return f"it imports {module!r}{at}, which its package does not hold: ship that module in the package"
    return (f"it imports {module!r}{at}, which is not installed: install it into the Python environment "
            f"the arena runs in, or ship it inside the plugin's package")


_REFUSED = (errno.EACCES, errno.EPERM, errno.EROFS)


def _os_error(exc: OSError, at: str, writable: str | None) -> str | None:
    """What an OSError of a write, a read or a full folder says to the author; None: nothing more
    than the error's own words."""
    path = exc.filename if isinstance(exc.filename, str) else None
    if exc.errno == errno.EFBIG:
        return (f"a file it wrote grew too large{at}: while a plugin is discovered a file may hold at most "
                f"{_file_cap()}")
    if exc.errno in (errno.ENOSPC, errno.EDQUOT) and writable:
        return f"its temporary folder {writable} is full{at} (its size and number of files are capped)"
    if exc.errno == errno.ENOENT and path is None and writable == "":  # tempfile found no folder
        return f"{_said(exc)}{at}: while a plugin is discovered nothing is writable on this machine"
    if exc.errno not in _REFUSED or path is None or writable is None or _inside(path, writable):
        return None
    writes = (f"write only in its temporary folder, {writable} (tempfile.gettempdir() and HOME)"
              if writable else "write nowhere on this machine")
    if not _readable(path):
        return (f"it may not open {path[:200]!r}{at}: while a plugin is discovered it may read only the "
                f"Python runtime, the arena and its own package, and {writes}")
    return f"it may not write {path[:200]!r}{at}: while a plugin is discovered it may {writes}"


def _readable(path: str) -> bool:
    """Whether this process may open ``path`` for reading (so a refusal there was of a write)."""
    try:
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC))
    except FileNotFoundError:
        return True  # nothing there to read: the refusal was of making it
    except OSError:
        return False
    return True


def _inside(path: str, folder: str) -> bool:
    path, folder = os.path.abspath(path), os.path.abspath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _file_cap() -> str:
    """The file size limit (RLIMIT_FSIZE) of this process, in words."""
    cap = resource.getrlimit(resource.RLIMIT_FSIZE)[0] if resource is not None else -1
    unlimited = cap < 0 or cap == resource.RLIM_INFINITY
    return "the size its limits allow" if unlimited else f"{cap / (1 << 20):g} MiB"


def _plugin_frame(exc: BaseException, top: str) -> str:
    """``file:line`` of the innermost frame of ``exc``'s traceback in the plugin's own files
    (relative to the folder they are imported from); "" if none."""
    try:
        spec = importlib.util.find_spec(top) if top.isidentifier() else None
    except Exception:  # noqa: BLE001 - a finder of the plugin's: no frame then
        spec = None
    if spec is None:
        return ""
    own = [*(spec.submodule_search_locations or ())] or ([spec.origin] if spec.origin else [])
    own = [os.path.realpath(p) for p in own]
    found = ""
    for frame, line in traceback.walk_tb(exc.__traceback__):
        name = os.path.realpath(frame.f_code.co_filename)
        for place in own:
            if name == place or name.startswith(place + os.sep):
                found = f"{os.path.relpath(name, os.path.dirname(place))[:150]}:{line}"
    return found


def _said(exc: BaseException, limit: int = 300) -> str:
    """The exception's own message, at most ``limit`` characters (its ``__str__`` is the plugin's)."""
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001
        return "(its message could not be shown)"
    return text if len(text) <= limit else text[:limit] + "..."


def plugin_factory(plugin: str, entry_point: str, player: str) -> Callable[..., Any]:
    """The factory of ``player``, from the one plugin named (in a bot's sandbox host)."""
    pm, _ = load_plugin(plugin, entry_point)
    problems: list[PluginProblem] = []
    for spec in offered_players(pm, plugin, problems):
        if spec.name == player:
            if spec.factory is None:
                raise PluginError(f"plugin {plugin}'s player {player!r} has no factory to run")
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
