"""The HTML report of a results folder: one self-contained file, no network.

:func:`report` writes it; :func:`report_html` returns it as a string. Everything
is inline: the figures (matplotlib, :mod:`arena.results.report.plot`) as SVG data URIs, the
CSS and the scripts (sortable tables, the game browser), and the browser's games as
states precomputed by replaying each record with the engine (:mod:`arena.results.report.games`),
packed as a small index plus gzip chunks the page decodes on demand
(:mod:`arena.results.report.pack`).
Templates (jinja2) are in ``arena/results/report/templates/``. No timestamps: the same results
give the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup
from matplotlib import colormaps
from matplotlib.colors import to_hex

from arena import __version__
from arena.game.seeds import sealed_by_check
from arena.results.errors import ReportError
from arena.results.report.compare import compare_section
from arena.results.report.games import browser_game, pick_games
from arena.results.report.logs import logged_seats, pack_logs
from arena.results.report.output import write_whole
from arena.results.report.pack import MAX_GAMES, Packed, pack_games
from arena.results.report.plot import Rate, bhabhi_figure, faults_figure, player_colors, rating_figure, svg_data_uri
from arena.results.report.viewer import asset as _asset, environment as _environment
from arena.results.stats.head_to_head import head_to_head
from arena.results.stats.intervals import wilson
from arena.results.stats.ratings import DECISION_MS_HELP, FAULT_KINDS, Outcome, RatingTable, history, rate
from arena.results.stats.standings import outcomes, rating_params
from arena.results.store.database import Store, change_note

MAX_FAULT_LINES = 50

__all__ = ["MAX_GAMES", "report", "report_html"]


def report(folder: str | Path, out_path: str | Path | None = None, max_games: int = MAX_GAMES) -> Path:
    """Write the report of ``folder`` to ``out_path`` (default ``FOLDER/report.html``); its path."""
    out = Path(out_path) if out_path is not None else Path(folder) / "report.html"
    return write_whole(out, report_html(folder, max_games).encode("utf-8"))


def report_html(folder: str | Path, max_games: int = MAX_GAMES, *, nonce: str = "",
                folder_hint: str | None = None, redact: Callable[[str], str] | None = None) -> str:
    """The report of a results folder as one HTML string; ``nonce``: its inline style and script carry it (a page
    served under a Content-Security-Policy); ``folder_hint``: how its notes name the folder (default: its path);
    ``redact``: applied to every bot's log first."""
    if max_games < 0:
        raise ReportError(f"max_games must be 0 or more (got {max_games})")
    with Store(folder) as store:
        context = _context(store, Path(folder), max_games, folder_hint or str(folder), redact)
    return _environment().get_template("report.html.j2").render(**context, nonce=nonce)


# ---------------------------------------------------------------- context


def _context(store: Store, folder: Path, max_games: int, folder_hint: str,
             redact: Callable[[str], str] | None) -> dict[str, Any]:
    outs = outcomes(store)
    if not outs:
        raise ReportError(f"no games stored yet in {folder}: run the tournament first")
    spec = store.meta("spec") or {}
    params = rating_params(spec)
    table = rate(outs, **params)
    order = list(table.players)
    colors = player_colors(order)
    name = spec.get("name") or folder.name
    logged = logged_seats(store)
    faults = _faults(store, outs, order, logged)
    games, note = _games(store, outs, max_games, logged, [f["game"] for f in faults["details"] if f["log"]])
    return {
        "name": name, "version": __version__,
        "summary": (_summary(spec, outs, table) + _sealed(store.meta("secret_check"))
                    + [("code changed", change_note(c)) for c in store.player_changes()]),
        "colors": colors, "rows": _rating_rows(table, store.roster(), colors),
        "rating_img": svg_data_uri(rating_figure(history(outs, **params), order, colors,
                                                 f"{name}: rating by games played")),
        "bhabhi": [_bhabhi_section(outs, order, colors, *g) for g in _GROUPINGS],
        "h2h": _h2h(outs, order),
        "faults": faults, "games": games, "games_note": note,
        "logs": pack_logs(store, [g["i"] for g in games.index if g["lg"]], folder_hint, redact),
        "compare": compare_section(store),
        "css": Markup(_asset("report/report.css")),
        "js": Markup("\n".join(_asset(f"report/{name}.js") for name in ("tables", "browser"))),
    }


def _summary(spec: dict, outs: list[Outcome], table: RatingTable) -> list[tuple[str, str]]:
    sizes = sorted({o.table_size for o in outs})
    rules = sorted({o.rules for o in outs})
    items = [("games", str(len(outs))), ("players", str(len(table.rows))),
             ("rules", ", ".join(rules)), ("table sizes", ", ".join(map(str, sizes)))]
    for key in ("format", "seed", "deals"):
        if spec.get(key) is not None:
            items.append((key, str(spec[key])))
    limits = spec.get("limits") or {}
    if limits:
        items.append(("limits", f"{limits.get('decision_ms')} ms/decision, {limits.get('memory_mb')} MiB"))
    return items


def _sealed(check: str | None) -> list[tuple[str, str]]:
    """Whether the games were sealed (keyed with the folder's secret) or open (fixed by the seed alone)."""
    sealed = sealed_by_check(check)
    if sealed is None:
        return []
    return [("sealed", "yes: deals and bot seeds keyed with the folder's secret" if sealed
             else "no: the seed alone fixes every deal and bot seed")]


@dataclass(frozen=True, slots=True)
class _Column:
    """A rating-table column: its header, its meaning, how a row's cell reads and how it sorts."""

    header: str
    tip: str
    text: Callable[[Any], str]
    key: Callable[[Any], float | None]


def _num(attr: str, fmt: str, scale: float = 1, suffix: str = "") -> tuple[Callable, Callable]:
    """A cell text and sort key for a numeric row attribute (None: shown as a dash, sorted last)."""
    def text(r) -> str:
        v = getattr(r, attr)
        return "–" if v is None else f"{scale * v:{fmt}}{suffix}"
    return text, lambda r: getattr(r, attr)


def _bhabhi_text(r) -> str:
    return f"{100 * r.bhabhi_rate:.1f}% ({100 * r.bhabhi_low:.1f}–{100 * r.bhabhi_high:.1f})"


_RATING_COLUMNS: tuple[_Column, ...] = (
    _Column("mu-3σ", "conservative rating: mu minus three sigma (the default order)", *_num("conservative", ".2f")),
    _Column("μ", "TrueSkill mean", *_num("mu", ".2f")),
    _Column("σ", "TrueSkill uncertainty", *_num("sigma", ".2f")),
    _Column("P(>next)", "probability this player truly ranks above the next row (in the mu-3σ order)",
            *_num("p_above_next", ".3f")),
    _Column("games", "games played", *_num("games", "d")),
    _Column("Bhabhi", "share of games lost, with its 95% Wilson interval", _bhabhi_text, lambda r: r.bhabhi_rate),
    _Column("×1/k", "Bhabhi rate over the chance rate 1/k of its tables", *_num("bhabhi_ratio", ".2f")),
    _Column("place", "mean finishing place, 0 = first out, 1 = Bhabhi", *_num("place", ".3f")),
    _Column("penalty", "mean penalty points (0 first out .. 3 Bhabhi)", *_num("penalty", ".2f")),
    _Column("first out", "share of games finished first", *_num("first_out_rate", ".1f", 100, "%")),
    _Column("faults", f"faults: {' / '.join(FAULT_KINDS)}",
            lambda r: "/".join(str(r.fault(k)) for k in FAULT_KINDS), lambda r: sum(n for _, n in r.faults)),
    _Column("ms/dec", DECISION_MS_HELP, *_num("decision_ms", ".3f")),
)


def _rating_rows(table: RatingTable, players: list[dict], colors: dict) -> dict:
    info = {p["name"]: p for p in players}
    rows = []
    for r in table.rows:
        p = info.get(r.player, {})
        rows.append({"rank": r.rank, "player": r.player, "color": colors[r.player],
                     "version": p.get("version") or "", "plugin": p.get("plugin") or "",
                     "cells": [{"text": c.text(r), "key": _sort_key(c.key(r))} for c in _RATING_COLUMNS]})
    return {"headers": [(c.header, c.tip) for c in _RATING_COLUMNS], "rows": rows, "games": table.games}


def _sort_key(value: float | None) -> str:
    """A cell's ``data-sort``: the exact number as text (repr round-trips), empty for none."""
    return "" if value is None else repr(float(value))


# ---------------------------------------------------------------- Bhabhi rates

_GROUPINGS = (
    ("size", "Bhabhi rate by table size", "table size", lambda o: o.table_size, lambda k: f"{k} players"),
    ("rules", "Bhabhi rate by rules", "rules", lambda o: o.rules, str),
)


@dataclass(frozen=True, slots=True)
class _Group:
    label: str
    rates: dict[str, Rate]
    expected: float
    games: int


def bhabhi_rates(outs: Iterable[Outcome], key: Callable[[Outcome], Any],
                 label: Callable[[Any], str] = str) -> list[_Group]:
    """Per group (in key order): each player's Bhabhi count and games, with 95% Wilson intervals."""
    counts: dict[Any, dict[str, list[int]]] = {}
    chance: dict[Any, list[float]] = {}
    for o in outs:
        k = key(o)
        chance.setdefault(k, []).append(1 / o.table_size)
        group = counts.setdefault(k, {})
        for seat, player in enumerate(o.seats):
            c = group.setdefault(player, [0, 0])
            c[0] += o.loser == seat
            c[1] += 1
    groups = []
    for k in sorted(counts):
        rates = {p: Rate(b, n, *wilson(b, n)) for p, (b, n) in counts[k].items()}
        groups.append(_Group(label(k), rates, sum(chance[k]) / len(chance[k]), len(chance[k])))
    return groups


def _bhabhi_section(outs, order, colors, slug, title, xlabel, key, label) -> dict:
    groups = bhabhi_rates(outs, key, label)
    fig = bhabhi_figure({g.label: g.rates for g in groups}, {g.label: g.expected for g in groups},
                        order, colors, xlabel)
    rows = []
    for player in order:
        cells = []
        for g in groups:
            r = g.rates.get(player)
            cells.append(None if r is None else {
                "rate": f"{100 * r.rate:.1f}%", "ci": f"{100 * r.low:.1f}–{100 * r.high:.1f}", "n": r.games})
        rows.append({"player": player, "color": colors[player], "cells": cells})
    return {"slug": slug, "title": title, "img": svg_data_uri(fig), "rows": rows,
            "groups": [{"label": g.label, "games": g.games, "chance": f"{100 * g.expected:.1f}%"} for g in groups]}


# ---------------------------------------------------------------- head to head


def _shade(share: float) -> tuple[str, str]:
    """A heat-map background (red = behind, green = ahead) and a readable text colour."""
    r, g, b, _ = colormaps["RdYlGn"](0.1 + 0.8 * share)
    text = "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "#fff"
    return to_hex((r, g, b)), text


def _h2h(outs: list[Outcome], order: Sequence[str]) -> dict:
    h2h = head_to_head(outs)
    rows = []
    for row in order:
        cells: list[dict[str, object] | None] = []
        for col in order:
            p = h2h.get(row, col) if row != col else None
            if p is None:
                cells.append(None)
                continue
            bg, fg = _shade(p.share)
            cells.append({"share": f"{100 * p.share:.0f}%", "ci": f"{100 * p.low:.0f}–{100 * p.high:.0f}",
                          "n": p.games, "bg": bg, "fg": fg,
                          "tip": f"{row} finished ahead of {col} in {p.wins:g} of {p.games} shared games"})
        rows.append({"player": row, "cells": cells})
    return {"players": list(order), "rows": rows}


# ---------------------------------------------------------------- faults


def _faults(store: Store, outs: list[Outcome], order: Sequence[str], logged: dict[int, list[int]]) -> dict:
    counts: dict[str, dict[str, int]] = {p: {kind: 0 for kind in FAULT_KINDS} for p in order}
    for o in outs:
        for seat, player in enumerate(o.seats):
            for kind, n in o.faults[seat].items():
                counts[player][kind] += n
    decisions = dict.fromkeys(order, 0)
    for row in store.seat_rows():
        decisions[row["player"]] += row["decisions"] or 0
    rows = []
    for p in order:
        total = sum(counts[p].values())
        per = f"{1000 * total / decisions[p]:.2f}" if decisions[p] else "–"
        rows.append({"player": p, "counts": [counts[p][k] for k in FAULT_KINDS], "total": total,
                     "decisions": decisions[p], "per_1000": per})
    any_faults = any(r["total"] for r in rows)
    details = [{**f, "log": f["seat"] in logged.get(f["game"], ())} for f in store.fault_details(MAX_FAULT_LINES)]
    return {"kinds": FAULT_KINDS, "rows": rows, "total": store.fault_count(),
            "img": svg_data_uri(faults_figure(counts, order)) if any_faults else None,
            "details": details,
            "shown": len(details)}


# ---------------------------------------------------------------- games


def _games(store: Store, outs: list[Outcome], limit: int, logged: dict[int, list[int]],
           linked: Sequence[int]) -> tuple[Packed, str]:
    """The browser's games: ``limit`` chosen evenly, plus the games whose logs the fault list links to."""
    faulty = [(o.index, (o.rules, o.table_size), any(o.faults[s] for s in range(o.table_size))) for o in outs]
    chosen = pick_games(faulty, limit)
    if limit:
        chosen = sorted(set(chosen) | set(linked))
    labels = {o.index: o.rules for o in outs}
    games = pack_games([{**browser_game(i, store.record(i), labels[i]), "lg": logged.get(i, [])} for i in chosen])
    if len(chosen) == len(outs):
        note = f"All {len(outs)} games."
    else:
        note = (f"{len(chosen)} of {len(outs)} games, chosen evenly over every rule set and table size "
                f"(and some with faults). arena report --games N embeds more; arena replay shows any game.")
    return games, note
