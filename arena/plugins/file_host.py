"""The confined side of a bot in one file (:mod:`arena.plugins.file_bots`): its import, and what it holds.

:func:`describe_file` runs in a discovery process (:mod:`arena.plugins.host`) once it is confined: only
Python, the arena, the file and the modules beside it are readable there, as in the bot's sandbox. It
imports the file's module the way the bot's host will (by name, its folder after Python's own paths)
and reports plain data, one key saying what it found: ``class`` (with ``description``, ``version``,
``accepts``), or ``syntax``, ``missing`` (a module it imports that is not found here, with the import
path as it was then), ``denied`` (a file it may not read), ``failed`` (any other exception),
``shadowed`` (its module name is another module's), ``choose`` (no class named, not exactly one Bot
subclass), ``no_class`` or ``not_bot``. The harness checks every field and words the line
(:func:`arena.plugins.file_bots.report_problem`). Nothing here is ever called in the harness.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
import traceback
from typing import Any

from arena.bots.bot import Bot
from arena.bots.options import accepted_options

MAX_PATH_ENTRIES = 100


def describe_file(bot: dict) -> dict:
    """What the file ``bot["path"]`` holds: the class of ``bot["module"]`` (``module:Class``, or ``module``
    alone: its one Bot subclass), as the report's plain data (see the module docstring)."""
    path = bot["path"]
    folder = os.path.dirname(path)
    module_name, _, name = bot["module"].partition(":")
    if folder not in sys.path:
        sys.path.append(folder)  # as the bot's host does: an installed module of that name comes first
    try:
        module = importlib.import_module(module_name)
    except SyntaxError as exc:  # IndentationError too: in the file or a module beside it
        return {"syntax": {"file": _relative(exc.filename, folder), "line": exc.lineno or 0,
                           "message": _text(exc.msg)}}
    except ModuleNotFoundError as exc:
        return {"missing": {"module": _text(exc.name or ""), "at": _frame(exc, folder),
                            "path": [p for p in sys.path if isinstance(p, str)][:MAX_PATH_ENTRIES]}}
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM) and isinstance(exc.filename, str):
            return {"denied": {"file": _text(exc.filename), "at": _frame(exc, folder)}}
        return _failed(exc, folder)
    except BaseException as exc:  # noqa: BLE001 - the file's import: anything may happen
        return _failed(exc, folder)
    outside = _namespace_outside(folder, bot.get("readable") or [])
    if outside:  # listed, so importable here, but a game's sandbox holds only the modules beside the file
        return {"missing": {"module": outside, "at": "", "path": [p for p in sys.path if isinstance(p, str)][:100]}}
    try:
        return _found(module, module_name, name, path)
    except Exception as exc:  # noqa: BLE001 - its classes' own code (a metaclass, __getattr__) may raise
        return _failed(exc, folder)


def _found(module, module_name: str, name: str, path: str) -> dict:
    own = getattr(module, "__file__", None)
    if not isinstance(own, str) or os.path.realpath(own) != os.path.realpath(path):
        return {"shadowed": {"module": module_name, "by": _text(own) if isinstance(own, str) else ""}}
    bots = sorted(n for n, v in vars(module).items() if isinstance(v, type) and issubclass(v, Bot)
                  and v is not Bot and v.__module__ == module_name)
    if not name:
        if len(bots) != 1:
            return {"choose": bots[:20]}
        name = bots[0]
    obj = vars(module).get(name)
    if obj is None:
        return {"no_class": {"name": name, "bots": bots[:20]}}
    if not (isinstance(obj, type) and issubclass(obj, Bot)):
        return {"not_bot": {"name": name, "got": _kind(obj)}}
    doc = (obj.__doc__ or "").strip().splitlines()
    version = getattr(module, "__version__", "")
    return {"class": name, "description": _text(doc[0] if doc else ""),
            "version": _text(version if isinstance(version, str) else ""), "accepts": accepted_options(obj)}


def _namespace_outside(folder: str, readable: list[str]) -> str:
    """The first module imported as a namespace package (a folder without ``__init__.py``) from ``folder``
    that is not among what the sandbox may read; "" if none."""
    base = os.path.realpath(folder)
    kept = [os.path.realpath(p) for p in readable if isinstance(p, str)]
    for name, module in sorted(sys.modules.items()):
        spec = getattr(module, "__spec__", None)
        if spec is None or spec.origin is not None or not spec.submodule_search_locations:
            continue
        for place in map(os.path.realpath, list(spec.submodule_search_locations)):
            if place.startswith(base + os.sep) and not any(place == k or place.startswith(k + os.sep) for k in kept):
                return _text(name, 100)
    return ""


def _failed(exc: BaseException, folder: str) -> dict:
    try:
        said = str(exc)
    except Exception:  # noqa: BLE001 - its __str__ is the bot's
        said = "(its message could not be shown)"
    return {"failed": {"kind": type(exc).__name__, "message": _text(said), "at": _frame(exc, folder)}}


def _kind(obj: Any) -> str:
    """What ``obj`` is, in words: ``a class deriving from object``, ``a function``, ``an int``."""
    if isinstance(obj, type):
        return f"a class deriving from {', '.join(b.__name__ for b in obj.__bases__)}"
    kind = type(obj).__name__
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


def _relative(file: Any, folder: str) -> str:
    """``file`` relative to ``folder`` when it lies there, else as it is."""
    if not isinstance(file, str):
        return ""
    real, base = os.path.realpath(file), os.path.realpath(folder)
    return _text(os.path.relpath(real, base) if real.startswith(base + os.sep) else file)


def _frame(exc: BaseException, folder: str) -> str:
    """``file:line`` of the innermost frame of ``exc``'s traceback in a file of ``folder`` (relative to it)."""
    base, found = os.path.realpath(folder), ""
    for frame, line in traceback.walk_tb(exc.__traceback__):
        name = os.path.realpath(frame.f_code.co_filename)
        if name.startswith(base + os.sep):
            found = f"{os.path.relpath(name, base)}:{line}"
    return _text(found)


def _text(value: Any, limit: int = 300) -> str:
    text = value if isinstance(value, str) else ""
    return text if len(text) <= limit else text[:limit] + "..."
