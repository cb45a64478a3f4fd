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

A name taken from the public API (``from arena import PlayerSpec``, or
``arena.PlayerSpec`` after ``import arena``) is an import of its home module, as
``_EXPORTS`` in arena/__init__.py names it; ``arena.api()`` imports every one.
Imports under ``if TYPE_CHECKING:`` (for annotations, never run) must go down
as well: an upward one is a cycle waiting for the first annotation that runs.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("game", "bots", "sandbox", "plugins", "results", "tournament", "ladder", "research", "rl", "cli")
DEFERRED = {"arena.results.report.html", "arena.results.report.plot", "arena.tournament.dask_backend",
            "arena.ladder.web", "players.learned.bot", "players.openspiel.bot"}
"""Project modules that import a heavy optional dependency at their top (jinja2, matplotlib, dask, starlette,
numpy, OpenSpiel)."""
PROCESS_MAINS = {"arena.sandbox.host", "arena.sandbox.server", "arena.sandbox.probe", "arena.sandbox.zygote"}
SIZE = 410
"""Lines a module may have ("under about 400"), unless ``OVERSIZE`` names it."""
OVERSIZE: dict[str, str] = {
    "arena/game/knowledge.py": "one class, a seat's knowledge: what each event tells it and the three ways it is fed "
                               "(dicts, the game's tuples, frames), which share its state and its view",
    "arena/game/state.py": "the rules core, one class: State's settling steps (a trick's end, the escape rule, "
                           "going out, the game's end) call one another on its private state",
    "arena/results/store/database.py": "the results database: its schema, the Store over it, a new database made "
                                       "whole and the transaction every write goes through are written for one another",
}
"""Modules longer than ``SIZE``, path -> why what it holds reads best as one module: size is judged by cohesion,
the cap is the rule for the rest. Each one named must still be longer than ``SIZE``, so the list stays true."""


def _modules():
    """Every module of ``arena`` and ``players`` with its syntax tree, ``if TYPE_CHECKING:`` blocks included:
    an import made for annotations only must go down too."""
    for path in sorted([*(ROOT / "arena").rglob("*.py"), *(ROOT / "players").rglob("*.py")]):
        yield path, ast.parse(path.read_text(), str(path))


@cache
def _facade() -> dict[str, str]:
    """The public API's names, name -> home module, read from ``_EXPORTS`` in arena/__init__.py."""
    tree = ast.parse((ROOT / "arena" / "__init__.py").read_text())
    exports = next(ast.literal_eval(node.value) for node in tree.body
                   if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["_EXPORTS"])
    return {name: module for module, names in exports.items() for name in names}


def _layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] == "players":
        return "players"
    if parts[0] == "arena" and len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    return None


def _imported(node: ast.AST, here: str, facade: dict[str, str] | None = None) -> list[str]:
    """The modules an import statement reaches; a name taken from the ``arena`` facade counts as its home
    module (``from arena import Bot`` imports ``arena.bots.bot``), any other name there as the submodule."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = here.split(".")[: -node.level]
            return [".".join([*base, node.module] if node.module else base)]
        if node.module == "arena":
            homes = _facade() if facade is None else facade
            return [homes.get(a.name, f"arena.{a.name}") for a in node.names]
        return [node.module or ""]
    return []


def _name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _through_facade(node: ast.AST, facade: dict[str, str]) -> list[str]:
    """The home modules an ``arena.NAME`` attribute reaches (``arena.api``: every one)."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "arena":
        if node.attr == "api":
            return sorted(set(facade.values()))
        if node.attr in facade:
            return [facade[node.attr]]
    return []


def _upward(tree: ast.Module, here: str, facade: dict[str, str] | None = None) -> list[str]:
    """Each import of ``tree`` (module ``here``) that reaches a layer above its own."""
    mine = _layer(here)
    if mine is None or here in PROCESS_MAINS:
        return []
    allowed = {"game", "bots", "players"} if mine == "players" else set(LAYERS[: LAYERS.index(mine) + 1])
    homes = _facade() if facade is None else facade
    wrong = []
    for node in ast.walk(tree):
        for target in [*_imported(node, here, homes), *_through_facade(node, homes)]:
            theirs = _layer(target)
            if theirs is not None and theirs not in allowed:
                wrong.append(f"{here}:{node.lineno} ({mine}) imports {target} ({theirs})")
    return wrong


def test_imports_go_down_only():
    """Through the facade and inside ``if TYPE_CHECKING:`` too."""
    assert [w for path, tree in _modules() for w in _upward(tree, _name(path))] == []


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


def _lines() -> dict[str, int]:
    """Every module's length in lines, by its path from the checkout's root."""
    return {p.relative_to(ROOT).as_posix(): len(p.read_text().splitlines()) for p, _ in _modules()}


def test_modules_stay_small():
    """None is longer than ``SIZE`` but those ``OVERSIZE`` names, and each of those is, with its reason."""
    lines = _lines()
    long = [f"{path}: {n} lines" for path, n in lines.items() if n > SIZE and path not in OVERSIZE]
    stale = [f"{path}: {lines[path]} lines, not over {SIZE}" if path in lines else f"{path}: no such module"
             for path in OVERSIZE if lines.get(path, 0) <= SIZE]
    assert long == [] and stale == [] and all(OVERSIZE.values())


def test_the_report_stands_on_the_store_and_the_stats():
    """Within ``arena.results``, ``store`` and ``stats`` never import ``report`` (the HTML report and the plots,
    with jinja2 and matplotlib): the report is shown from them, never the other way."""
    below = ("arena.results.store", "arena.results.stats")
    wrong = [f"{here}:{node.lineno} imports {target}" for path, tree in _modules()
             if (here := _name(path)).startswith(below) for node in ast.walk(tree)
             for target in _imported(node, here) if target.startswith("arena.results.report")]
    assert wrong == [] and any(_name(p).startswith(below[0]) for p, _ in _modules())


def test_the_facade_reaches_the_bots_layer_at_most():
    """Everything ``from arena import ...`` offers lives in ``game`` or ``bots``: the layers a plugin may use."""
    homes = _facade()
    assert {"Bot", "PlayerSpec", "hookimpl", "PluginError", "Game"} <= set(homes)
    assert {module: _layer(module) for module in homes.values() if _layer(module) not in ("game", "bots")} == {}


def test_the_checks_see_a_violation(tmp_path):
    """The checks are not vacuous: an upward import and a hidden one are found in a made-up module."""
    tree = ast.parse("from arena.cli.app import main\ndef f():\n    from arena.game import cards\n")
    assert [t for node in ast.walk(tree) for t in _imported(node, "arena.game.x")] == ["arena.cli.app", "arena.game"]
    assert _layer("arena.cli.app") == "cli" and LAYERS.index("cli") > LAYERS.index("game")


def test_the_checks_see_a_violation_through_the_facade_and_under_type_checking():
    """Not vacuous either: a name from ``arena`` counts as its home module, ``if TYPE_CHECKING:`` is read."""
    source = ("from typing import TYPE_CHECKING\nimport arena\nfrom arena import Card, PlayerSpec\n"
              "if TYPE_CHECKING:\n    from arena.cli.app import main\nHOOK = arena.hookimpl\n")
    tree = ast.parse(source)
    assert _upward(tree, "arena.game.x") == [
        "arena.game.x:3 (game) imports arena.bots.player_spec (bots)",
        "arena.game.x:5 (game) imports arena.cli.app (cli)",
        "arena.game.x:6 (game) imports arena.bots.hookimpl (bots)"]
    assert _upward(tree, "arena.cli.x") == []
    old = {**_facade(), "PlayerSpec": "arena.plugins.player_spec", "hookimpl": "arena.plugins.registry"}
    players = ast.parse("from arena import PlayerSpec, hookimpl\n")
    assert _upward(players, "players.x", old) == ["players.x:1 (players) imports arena.plugins.player_spec (plugins)",
                                                  "players.x:1 (players) imports arena.plugins.registry (plugins)"]
    assert _upward(players, "players.x") == []
    everything = _upward(ast.parse("import arena\nAPI = arena.api()\n"), "arena.game.x")
    assert "arena.game.x:2 (game) imports arena.bots.player_spec (bots)" in everything
