"""Printing for the commands: stdout text and stderr lines, control characters stripped.

Text from plugins and bots (descriptions, fault details, problems) reaches the
terminal only through these functions (:func:`arena.bots.safetext.printable`).
"""

from __future__ import annotations

import shutil
import sys
import textwrap

import typer

from arena.bots.safetext import printable
from arena.sandbox.limits import detect


def out(text: str = "") -> None:
    """Print to stdout; text from plugins and bots (descriptions, fault details) loses its control characters."""
    typer.echo(printable(text, one_line=False))


def wrapped(text: str, stream=None) -> str:
    """``text`` wrapped at words to the terminal's width (``$COLUMNS`` first) when it goes to a terminal,
    a continued line indented two more than its first; unchanged for a pipe or a file (whole lines to grep)."""
    stream = stream or sys.stdout
    if not stream.isatty():
        return text
    width = shutil.get_terminal_size().columns
    lines = []
    for line in text.splitlines() or [""]:
        indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
        lines.extend(textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False) or [""])
    return "\n".join(lines)


def err(text: str) -> None:
    """Print one line to stderr, control characters stripped (problems quote plugin text)."""
    typer.echo(printable(text), err=True)


def sandbox_warning() -> None:
    """One line when this machine confines bots less than the threat model asks (sandbox-info says why)."""
    warning = detect().warning
    if warning:
        err(wrapped(f"warning: {warning} (see `arena sandbox-info`)", sys.stderr))
