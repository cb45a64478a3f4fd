"""Rating tables from a results store: outcomes in game order, formatted as text, CSV or JSON.

Returns strings; the CLI prints them.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

from tabulate import tabulate, tabulate_formats

from arena.results.errors import TableFormatError
from arena.results.stats.collector import collector_paused
from arena.results.stats.head_to_head import head_to_head
from arena.results.stats.ratings import FAULT_KINDS, GROUPINGS, Outcome, breakdown, rate
from arena.results.store.database import Store
from arena.results.store.outcomes import outcomes

FORMATS = ("csv", "json", *tabulate_formats)


def rating_params(spec: dict | None) -> dict[str, float]:
    spec = spec or {}
    return {"tau": spec.get("tau", 0.0), "draw_probability": spec.get("draw_probability", 0.001)}


FAULTS = "faults " + "/".join(kind[0] for kind in FAULT_KINDS)
"""The faults column's header: each kind's initial, in :data:`~arena.game.status.FAULT_KINDS`' order
(``faults t/c/i/m``)."""

COLUMNS = [
    ("rank", "rank", None), ("player", "player", None), ("mu-3σ", "conservative", ".2f"),
    ("mu", "mu", ".2f"), ("σ", "sigma", ".2f"), ("P(>next)", "p_above_next", ".3f"), ("games", "games", None),
    ("bhabhi", "bhabhi_rate", "pct"), ("95% CI", "bhabhi_ci", None), ("×1/k", "bhabhi_ratio", ".2f"),
    ("place", "place", ".3f"), ("penalty", "penalty", ".2f"), ("first out", "first_out_rate", "pct"),
    (FAULTS, "faults", None), ("ms/dec", "decision_ms", ".3f"),
]
"""The rating table's text columns: (header, attribute of a rating row, number format)."""
COMPACT = ("rank", "player", "mu-3σ", "mu", "σ", "games", "bhabhi", FAULTS)
"""The columns the CLI shows unless asked for all (``columns=None``, the default here): they fit 80
columns with player names of up to 16 characters (the terminal layout shortens longer ones). CSV and JSON always hold every column."""

Grid = Callable[[list[str], list[list[Any]], str], str]
"""Lays out a text table: (headers, rows of cells, tabulate format) -> text."""


def tabulated(headers: list[str], rows: list[list[Any]], fmt: str) -> str:
    """The default :data:`Grid`: tabulate, cells as given (no number parsing)."""
    return tabulate(rows, headers=headers, tablefmt=fmt, disable_numparse=True)


def check_columns(columns: tuple[str, ...] | None) -> None:
    """Refuse a column name the rating table does not have."""
    known = [h for h, _, _ in COLUMNS]
    for name in columns or ():
        if name not in known:
            raise TableFormatError(f"column must be one of {', '.join(known)} (got {name!r})")


def _cell(row, attr: str, fmt: str | None) -> Any:
    if attr == "bhabhi_ci":
        return f"{100 * row.bhabhi_low:.1f}-{100 * row.bhabhi_high:.1f}%"
    if attr == "faults":
        return "/".join(str(row.fault(k)) for k in FAULT_KINDS)
    value = getattr(row, attr)
    if value is None or fmt is None:
        return "-" if value is None else value
    return f"{100 * value:.1f}%" if fmt == "pct" else format(value, fmt)


def check_format(fmt: str, by: str | None = None) -> None:
    """Refuse an output format or a grouping that does not exist."""
    if fmt not in FORMATS:
        raise TableFormatError(f"format must be csv, json or a tabulate format such as simple, github, "
                               f"grid (got {fmt!r})")
    if by is not None and by not in GROUPINGS:
        raise TableFormatError(f"--by must be one of {', '.join(GROUPINGS)} (got {by!r})")


def _empty(fmt: str, by: str | None = None) -> str:
    """What a table of no games looks like: valid JSON or CSV where those were asked for."""
    if fmt == "json":
        return "{}" if by else "[]"
    return "" if fmt == "csv" else "no games stored yet"


def render(table, fmt: str, title: str | None = None, columns: tuple[str, ...] | None = None,
           grid: Grid = tabulated) -> str:
    """One rating table in a tabulate format (the ``columns`` named, all when None; laid out by
    ``grid``), CSV or JSON (every column)."""
    check_format(fmt)
    check_columns(columns)
    if fmt == "json":
        return json.dumps(table.to_dicts(), indent=1)
    if fmt == "csv":
        rows = table.to_dicts()
        buf = io.StringIO()
        if rows:
            writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        return buf.getvalue().rstrip("\n")
    chosen = [c for c in COLUMNS if columns is None or c[0] in columns]
    body = grid([h for h, _, _ in chosen], [[_cell(r, a, f) for _, a, f in chosen] for r in table.rows], fmt)
    return f"{title}\n{body}" if title else body


def ratings_text(store: Store, fmt: str = "simple", by: str | None = None,
                 columns: tuple[str, ...] | None = None, grid: Grid = tabulated,
                 outs: list[Outcome] | None = None, unit: str = "games") -> str:
    """The rating table of a store (or one table per group); ``columns`` and ``grid`` as in :func:`render`.
    ``outs``: the outcomes to rate instead of the stored games (``unit`` names them: matches)."""
    check_format(fmt, by)
    check_columns(columns)
    with collector_paused():
        outs = outcomes(store) if outs is None else outs
        params = rating_params(store.meta("spec"))
        if not outs:
            return _empty(fmt, by)
        if by is None:
            table = rate(outs, **params)
            return render(table, fmt, None if fmt in ("csv", "json") else f"{table.games} {unit}", columns, grid)
        groups = breakdown(outs, by=by, **params)
    if fmt == "json":
        return json.dumps({str(k): t.to_dicts() for k, t in groups.items()}, indent=1)
    parts = [render(t, fmt, f"{by} {k}: {t.games} {unit}", columns, grid) for k, t in groups.items()]
    return "\n\n".join(parts)


def head_to_head_text(store: Store, fmt: str = "simple", grid: Grid = tabulated, detail: bool = True) -> str:
    """For each pair, the share of shared games in which the row player finished ahead: a matrix in
    text formats (each cell the share, with ``detail`` its 95% interval and the games); in JSON and
    CSV one record per ordered pair, numbers one per column."""
    check_format(fmt)
    h2h = head_to_head(outcomes(store))
    if fmt == "json":
        return json.dumps([_pair(p) for p in h2h.pairs], indent=1)
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=list(_PAIR_FIELDS))
        writer.writeheader()
        writer.writerows(_pair(p) for p in h2h.pairs)
        return buf.getvalue().rstrip("\n")
    names = h2h.players
    rows = []
    for r in names:
        cells = []
        for c in names:
            p = h2h.get(r, c)
            cells.append("" if p is None else _share(p, detail))
        rows.append([r, *cells])
    title = ("row finished ahead of column (95% CI), n = shared games" if detail
             else "row finished ahead of column, share of shared games")
    return f"{title}\n" + grid(["", *names], rows, fmt)


def _share(p, detail: bool) -> str:
    share = f"{100 * p.share:.0f}%"
    return f"{share} ({100 * p.low:.0f}-{100 * p.high:.0f}) n={p.games}" if detail else share


_PAIR_FIELDS = ("row", "col", "games", "wins", "share", "low", "high")


def _pair(p) -> dict:
    return {f: getattr(p, f) for f in _PAIR_FIELDS}
