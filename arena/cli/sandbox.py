"""``arena sandbox-info``: what isolation this machine gives bot processes."""

from __future__ import annotations

import sys

import typer

from arena.cli.output import err, out, wrapped
from arena.cli.text_tables import AUTO, plain
from arena.sandbox.limits import detect

app = typer.Typer()


@app.command("sandbox-info")
def sandbox_info(table_format: str = typer.Option(
        AUTO, "--format", "-f", help="auto (fits the terminal) or a tabulate format (simple, github, ...).")) -> None:
    """What isolation this machine provides for bot processes."""
    caps = detect()
    out(plain(["layer", "available", "detail"], caps.rows(), table_format, wrap=("detail",)))
    if caps.warning:
        err(wrapped(f"warning: {caps.warning}", sys.stderr))
