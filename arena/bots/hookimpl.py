"""The marker a plugin puts on its hook implementations: ``@arena.hookimpl``.

pluggy pairs implementations with the specifications of :mod:`arena.bots.hookspecs`
by the project name both markers carry, :data:`PROJECT`, which is also the name
of the plugin manager :mod:`arena.plugins.registry` builds.
"""

from __future__ import annotations

import pluggy

PROJECT = "arena"
"""The pluggy project name of the arena's hooks."""

hookimpl = pluggy.HookimplMarker(PROJECT)
"""Decorates a plugin's hook implementation (``arena_players``, ``arena_rule_presets``, ...)."""
