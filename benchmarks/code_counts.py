"""How the code reads, in counts: what issue 37 (the restructure's second step) set out to bring down.

    .venv/bin/python benchmarks/code_counts.py [--tree PATH] [--mypy]

For the tree at ``--tree`` (default: this checkout), read from its source:

- seat trackers: classes that keep a seat's knowledge from events (one that takes a pick-up in, and its
  subclasses), and view builders: functions that assemble a view's fields (``PlayerView(...)`` with them
  as keywords, a lazy view's ``fields["led_suit"] = ...``, or such fields set one by one on another object);
- mask definitions: module-level names bound to a suit or pack mask expression, and functions named
  ``_mask`` / ``mask_of`` / ``_mask_of`` (outside arena/game/cards.py, where they belong, and inside it);
- modules in arena/results (``*.py`` but ``__init__.py``, recursively);
- untyped parameters: parameters of functions in arena/ and players/ with no annotation
  (``self``, ``cls``, ``*args`` and ``**kwargs`` aside);
- with ``--mypy``: the error counts of ``mypy --strict`` on arena/game and arena/bots, and of the
  project's own configuration (pyproject.toml's ``[tool.mypy]``) on arena and players, when mypy is installed.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path

MASK = re.compile(r"0x1FFF\s*<<|\b1 << \(?(?:\d+ \* )?(?:PACK|52|104)\b")


def _sources(tree: Path):
    for path in sorted([*(tree / "arena").rglob("*.py"), *(tree / "players").rglob("*.py")]):
        yield path, ast.parse(path.read_text(), str(path))


def trackers(tree: Path) -> list[str]:
    """Classes that take a pick-up in (``_pickup``, ``picked_up``, ``_on_pickup``), and their subclasses."""
    classes = {}
    for path, mod in _sources(tree):
        for node in ast.walk(mod):
            if isinstance(node, ast.ClassDef):
                methods = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
                bases = {getattr(b, "id", getattr(b, "attr", "")) for b in node.bases}
                classes[node.name] = (f"{path.relative_to(tree)}:{node.name}", methods, bases)
    found = {name for name, (_, methods, _) in classes.items() if methods & {"_pickup", "picked_up", "_on_pickup"}}
    while True:
        more = {name for name, (_, _, bases) in classes.items() if bases & found} - found
        if not more:
            return sorted(classes[name][0] for name in found)
        found |= more


def view_builders(tree: Path) -> list[str]:
    """Functions that assemble a view's fields: a ``PlayerView(...)`` call with the fields as keywords, a
    field set in a lazy view's ``fields[...]``, or view fields set one by one on another object."""
    names = {"known_masks", "hand_sizes", "led_suit", "void_masks", "seen_mask"}
    found = set()
    for path, mod in _sources(tree):
        for fn in ast.walk(mod):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                builds = (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "PlayerView"
                          and {k.arg for k in node.keywords} & names)
                targets = []
                if isinstance(node, ast.Assign):
                    for t in node.targets:
                        targets += t.elts if isinstance(t, ast.Tuple) else [t]
                fills = any((isinstance(t, ast.Attribute) and t.attr in names and getattr(t.value, "id", "") != "self")
                            or (isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant)
                                and t.slice.value in names) for t in targets)
                if builds or fills:
                    found.add(f"{path.relative_to(tree)}:{fn.name}")
    return sorted(found)


def mask_definitions(tree: Path) -> list[str]:
    found = []
    for path, mod in _sources(tree):
        rel = path.relative_to(tree)
        for node in mod.body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and MASK.search(ast.get_source_segment(
                    path.read_text(), node) or ""):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                found += [f"{rel}:{getattr(t, 'id', '?')}" for t in targets]
        found += [f"{rel}:{n.name}()" for n in ast.walk(mod)
                  if isinstance(n, ast.FunctionDef) and n.name in ("_mask", "mask_of", "_mask_of", "cards_mask")]
    return found


def untyped_parameters(tree: Path) -> int:
    count = 0
    for _, mod in _sources(tree):
        for fn in ast.walk(mod):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = fn.args
                for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs]:
                    if arg.annotation is None and arg.arg not in ("self", "cls"):
                        count += 1
    return count


def mypy_errors(tree: Path, args: list[str]) -> str:
    done = subprocess.run([sys.executable, "-m", "mypy", *args], check=False, cwd=tree, capture_output=True, text=True)
    if "No module named mypy" in done.stderr:
        return "mypy not installed"
    last = (done.stdout.strip().splitlines() or ["?"])[-1]
    hit = re.search(r"Found (\d+) errors?", last)
    return hit.group(1) if hit else ("0" if last.startswith("Success") else last)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--mypy", action="store_true")
    a = ap.parse_args()
    tree = a.tree.resolve()
    results = [p for p in (tree / "arena" / "results").rglob("*.py") if p.name != "__init__.py"]
    rows = [("seat trackers", trackers(tree)), ("view builders", view_builders(tree)),
            ("mask definitions", mask_definitions(tree))]
    print(f"tree: {tree}")
    for label, items in rows:
        print(f"  {label:<28}{len(items):>5}   {', '.join(items)}")
    print(f"  {'modules in arena/results':<28}{len(results):>5}")
    print(f"  {'untyped parameters':<28}{untyped_parameters(tree):>5}")
    if a.mypy:
        strict = mypy_errors(tree, ["--strict", "--ignore-missing-imports", "arena/game", "arena/bots"])
        print(f"  {'mypy --strict game, bots':<28}{strict:>5}")
        if "[tool.mypy]" in (tree / "pyproject.toml").read_text():
            print(f"  {'mypy (configured)':<28}{mypy_errors(tree, []):>5}")


if __name__ == "__main__":
    main()
