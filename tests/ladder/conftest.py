"""Ladder fixtures: the built-in players' registry, wheels of scaffolded bots."""

from __future__ import annotations

import pytest

from arena.plugins.registry import load
from support.ladder import CRASHER, bot_folder, build_wheel
from support.shared import made_once


@pytest.fixture
def registry():
    """The built-in players only (a ladder adds its entries to the registry it is given)."""
    return load(autoload=False)


@pytest.fixture(scope="session")
def wheels(tmp_path_factory):
    """Wheels of two versions of the bot ``lbot`` (min, then max) and of ``crashy`` (crashes always),
    built once a run (three pip builds, about 3 s of CPU) for every worker."""
    def build(tmp):
        return {"v1": build_wheel(bot_folder(tmp, "lbot"), tmp / "v1"),
                "v2": build_wheel(bot_folder(tmp, "lbot", strategy="max"), tmp / "v2"),
                "crashy": build_wheel(bot_folder(tmp, "crashy", CRASHER), tmp / "crashy")}
    return made_once(tmp_path_factory, "wheels", build)
