"""Printing for the commands: stdout text and stderr lines, control characters stripped.

Text from plugins and bots (descriptions, fault details, problems) reaches the
terminal only through these functions (:func:`arena.bots.safetext.printable`).
"""

from __future__ import annotations

import typer

from arena.bots.safetext import printable
from arena.sandbox.limits import detect


def out(text: str = "") -> None:
    """Print to stdout; text from plugins and bots (descriptions, fault details) loses its control characters."""
    typer.echo(printable(text, one_line=False))


def err(text: str) -> None:
    """Print one line to stderr, control characters stripped (problems quote plugin text)."""
    typer.echo(printable(text), err=True)


def sandbox_warning() -> None:
    """One line when this machine confines bots less than the threat model asks (sandbox-info says why)."""
    warning = detect().warning
    if warning:
        err(f"warning: {warning} (see `arena sandbox-info`)")
