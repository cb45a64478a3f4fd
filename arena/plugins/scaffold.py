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
    plugins offering one name would clash."""
    module = _check_name(name)
    if name in (taken or {}):
        other = next((f"{name}-{n}" for n in ("bot", "2", "3") if f"{name}-{n}" not in taken), f"my-{name}")
        raise ScaffoldError(f"bot name {name!r} is already taken by a player ({taken[name]}); "
                            f"expected a new name, e.g. {other}")
    target = Path(directory) / name
    if Path(directory).exists() and not Path(directory).is_dir():
        raise ScaffoldError(f"--dir must be a folder, but {directory} is a file")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ScaffoldError(f"folder {target} already exists and is not empty")
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


def _check_name(name: str) -> str:
    """The module name for bot ``name``; refuse names that are malformed or would shadow a module."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise ScaffoldError(f"bot name must be 2-40 lowercase letters, digits, '-' or '_', starting "
                            f"with a letter (got {name!r})")
    module = name.replace("-", "_")
    if module in _RESERVED or module in sys.stdlib_module_names or _importable(module):
        raise ScaffoldError(f"bot name {name!r} would make a module {module!r} that shadows an existing "
                            f"one; choose another name (e.g. {name}-bot)")
    return module


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _class_name(module: str) -> str:
    words = [part.capitalize() for part in module.split("_") if part]
    if words[-1] != "Bot":
        words.append("Bot")
    return "".join(words)
