"""Plugin sources and checks shared by the plugin tests (installed with the ``fake_plugins`` fixture)."""

from __future__ import annotations

FINE = """
    @hookimpl
    def arena_players():
        return [PlayerSpec("fine-bot", LowBot)]
"""
"""A well-behaved plugin offering ``fine-bot``: it must load whatever its neighbours do."""


def problems_of(registry) -> dict[str, str]:
    """The registry's problems, message by plugin name."""
    return {p.plugin: p.message for p in registry.problems}
