"""``arena export RESULTS``: every game as JSON lines, or (``--deals``) the folder's deals as a deal book."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import typer

from arena.cli.errors import UserError
from arena.cli.output import err
from arena.results.store.database import Store
from arena.results.store.export import deal_lines, game_lines

app = typer.Typer()

FORMATS = ("jsonl",)
PROGRESS_SECONDS = 5.0


@app.command("export")
def export(
    folder: Path = typer.Argument(..., help="A results folder (a tournament's or a comparison's)."),
    format_: str = typer.Option("jsonl", "--format", help="The format: jsonl (one JSON object a line)."),
    deals: bool = typer.Option(False, "--deals", help="Write the folder's deals as a deal book instead of its "
                               "games (each deal once; `deals = \"FILE\"` plays them again)."),
    header: bool = typer.Option(True, "--header/--no-header", help="Start the games with a header line (the "
                                "event, its spec, players); not with --deals."),
    output: Path | None = typer.Option(None, "--output", "-o", help="The file to write (default: stdout)."),
) -> None:
    """Write every game's record (with its number, event and players) as JSON lines, for analysis elsewhere."""
    if format_ not in FORMATS:
        raise UserError(f"--format must be one of {', '.join(FORMATS)} (got {format_!r})")
    with Store(folder) as store:
        total = store.count()
        lines = deal_lines(store) if deals else game_lines(store, header)
        what = "deals" if deals else "games"
        if output is None:
            _to_stdout(lines)
            return
        written = _to_file(_counted(lines, total, what), output)
    err(f"wrote {written - (0 if deals or not header else 1)} {what} to {output}")


def _counted(lines: Iterator[str], total: int, what: str) -> Iterator[str]:
    """``lines`` unchanged, with a progress line on stderr every few seconds."""
    last = time.monotonic()
    for number, line in enumerate(lines, 1):
        if number % 1000 == 0 and time.monotonic() - last >= PROGRESS_SECONDS:
            last = time.monotonic()
            err(f"  {number} lines written ({what} of {total} games)")
        yield line


def _to_file(lines: Iterator[str], output: Path) -> int:
    """Write to a temporary file beside ``output`` and rename it, so a stopped export leaves no half file."""
    target = output.expanduser()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or Path("."))
    except OSError as exc:
        raise UserError(f"cannot write {output}: {exc.strerror or exc}") from None
    count = 0
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(line + "\n")
                count += 1
        os.chmod(tmp, 0o666 & ~_umask())  # as an ordinary new file (mkstemp makes it 0600)
        os.replace(tmp, target)
    except OSError as exc:
        raise UserError(f"cannot write {output}: {exc.strerror or exc}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return count


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _to_stdout(lines: Iterator[str]) -> None:
    try:
        for line in lines:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # `arena export ... | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
