"""Running the CLI in-process from a test."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli.app import main
from arena.plugins.registry import DISABLE_ENV


def run(capsys, *argv) -> tuple[int, str, str]:
    """Run `arena ARGV` (each argument made a string); return (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def played(root: Path, name: str, toml: str) -> Path:
    """``root/NAME.toml`` holding ``toml``, run with the built-in players only (for a module-scoped
    fixture, where ``monkeypatch`` is not at hand); its results folder ``root/NAME``."""
    (root / f"{name}.toml").write_text(toml)
    mp = pytest.MonkeyPatch()
    mp.setenv(DISABLE_ENV, "1")
    try:
        assert main(["tournament", "run", str(root / f"{name}.toml"), "--results", str(root), "-q", "-j", "1"]) == 0
    finally:
        mp.undo()
    return root / name
