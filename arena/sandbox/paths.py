"""What a bot may read: the Python runtime, the arena package, its own package.

The list the fork server builds its root from (everything else on the machine
is not there for the bot), and the Landlock read list of an exec'd bot
process. Never the harness's working folder, a checkout's other files, results
folders or tournament files: a package is listed by its own folder (or file),
not by the folder it was imported from.
"""

from __future__ import annotations

import importlib.util
import os
import site
import sys


SYSTEM = ("/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin",
          "/etc/ld.so.cache", "/etc/localtime")
"""The system files a Python process needs (and nothing of /etc, /home, /root)."""
DEVICES = ("/dev/urandom",)
TRUSTED = ("players",)
"""Packages of the harness's own distribution every bot may import."""


def runtime_paths() -> list[str]:
    """The interpreter's prefixes and installed packages' folders."""
    paths = [sys.prefix, sys.base_prefix, sys.exec_prefix]
    try:
        paths += site.getsitepackages()
    except AttributeError:  # old virtualenv
        pass
    prefixes = tuple(os.path.realpath(p) for p in paths)
    paths += [p for p in sys.path if p and os.path.realpath(p).startswith(prefixes)]
    return paths


def package_paths(module: str | None, folder: str | None = None) -> list[str]:
    """The folder (or file) of module's top-level package, found without importing it.

    ``folder``: where it is imported from, when that is not on this process's path.
    """
    if not module:
        return []
    top = module.split(".", 1)[0]
    if folder:
        found = [p for p in (os.path.join(folder, top), os.path.join(folder, top + ".py"))
                 if os.path.exists(p)]
        if found:
            return found
    loaded = sys.modules.get(top)
    try:
        spec = getattr(loaded, "__spec__", None) or importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    if spec.submodule_search_locations:
        return [os.path.abspath(p) for p in spec.submodule_search_locations]
    return [os.path.abspath(spec.origin)] if spec.origin and os.path.exists(spec.origin) else []


def readable_paths(target: dict, *, forked: bool) -> list[str]:
    """Every path a bot needs to read, for the player ``target`` (see arena.sandbox.target.player_target).

    ``forked``: for the fork server's root (/proc and /dev come from there);
    else for Landlock (adds /proc/self and the devices).
    """
    player = target.get("player", {})
    paths = list(SYSTEM) + runtime_paths() + package_paths("arena") + [
        p for name in TRUSTED for p in package_paths(name)]
    entry = (player.get("entry_point") or "").split(":", 1)[0]
    paths += package_paths(player.get("module") or entry, target.get("path"))
    paths += target.get("files") or []  # a bot in one file: the file and the modules beside it
    if not forked:
        paths += list(DEVICES) + ["/proc/self"]
    found = [p for p in dict.fromkeys(os.path.abspath(p) for p in paths) if os.path.lexists(p)]
    return found


def listable_paths(target: dict) -> list[str]:
    """Folders an exec'd bot may list but not read in (Landlock): where its module and
    the arena are imported from, so that Python's import system finds them there."""
    root = os.path.dirname(package_paths("arena")[0]) if package_paths("arena") else None
    return [p for p in (target.get("path"), root) if p and os.path.isdir(p)]
