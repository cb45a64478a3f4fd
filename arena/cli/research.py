"""``arena research ...``: the exact solver and the checks of the seeds' claims (not needed to run events)."""

from __future__ import annotations

from pathlib import Path

import typer

from arena.cli.options import seats, seed_value
from arena.cli.output import out
from arena.cli.session import session
from arena.game.solver_text import solve_text
from arena.research.endings import endings_from_results, shootout_share
from arena.research.solver_check import check_seed002, shared_suit_survey, survey_lines

app = typer.Typer(help="Research: the exact two-player solver and checks of the seeds' claims.",
                  no_args_is_help=True)


@app.command()
def solve(
    ctx: typer.Context,
    position: str = typer.Argument(..., help='Two hands, e.g. "leader: AS KS 2H / other: 3C 4C".'),
    rules: str = typer.Option("playnest", "--rules", "-r", help="Rule preset."),
    set_: list[str] = typer.Option([], "--set", help="Override a rule option: OPTION=VALUE (repeatable)."),
    draw_value: float = typer.Option(0.5, "--draw-value", help="What a drawn game counts as (0 win .. 1 loss)."),
) -> None:
    """Solve a two-player position exactly: the leader's chance of losing and the best moves."""
    for line in solve_text(position, session(ctx).rules(rules, set_), draw_value):
        out(line)


@app.command("shootout")
def shootout(
    ranks: int = typer.Option(4, "--ranks", min=1, max=13, help="Ranks in each suit of the small pack."),
    escape: str = typer.Option("pass", "--escape", help="The escape rule to solve under."),
) -> None:
    """Seed 002: in every two-player position whose hands share no suit, the leader never wins."""
    lines, _ = check_seed002(ranks, escape)
    for line in lines:
        out(line)


@app.command("shared-suits")
def shared_suits(
    samples: int = typer.Option(3000, "--samples", min=1, help="Random positions per escape rule."),
    seed: int = typer.Option(2, "--seed", callback=seed_value, help="Seed of the sample."),
    ranks: int = typer.Option(4, "--ranks", min=1, max=13, help="Ranks in each suit of the small pack."),
    presets: str = typer.Option("getaway,playnest,champions", "--presets",
                                help="Presets that get a row too, as they are, comma-separated ('' for none)."),
) -> None:
    """How often the leader wins with perfect play when the two hands share suits, per escape rule."""
    chosen = tuple(p.strip() for p in presets.split(",") if p.strip())
    for line in survey_lines(shared_suit_survey(samples, seed, ranks, presets=chosen), ranks):
        out(line)


@app.command("shootout-share")
def shootout_share_cmd(
    ctx: typer.Context,
    players_: str = typer.Option(..., "--players", help="Four player names, comma-separated (may repeat)."),
    games: int = typer.Option(100, "--games", "-n", min=1, help="Games to play."),
    seed: int = typer.Option(2, "--seed", callback=seed_value, help="Seed of the deals."),
    first: int = typer.Option(0, "--first", min=0, help="First game number (to split a run over processes)."),
) -> None:
    """Seed 002: the share of champions games that end in a shootout, with its interval."""
    lines, _ = shootout_share(session(ctx).registry, seats(players_), games, seed, first=first)
    for line in lines:
        out(line)


@app.command("endings")
def endings(folder: Path = typer.Argument(..., help="A tournament's results folder.")) -> None:
    """How a tournament's games ended: the shootout share with its interval."""
    lines, _ = endings_from_results(folder)
    for line in lines:
        out(line)
