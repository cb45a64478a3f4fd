"""``arena new-bot``: a ready-to-install bot plugin package from templates."""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from string import Template

from arena.plugins.errors import ScaffoldError

_NAME = re.compile(r"^[a-z][a-z0-9_\-]{0,38}[a-z0-9]$")
_FILES = {
    "pyproject.toml": "pyproject.toml.tmpl",
    "README.md": "README.md.tmpl",
    "{module}/__init__.py": "bot_init.py.tmpl",
    "tests/test_{module}.py": "bot_test.py.tmpl",
}
_RESERVED = {"arena", "players", "tests", "test", "conftest", "setup"}



def new_bot(name: str, directory: Path, taken: Mapping[str, str] | None = None) -> Path:
    """Write the package for bot ``name`` into ``directory/name``; return that folder.

    ``taken``: player names already in use (built-in or installed), each with who offers it
    (e.g. "plugin players, package bhabhi-arena"); a bot may not take one of them, since two
    plugins offering one name would clash. Checked in the order a person meets them: the name's
    form, the folder (``new-bot NAME`` run twice finds its own package there), a player of that
    name, a module it would shadow."""
    module = _module_of(name)
    target = Path(directory) / name
    if Path(directory).exists() and not Path(directory).is_dir():
        raise ScaffoldError(f"--dir must be a folder, but {directory} is a file")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ScaffoldError(_occupied(target))
    if taken and name in taken:
        other = next((f"{name}-{n}" for n in ("bot", "2", "3") if f"{name}-{n}" not in taken), f"my-{name}")
        raise ScaffoldError(f"bot name {name!r} is already taken by a player ({taken[name]}); "
                            f"expected a new name, e.g. {other}")
    _check_module(name, module)
    values = {"name": name, "module": module, "classname": _class_name(module)}
    templates = Path(__file__).parent / "templates"
    try:
        for dest, source in _FILES.items():
            path = target / dest.format(module=module)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(Template((templates / source).read_text()).substitute(values))
    except OSError as exc:
        raise ScaffoldError(f"cannot write the bot package into {target}: {exc.strerror or exc}") from exc
    return target


def _occupied(target: Path) -> str:
    """Why ``target`` cannot take a new package: a package is there already, or other files are."""
    if (target / "pyproject.toml").is_file():
        return (f"folder {target} already holds a package (its pyproject.toml): new-bot writes a new one; "
                f"expected a new name or another --dir (or edit that package)")
    return f"folder {target} already exists and is not empty; expected a new name or another --dir"


def _module_of(name: str) -> str:
    """The module name for bot ``name``; refuse a malformed name."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise ScaffoldError(f"bot name must be 2-40 lowercase letters, digits, '-' or '_', starting "
                            f"with a letter (got {name!r})")
    return name.replace("-", "_")


def _check_module(name: str, module: str) -> None:
    """Refuse a name whose module would shadow one Python finds already, saying which."""
    if module in _RESERVED or module in sys.stdlib_module_names:
        what = ("the standard library's module" if module in sys.stdlib_module_names
                else "the arena's package" if module in ("arena", "players") else "a name kept for tests and setup")
        raise ScaffoldError(f"bot name {name!r} would make a module {module!r} that shadows {what}; "
                            f"expected another name, e.g. {name}-bot")
    where = _installed_at(module)
    if where is not None:
        raise ScaffoldError(f"bot name {name!r} would make a module {module!r}, but a module {module!r} is "
                            f"already installed ({where}); expected another name, e.g. {name}-bot")


def _installed_at(module: str) -> str | None:
    """Where an importable ``module`` is (its file or folder), or None when there is none."""
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if found is None:
        return None
    return found.origin or ", ".join(found.submodule_search_locations or []) or "installed"


def _class_name(module: str) -> str:
    words = [part.capitalize() for part in module.split("_") if part]
    if words[-1] != "Bot":
        words.append("Bot")
    return "".join(words)
