"""``arena bench engine|sandbox``: benchmarks that print figures."""

from __future__ import annotations


import typer

from arena.cli.output import out
from arena.cli.session import session
from arena.game.bench import engine_bench
from arena.plugins.sandbox_bench import sandbox_bench

app = typer.Typer(help="Benchmarks that print figures.", no_args_is_help=True)


@app.command("engine")
def engine(
    ctx: typer.Context,
    games: int = typer.Option(2000, "--games", "-n", min=1, help="Games per repeat."),
    repeats: int = typer.Option(9, "--repeats", min=1, help="Repeats; the median is reported."),
    players_: int = typer.Option(4, "--players", help="Table size."),
    rules: str = typer.Option("getaway", "--rules", help="Rule preset."),
) -> None:
    """Games per second of the engine with uniformly random legal play, on one core."""
    for line in engine_bench(session(ctx).rules(rules, []), players_, games, repeats):
        out(line)


@app.command("sandbox")
def sandbox(
    ctx: typer.Context,
    decisions: int = typer.Option(5000, "--decisions", min=10, help="Round trips to time."),
    games: int = typer.Option(100, "--games", "-n", min=1, help="Games per side for games/s."),
    players_: int = typer.Option(4, "--players", help="Table size."),
    rules: str = typer.Option("getaway", "--rules", help="Rule preset."),
    cpu: int | None = typer.Option(None, "--cpu", help="The core to pin the referee and bots to."),
) -> None:
    """Round trip per decision of a trivial sandboxed bot, and sandboxed vs in-process games/s."""
    for line in sandbox_bench(decisions, games, players_, session(ctx).rules(rules, []), cpu):
        out(line)
