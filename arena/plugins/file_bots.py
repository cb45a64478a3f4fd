"""Bots in one file: the seat ``PATH.py:ClassName`` (or ``PATH.py``) plays the Bot subclass that file defines.

For ad-hoc use, without a package: ``arena play --seats bots/mine.py:Mine,random,low``, and the same
wherever a player name goes (a tournament file's ``players``, ``arena compare``, ``arena check-bot``).
``PATH.py`` alone plays the one Bot subclass the file defines (a file defining none or several is
refused, naming them). A relative path is read from the folder the command runs in (a tournament
file's names too: resume it from there). Options and aliases work as for any player:
``bots/mine.py:Mine(depth=3)``, ``bots/mine.py:Mine#2``.

The file is third-party code, so the harness never imports it. :func:`file_player` checks the path,
hashes the file and the modules beside it from disk (:func:`arena.plugins.discovery.code_hash`: blind
to comments and docstrings, so results tell versions apart), and asks a confined discovery process
(:mod:`arena.plugins.file_host`) to import it and say what it holds; the player it returns has no
factory, only a :class:`~arena.bots.player_spec.PluginSource` naming the file, so it plays sandboxed
(its host imports the module by name from its folder) and an event with it is sealed.

What its sandbox may read of the disk besides Python and the arena (:func:`modules_beside`): the file
and the modules beside it in its folder, each ``NAME.py`` (or extension module) and each package (a
folder holding ``__init__.py``); nothing else of that folder, nothing above it. An import that reaches
further is one line naming the import and where it lies (:func:`report_problem`).
"""

from __future__ import annotations

import importlib.machinery
import os
import re
import sys
from pathlib import Path

from arena.bots.errors import PluginError
from arena.bots.options import reported_options
from arena.bots.player_spec import PlayerSpec, PluginSource
from arena.bots.safetext import printable
from arena.plugins import discovery

_SCHEME = re.compile(r"^[a-z][a-z0-9-]*:")
"""``program:PATH`` and other kinds of seat that name a file: not a Python bot file."""
_SUFFIXES = (".py", *importlib.machinery.EXTENSION_SUFFIXES)
MAX_MODULES = 200
"""Modules beside a file its sandbox may read at most (the first, by name)."""
SEAT_HELP = "a seat PATH.py:ClassName plays the Bot subclass that Python file defines"


def file_seat(name: str) -> tuple[str, str] | None:
    """(path, class) when the player name (options and alias off) names a bot file, else None:
    ``bots/mine.py:Mine`` -> ``("bots/mine.py", "Mine")``, ``bots/mine.py`` -> ``("bots/mine.py", "")``;
    a path that is not a ``.py`` file (``bots/mine.txt:Mine``) too, so that it is refused in words."""
    if _SCHEME.match(name):
        return None
    path, colon, cls = name.rpartition(":")
    if not colon:
        path, cls = name, ""
    if path.endswith(".py") or "/" in path or (colon and "." in path):
        return path, cls
    return None


def file_player(name: str, timeout: float = discovery.DISCOVERY_TIMEOUT) -> PlayerSpec:
    """The player of the seat ``name`` (``PATH.py:ClassName`` or ``PATH.py``), found confined;
    :class:`PluginError` (one line) when the file cannot play."""
    path, cls = file_seat(name) or (name, "")
    file = _checked(path, cls)
    readable = modules_beside(file)
    code = discovery.code_hash(None, str(file.parent), sorted(_sources(readable)))
    candidate = discovery.Candidate(name, f"{file.stem}:{cls}" if cls else file.stem, "", str(file.parent),
                                    (str(file.parent),), code, str(file), tuple(readable))
    report = discovery.discover([candidate], timeout)[name]
    found = report.get("class")
    if not isinstance(found, str) or not found.isidentifier():
        raise PluginError(report_problem(path, report))
    entry = f"{file.stem}:{found}"
    source = PluginSource(entry, str(file.parent), code, entry, str(file), tuple(readable))
    description = _said(report.get("description")) or f"{found}, a bot in one file"
    return PlayerSpec(name, None, description, _said(report.get("version"), 40) or "0", path, False, source,
                      accepts=reported_options(report.get("accepts")))


def _checked(path: str, cls: str) -> Path:
    """The file, resolved, once the seat's path and class name are of the right form and it exists."""
    if cls and not cls.isidentifier():
        raise PluginError(f"{path}:{cls}: expected PATH.py:ClassName, a Python name after ':' (got {cls!r})")
    if not path.endswith(".py"):
        suffix = os.path.splitext(path)[1]
        got = f"a file ending in {suffix!r}" if suffix else "a name without .py"
        raise PluginError(f"{path}: expected a Python file, PATH.py ({SEAT_HELP}); got {got}")
    file = Path(path).expanduser()
    if not file.exists():
        raise PluginError(f"{path}: no such file ({SEAT_HELP})")
    if not file.is_file():
        raise PluginError(f"{path}: expected a Python file, PATH.py ({SEAT_HELP}); got a folder")
    file = file.resolve()
    if not file.stem.isidentifier():
        raise PluginError(f"{path}: expected a file name that is a Python module name (letters, digits and '_', "
                          f"not starting with a digit); got {file.stem!r}")
    return file


def modules_beside(file: Path) -> list[str]:
    """What the sandbox of the bot in ``file`` may read of its folder: the file, then every module beside
    it (``NAME.py``, an extension module, a package: a folder holding ``__init__.py``), by name."""
    found = []
    try:
        entries = sorted(os.scandir(file.parent), key=lambda e: e.name)
    except OSError:
        entries = []
    for entry in entries:
        stem = entry.name.split(".", 1)[0]
        if entry.path == str(file) or not stem.isidentifier():
            continue
        try:
            module = entry.is_file() and entry.name.endswith(_SUFFIXES)
            package = entry.is_dir() and os.path.isfile(os.path.join(entry.path, "__init__.py"))
        except OSError:
            continue
        if module or package:
            found.append(entry.path)
    return [str(file), *found[:MAX_MODULES]]


def _sources(readable: list[str]) -> list[Path]:
    """The ``.py`` files of what the sandbox may read (its code hash is made of them)."""
    files = []
    for path in map(Path, readable):
        if path.is_dir():
            files += [p for p in path.rglob("*.py") if p.is_file()]
        elif path.suffix == ".py":
            files.append(path)
    return files


# -------------------------------------------------------- the problem, in words
def report_problem(path: str, report: dict) -> str:
    """The one line saying why the file at ``path`` (as the seat names it) cannot play, from its
    confined discovery's report (every field checked: the report is the file's)."""
    def part(key: str) -> dict:
        value = report.get(key)
        return value if isinstance(value, dict) else {}

    def at(where: dict) -> str:
        place = _said(where.get("at"))
        return os.path.join(os.path.dirname(path), place) if place else path

    if "error" in report:
        return f"{path}: {_said(report['error'])}"
    if "syntax" in report:
        syntax = part("syntax")
        line = syntax.get("line") if isinstance(syntax.get("line"), int) else 0
        file = _said(syntax.get("file")) or os.path.basename(path)
        return f"{os.path.join(os.path.dirname(path), file)}:{line}: syntax error: {_said(syntax.get('message'))}"
    if "missing" in report:
        return _missing(path, part("missing"), at(part("missing")))
    if "denied" in report:
        return (f"{at(part('denied'))} reads {_said(part('denied').get('file'))}, which the sandbox cannot read: "
                f"a bot in one file may read only its modules (the .py files and packages beside it); "
                f"for data files make it a package (arena new-bot)")
    if "failed" in report:
        failed = part("failed")
        where = f" ({at(failed)})" if failed.get("at") else ""
        return f"{path}: failed to load: {_said(failed.get('kind'), 60)}: {_said(failed.get('message'))}{where}"
    if "shadowed" in report:
        shadowed = part("shadowed")
        by = _said(shadowed.get("by")) or "a module built into Python"
        return (f"{path}: its module name {_said(shadowed.get('module'), 60)!r} is taken by {by}, which the sandbox "
                f"imports instead: rename the file")
    return _class_problem(path, report, part)


def _class_problem(path: str, report: dict, part) -> str:
    if "choose" in report:
        bots = _names(report.get("choose"))
        if not bots:
            return f"{path}: expected a Bot subclass defined in the file (found none)"
        return (f"{path}: expected one Bot subclass, found {len(bots)} ({', '.join(bots)}): "
                f"name one, as {path}:{bots[0]}")
    if "no_class" in report:
        bots = _names(part("no_class").get("bots"))
        defined = f"its Bot subclasses: {', '.join(bots)}" if bots else "it defines no Bot subclass"
        return f"{path}: no class {_said(part('no_class').get('name'), 60)!r} in the file ({defined})"
    if "not_bot" in report:
        not_bot = part("not_bot")
        return (f"{path}: {_said(not_bot.get('name'), 60)} is not a Bot subclass (expected a class deriving from "
                f"arena.Bot, got {_said(not_bot.get('got'), 100)})")
    return f"{path}: its discovery sent a report that says nothing of the file"


def _missing(path: str, missing: dict, at: str) -> str:
    """A module the file imports that its sandbox does not find: where it lies, if anywhere."""
    module = _said(missing.get("module"), 100)
    top = module.split(".", 1)[0]
    searched = [p for p in missing.get("path") or () if isinstance(p, str) and os.path.isabs(p)][:100]
    here = os.path.dirname(os.path.abspath(path))
    for folder in dict.fromkeys([*searched, *_harness_path(), os.getcwd()]):
        place = _holding(folder, top)
        if place is None:
            continue
        if os.path.realpath(folder) == os.path.realpath(here):
            return (f"{at} imports {module}, a folder beside the file without __init__.py, which the sandbox "
                    f"cannot read: only the modules beside it are readable (NAME.py, packages): add an __init__.py")
        return (f"{at} imports {module} from {_said(folder, 200)}, which the sandbox cannot read: put it beside "
                f"the file or install it")
    return (f"{at} imports {module}, which is not installed: install it into the Python environment the arena "
            f"runs in, or put it beside the file")


def _harness_path() -> list[str]:
    return [p for p in sys.path if p and os.path.isabs(p)]


def _holding(folder: str, top: str) -> str | None:
    """Where ``folder`` holds the top-level module ``top`` (a package or namespace folder, a module file),
    found by its name alone (nothing is opened); None if it does not."""
    if not top.isidentifier() or not os.path.isdir(folder):
        return None
    candidates = [os.path.join(folder, top), *(os.path.join(folder, top + s) for s in _SUFFIXES)]
    return next((c for c in candidates if os.path.exists(c)), None)


def _names(value) -> list[str]:
    return [n for n in (value if isinstance(value, list) else [])[:20] if isinstance(n, str) and n.isidentifier()]


def _said(text, limit: int = 300) -> str:
    """Text from the report for a one-line message: controls stripped, at most ``limit`` characters."""
    text = printable(text).strip() if isinstance(text, str) else ""
    return text if len(text) <= limit else text[:limit - 3] + "..."
