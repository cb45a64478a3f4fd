"""Installing a plugin package for a test, and running `arena` with it, in a fresh interpreter."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from importlib import metadata
from pathlib import Path

RUN_ARENA = ("import site, sys; site.addsitedir(sys.argv.pop(1)); "
             "from arena.cli.app import main; sys.exit(main(sys.argv[1:]))")
"""``python -c RUN_ARENA SITE ARGS...``: `arena ARGS` with the folder SITE as a site folder (.pth files work)."""


def _can_build_offline() -> bool:
    """Can setuptools build a wheel here without fetching anything (wheel installed, or setuptools >= 70.1)?"""
    if importlib.util.find_spec("wheel") is not None:
        return True
    try:
        version = tuple(int(p) for p in metadata.version("setuptools").split(".")[:2])
    except (metadata.PackageNotFoundError, ValueError):
        return False
    return version >= (70, 1)


def pip_install(source: Path, target: Path, editable: bool = False) -> None:
    """``pip install --no-deps`` ``source`` into the folder ``target`` (offline when the build tools allow)."""
    cmd = [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--disable-pip-version-check",
           "--target", str(target)]
    if _can_build_offline():
        cmd += ["--no-build-isolation", "--no-index"]
    cmd += ["--editable", str(source)] if editable else [str(source)]
    done = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"pip install {source} failed:\n{done.stderr[-3000:]}"
