"""What the commands of one ``arena`` invocation share: the plugin registry, loaded once, on first use.

:func:`arena.cli.app.main` makes a fresh :class:`Session` for every call and
hands it to typer as the context object, so two calls (two tests) never share
a registry; a command reaches it with :func:`session`.
"""

from __future__ import annotations

import typer

from arena.cli.options import parse_overrides
from arena.cli.output import err
from arena.game.rules import Rules
from arena.plugins.registry import Registry, load


class Session:
    """The registry of this invocation (loading it prints each plugin problem as a warning)."""

    def __init__(self) -> None:
        self._registry: Registry | None = None

    @property
    def registry(self) -> Registry:
        if self._registry is None:
            self._registry = load()
            for problem in self._registry.problems:
                err(f"warning: {problem}")
        return self._registry

    def rules(self, preset: str, overrides: list[str]) -> Rules:
        """A preset with ``--set`` overrides, once the plugins (which may add presets) are loaded."""
        return self.registry.presets.rules(preset, **parse_overrides(overrides))


def session(ctx: typer.Context) -> Session:
    """The invocation's session (one is made when typer runs without :func:`arena.cli.app.main`)."""
    return ctx.ensure_object(Session)
