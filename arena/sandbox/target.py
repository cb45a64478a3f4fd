"""How a bot process finds the player it runs, derived by the harness from its PlayerSpec."""

from __future__ import annotations

import os
import sys


def player_target(spec) -> dict:
    """How the host finds the player: its plugin's entry point, its factory by module path, else by name.

    A third-party player (``spec.source``) is found through its plugin's entry
    point, from the folder discovery found it in. The module path is used only
    when the factory is a module-level object importable again by that path
    (then its import root is added to the host's sys.path); otherwise the host
    asks the built-in players by name.
    """
    player = {"name": spec.name}
    if getattr(spec, "options", ()):
        player["options"] = dict(spec.options)   # plain JSON: the host calls factory(seed=..., **options)
    source = getattr(spec, "source", None)
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
