"""Text tables that fit the terminal: the default ``auto`` format, laid out by rich at the console's width.

``auto`` (the default of every table option) sizes the table to the terminal
(80 columns when output is not one, or ``$COLUMNS``); a cell too long for its
share is cut with an ellipsis, never wrapped mid-value. Any tabulate format
(``simple``, ``github``, ``grid``, ...) prints at its natural width, and ``csv``
and ``json`` are for machines (every column, numbers one per column).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from tabulate import tabulate_formats

from arena.cli.errors import UserError
from arena.results.stats.standings import COMPACT, Grid, tabulated

AUTO = "auto"
FORMAT_HELP = "auto (fits the terminal), csv, json or a tabulate format (simple, github, grid, ...)."
WIDE_HELP = "Every column (default: a compact set that fits 80 columns; csv and json always hold all)."


def terminal_width() -> int:
    """The width tables are laid out for: the terminal's, else ``$COLUMNS``, else 80."""
    from rich.console import Console  # deferred, as in fitted
    return Console().width


FLEXIBLE = ("", "player", "plugin", "version")
"""Columns of names, which give up width first (a cut name ends in an ellipsis), as do the columns
that wrap."""


def fitted(headers: Sequence[str], rows: Sequence[Sequence[Any]], *, width: int | None = None,
           wrap: Sequence[str] = (), fit: bool = True) -> str:
    """A table at most ``width`` characters wide (default: the terminal's; ``fit=False``: as wide as it
    needs). Only the :data:`FLEXIBLE` columns give up width: a value elsewhere is never cut (its
    header may be). A cut text ends in an ellipsis, except in the columns named in ``wrap`` (free
    text such as a description), which wrap at word boundaries."""
    # deferred: rich costs every `arena` process about 0.1 s at start-up, and most commands lay out no table
    from rich import box
    from rich.console import Console
    from rich.table import Table

    cells = [["" if c is None else str(c) for c in row] for row in rows]
    longest = [max((len(row[i]) for row in cells), default=0) for i in range(len(headers))]
    natural = [max(len(h), n) for h, n in zip(headers, longest)]
    flexible = {*FLEXIBLE, *wrap}
    floors = [min(n, _NARROWEST if h in FLEXIBLE else _NARROWEST_TEXT) if h in flexible else max(v, 1)
              for h, n, v in zip(headers, natural, longest)]
    order = [0 if h in wrap else 1 if h in FLEXIBLE else 2 for h in headers]
    widths = _shrink(order, natural, floors, (width or terminal_width()) if fit else None)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="", expand=False)
    for i, header in enumerate(headers):
        number = bool(cells) and all(_numeric(row[i]) for row in cells)
        free = header in wrap
        table.add_column(header, justify="right" if number else "left", no_wrap=not free,
                         overflow="fold" if free else "ellipsis", width=widths[i])
    for row in cells:
        table.add_row(*row)
    buf = io.StringIO()
    Console(file=buf, width=width or terminal_width() if fit else 100_000, color_system=None,
            highlight=False, emoji=False, markup=False, legacy_windows=False).print(table)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines())


def _shrink(order: list[int], natural: list[int], floors: list[int], width: int | None) -> list[int]:
    """Column widths within ``width`` (None: natural): the columns that wrap give up width first, then
    the name columns (the widest first), then headers wider than their values; none below its floor."""
    widths = list(natural)
    excess = sum(widths) + _GAP * (len(widths) - 1) - width if width else 0
    for rank in (0, 1, 2):
        group = [i for i, r in enumerate(order) if r <= rank]
        while excess > 0:
            room = [i for i in group if widths[i] > floors[i]]
            if not room:
                break
            widths[max(room, key=lambda k: widths[k] - floors[k])] -= 1
            excess -= 1
    return widths


_NARROWEST = 8
_NARROWEST_TEXT = 16  # a column that wraps
_GAP = 3  # between two columns: padding, the box's blank rule, padding


def _numeric(cell: Any) -> bool:
    text = str(cell).rstrip("%")
    try:
        float(text)
    except ValueError:
        return text == "-"
    return True


def grid_for(fmt: str, wide: bool = False) -> tuple[str, Grid]:
    """The tabulate format to ask the results layer for, and the grid that lays it out (``auto``:
    fitted to the terminal, or as wide as it needs with ``wide``)."""
    if fmt == AUTO:
        return "simple", lambda headers, rows, _fmt: fitted(headers, rows, fit=not wide)
    return fmt, tabulated


def rating_columns(wide: bool) -> tuple[str, ...] | None:
    """The rating-table columns to show: all with ``--wide``, else the compact set."""
    return None if wide else COMPACT


def plain(headers: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str = AUTO, wrap: Sequence[str] = (),
          wide: bool = False) -> str:
    """A table in ``fmt`` (``auto``: fitted to the terminal, or as wide as it needs with ``wide``;
    else a tabulate format)."""
    if fmt == AUTO:
        return fitted(headers, rows, wrap=wrap, fit=not wide)
    if fmt not in tabulate_formats:
        raise UserError(f"--format must be auto or a tabulate format such as simple, github, grid (got {fmt!r})")
    return tabulated(list(headers), [list(r) for r in rows], fmt)
