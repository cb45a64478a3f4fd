"""Ladder fixtures: the built-in players' registry, wheels of scaffolded bots."""

from __future__ import annotations

import pytest

from arena.plugins.registry import load
from support.ladder import CRASHER, bot_folder, build_wheel


@pytest.fixture
def registry():
    """The built-in players only (a ladder adds its entries to the registry it is given)."""
    return load(autoload=False)


@pytest.fixture(scope="session")
def wheels(tmp_path_factory):
    """Wheels of two versions of the bot ``lbot`` (min, then max) and of ``crashy`` (crashes always)."""
    tmp = tmp_path_factory.mktemp("wheels")
    return {"v1": build_wheel(bot_folder(tmp, "lbot"), tmp / "v1"),
            "v2": build_wheel(bot_folder(tmp, "lbot", strategy="max"), tmp / "v2"),
            "crashy": build_wheel(bot_folder(tmp, "crashy", CRASHER), tmp / "crashy")}
