"""``arena new-bot``: a ready-to-install bot plugin package from templates."""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

from .errors import ArenaError

_NAME = re.compile(r"^[a-z][a-z0-9_\-]{0,38}[a-z0-9]$")
_FILES = {
    "pyproject.toml": "pyproject.toml.tmpl",
    "README.md": "README.md.tmpl",
    "{module}/__init__.py": "bot_init.py.tmpl",
    "tests/test_{module}.py": "bot_test.py.tmpl",
}


class ScaffoldError(ArenaError, ValueError):
    """A bot name or target folder that cannot be used."""


def new_bot(name: str, directory: Path) -> Path:
    """Write the package for bot ``name`` into ``directory/name``; return that folder."""
    if not _NAME.match(name):
        raise ScaffoldError(f"bot name must be 2-40 lowercase letters, digits, '-' or '_', starting "
                            f"with a letter (got {name!r})")
    target = Path(directory) / name
    if target.exists() and any(target.iterdir()):
        raise ScaffoldError(f"folder {target} already exists and is not empty")
    module = name.replace("-", "_")
    values = {"name": name, "module": module, "classname": _class_name(module)}
    templates = Path(__file__).parent / "templates"
    for dest, source in _FILES.items():
        path = target / dest.format(module=module)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(Template((templates / source).read_text()).substitute(values))
    return target


def _class_name(module: str) -> str:
    return "".join(part.capitalize() for part in module.split("_")) + "Bot"
