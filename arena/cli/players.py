"""``arena players`` and ``arena variants``: who can play, and under which rules.

Both tables fit the terminal (descriptions and meanings wrap); ``--wide`` gives
``variants`` one column per rule option instead of the options each preset
changes.
"""

from __future__ import annotations

import typer

from arena.cli.output import out
from arena.cli.session import session
from arena.cli.text_tables import AUTO, plain
from arena.game.rules import CHOICES, OPTION_HELP, OPTIONS, PRESET_SOURCES, Rules

app = typer.Typer()

FORMAT = typer.Option(AUTO, "--format", "-f",
                      help="auto (fits the terminal) or a tabulate format (simple, github, ...).")


@app.command()
def players(ctx: typer.Context, table_format: str = FORMAT) -> None:
    """List every discovered player: name, plugin, version, description."""
    reg = session(ctx).registry
    rows = [(s.name, s.plugin, s.version, "yes" if s.trusted else "no", s.description + _options(s))
            for s in sorted(reg.players.values(), key=lambda s: s.name)]
    out(plain(["player", "plugin", "version", "trusted", "description"], rows, table_format, wrap=("description",)))


@app.command()
def variants(
    ctx: typer.Context,
    wide: bool = typer.Option(False, "--wide", "-w", help="One column per rule option (default: the options "
                              "each preset sets differently from the defaults)."),
    table_format: str = FORMAT,
) -> None:
    """Show the rule presets, their options and seat ranges, and every option's values."""
    base = Rules().to_dict()
    shown = OPTIONS[:-3]  # min_players, max_players: the seats column
    rows = []
    for name, rules in session(ctx).registry.presets.items():  # plugins may add presets
        d = rules.to_dict()
        options = ([_show(d[o]) for o in shown] if wide
                   else [", ".join(f"{o}={_show(d[o])}" for o in shown if d[o] != base[o]) or "-"])
        rows.append([name, f"{rules.min_players}-{rules.max_players}", *options, PRESET_SOURCES.get(name, "plugin")])
    headers = ["preset", "seats", *(shown if wide else ["changed options"]), "source"]
    out(plain(headers, rows, table_format, wrap=(headers[2], "source"), wide=wide))
    out()
    opt_rows = [(o, _show(base[o]), " | ".join(_show(v) for v in CHOICES.get(o, ())) or "whole number",
                 OPTION_HELP.get(o, "")) for o in OPTIONS]
    out(plain(["option", "default", "values", "meaning"], opt_rows, table_format, wrap=("values", "meaning")))
    out("\nChange an option with --set OPTION=VALUE, e.g. arena play --set escape=pass")


def _options(spec) -> str:
    """`` (options: depth, greedy)``: what a parametrised player of it may set, ``name(depth=5)``."""
    names = ", ".join(sorted(spec.accepted()))
    return f" (options: {names})" if names else ""


def _show(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
