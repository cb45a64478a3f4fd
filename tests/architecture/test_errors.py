"""Errors are defined in one place per layer, checked on the source.

Each layer of ``arena/`` keeps its exceptions in its ``errors.py``, every one
an :class:`arena.ArenaError`, and code imports them from there (not through a
module that happens to import them). Two classes are signals inside one step
of the sandbox, never errors a caller sees, and stay where they are used
(``SIGNALS``).
"""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIGNALS = {
    "arena.sandbox.layers.Skip": "a confinement step with nothing to do; caught by the step's runner",
    "arena.sandbox.probe._No": "a layer the probe finds missing; the probe runs before the package is importable",
}
BUILTIN_EXCEPTIONS = {name for name, obj in vars(builtins).items()
                      if isinstance(obj, type) and issubclass(obj, BaseException)}


def _sources(*tops: str):
    for top in tops:
        for path in sorted((ROOT / top).rglob("*.py")):
            yield ".".join(path.relative_to(ROOT).with_suffix("").parts), ast.parse(path.read_text(), str(path))


def _base_names(cls: ast.ClassDef) -> set[str]:
    return {b.id if isinstance(b, ast.Name) else b.attr for b in cls.bases if isinstance(b, (ast.Name, ast.Attribute))}


def _exception_classes(modules) -> dict[str, set[str]]:
    """Every class that derives from an exception, module -> class names (bases followed by name)."""
    classes = [(module, node) for module, tree in modules for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    known, found = set(BUILTIN_EXCEPTIONS), {}
    grew = True
    while grew:
        grew = False
        for module, node in classes:
            if node.name not in found.get(module, set()) and _base_names(node) & known:
                found.setdefault(module, set()).add(node.name)
                known.add(node.name)
                grew = True
    return found


def _is_errors_module(module: str) -> bool:
    return module.split(".")[-1] == "errors"


def test_every_exception_class_is_in_its_layers_errors_module():
    found = _exception_classes(list(_sources("arena", "players")))
    stray = sorted(f"{module}.{name}" for module, names in found.items() if not _is_errors_module(module)
                   for name in names)
    assert stray == sorted(SIGNALS)


def test_every_error_is_an_arena_error():
    modules = [(m, t) for m, t in _sources("arena") if _is_errors_module(m)]
    bases = {node.name: _base_names(node) for _, tree in modules for node in ast.walk(tree)
             if isinstance(node, ast.ClassDef)}

    def arena_error(name: str) -> bool:
        return name == "ArenaError" or any(arena_error(b) for b in bases.get(name, ()) if b in bases)

    assert len(bases) > 20 and [name for name in sorted(bases) if not arena_error(name)] == []


def test_errors_are_imported_from_an_errors_module():
    """``from arena.results.errors import StoreError``, never ``from arena.results.store.database import
    StoreError``."""
    modules = list(_sources("arena", "players"))
    errors = {name for module, names in _exception_classes(modules).items() if _is_errors_module(module)
              for name in names}
    wrong = []
    for module, tree in modules:
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                continue
            if node.module.split(".")[0] not in ("arena", "players") or _is_errors_module(node.module):
                continue
            if node.module == "arena":  # the public API re-exports the errors a bot author meets
                continue
            wrong += [f"{module}:{node.lineno} imports {a.name} from {node.module}" for a in node.names
                      if a.name in errors]
    assert wrong == []


def test_the_checks_see_a_stray_error():
    """Not vacuous: an error class outside errors.py, and one built on another, are found."""
    tree = ast.parse("class Oops(ValueError):\n    pass\nclass Worse(Oops):\n    pass\nclass Fine:\n    pass\n")
    assert _exception_classes([("arena.game.x", tree)]) == {"arena.game.x": {"Oops", "Worse"}}
