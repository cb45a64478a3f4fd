"""A plugin unpacked in a folder of its own, as a ladder installs a submission (for ``add_folder_players``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from arena.plugins.registry import ENTRY_POINT_GROUP

HEADER = "from arena import Bot, PlayerSpec, hookimpl\nfrom players.simple import LowBot\n"
"""What each package's ``__init__.py`` starts with (as ``fake_plugins``' modules do)."""


def folder_plugin(root: Path, package: str, init: str, **modules: str) -> Path:
    """``root/package``: the package ``package`` (its ``__init__.py`` is ``HEADER`` + ``init``, and
    each of ``modules`` a module of it, name -> source) and a ``.dist-info`` naming it as the
    ``arena.plugins`` entry point ``package``; the folder."""
    folder = root / package
    (folder / package).mkdir(parents=True)
    (folder / package / "__init__.py").write_text(HEADER + textwrap.dedent(init))
    for name, source in modules.items():
        (folder / package / f"{name}.py").write_text(textwrap.dedent(source))
    dist = folder / f"{package}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{package} = {package}\n")
    return folder
