"""``arena new-bot`` and ``arena check-bot``: start a bot package, and check one before it enters."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import typer

from arena.cli.options import (BANK_MS, DECISION_MS, MEMORY_MB, STARTUP_MS, limits_overrides, seed_value,
                               spec_overrides)
from arena.cli.output import out, wrapped
from arena.cli.session import session
from arena.cli.text_tables import AUTO, plain
from arena.plugins.checkbot import check_bot, planned_games
from arena.plugins.names import package_of
from arena.bots.player_spec import check_in_process
from arena.plugins.scaffold import new_bot as scaffold
from arena.sandbox.limits_spec import LimitsSpec

app = typer.Typer()


@app.command("new-bot")
def new_bot(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The bot's name (lowercase, e.g. my-bot; not one `arena players` lists)."),
    directory: Path = typer.Option(Path("."), "--dir", help="Where to create the package folder."),
) -> None:
    """Create a ready-to-install bot plugin package."""
    reg = session(ctx).registry
    taken = {n: f"plugin {s.plugin}, package {package_of(s.plugin)}" for n, s in reg.players.items()}
    taken.update({n: f"plugins {', '.join(p)}" for n, p in reg.duplicates.items()})
    target = scaffold(name, directory, taken)
    out(f"created {target}")
    out(f"next:  {on_path('pip')} install -e {target}   then   {on_path('arena')} players")


def on_path(command: str) -> str:
    """``command`` as this shell should type it to reach the arena's environment: the bare name when
    ``PATH`` finds this environment's one first (its venv active), else its full path there."""
    here = Path(sys.executable).parent / command
    if not here.exists():
        return command
    found = shutil.which(command)
    return command if found is not None and Path(found).resolve() == here.resolve() else str(here)


@app.command("check-bot")
def check_bot_cmd(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The player to check: a name `arena players` lists, a bot in one file "
                                         "(PATH.py:ClassName) or a program bot (program:PATH)."),
    games: int = typer.Option(2, "--games", "-n", min=1, help="Seeded games per preset and table size."),
    repeat_games: int = typer.Option(1, "--repeat-games", min=1,
                                     help="Games per preset played twice for the determinism check."),
    seed: int = typer.Option(1, "--seed", callback=seed_value, help="Seed of the check's games."),
    rules: str | None = typer.Option(None, "--rules", help="Presets to check, comma-separated (default: all)."),
    table_sizes: str | None = typer.Option(None, "--table-sizes",
                                              help="Table sizes, comma-separated (default: all each preset allows)."),
    decision_ms: int | None = DECISION_MS,
    bank_ms: int | None = BANK_MS,
    startup_ms: int | None = STARTUP_MS,
    memory_mb: int | None = MEMORY_MB,
    sandbox: bool = typer.Option(True, "--sandbox/--in-process",
                                 help="Run the bot in its sandbox, as tournaments do (default), or in-process."),
    table_format: str = typer.Option(AUTO, "--table-format",
                                     help="auto (fits the terminal) or a tabulate format for the table."),
) -> None:
    """Check a bot before submitting it; exit code 1 when any check fails.

    Plays seeded games at every table size of every preset and reports whether
    the bot loads, answers every decision legally, stays within the time and
    memory limits, handles takes (bhabho) and trumps (donkey), and plays the
    same moves given the same seeds.
    """
    chosen = spec_overrides(rules=rules, table_sizes=table_sizes)
    limits = LimitsSpec(**limits_overrides(decision_ms=decision_ms, bank_ms=bank_ms, startup_ms=startup_ms,
                                           memory_mb=memory_mb))
    reg = session(ctx).registry
    spec = reg.get(name)  # an unknown name: one line, with the closest known one
    if not sandbox:
        check_in_process(spec)  # a third-party bot: refused before anything starts
    kwargs: dict[str, Any] = dict(games=games, presets=chosen.get("rules"), table_sizes=chosen.get("table_sizes"),
                  repeat=repeat_games)
    typer.echo(f"check-bot {name}: {planned_games(**kwargs, table=reg.presets)} games ...", err=True)
    report = check_bot(name, registry=reg, seed=seed, limits=limits, sandbox=sandbox, **kwargs)
    grid = (lambda headers, rows: plain(headers, rows, wrap=("detail",))) if table_format == AUTO else None
    out(report.table(table_format, grid=grid, fold=wrapped))
    if not report.ok:
        raise typer.Exit(1)
