"""PlayerSpec: a player a plugin offers, and how a third-party one is found (PluginSource).

A built-in player's spec carries its factory; a third-party player's, as the
harness knows it, carries none (its code never runs in the harness) and a
:class:`PluginSource` instead: it can be built only inside its sandbox.
:func:`check_in_process` refuses to build such a player here.

It is part of the bot contract (``from arena import PlayerSpec``: a plugin
returns it, the referee builds a bot from it), so it lives in the bots layer,
with what its methods use: option typing (:mod:`arena.bots.options`), code
hashes (:mod:`arena.bots.code_hash`) and :class:`~arena.bots.errors.PluginError`.
The plugins layer above finds the specs (:mod:`arena.plugins.registry`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from arena.bots.code_hash import player_hash_of
from arena.bots.errors import PluginError
from arena.bots.options import accepted_options, typed_options


@dataclass(frozen=True, slots=True)
class PluginSource:
    """How a third-party player is found, learned without importing it."""

    entry_point: str
    """The plugin's entry point: ``module`` or ``module:attr``."""
    path: str = ""
    """The folder its top-level module is imported from ("" when the default path has it)."""
    code_hash: str = ""
    """Of the distribution's files (:func:`arena.plugins.discovery.code_hash`)."""
    factory: str = ""
    """``module:qualname`` of the factory, as the plugin's discovery reported it (for reading only)."""
    file: str = ""
    """A bot in one file (``PATH.py:ClassName``, :mod:`arena.plugins.file_bots`): the file; its class is
    then imported by module path (``entry_point`` is ``module:ClassName``, ``path`` its folder), no hooks."""
    readable: tuple[str, ...] = ()
    """A bot in one file: what its sandbox may read of its folder (the file and the modules beside it)."""
    program: tuple[str, ...] = ()
    """A program bot (docs/protocol.md, :mod:`arena.plugins.program_bots`): its command line, ``path`` its
    folder (the sandbox runs it from a read-only copy)."""
    program_options: tuple[tuple[str, Any], ...] = ()
    """A program bot: its ``bot.toml``'s ``[options]``, sent to it in ``hello``."""


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A player a plugin offers: ``factory(seed=...)`` builds its :class:`arena.Bot`.

    A third-party player as the harness knows it has no factory (None) and a
    ``source``: it can be built only inside its sandbox.
    """

    name: str
    factory: Callable[..., Any] | None
    description: str = ""
    version: str = ""
    plugin: str = ""
    trusted: bool = False
    """Trusted players may run in-process (fast); every other player is sandboxed.
    Honoured for the built-in players only."""
    source: PluginSource | None = None
    options: tuple[tuple[str, Any], ...] = ()
    """Options the factory is called with (a parametrised player, ``sampler(worlds=40)``), sorted by name."""
    accepts: tuple[tuple[str, str], ...] | None = None
    """The options the factory accepts, (name, type) (None: read from the factory's signature)."""

    def create(self, seed: int, **options: Any) -> Any:
        """Build the bot; raises :class:`PluginError` naming the player if the factory fails."""
        check_in_process(self)
        try:
            bot = self.factory(seed=seed, **{**dict(self.options), **options})  # type: ignore[misc]  # checked above
        except Exception as exc:
            raise PluginError(f"player {self.name!r} (plugin {self.plugin}): factory failed: "
                              f"{type(exc).__name__}: {exc}") from exc
        if not callable(getattr(bot, "act", None)):
            raise PluginError(f"player {self.name!r} (plugin {self.plugin}): factory returned "
                              f"{type(bot).__name__}, expected an arena.Bot")
        return bot

    def code_hash(self) -> str:
        """A hash of the player's code (to tell versions apart), blind to comments and docstrings:
        a built-in's over the modules it uses; a third-party plugin's read from its files at
        discovery, never imported (:mod:`arena.bots.code_hash`)."""
        return self.source.code_hash if self.source is not None else player_hash_of(self.factory)

    def with_options(self, given: dict[str, str]) -> PlayerSpec:
        """This player with options given as texts, typed and checked (:class:`PluginError`: one line)."""
        return replace(self, options=typed_options(self.name, given, self.accepted()))

    def accepted(self) -> dict[str, str]:
        """The options its factory accepts, name -> type (:func:`arena.bots.options.accepted_options`)."""
        return dict(self.accepts) if self.accepts is not None else accepted_options(self.factory)


def check_in_process(spec: PlayerSpec) -> None:
    """Refuse (:class:`PluginError`) a player whose code must not run in this process."""
    if spec.factory is None and spec.source is not None and spec.source.program:
        raise PluginError(f"player {spec.name!r} is a program bot: it plays sandboxed only, not in-process")
    if spec.factory is None and spec.source is not None and spec.source.file:
        raise PluginError(f"player {spec.name!r} is a bot in one file, third-party code that never runs in the "
                          f"harness: it plays sandboxed only, not in-process")
    if spec.factory is None:
        raise PluginError(f"player {spec.name!r} comes from the third-party plugin {spec.plugin}, whose "
                          f"code never runs in the harness: it plays sandboxed only, not in-process")
