"""Plugin discovery: the pluggy manager, entry points, and :class:`PlayerSpec`.

Third-party plugins are modules named by entry points in the group
``arena.plugins``; the built-in players (the ``players`` package) register
through exactly the same hooks. Set ``ARENA_DISABLE_PLUGIN_AUTOLOAD=1`` to load
only the built-in players (as pytest's ``PYTEST_DISABLE_PLUGIN_AUTOLOAD``; the
values ``0``, ``false``, ``no`` and the empty string leave autoloading on).

Only the built-in players may be ``trusted`` (run in-process): a third-party
``PlayerSpec(trusted=True)`` is loaded as untrusted, so a plugin cannot take
itself out of the sandbox.

Problems are data: a plugin that fails to import, a hook that raises, a bad
``PlayerSpec`` or two plugins offering one name are each kept as a
:class:`PluginProblem` naming the plugin; everything else still loads.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import importlib.metadata as metadata
import inspect
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

import pluggy

from . import hookspecs
from .errors import ArenaError

ENTRY_POINT_GROUP = "arena.plugins"
DISABLE_ENV = "ARENA_DISABLE_PLUGIN_AUTOLOAD"
BUILTIN_PLUGIN = "players"
hookimpl = pluggy.HookimplMarker("arena")
_NAME = re.compile(r"^[a-z0-9][a-z0-9_.\-]{0,39}$")


class PluginError(ArenaError, LookupError):
    """An unknown player, or a player whose plugin is broken."""


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A player a plugin offers: ``factory(seed=...)`` builds its :class:`arena.Bot`."""

    name: str
    factory: Callable[..., Any]
    description: str = ""
    version: str = ""
    plugin: str = ""
    trusted: bool = False
    """Trusted players may run in-process (fast); every other player is sandboxed.
    Honoured for the built-in players only."""

    def create(self, seed: int, **options: Any):
        """Build the bot; raises :class:`PluginError` naming the player if the factory fails."""
        try:
            bot = self.factory(seed=seed, **options)
        except Exception as exc:
            raise PluginError(f"player {self.name!r} (plugin {self.plugin}): factory failed: "
                              f"{type(exc).__name__}: {exc}") from exc
        if not callable(getattr(bot, "act", None)):
            raise PluginError(f"player {self.name!r} (plugin {self.plugin}): factory returned "
                              f"{type(bot).__name__}, expected an arena.Bot")
        return bot

    def code_hash(self) -> str:
        """A hash of the source of the factory's package (to tell versions apart)."""
        return code_hash_of(self.factory)


@dataclass(frozen=True, slots=True)
class PluginProblem:
    """Something wrong with one plugin; the others still load."""

    plugin: str
    message: str

    def __str__(self) -> str:
        return f"plugin {self.plugin}: {self.message}"


@dataclass(slots=True)
class Registry:
    """The players and presets every loaded plugin offers, and the problems met."""

    players: dict[str, PlayerSpec] = field(default_factory=dict)
    problems: list[PluginProblem] = field(default_factory=list)
    duplicates: dict[str, list[str]] = field(default_factory=dict)
    manager: pluggy.PluginManager | None = None

    def get(self, name: str) -> PlayerSpec:
        """The spec of ``name``; an unknown or ambiguous name raises :class:`PluginError`."""
        if name in self.duplicates:
            plugins = self.duplicates[name]
            if len(plugins) == 1:
                raise PluginError(f"player {name!r}: plugin {plugins[0]} offers it more than once")
            raise PluginError(f"player {name!r} is offered by more than one plugin: "
                              f"{_and(plugins)}; uninstall all but one")
        spec = self.players.get(name)
        if spec is None:
            known = ", ".join(sorted(self.players)) or "none"
            raise PluginError(f"unknown player {name!r} (known players: {known})")
        return spec

    def notify_game_finished(self, record: dict) -> list[PluginProblem]:
        """Call every ``arena_game_finished`` observer; failures come back as problems."""
        problems = []
        if self.manager is None:
            return problems
        for impl in self.manager.hook.arena_game_finished.get_hookimpls():
            try:
                impl.function(record=record)
            except Exception as exc:
                problems.append(PluginProblem(impl.plugin_name, f"arena_game_finished raised {exc!r}"))
        return problems


def load(autoload: bool | None = None) -> Registry:
    """Load the built-in players and (unless disabled) every entry-point plugin."""
    if autoload is None:
        autoload = not autoload_disabled()
    pm = pluggy.PluginManager("arena")
    pm.add_hookspecs(hookspecs)
    registry = Registry(manager=pm)
    builtin = importlib.import_module(BUILTIN_PLUGIN)
    pm.register(builtin, name=BUILTIN_PLUGIN)
    versions = _load_entry_points(pm, registry) if autoload else {}
    _collect_players(pm, registry, versions)
    _collect_presets(pm, registry)
    return registry


def autoload_disabled() -> bool:
    """Is ``ARENA_DISABLE_PLUGIN_AUTOLOAD`` set to a true value (anything but 0, false, no, empty)?"""
    value = os.environ.get(DISABLE_ENV, "").strip().lower()
    return value not in ("", "0", "false", "no")


def _load_entry_points(pm: pluggy.PluginManager, registry: Registry) -> dict[str, str]:
    """Register every ``arena.plugins`` entry point; return the version of each one's distribution."""
    versions: dict[str, str] = {}
    for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        if pm.has_plugin(ep.name) or pm.is_blocked(ep.name):
            continue
        try:
            module = ep.load()
            pm.register(module, name=ep.name)
        except Exception as exc:
            registry.problems.append(PluginProblem(ep.name, f"failed to load: {type(exc).__name__}: {exc}"))
            continue
        if getattr(ep, "dist", None) is not None:
            versions[ep.name] = ep.dist.version
    return versions


def _and(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _version_of(plugin_name: str, module: Any) -> str:
    top = getattr(module, "__name__", "").split(".")[0]
    for candidate in (plugin_name, top):
        try:
            dists = metadata.packages_distributions().get(candidate) or [candidate]
            return metadata.version(dists[0])
        except metadata.PackageNotFoundError:
            continue
    return getattr(module, "__version__", "") or "0"


def _collect_players(pm: pluggy.PluginManager, registry: Registry, versions: dict[str, str]) -> None:
    offered: dict[str, list[str]] = {}
    for impl in pm.hook.arena_players.get_hookimpls():
        plugin = impl.plugin_name
        specs = _call_players_hook(impl, registry)
        version = versions.get(plugin)
        for spec in specs:
            problem = _check_spec(spec)
            if problem:
                registry.problems.append(PluginProblem(plugin, problem))
                continue
            if not spec.version:
                version = version or _version_of(plugin, impl.plugin)
            trusted = spec.trusted and plugin == BUILTIN_PLUGIN
            spec = replace(spec, plugin=plugin, version=spec.version or version, trusted=trusted)
            offered.setdefault(spec.name, []).append(plugin)
            registry.players.setdefault(spec.name, spec)
    for name, plugins in offered.items():
        if len(plugins) > 1:
            _report_duplicate(registry, name, plugins)


def _call_players_hook(impl, registry: Registry) -> list:
    """The specs one ``arena_players`` implementation returns; a failure becomes a problem."""
    try:
        specs = impl.function()
    except Exception as exc:
        registry.problems.append(PluginProblem(impl.plugin_name,
                                               f"arena_players raised {type(exc).__name__}: {exc}"))
        return []
    if specs is None:
        return []
    if isinstance(specs, PlayerSpec) or not isinstance(specs, (list, tuple)):
        registry.problems.append(PluginProblem(
            impl.plugin_name, f"arena_players must return a list of PlayerSpec (got {type(specs).__name__})"))
        return []
    return list(specs)


def _report_duplicate(registry: Registry, name: str, plugins: list[str]) -> None:
    registry.players.pop(name, None)
    distinct = list(dict.fromkeys(plugins))
    if len(distinct) == 1:
        registry.problems.append(PluginProblem(distinct[0], f"offers player {name!r} more than once; "
                                                            f"it is not used"))
    else:
        registry.problems.append(PluginProblem(
            distinct[-1], f"player {name!r} is offered by plugins {_and(distinct)}; none of them is used"))
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
    from .rules import Rules, register_preset
    for impl in pm.hook.arena_rule_presets.get_hookimpls():
        try:
            presets = list(impl.function() or ())
        except Exception as exc:
            registry.problems.append(PluginProblem(impl.plugin_name,
                                                   f"arena_rule_presets raised {type(exc).__name__}: {exc}"))
            continue
        for rules in presets:
            try:
                if not isinstance(rules, Rules):
                    raise TypeError(f"expected Rules, got {type(rules).__name__}")
                register_preset(rules)
            except Exception as exc:
                registry.problems.append(PluginProblem(impl.plugin_name, f"arena_rule_presets: {exc}"))


def code_hash_of(obj: Any) -> str:
    """SHA-256 (first 16 hex digits) of every .py file of the top-level package defining ``obj``."""
    module = inspect.getmodule(obj)
    if module is None:
        return "unknown"
    spec = importlib.util.find_spec(module.__name__.split(".")[0])
    if spec is None:
        return "unknown"
    if spec.submodule_search_locations:
        root = Path(list(spec.submodule_search_locations)[0])
        files = sorted(root.rglob("*.py"))
    else:
        root = Path(spec.origin)
        files = [root]
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.relative_to(root.parent).as_posix().encode())
        digest.update(f.read_bytes())
    return digest.hexdigest()[:16]
