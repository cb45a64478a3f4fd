"""`arena new-bot`: the package it writes, and the names and folders it refuses.

Installing the scaffold with pip and playing it through its entry point is in
tests/plugins/test_plugins.py; these tests read and import the files directly.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import tomllib

import pytest

from arena import Bot, Game, PlayerSpec, Rules
from arena.game.rules import PRESETS
from arena.plugins.errors import ScaffoldError
from arena.plugins.scaffold import new_bot


@pytest.fixture
def scaffold(tmp_path, monkeypatch):
    """``make(name)``: scaffold ``name`` into tmp_path and import its module (removed afterwards)."""
    made = []

    def make(name):
        target = new_bot(name, tmp_path)
        module = name.replace("-", "_")
        monkeypatch.syspath_prepend(str(target))
        made.append(module)
        return target, importlib.import_module(module)

    yield make
    for module in made:
        sys.modules.pop(module, None)


def test_writes_every_file(tmp_path):
    """The package has a pyproject, a README, the bot module and a test, all templates filled in."""
    target = new_bot("scaf-one", tmp_path)
    assert target == tmp_path / "scaf-one"
    files = sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file())
    assert files == ["README.md", "pyproject.toml", "scaf_one/__init__.py", "tests/test_scaf_one.py"]
    for path in target.rglob("*.*"):
        assert "${" not in path.read_text(), path


def test_pyproject_declares_the_entry_point(tmp_path):
    """The entry point in group arena.plugins.registry maps the bot name to its module."""
    meta = tomllib.loads((new_bot("scaf-two", tmp_path) / "pyproject.toml").read_text())
    assert meta["project"]["name"] == "arena-bot-scaf-two"
    assert meta["project"]["entry-points"]["arena.plugins"] == {"scaf-two": "scaf_two"}
    assert meta["tool"]["setuptools"]["packages"] == ["scaf_two"]
    assert "bhabhi-arena" in meta["project"]["dependencies"]


def test_readme_names_the_next_steps(tmp_path):
    """The README says how to install, try and check the bot."""
    text = (new_bot("scaf-three", tmp_path) / "README.md").read_text()
    for step in ("pip install -e '.[test]'", "arena play", "--seats scaf-three", "arena check-bot scaf-three",
                 "python -m pytest tests", "python tests/test_scaf_three.py"):
        assert step in text


def test_generated_test_runs_without_pytest(tmp_path):
    """`python tests/test_NAME.py` runs the scaffold's test where pytest is not installed (a bare venv)."""
    target = new_bot("scaf-bare", tmp_path)
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "pytest.py").write_text("raise ImportError('pytest is not installed here')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(blocker), str(target)])}
    done = subprocess.run([sys.executable, str(target / "tests" / "test_scaf_bare.py")], capture_output=True,
                          text=True, timeout=120, env=env, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok: legal games under getaway, donkey and bhabho"


def test_module_offers_one_player(scaffold):
    """The module's arena_players hook offers the bot under its name, with a description."""
    _, module = scaffold("scaf-four")
    [spec] = module.arena_players()
    assert isinstance(spec, PlayerSpec) and spec.name == "scaf-four" and spec.description
    assert spec.factory.__name__ == "ScafFourBot"
    assert isinstance(spec.create(seed=3), Bot)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_bot_plays_legal_games(scaffold, preset):
    """The generated bot plays only legal cards and answers takes with bools, under every preset."""
    _, module = scaffold("scaf-five-" + preset.replace("-", ""))
    rules = Rules.preset(preset)
    players = rules.seat_range[0]
    game = Game.deal(rules, players, seed=4)
    [spec] = module.arena_players()
    bots = [spec.create(seed=s) for s in range(players)]
    while not game.is_over:
        view = game.view(game.current)
        if view.decision == "take":
            action = bots[game.current].take(view)
            assert type(action) is bool
        else:
            action = bots[game.current].play(view)
            assert action in view.legal
        game.apply(action)


def test_class_name_has_one_bot_suffix(scaffold):
    """A name that already ends in 'bot' does not get a second Bot in its class name."""
    _, module = scaffold("scaf-six-bot")
    assert hasattr(module, "ScafSixBot")


@pytest.mark.parametrize("name", ["", "a", "Bad", "9lives", "has space", "dash-", "x" * 41, "dot.ted", "ü-bot"])
def test_refuses_malformed_names(tmp_path, name):
    """Names that are not 2-40 lowercase letters, digits, '-' or '_' starting with a letter are refused."""
    with pytest.raises(ScaffoldError, match="bot name must be"):
        new_bot(name, tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name, says", [
    ("random", "shadows the standard library's module"), ("json", "shadows the standard library's module"),
    ("arena", "shadows the arena's package"), ("players", "shadows the arena's package"),
    ("tests", "shadows a name kept for tests and setup"),
    ("pluggy", "but a module 'pluggy' is already installed ("),
    ("typer", "but a module 'typer' is already installed (")])
def test_refuses_names_that_shadow_modules(tmp_path, name, says):
    """A bot whose module would shadow the stdlib, the arena or an installed package is refused, saying which."""
    with pytest.raises(ScaffoldError, match=re.escape(says)):
        new_bot(name, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_new_bot_twice_says_the_folder_holds_the_package(tmp_path, monkeypatch):
    """The same name again, its package installed meanwhile (its module importable): the folder that
    holds it is named, not a module it would shadow."""
    first = new_bot("scaf-twice", tmp_path)
    monkeypatch.syspath_prepend(str(first))  # as `pip install -e` makes it importable
    with pytest.raises(ScaffoldError) as refused:
        new_bot("scaf-twice", tmp_path)
    assert str(refused.value) == (f"folder {first} already holds a package (its pyproject.toml): new-bot writes a "
                                  f"new one; expected a new name or another --dir (or edit that package)")
    with pytest.raises(ScaffoldError, match=r"a module 'scaf_twice' is already installed \(.*scaf_twice"):
        new_bot("scaf-twice", tmp_path / "elsewhere")


def test_refuses_a_non_empty_folder_but_fills_an_empty_one(tmp_path):
    """An existing empty folder is filled; a non-empty one is refused and left alone."""
    (tmp_path / "scaf-seven").mkdir()
    assert (new_bot("scaf-seven", tmp_path) / "pyproject.toml").is_file()
    with pytest.raises(ScaffoldError, match="already holds a package"):
        new_bot("scaf-seven", tmp_path)
    (tmp_path / "scaf-nine").mkdir()
    (tmp_path / "scaf-nine" / "notes.txt").write_text("x")
    with pytest.raises(ScaffoldError, match="already exists and is not empty; expected a new name or another --dir"):
        new_bot("scaf-nine", tmp_path)
    assert [p.name for p in (tmp_path / "scaf-nine").iterdir()] == ["notes.txt"]


def test_folder_errors_are_scaffold_errors(tmp_path):
    """--dir naming a file, or a path that cannot be created, is a ScaffoldError, not an OSError."""
    afile = tmp_path / "afile"
    afile.write_text("x")
    with pytest.raises(ScaffoldError, match="is a file"):
        new_bot("scaf-eight", afile)
    with pytest.raises(ScaffoldError, match="cannot write"):
        new_bot("scaf-eight", afile / "deeper")


def test_a_taken_player_name_is_refused_with_another_suggested(tmp_path):
    """A name an installed player has (built-in or a plugin's) is refused before anything is written."""
    taken = {"sampler": "plugin players, package bhabhi-arena", "sampler-bot": "plugin x, package y"}
    with pytest.raises(ScaffoldError, match=r"^bot name 'sampler' is already taken by a player \(plugin players, "
                                            r"package bhabhi-arena\); expected a new name, e.g. sampler-2$"):
        new_bot("sampler", tmp_path, taken)
    assert not (tmp_path / "sampler").exists()
    assert new_bot("sampler-3", tmp_path, taken).is_dir()
