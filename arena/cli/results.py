"""``arena ratings``, ``arena report`` and ``arena plot``: a finished (or stopped) tournament's results."""

from __future__ import annotations

from pathlib import Path

import typer

from arena.cli.errors import UserError
from arena.cli.output import out
from arena.cli.text_tables import AUTO, FORMAT_HELP, WIDE_HELP, grid_for, rating_columns
from arena.results.report.pack import MAX_GAMES
from arena.results.stats.match_outcomes import match_outcomes
from arena.results.stats.standings import head_to_head_text, ratings_text
from arena.results.store.database import Store

app = typer.Typer()


@app.command()
def ratings(
    folder: Path = typer.Argument(..., help="A tournament's results folder."),
    by: str | None = typer.Option(None, "--by", help="One table per table-size, rules or seat."),
    table_format: str = typer.Option(AUTO, "--format", "-f", help=FORMAT_HELP),
    h2h: bool = typer.Option(False, "--head-to-head", help="Show the head-to-head table instead."),
    wide: bool = typer.Option(False, "--wide", "-w", help=WIDE_HELP),
    by_match: bool = typer.Option(False, "--by-match",
                                  help="Rate whole matches (a match tournament): one outcome per match."),
) -> None:
    """The TrueSkill rating table of a tournament (computed from the store, in game order)."""
    fmt, grid = grid_for(table_format, wide)
    with Store(folder) as store:
        if by_match:
            matches = match_outcomes(store)
            if not matches:
                raise UserError(f"--by-match expects a tournament with match_points (got {folder}, which holds "
                                f"no matches)")
            out(ratings_text(store, fmt, by, rating_columns(wide), grid, outs=matches, unit="matches"))
            return
        out(head_to_head_text(store, fmt, grid, detail=wide) if h2h
            else ratings_text(store, fmt, by, rating_columns(wide), grid))


@app.command("report")
def report_cmd(
    folder: Path = typer.Argument(..., help="A tournament's results folder."),
    output: Path | None = typer.Option(None, "--output", "-o",
                                          help="The HTML file to write (default: FOLDER/report.html)."),
    games: int = typer.Option(MAX_GAMES, "--games", min=0,
                              help="Games in the game browser, chosen evenly over rules and table sizes (0: none)."),
) -> None:
    """Write one self-contained HTML report: ratings, plots, head to head, faults and a game browser."""
    from arena.results.report.html import report  # jinja2 and matplotlib: only when a report is written
    path = report(folder, output, max_games=games)
    out(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB); open it in any browser, no network needed")


@app.command("plot")
def plot_cmd(
    folder: Path = typer.Argument(..., help="A tournament's results folder."),
    output: Path | None = typer.Option(None, "--output", "-o",
                                          help="The image to write: .png, .svg or .pdf (default: FOLDER/ratings.png)."),
    dpi: int = typer.Option(150, "--dpi", min=50, max=600, help="Resolution of a PNG."),
) -> None:
    """Plot each player's rating (mu, with a band of +- sigma) against games played."""
    from arena.results.report.plot import plot  # matplotlib: only when a plot is drawn
    out(f"wrote {plot(folder, output if output is not None else folder / 'ratings.png', dpi)}")
