"""The ``arena`` command line: thin typer commands over library calls.

This is the only module that prints or exits. Every library error
(:class:`arena.ArenaError`) becomes one line on stderr and exit code 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from tabulate import tabulate

from .errors import ArenaError
from .rules import CHOICES, OPTION_HELP, OPTIONS, PRESET_SOURCES, PRESETS, Rules

app = typer.Typer(
    name="arena", help="Bhabhi bot arena: play, test and rank card-playing bots.",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
)
bench_app = typer.Typer(help="Benchmarks that print figures.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")


class UserError(ArenaError):
    """A mistake on the command line found by the CLI itself."""


def _out(text: str = "") -> None:
    typer.echo(text)


def parse_overrides(items: list[str]) -> dict:
    """``["escape=pass", "shootout=true", "decks=2"]`` -> typed keyword overrides."""
    out = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise UserError(f"--set expects OPTION=VALUE, e.g. escape=pass (got {item!r})")
        low = raw.strip().lower()
        value = True if low == "true" else False if low == "false" else int(low) if low.isdigit() else raw.strip()
        out[key.strip().replace("-", "_")] = value
    return out


def _rules(preset: str, overrides: list[str]) -> Rules:
    _registry()  # plugins may add presets
    return Rules.preset(preset, **parse_overrides(overrides))


_REGISTRY = None


def _registry():
    global _REGISTRY
    if _REGISTRY is None:
        from .plugins import load
        _REGISTRY = load()
        for problem in _REGISTRY.problems:
            typer.echo(f"warning: {problem}", err=True)
    return _REGISTRY


def _seats(text: str) -> list[str]:
    names = [s.strip() for s in text.split(",") if s.strip()]
    if not names:
        raise UserError("--seats needs player names separated by commas, e.g. heuristic,random,low")
    return names


# ------------------------------------------------------------------- players
@app.command()
def players() -> None:
    """List every discovered player: name, plugin, version, description."""
    reg = _registry()
    rows = [(s.name, s.plugin, s.version, "yes" if s.trusted else "no", s.description)
            for s in sorted(reg.players.values(), key=lambda s: s.name)]
    _out(tabulate(rows, headers=["player", "plugin", "version", "trusted", "description"]))


@app.command()
def variants() -> None:
    """Show the rule presets, their options and seat ranges, and every option's values."""
    _registry()
    headers = ["preset", "seats", *OPTIONS[:-3], "source"]
    rows = []
    for name, rules in PRESETS.items():
        d = rules.to_dict()
        rows.append([name, f"{rules.min_players}-{rules.max_players}",
                     *[_show(d[o]) for o in OPTIONS[:-3]], PRESET_SOURCES.get(name, "plugin")])
    _out(tabulate(rows, headers=headers))
    _out()
    opt_rows = [(o, " | ".join(_show(v) for v in CHOICES.get(o, ())) or "whole number", OPTION_HELP.get(o, ""))
                for o in OPTIONS]
    _out(tabulate(opt_rows, headers=["option", "values", "meaning"]))
    _out("\nOverride any option with --set OPTION=VALUE, e.g. arena play --rules getaway --set escape=pass")


def _show(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# ---------------------------------------------------------------------- play
@app.command()
def play(
    rules: str = typer.Option("getaway", "--rules", "-r", help="Rule preset (see `arena variants`)."),
    seats: str = typer.Option("random,random,random,random", "--seats", "-s",
                              help="Player names, one per seat, comma-separated."),
    seed: int = typer.Option(1, "--seed", help="The game's seed (same seed, same game)."),
    dealer: int = typer.Option(0, "--dealer", help="The dealer's seat."),
    set_: list[str] = typer.Option([], "--set", help="Override a rule option: OPTION=VALUE (repeatable)."),
    as_json: bool = typer.Option(False, "--json", help="Print the game record as JSON instead."),
    sandbox: Optional[bool] = typer.Option(None, "--sandbox/--in-process",
                                           help="Run bots sandboxed (default for untrusted bots) or in-process."),
) -> None:
    """Play one game and print it trick by trick (or its record with --json)."""
    from .display import describe
    from .runner import play_one
    record = play_one(_registry(), _rules(rules, set_), _seats(seats), seed, dealer, sandbox)
    if as_json:
        _out(json.dumps(record, indent=1))
    else:
        for line in describe(record):
            _out(line)


# ------------------------------------------------------------------- new-bot
@app.command("new-bot")
def new_bot(
    name: str = typer.Argument(..., help="The bot's name (lowercase, e.g. my-bot)."),
    directory: Path = typer.Option(Path("."), "--dir", help="Where to create the package folder."),
) -> None:
    """Create a ready-to-install bot plugin package."""
    from .scaffold import new_bot as scaffold
    target = scaffold(name, directory)
    _out(f"created {target}")
    _out(f"next:  pip install -e {target}   then   arena players")


# --------------------------------------------------------------------- bench
@bench_app.command("engine")
def bench_engine(
    games: int = typer.Option(3000, "--games", "-n", help="Games per repeat."),
    repeats: int = typer.Option(5, "--repeats", help="Repeats; the median is reported."),
    players_: int = typer.Option(4, "--players", help="Table size."),
    rules: str = typer.Option("getaway", "--rules", help="Rule preset."),
) -> None:
    """Games per second of the engine with uniformly random legal play, on one core."""
    from .bench import engine_bench
    for line in engine_bench(_rules(rules, []), players_, games, repeats):
        _out(line)


# ---------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning every error into one line and an exit code."""
    if argv is None:
        argv = sys.argv[1:]
    if not argv:
        argv = ["--help"]
    try:
        result = app(args=argv, prog_name="arena", standalone_mode=False)
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        typer.echo("aborted", err=True)
        return 130
    except ArenaError as exc:
        typer.echo(f"error: {exc}", err=True)
        return 2
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        return 130
    except Exception as exc:
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):  # a usage error
            typer.echo(f"error: {exc.format_message()}", err=True)
            return exc.exit_code
        raise
    return result if isinstance(result, int) else 0


def run() -> None:  # pragma: no cover - console script wrapper
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
