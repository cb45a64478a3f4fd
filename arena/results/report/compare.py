"""The comparison section of the HTML report: the LLR path and the paired difference.

Shown when the results folder holds a comparison (``arena compare``): the
figures of :mod:`arena.results.stats.paired` computed from the stored games, and the
path of the sequential test's log-likelihood ratio between its bounds.
"""

from __future__ import annotations

from typing import Any

from arena.results.errors import CompareError
from arena.results.report.plot import llr_figure, svg_data_uri
from arena.results.stats.paired import META_KEY, CompareTest, figures_lines, tally
from arena.results.store.database import Store


def compare_section(store: Store) -> dict[str, Any] | None:
    """The section's context, or None when the folder holds no comparison."""
    stored = store.meta(META_KEY)
    if stored is None:
        return None
    size = (store.meta("spec") or {}).get("table_sizes", [4])[0]
    f = tally(CompareTest.from_dict(stored), size, store.records()).figures()
    img = None
    if f.llrs:
        if f.lower is None or f.upper is None:
            raise CompareError(f"the comparison in {store.path} has LLRs but no SPRT bounds")
        img = svg_data_uri(llr_figure(f.llrs, f.lower, f.upper))
    return {"lines": figures_lines(f), "img": img}
