"""The code hash of a player: what tells two versions of its code apart.

Source is hashed *normalised*: each ``.py`` file as its syntax tree, with every
docstring and bare string statement dropped, written back out by
:func:`ast.unparse`; comments, blank lines and layout are not in the tree. So
an edit to comments or docstrings keeps the hash, and a tournament resumes
across it; any change to what the code does changes it. (A file that does not
parse is hashed as its bytes.) ``ast.unparse`` can differ between Python
versions, so workers that check a coordinator's hashes should run the same
Python minor version.

A built-in player's hash covers the modules it uses (:func:`player_hash_of`):
its own module and, transitively, the modules of its package it imports, not
the whole ``players`` package; a third-party plugin's covers its distribution's
files (:func:`arena.plugins.discovery.code_hash`).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import inspect
from importlib.machinery import ModuleSpec
from pathlib import Path
from typing import Any


def normalised(source: bytes) -> bytes:
    """``source`` without comments, docstrings or layout (its bytes if it does not parse)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                kept = [s for s in body if not _is_docstring(s)]
                setattr(node, field, kept or ([ast.Pass()] if field == "body" else []))
    return ast.unparse(tree).encode()


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def file_digest(path: Path) -> bytes:
    """The normalised source of one file (cached while its size and modification time stay)."""
    st = path.stat()
    return _digest(str(path), st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=512)
def _digest(path: str, size: int, mtime: int) -> bytes:
    return hashlib.sha256(normalised(Path(path).read_bytes())).digest()


def code_hash_of(obj: Any) -> str:
    """SHA-256 (first 16 hex digits) of every .py file of the top-level package defining ``obj``.

    For the harness's own code (the arena): it imports nothing new.
    """
    module = inspect.getmodule(obj)
    if module is None:
        return "unknown"
    spec = importlib.util.find_spec(module.__name__.split(".")[0])
    if spec is None:
        return "unknown"
    if spec.submodule_search_locations:
        root = Path(next(iter(spec.submodule_search_locations)))
        files = sorted(root.rglob("*.py"))
    else:
        root = Path(spec.origin)  # type: ignore[arg-type]  # a module that is not a package has an origin
        files = [root]
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.relative_to(root.parent).as_posix().encode())
        digest.update(f.read_bytes())
    return digest.hexdigest()[:16]


def player_hash_of(obj: Any) -> str:
    """SHA-256 (first 16 hex digits) of the normalised modules a built-in player uses: the module
    defining ``obj`` and every module of the same top-level package it imports, transitively."""
    module = inspect.getmodule(obj)
    if module is None or not getattr(module, "__file__", None):
        return "unknown"
    files = uses(module.__name__)
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode())
        digest.update(file_digest(files[name]))
    return digest.hexdigest()[:16]


def uses(name: str) -> dict[str, Path]:
    """Module ``name`` and the modules of its top-level package it imports, transitively, by file."""
    top = name.split(".")[0]
    found: dict[str, Path] = {}
    todo = [name]
    while todo:
        current = todo.pop()
        if current in found:
            continue
        spec = _find(current)
        if spec is None or not spec.has_location or not str(spec.origin).endswith(".py"):
            continue
        found[current] = Path(spec.origin)  # type: ignore[arg-type]  # a .py origin, checked above
        package = current if spec.submodule_search_locations else current.rpartition(".")[0]
        todo.extend(_imports(found[current], package, top))
    return found


def _find(name: str) -> ModuleSpec | None:
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None


def _imports(path: Path, package: str, top: str) -> tuple[str, ...]:
    """The modules of package ``top`` a file imports (``from M import a``: ``M.a`` when that is a
    module, else ``M``); nothing outside ``top`` is looked up (looking up imports a parent).
    Cached while the file's size and modification time stay (a worker checks its players' code
    hashes in every executor: parsing their modules again would cost a few ms each time)."""
    st = path.stat()
    return _imports_cached(str(path), st.st_size, st.st_mtime_ns, package, top)


@functools.lru_cache(maxsize=512)
def _imports_cached(path: str, size: int, mtime: int, package: str, top: str) -> tuple[str, ...]:
    try:
        tree = ast.parse(Path(path).read_bytes())
    except (SyntaxError, ValueError):
        return ()
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.split(".")[0] == top]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(p for p in (*parts, base) if p)
            if base.split(".")[0] != top:
                continue
            for a in node.names:
                sub = f"{base}.{a.name}"
                out.append(sub if a.name != "*" and _find(sub) is not None else base)
    return tuple(out)
