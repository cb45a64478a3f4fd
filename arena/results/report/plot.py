"""Figures with matplotlib: the rating history, Bhabhi rates with intervals, faults.

Only the object-oriented API (``matplotlib.figure.Figure``), never pyplot: no
global figure state, no display backend, safe in any process. Each function
returns a Figure; :func:`svg_data_uri` and :func:`save` turn one into an inline
image or a file. Output is deterministic (no dates, fixed hash salt).
"""

from __future__ import annotations

import base64
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib
from matplotlib import colormaps
from matplotlib.colors import to_hex
from matplotlib.figure import Figure

from arena.results.errors import ReportError
from arena.results.report.output import write_whole
from arena.results.stats.ratings import FAULT_KINDS, HistoryPoint, history
from arena.results.stats.standings import outcomes, rating_params
from arena.results.store.database import Store

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

_RC: dict[RcKeyType, Any] = {
    "svg.fonttype": "none", "svg.hashsalt": "arena", "font.size": 9, "axes.spines.top": False,
    "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3, "legend.frameon": False}
MAX_POINTS = 400
"""At most this many points per player in the rating plot (evenly thinned, the last kept)."""

_PALETTE = ("#e69f00", "#d55e00", "#cc79a7", "#56b4e9", "#009e73", "#0072b2", "#f0e442")
"""Okabe and Ito's colours for colour-blind readers, in the order the fault kinds take them."""
FAULT_COLORS = dict(zip(FAULT_KINDS, _PALETTE))
"""A colour for each fault kind (:data:`arena.game.status.FAULT_KINDS`)."""


def player_colors(players: Iterable[str]) -> dict[str, str]:
    """A stable colour per player: tab10 (tab20 past ten players) over the sorted names."""
    names = sorted(set(players))
    cmap = colormaps["tab10" if len(names) <= 10 else "tab20"]
    return {name: to_hex(cmap(i % cmap.N)) for i, name in enumerate(names)}


def _thin(points: list, limit: int = MAX_POINTS) -> list:
    if len(points) <= limit:
        return points
    step = (len(points) - 1) / (limit - 1)
    return [points[round(i * step)] for i in range(limit)]


def rating_figure(points: Sequence[HistoryPoint], order: Sequence[str] | None = None,
                  colors: Mapping[str, str] | None = None, title: str | None = None) -> Figure:
    """Each player's mu after each of their games, with a band of +- sigma, against games played.

    ``order`` fixes the legend order (e.g. the rating table's); ``colors`` maps player to colour.
    """
    by_player: dict[str, list[HistoryPoint]] = {}
    for p in points:
        by_player.setdefault(p.player, []).append(p)
    order = list(order) if order is not None else sorted(by_player)
    colors = colors or player_colors(by_player)
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(8, 4.5), layout="constrained")
        ax = fig.add_subplot()
        for name in order:
            series = _thin(list(enumerate(by_player.get(name, ()), start=1)))
            if not series:
                continue
            xs = [n for n, _ in series]
            mu = [p.mu for _, p in series]
            lo = [p.mu - p.sigma for _, p in series]
            hi = [p.mu + p.sigma for _, p in series]
            ax.fill_between(xs, lo, hi, color=colors[name], alpha=0.18, linewidth=0, step="post")
            ax.step(xs, mu, where="post", color=colors[name], linewidth=1.6,
                    label=f"{name} ({mu[-1]:.1f} ± {series[-1][1].sigma:.1f})")
        ax.set_xlabel("games played")
        ax.set_ylabel("TrueSkill μ (band: μ ± σ)")
        ax.set_title(title or "Rating by games played")
        ax.set_xlim(left=1)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    return fig


@dataclass(frozen=True, slots=True)
class Rate:
    """One player's Bhabhi count in one group, with its 95% Wilson interval."""

    bhabhi: int
    games: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.bhabhi / self.games if self.games else 0.0


def bhabhi_figure(groups: Mapping[str, Mapping[str, Rate]], expected: Mapping[str, float],
                  order: Sequence[str], colors: Mapping[str, str], xlabel: str) -> Figure:
    """Bhabhi rate per player in each group, with 95% intervals; a dash marks the chance rate."""
    labels = list(groups)
    width = 0.8 / max(1, len(order))
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(max(5.0, 1.2 + 0.9 * len(labels) * max(1, len(order)) * 0.35), 3.8),
                     layout="constrained")
        ax = fig.add_subplot()
        for x, label in enumerate(labels):
            ax.hlines(100 * expected[label], x - 0.45, x + 0.45, colors="#555", linestyles="dashed", linewidth=1,
                      label="chance (mean 1/k)" if x == 0 else None)  # type: ignore[arg-type]  # None: no label
        for i, name in enumerate(order):
            xs, ys, err_lo, err_hi = [], [], [], []
            for x, label in enumerate(labels):
                r = groups[label].get(name)
                if r is None or not r.games:
                    continue
                xs.append(x - 0.4 + width * (i + 0.5))
                ys.append(100 * r.rate)
                err_lo.append(100 * (r.rate - r.low))
                err_hi.append(100 * (r.high - r.rate))
            ax.errorbar(xs, ys, yerr=[err_lo, err_hi], fmt="o", color=colors[name], markersize=5,
                        capsize=3, linewidth=1.2, label=name)
        ax.set_xticks(range(len(labels)), labels)
        ax.set_xlim(-0.6, len(labels) - 0.4)
        ax.set_ylim(bottom=0)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("Bhabhi rate, % (95% CI)")
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    return fig


def faults_figure(counts: Mapping[str, Mapping[str, int]], order: Sequence[str]) -> Figure:
    """Faults per player, stacked by kind (horizontal bars)."""
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(7, 0.5 + 0.35 * max(2, len(order))), layout="constrained")
        ax = fig.add_subplot()
        left = [0] * len(order)
        ys = list(range(len(order)))
        for kind in FAULT_KINDS:
            widths = [counts.get(name, {}).get(kind, 0) for name in order]
            ax.barh(ys, widths, left=left, color=FAULT_COLORS[kind], label=kind, height=0.6)
            left = [a + b for a, b in zip(left, widths)]
        ax.set_yticks(ys, list(order))
        ax.invert_yaxis()
        ax.set_xlabel("faults")
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), fontsize=8, ncols=len(FAULT_KINDS))
    return fig


def llr_figure(llrs: Sequence[float], lower: float, upper: float) -> Figure:
    """A sequential test's log-likelihood ratio after each deal, with its two bounds (a comparison)."""
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(8, 3.2), layout="constrained")
        ax = fig.add_subplot()
        ax.plot(range(1, len(llrs) + 1), llrs, color="#1f77b4", label="LLR")
        ax.axhline(upper, color="#d62728", linestyle="--", label="accept H1")
        ax.axhline(lower, color="#2ca02c", linestyle="--", label="accept H0")
        ax.set_xlabel("deals (paired units)")
        ax.set_ylabel("log-likelihood ratio")
        ax.legend(loc="upper left")
    return fig


def svg_text(fig: Figure) -> str:
    """The figure as SVG text (text kept as text, no date: the same figure gives the same bytes)."""
    buf = io.StringIO()
    with matplotlib.rc_context(_RC):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def svg_data_uri(fig: Figure) -> str:
    """The figure as a ``data:image/svg+xml;base64,...`` URI for an ``<img>`` (works offline)."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg_text(fig).encode()).decode("ascii")


def save(fig: Figure, path: str | Path, dpi: int = 150) -> Path:
    """Write the figure; the format follows the suffix (.png, .svg, .pdf)."""
    path = Path(path)
    meta = {"Date": None} if path.suffix.lower() in (".svg", ".pdf") else {}
    buf = io.BytesIO()
    with matplotlib.rc_context(_RC):
        fig.savefig(buf, format=path.suffix.lower().lstrip(".") or None, dpi=dpi, metadata=meta)
    return write_whole(path, buf.getvalue())


def rating_plot(folder: str | Path, title: str | None = None) -> Figure:
    """The rating figure of a results folder; the legend in rating order (mu - 3 sigma, best first)."""
    with Store(folder) as store:
        outs = outcomes(store)
        spec = store.meta("spec") or {}
    if not outs:
        raise ReportError(f"no games stored yet in {folder}: run the tournament first")
    points = history(outs, **rating_params(spec))
    final = {p.player: p for p in points}
    order = sorted(final, key=lambda n: (-(final[n].mu - 3 * final[n].sigma), n))
    name = spec.get("name") or Path(folder).name
    return rating_figure(points, order, player_colors(order), title or f"{name}: rating by games played")


def plot(folder: str | Path, out_path: str | Path, dpi: int = 150) -> Path:
    """Write the rating plot of a results folder (PNG, SVG or PDF by the suffix); its path."""
    out = Path(out_path)
    if out.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise ReportError(f"the plot's file name must end in .png, .svg or .pdf (got {out.name!r})")
    return save(rating_plot(folder), out, dpi)
