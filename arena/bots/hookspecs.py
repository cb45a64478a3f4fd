"""Hook specifications for arena plugins (entry-point group ``arena.plugins``).

A plugin is a module that implements some of these hooks, each decorated with
``arena.hookimpl``. Built-in players register through exactly these hooks.
A third-party plugin's hooks are called only in confined processes (discovery,
its bot's sandbox), never in the harness: see :mod:`arena.plugins.registry`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

from arena.bots.hookimpl import PROJECT

if TYPE_CHECKING:
    from arena.bots.player_spec import PlayerSpec
    from arena.game.rules import Rules

hookspec = pluggy.HookspecMarker(PROJECT)


@hookspec
def arena_players() -> list[PlayerSpec]:  # type: ignore[empty-body]  # a hook's declaration: no body
    """Return the players this plugin offers, as :class:`arena.PlayerSpec` objects.

    Each name must be unique across every installed plugin.
    """


@hookspec
def arena_rule_presets() -> list[Rules]:  # type: ignore[empty-body]
    """Return extra rule presets (:class:`arena.Rules` with a unique ``name``)."""


@hookspec
def arena_game_finished(record: dict[str, Any]) -> None:
    """Called with the game record (JSON-ready dict) after each game ``arena play`` finishes.

    An observer: the return value is ignored and an exception is reported, not raised.
    Called for the built-in plugin only: a third-party observer would run in the
    harness, so it is never called (discovery warns that it is ignored).
    """
