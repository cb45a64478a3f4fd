"""The layout's rules, checked on the source: imports go down only, none hide inside functions.

The layers of ``arena/``, bottom up, are listed in docs/design.md. A module may
import its own layer and the layers below it; ``players`` (a plugin) may import
``arena.game`` and ``arena.bots`` only. Project imports sit at a module's top;
inside a function only optional heavy dependencies may be imported, to keep
``arena --help`` fast (the project modules that wrap them are listed in
``DEFERRED``). The mains of the confined processes (``PROCESS_MAINS``) are the
one exception: each imports what a confinement step needs at that step (after
the fork, before or after Landlock and seccomp), and the bot host loads its
player's plugin, the one call up from the sandbox, in the bot's own process;
the zygote imports the mains it forks (a keeper, a plugin's discovery process).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("game", "bots", "sandbox", "plugins", "results", "tournament", "ladder", "research", "rl", "cli")
DEFERRED = {"arena.results.report", "arena.results.plot", "arena.tournament.dask_backend", "arena.ladder.web",
            "players.learned.bot"}
"""Project modules that import a heavy optional dependency at their top (jinja2, matplotlib, dask, starlette,
numpy)."""
PROCESS_MAINS = {"arena.sandbox.host", "arena.sandbox.server", "arena.sandbox.probe", "arena.sandbox.zygote"}
SIZE = 410
"""Lines a module may have ("under about 400")."""


def _modules():
    for path in sorted([*(ROOT / "arena").rglob("*.py"), *(ROOT / "players").rglob("*.py")]):
        yield path, _without_type_checking(ast.parse(path.read_text(), str(path)))


def _without_type_checking(tree: ast.Module) -> ast.Module:
    """The module without its ``if TYPE_CHECKING:`` blocks (annotations only, never run)."""
    tree.body = [node for node in tree.body if not (
        isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")]
    return tree


def _layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] == "players":
        return "players"
    if parts[0] == "arena" and len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    return None


def _imported(node: ast.AST, here: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = here.split(".")[: -node.level]
            return [".".join([*base, node.module] if node.module else base)]
        return [node.module or ""]
    return []


def _name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def test_imports_go_down_only():
    wrong = []
    for path, tree in _modules():
        here = _name(path)
        mine = _layer(here)
        if mine is None or here in PROCESS_MAINS:
            continue
        allowed = {"game", "bots", "players"} if mine == "players" else set(LAYERS[: LAYERS.index(mine) + 1])
        for node in ast.walk(tree):
            for target in _imported(node, here):
                theirs = _layer(target)
                if theirs is not None and theirs not in allowed:
                    wrong.append(f"{here}:{node.lineno} ({mine}) imports {target} ({theirs})")
    assert wrong == []


def test_no_project_imports_inside_functions():
    hidden = []
    for path, tree in _modules():
        here = _name(path)
        if here in PROCESS_MAINS:
            continue
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                for target in _imported(node, here):
                    if target.split(".")[0] in ("arena", "players") and target not in DEFERRED:
                        hidden.append(f"{here}:{node.lineno} imports {target} inside {fn.name}()")
    assert hidden == []


def test_modules_stay_small():
    long = [f"{_name(p)}: {n} lines" for p, _ in _modules() if (n := len(p.read_text().splitlines())) > SIZE]
    assert long == []


def test_the_checks_see_a_violation(tmp_path):
    """The checks are not vacuous: an upward import and a hidden one are found in a made-up module."""
    tree = ast.parse("from arena.cli.app import main\ndef f():\n    from arena.game import cards\n")
    assert [t for node in ast.walk(tree) for t in _imported(node, "arena.game.x")] == ["arena.cli.app", "arena.game"]
    assert _layer("arena.cli.app") == "cli" and LAYERS.index("cli") > LAYERS.index("game")
