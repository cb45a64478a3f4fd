"""The comparison section of the HTML report: the LLR path and the paired difference.

Shown when the results folder holds a comparison (``arena compare``): the
figures of :mod:`arena.results.paired` computed from the stored games, and the
path of the sequential test's log-likelihood ratio between its bounds.
"""

from __future__ import annotations

from typing import Any

import matplotlib
from matplotlib.figure import Figure

from arena.results.paired import META_KEY, CompareTest, Figures, figures_lines, tally
from arena.results.plot import _RC, svg_data_uri
from arena.results.store import Store

def llr_figure(f: Figures) -> Figure:
    """The LLR after each deal, with the test's lower and upper bounds."""
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(8, 3.2), layout="constrained")
        ax = fig.add_subplot()
        ax.plot(range(1, len(f.llrs) + 1), f.llrs, color="#1f77b4", label="LLR")
        for bound, name in ((f.upper, "accept H1"), (f.lower, "accept H0")):
            ax.axhline(bound, color="#d62728" if bound > 0 else "#2ca02c", linestyle="--", label=name)
        ax.set_xlabel("deals (paired units)")
        ax.set_ylabel("log-likelihood ratio")
        ax.legend(loc="upper left")
    return fig


def compare_section(store: Store) -> dict[str, Any] | None:
    """The section's context, or None when the folder holds no comparison."""
    stored = store.meta(META_KEY)
    if stored is None:
        return None
    size = (store.meta("spec") or {}).get("table_sizes", [4])[0]
    f = tally(CompareTest.from_dict(stored), size, store.records()).figures()
    return {"lines": figures_lines(f), "img": svg_data_uri(llr_figure(f)) if f.llrs else None}
