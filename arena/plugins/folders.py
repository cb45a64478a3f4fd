"""Plugins installed in folders of their own (a ladder's submissions), found without importing them.

A folder holds one unpacked distribution: its package and its ``.dist-info``
(as a wheel unpacks), or a program bot (docs/protocol.md): its files and its
``bot.toml``, read as data (:func:`arena.plugins.program_bots.folder_player`).
:func:`folder_candidate` reads the ``arena.plugins`` entry point from that metadata and hashes the files, as
:mod:`arena.plugins.discovery` does for installed distributions; the plugin's
discovery then runs confined like any other's, and the sandboxed bot host puts
the folder on its path (the bot may read its own package there, nothing else
of the folder's neighbours). Each folder is registered under a name of its
own (an *entry*: ``mybot-v2``), so two versions of one bot live side by side.
"""

from __future__ import annotations

import importlib.metadata as metadata
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from arena.plugins import discovery
from arena.bots.errors import PluginError
from arena.plugins.names import ENTRY_POINT_GROUP
from arena.plugins.program_bots import folder_hash, folder_player
from arena.plugins.registry import Registry, discovered_players


def folder_candidate(folder: str | Path, name: str) -> discovery.Candidate:
    """The plugin unpacked in ``folder``, as the candidate ``name``; :class:`PluginError` if it has none."""
    folder = Path(folder).resolve()
    dists = list(metadata.distributions(path=[str(folder)]))
    if len(dists) != 1:
        raise PluginError(f"{folder} must hold exactly one distribution (.dist-info), found {len(dists)}")
    dist = dists[0]
    points = [ep for ep in dist.entry_points if ep.group == ENTRY_POINT_GROUP]
    if len(points) != 1:
        raise PluginError(f"{dist.metadata['Name']} must declare exactly one {ENTRY_POINT_GROUP!r} entry point, "
                          f"found {len(points)}")
    value = points[0].value.strip()
    top = value.split(":", 1)[0].strip().split(".", 1)[0]
    package, module = folder / top, folder / f"{top}.py"
    if not top.isidentifier() or not (package.is_dir() or module.is_file()):
        raise PluginError(f"the entry point {value!r} names a module that is not in the package ({top})")
    files = sorted(package.rglob("*.py")) if package.is_dir() else [module]
    version = dist.version if isinstance(dist.version, str) else ""
    return discovery.Candidate(name, value, version, str(folder), (str(folder),),
                               discovery.code_hash(dist, str(folder), files))


def is_program_folder(folder: str | Path) -> bool:
    """A program bot's entry folder (:mod:`arena.ladder.program_install`): a bot.toml and no distribution."""
    folder = Path(folder)
    return (folder / "bot.toml").is_file() and not any(folder.glob("*.dist-info"))


def folder_code_hash(folder: str | Path, name: str) -> str:
    """The code hash of the entry in ``folder``: its plugin's (:func:`folder_candidate`), or a program's folder's."""
    return folder_hash(str(folder)) if is_program_folder(folder) else folder_candidate(folder, name).code_hash


def add_folder_players(registry: Registry, entries: Mapping[str, Mapping[str, str]],
                       timeout: float = discovery.DISCOVERY_TIMEOUT) -> dict[str, str]:
    """Register each entry ``name -> {"folder": ..., "player": ...}`` in ``registry`` under its own name.

    The entry plays the player of that name its folder's plugin offers (the
    only one, when ``player`` is empty). Returns the problems, by entry name
    (those entries are not registered).
    """
    problems: dict[str, str] = {}
    found = {}
    for name, entry in entries.items():
        try:
            if is_program_folder(entry["folder"]):  # nothing to discover: its bot.toml says it all
                registry.players[name] = folder_player(name, str(Path(entry["folder"]).resolve()))
            else:
                found[name] = folder_candidate(entry["folder"], name)
        except PluginError as exc:
            problems[name] = str(exc)
    reports = discovery.discover(list(found.values()), timeout) if found else {}
    for name, candidate in found.items():
        specs, _, said = discovered_players(candidate, reports[name])
        wanted = entries[name].get("player") or ""
        chosen = [s for s in specs if s.name == wanted] if wanted else specs
        if len(chosen) == 1:
            registry.players[name] = replace(chosen[0])
            continue
        if not specs and said:  # it failed to load, or everything it offered was refused: that is why
            problems[name] = "; ".join(said)
            continue
        offered = ", ".join(s.name for s in specs) or "none"
        why = "; ".join(said) if said else f"it offers the players {offered}"
        problems[name] = (f"player {wanted!r} is not offered ({why})" if wanted
                          else f"it must offer exactly one player ({why})")
    return problems
