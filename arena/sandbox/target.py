"""What a bot process is told at its start: the player it runs (derived by the harness from its
PlayerSpec), the bot's uid, its limits and the paths it may read."""

from __future__ import annotations

import os
import sys

from arena.sandbox.limits import Limits, detect
from arena.sandbox.paths import listable_paths, readable_paths
from arena.sandbox.serverproc import bot_uid


def start_order(player: dict, os_limits: Limits, forked: bool) -> dict:
    """The host's start-up message for ``player`` (a :func:`player_target`) under ``os_limits``;
    ``forked``: started by a fork server (which runs the bot under its own uid)."""
    return {"player": player["player"], "path": player.get("path"),
            "bot_uid": bot_uid(os_limits) if forked else None,
            "limits": os_limits.to_dict(), "caps": detect().to_dict(),
            "readable": readable_paths(player, forked=forked),
            "listable": listable_paths(player)}


def player_target(spec) -> dict:
    """How the host finds the player: its plugin's entry point, its factory by module path, else by name.

    A third-party player (``spec.source``) is found through its plugin's entry
    point, from the folder discovery found it in; a bot in one file (``source.file``)
    by its module path from its folder, of which it may read only ``files`` (the
    file and the modules beside it: arena.plugins.file_bots). The module path is used only
    when the factory is a module-level object importable again by that path
    (then its import root is added to the host's sys.path); otherwise the host
    asks the built-in players by name.
    """
    player = {"name": spec.name}
    if getattr(spec, "options", ()):
        player["options"] = dict(spec.options)   # plain JSON: the host calls factory(seed=..., **options)
    source = getattr(spec, "source", None)
    if source is not None and source.program:  # a program bot: exec'd from (a copy of) its folder
        player["program"] = {"argv": list(source.program), "dir": source.path}
        return {"player": player, "path": None, "files": [source.path]}
    if source is not None and source.file:  # a bot in one file: its class by module path, no plugin hooks
        module, _, qualname = source.entry_point.partition(":")
        player.update(module=module, qualname=qualname)
        return {"player": player, "path": source.path, "files": list(source.readable)}
    if source is not None:  # a third-party player: the host loads its plugin's entry point
        player.update(plugin=spec.plugin, entry_point=source.entry_point)
        return {"player": player, "path": source.path or None}
    factory = spec.factory
    module = getattr(factory, "__module__", None)
    qualname = getattr(factory, "__qualname__", None)
    if not module or not qualname or module == "__main__" or "<" in qualname:
        return {"player": player}
    obj = sys.modules.get(module)
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
    if obj is not factory:
        return {"player": player}
    player.update(module=module, qualname=qualname)
    return {"player": player, "path": _import_root(sys.modules[module])}


def _import_root(module) -> str | None:
    """The sys.path entry module was imported from."""
    path = getattr(module, "__file__", None)
    if not path:
        return None
    path = os.path.abspath(path)
    ups = module.__name__.count(".") + (os.path.basename(path) == "__init__.py")
    root = os.path.dirname(path)
    for _ in range(ups):
        root = os.path.dirname(root)
    return root
