"""``arena players`` and ``arena variants``: who can play, and under which rules."""

from __future__ import annotations

import typer
from tabulate import tabulate

from arena.cli.output import out
from arena.cli.session import session
from arena.game.rules import CHOICES, OPTION_HELP, OPTIONS, PRESET_SOURCES

app = typer.Typer()


@app.command()
def players(ctx: typer.Context) -> None:
    """List every discovered player: name, plugin, version, description."""
    reg = session(ctx).registry
    rows = [(s.name, s.plugin, s.version, "yes" if s.trusted else "no", s.description)
            for s in sorted(reg.players.values(), key=lambda s: s.name)]
    out(tabulate(rows, headers=["player", "plugin", "version", "trusted", "description"]))


@app.command()
def variants(ctx: typer.Context) -> None:
    """Show the rule presets, their options and seat ranges, and every option's values."""
    headers = ["preset", "seats", *OPTIONS[:-3], "source"]
    rows = []
    for name, rules in session(ctx).registry.presets.items():  # plugins may add presets
        d = rules.to_dict()
        rows.append([name, f"{rules.min_players}-{rules.max_players}",
                     *[_show(d[o]) for o in OPTIONS[:-3]], PRESET_SOURCES.get(name, "plugin")])
    out(tabulate(rows, headers=headers))
    out()
    opt_rows = [(o, " | ".join(_show(v) for v in CHOICES.get(o, ())) or "whole number", OPTION_HELP.get(o, ""))
                for o in OPTIONS]
    out(tabulate(opt_rows, headers=["option", "values", "meaning"]))
    out("\nOverride any option with --set OPTION=VALUE, e.g. arena play --rules getaway --set escape=pass")


def _show(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
