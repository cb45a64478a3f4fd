"""``arena logs``: what each seat's bot printed in a stored game, and the tracebacks of its faults.

The same text ``arena play`` shows after a game (:func:`log_lines`): each
seat's stdout and stderr (capped per seat per game), with a marked line for
each fault and the bot's traceback after the output that came before it.
"""

from __future__ import annotations

from pathlib import Path

import typer

from arena.cli.errors import UserError
from arena.cli.output import out
from arena.results.store.database import Store

app = typer.Typer()


@app.command()
def logs(
    folder: Path = typer.Argument(..., help="A tournament's results folder."),
    game: str = typer.Argument(..., help="Game number or game id."),
    seat: int | None = typer.Argument(None, help="One seat (0 is the first); default: every seat."),
) -> None:
    """Print what each bot printed in a stored game (stdout, stderr), with its faults' tracebacks."""
    if not folder.is_dir():
        raise UserError(f"no results folder {folder} (expected the folder a tournament wrote, e.g. results/quick)")
    with Store(folder) as store:
        names = store.record(game)["names"]
        stored = store.logs(game)
    if seat is not None and not 0 <= seat < len(names):
        raise UserError(f"game {game} has no seat {seat} (its seats are 0..{len(names) - 1}: {', '.join(names)})")
    texts = {s: text for s, (_, text) in stored.items()}
    for line in log_lines(names, texts, None if seat is None else [seat]):
        out(line)
    if not texts and seat is None:
        out(f"(no seat printed anything or faulted with a traceback in game {game})")


def log_lines(names, texts: dict[int, str], seats=None) -> list[str]:
    """A heading and the text of each seat of ``seats`` (default: every seat with output)."""
    lines = []
    for seat in [s for s in range(len(names)) if texts.get(s)] if seats is None else seats:
        text = texts.get(seat, "")
        lines.append(f"--- {names[seat]}[{seat}]: {'its output' if text else 'no output'} ---")
        if text:
            lines.extend(text.rstrip("\n").split("\n"))
    return lines
