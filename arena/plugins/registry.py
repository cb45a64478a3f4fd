"""Plugin discovery: the pluggy manager, entry points, the players and presets they offer.

Plugins are modules named by entry points in the group ``arena.plugins``;
the built-in players (the ``players`` package) are this distribution's own
entry point there (pyproject.toml) and register through exactly the same
hooks. Set ``ARENA_DISABLE_PLUGIN_AUTOLOAD=1`` to load
only the built-in players (as pytest's ``PYTEST_DISABLE_PLUGIN_AUTOLOAD``; the
values ``0``, ``false``, ``no`` and the empty string leave autoloading on).

What runs where:

- the built-in ``players`` package (the ``players`` entry point of the
  ``bhabhi-arena`` distribution, or the package of that name in a checkout
  that is not installed) is trusted: imported here, its hooks called here,
  its players may run in-process;
- a third-party plugin is never imported by the harness. :mod:`arena.plugins.discovery`
  finds its entry point in the distributions' metadata and asks a confined
  child (:mod:`arena.plugins.host`) what it offers; :func:`load` builds a
  :class:`~arena.bots.player_spec.PlayerSpec` from that plain data, with no factory, only a
  :class:`~arena.bots.player_spec.PluginSource` saying how to find it. Only the sandbox host (its own
  confined process) loads the plugin, and only that one entry point
  (:func:`arena.plugins.host.plugin_factory`). Its ``arena_game_finished``
  observer is not called at all: no code of a third-party plugin runs in the
  harness.

Only the built-in players may be ``trusted`` (run in-process): a third-party
``PlayerSpec(trusted=True)`` is loaded as untrusted, so a plugin cannot take
itself out of the sandbox.

Problems are data: a plugin that fails to import, a hook that raises, a bad
``PlayerSpec``, a discovery that hangs or crashes, or two plugins offering one
name are each kept as a :class:`PluginProblem` naming the plugin; everything
else still loads. Text a plugin supplies is stripped of control characters
(:func:`arena.bots.safetext.printable`) as it arrives.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata as metadata
import importlib.util
import os
import re
from dataclasses import dataclass, field, replace
from typing import Any

import pluggy

from arena.bots import hookspecs
from arena.bots.errors import PluginError
from arena.bots.hookimpl import PROJECT
from arena.bots.options import reported_options
from arena.bots.player_spec import PlayerSpec, PluginSource
from arena.bots.safetext import printable
from arena.game.rules import PRESETS, Presets, Rules
from arena.plugins import discovery
from arena.plugins.file_bots import file_player, file_seat
from arena.plugins.program_bots import package_player, program_names, program_player, program_seat
from arena.plugins.names import (BUILTIN_PLUGIN, DISTRIBUTION, ENTRY_POINT_GROUP, base_player, joined, package_of,
                                 packages_of, player_options)

DISABLE_ENV = "ARENA_DISABLE_PLUGIN_AUTOLOAD"
MAX_DESCRIPTION, MAX_VERSION, MAX_PLAYERS, MAX_PRESETS = 300, 40, 100, 50
"""Caps on what one third-party plugin's discovery may bring."""
_NAME = re.compile(r"^[a-z0-9][a-z0-9_.\-]{0,39}$")


@dataclass(frozen=True, slots=True)
class PluginProblem:
    """Something wrong with one plugin; the others still load."""

    plugin: str
    message: str

    def __str__(self) -> str:
        return f"plugin {self.plugin}: {self.message}"


@dataclass(slots=True)
class Registry:
    """The players and presets every loaded plugin offers, and the problems met.

    ``presets``: the built-in rule presets and those plugins add; pass it (or
    the registry) to whatever resolves a preset name. ``manager`` holds the
    built-in plugin only: third-party plugins are never registered in the harness.
    """

    players: dict[str, PlayerSpec] = field(default_factory=dict)
    presets: Presets = field(default_factory=lambda: PRESETS)
    problems: list[PluginProblem] = field(default_factory=list)
    duplicates: dict[str, list[str]] = field(default_factory=dict)
    manager: pluggy.PluginManager | None = None

    def get(self, name: str) -> PlayerSpec:
        """The spec of ``name`` (of the player an alias such as ``random#2`` plays as; a bot in one file,
        ``PATH.py:ClassName``, is found confined the first time: :mod:`arena.plugins.file_bots`); an
        unknown or ambiguous name raises :class:`PluginError`."""
        try:
            name, options = player_options(base_player(name))
        except ValueError as exc:
            raise PluginError(str(exc)) from None
        if options:
            return self.get(name).with_options(options)
        if name not in self.players and program_seat(name) is not None:  # a program bot: docs/protocol.md
            self.players[name] = program_player(name)
        if name not in self.players and file_seat(name) is not None:
            self.players[name] = file_player(name)
        if name in self.duplicates:
            plugins = self.duplicates[name]
            if len(plugins) == 1:
                raise PluginError(f"player {name!r}: plugin {plugins[0]} offers it more than once")
            raise PluginError(f"player {name!r} is offered by more than one plugin: "
                              f"{joined(plugins)} ({packages_of(plugins)}); uninstall all but one")
        spec = self.players.get(name)
        broken = [] if spec is not None or any(s.plugin == name for s in self.players.values()) else [
            p for p in self.problems if p.plugin == name]
        if broken:  # a plugin of that name (as `arena new-bot` names them) offers nothing: say why
            raise PluginError(f"player {name!r} is not available: {broken[0]}")
        if spec is None:
            known = ", ".join(sorted(self.players)) or "none"
            close = difflib.get_close_matches(name, list(self.players), n=1)
            hint = f": did you mean {close[0]!r}?" if close else ""
            raise PluginError(f"unknown player {name!r}{hint} (known players: {known})")
        return spec

    def notify_game_finished(self, record: dict) -> list[PluginProblem]:
        """Call the built-in ``arena_game_finished`` observers; failures come back as problems.

        Third-party observers are never called (their code does not run in the harness).
        """
        problems: list[PluginProblem] = []
        if self.manager is None:
            return problems
        for impl in self.manager.hook.arena_game_finished.get_hookimpls():
            try:
                impl.function(record=record)
            except Exception as exc:  # noqa: BLE001 - a plugin's hook: its failure is a problem, not a crash
                problems.append(PluginProblem(impl.plugin_name, f"arena_game_finished raised {exc!r}"))
        return problems


def load(autoload: bool | None = None, *, timeout: float = discovery.DISCOVERY_TIMEOUT) -> Registry:
    """The built-in players and (unless disabled) every entry-point plugin's, discovered confined.

    ``timeout``: wall-clock seconds each third-party plugin's discovery may take.
    """
    if autoload is None:
        autoload = not autoload_disabled()
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    registry = Registry(manager=pm)
    pm.register(_builtin_plugin(), name=BUILTIN_PLUGIN)
    offered: dict[str, list[str]] = {}
    _collect_builtin(pm, registry, offered)
    _collect_presets(pm, registry)
    if autoload:
        found, bad = discovery.candidates(ENTRY_POINT_GROUP, BUILTIN_PLUGIN)
        registry.problems += [PluginProblem(printable(name), message) for name, message in bad]
        reports = discovery.discover(found, timeout) if found else {}
        for candidate in found:
            specs, presets, problems = discovered_players(candidate, reports[candidate.name])
            registry.problems += [PluginProblem(candidate.name, message) for message in problems]
            for spec in specs:
                offered.setdefault(spec.name, []).append(candidate.name)
                registry.players.setdefault(spec.name, spec)
            _register_presets(registry, candidate.name, presets)
        _collect_programs(registry, offered)
    for name, plugins in offered.items():
        if len(plugins) > 1:
            _report_duplicate(registry, name, plugins)
    return registry


def autoload_disabled() -> bool:
    """Is ``ARENA_DISABLE_PLUGIN_AUTOLOAD`` set to a true value (anything but 0, false, no, empty)?"""
    value = os.environ.get(DISABLE_ENV, "").strip().lower()
    return value not in ("", "0", "false", "no")


# ------------------------------------------------------------ built-in players
def _collect_programs(registry: Registry, offered: dict[str, list[str]]) -> None:
    """The programs pip packages ship (entry points of group ``arena.programs``: docs/protocol.md), read as data."""
    for name in program_names():
        try:
            spec = package_player(name)
        except PluginError as exc:
            registry.problems.append(PluginProblem(printable(name), str(exc)))
            continue
        if spec is not None:
            offered.setdefault(name, []).append(spec.plugin)
            registry.players.setdefault(name, spec)


def _builtin_plugin():
    """The built-in players' module, through this distribution's own entry point (a third-party
    entry point of the same name is never it); a checkout that is not installed has no entry
    points, so there it is the package of that name."""
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP, name=BUILTIN_PLUGIN):
        dist = getattr(ep, "dist", None)
        if dist is not None and dist.name == DISTRIBUTION:
            return ep.load()
    return importlib.import_module(BUILTIN_PLUGIN)


def _collect_builtin(pm: pluggy.PluginManager, registry: Registry, offered: dict[str, list[str]]) -> None:
    try:
        version = metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # run from a checkout that is not installed
        version = "0"
    for spec in offered_players(pm, BUILTIN_PLUGIN, registry.problems):
        spec = replace(spec, plugin=BUILTIN_PLUGIN, version=spec.version or version)
        offered.setdefault(spec.name, []).append(BUILTIN_PLUGIN)
        registry.players.setdefault(spec.name, spec)


def offered_players(pm: pluggy.PluginManager, plugin: str, problems: list) -> list[PlayerSpec]:
    """The valid specs ``plugin``'s ``arena_players`` returns; each fault appended to problems."""
    specs = []
    for impl in pm.hook.arena_players.get_hookimpls():
        if impl.plugin_name != plugin:
            continue
        for spec in _call_players_hook(impl, problems):
            problem = _check_spec(spec)
            if problem:
                problems.append(PluginProblem(plugin, problem))
            else:
                specs.append(spec)
    return specs


def _call_players_hook(impl, problems: list) -> list:
    """The specs one ``arena_players`` implementation returns; a failure becomes a problem."""
    try:
        specs = impl.function()
    except Exception as exc:  # noqa: BLE001 - a plugin's hook: its failure is a problem
        problems.append(PluginProblem(impl.plugin_name, f"arena_players raised {type(exc).__name__}: {exc}"))
        return []
    if specs is None:
        return []
    if isinstance(specs, PlayerSpec) or not isinstance(specs, (list, tuple)):
        problems.append(PluginProblem(
            impl.plugin_name, f"arena_players must return a list of PlayerSpec (got {type(specs).__name__})"))
        return []
    return list(specs)


def _report_duplicate(registry: Registry, name: str, plugins: list[str]) -> None:
    """Two plugins offering one name: one problem naming both (and their packages). A built-in
    player keeps its name and the other offer is not used; between third-party plugins neither is."""
    distinct = list(dict.fromkeys(plugins))
    if len(distinct) == 1:
        registry.players.pop(name, None)
        registry.problems.append(PluginProblem(distinct[0], f"offers player {name!r} more than once; "
                                                            f"it is not used"))
        registry.duplicates[name] = distinct
        return
    if BUILTIN_PLUGIN in distinct:
        for plugin in distinct[1:]:
            registry.problems.append(PluginProblem(plugin, (
                f"offers player {name!r}, the name of a built-in player (plugin {BUILTIN_PLUGIN}, package "
                f"{DISTRIBUTION}); the built-in one plays, this one is not used: rename it in package "
                f"{package_of(plugin)}")))
        return
    registry.players.pop(name, None)
    registry.problems.append(PluginProblem(
        distinct[-1], f"player {name!r} is offered by plugins {joined(distinct)} ({packages_of(distinct)}); "
                      f"none of them is used: uninstall all but one, or rename the player in one"))
    registry.duplicates[name] = distinct


def _check_spec(spec: Any) -> str | None:
    if not isinstance(spec, PlayerSpec):
        return f"arena_players returned {type(spec).__name__}, expected PlayerSpec"
    if not isinstance(spec.name, str) or not _NAME.match(spec.name):
        return (f"player name {spec.name!r} is not allowed (expected lowercase letters, digits, "
                f"'-', '_' or '.', at most 40)")
    if not callable(spec.factory):
        return f"player {spec.name!r} has a factory that is not callable ({spec.factory!r})"
    return None


def _collect_presets(pm: pluggy.PluginManager, registry: Registry) -> None:
    for impl in pm.hook.arena_rule_presets.get_hookimpls():
        for rules in _call_presets_hook(impl, registry.problems):
            try:
                registry.presets = registry.presets.adding(rules)
            except Exception as exc:  # noqa: BLE001 - a plugin's preset: its failure is a problem
                registry.problems.append(PluginProblem(impl.plugin_name, f"arena_rule_presets: {exc}"))


def offered_presets(pm: pluggy.PluginManager, problems: list) -> list:
    """The Rules every registered ``arena_rule_presets`` returns; each fault appended to problems."""
    return [rules for impl in pm.hook.arena_rule_presets.get_hookimpls()
            for rules in _call_presets_hook(impl, problems)]


def _call_presets_hook(impl, problems: list) -> list:
    """The Rules one ``arena_rule_presets`` implementation returns; anything else is a problem."""
    try:
        presets = list(impl.function() or ())
    except Exception as exc:  # noqa: BLE001 - a plugin's hook: its failure is a problem
        problems.append(PluginProblem(impl.plugin_name, f"arena_rule_presets raised {type(exc).__name__}: {exc}"))
        return []
    good = [r for r in presets if isinstance(r, Rules)]
    problems += [PluginProblem(impl.plugin_name, f"arena_rule_presets: expected Rules, got {type(r).__name__}")
                 for r in presets if not isinstance(r, Rules)]
    return good


# ---------------------------------------------------- third-party, harness side
OBSERVER_IGNORED = ("implements arena_game_finished, which is never called for a third-party plugin "
                    "(no code of one runs in the harness)")


def discovered_players(candidate: discovery.Candidate, report: dict) -> tuple[list[PlayerSpec], list, list[str]]:
    """(player specs, preset dicts, problem texts) of one plugin's discovery report, every field checked."""
    players, presets, problems = _read_report(report)
    return [PlayerSpec(e["name"], None, _field(e["description"], MAX_DESCRIPTION),
                       _field(e["version"] or candidate.version or e["module_version"] or "0", MAX_VERSION),
                       candidate.name, False, PluginSource(candidate.value, candidate.path, candidate.code_hash,
                                                           e["factory"]), accepts=e["accepts"]) for e in players], \
        presets, problems


def _read_report(report: dict) -> tuple[list[dict], list, list[str]]:
    """(player entries, preset dicts, problem texts) from a report; nonsense in it is a problem."""
    if "error" in report:
        return [], [], [_field(report["error"], 1000)]
    problems = [_field(p, 1000) for p in _items(report, "problems", 100) if isinstance(p, str)]
    module_version = report.get("module_version")
    players = []
    for entry in _items(report, "players", MAX_PLAYERS):
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str) or not _NAME.match(name):
            problems.append(f"its discovery reported a player name that is not allowed: {_field(repr(name), 60)}")
            continue
        players.append({"name": name, "description": entry.get("description"),
                        "version": _field(entry.get("version"), MAX_VERSION),
                        "module_version": _field(module_version, MAX_VERSION),
                        "factory": _field(entry.get("factory"), 200),
                        "accepts": reported_options(entry.get("accepts"))})
    for key, cap in (("players", MAX_PLAYERS), ("presets", MAX_PRESETS)):
        if len(_items(report, key, None)) > cap:
            problems.append(f"offers more than {cap} {key}; only the first {cap} are used")
    if report.get("observes") is True:
        problems.append(OBSERVER_IGNORED)
    return players, _items(report, "presets", MAX_PRESETS), problems


def _items(report: dict, key: str, cap: int | None) -> list:
    value = report.get(key)
    return (value if isinstance(value, list) else [])[:cap]


def _field(text: Any, limit: int) -> str:
    """Plugin-supplied text for a one-line field: controls stripped, at most ``limit`` characters."""
    text = printable(text).strip() if isinstance(text, str) else ""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _register_presets(registry: Registry, plugin: str, presets: list) -> None:
    for data in presets:
        try:
            name = data.get("name") if isinstance(data, dict) else None
            if not isinstance(name, str) or not _NAME.match(name):
                raise ValueError(f"preset name {_field(repr(name), 60)} is not allowed (expected lowercase letters, "
                                 f"digits, '-', '_' or '.', at most 40)")
            registry.presets = registry.presets.adding(Rules.from_dict(data))
        except Exception as exc:  # noqa: BLE001 - a plugin's preset: its failure is a problem
            registry.problems.append(PluginProblem(plugin, f"arena_rule_presets: {_field(str(exc), 300)}"))
