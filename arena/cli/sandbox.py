"""``arena sandbox-info``: what isolation this machine gives bot processes."""

from __future__ import annotations

import typer
from tabulate import tabulate

from arena.cli.output import err, out
from arena.sandbox.limits import detect

app = typer.Typer()


@app.command("sandbox-info")
def sandbox_info() -> None:
    """What isolation this machine provides for bot processes."""
    caps = detect()
    out(tabulate(caps.rows(), headers=["layer", "available", "detail"]))
    if caps.warning:
        err(f"warning: {caps.warning}")
