"""Figures: the rating plot file, its content, and the report's other figures."""

from __future__ import annotations

import base64
import struct

import pytest
from broken_bot.results import PLAYERS, make_results
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgba

from arena.game.status import FAULT_KINDS
from arena.results.report.plot import (
    FAULT_COLORS,
    MAX_POINTS,
    Rate,
    bhabhi_figure,
    faults_figure,
    player_colors,
    plot,
    rating_figure,
    rating_plot,
    svg_data_uri,
    svg_text,
)
from arena.results.errors import ReportError
from arena.results.stats.ratings import HistoryPoint
from arena.results.store.database import Store


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A results folder of 24 games between five players."""
    return make_results(tmp_path_factory.mktemp("plot") / "plot-test", games=24)


def _png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    return struct.unpack(">II", data[16:24])


def test_plot_writes_a_png(results, tmp_path):
    """`plot` writes a PNG of a sensible size at 150 dpi."""
    out = plot(results, tmp_path / "ratings.png")
    assert out == tmp_path / "ratings.png"
    width, height = _png_size(out)
    assert (width, height) == (1200, 675)
    assert out.stat().st_size > 20_000


def test_plot_svg_and_pdf_by_suffix(results, tmp_path):
    """The suffix picks the format; SVG output is the same bytes every time."""
    svg = plot(results, tmp_path / "r.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert plot(results, tmp_path / "again.svg").read_text() == svg
    assert plot(results, tmp_path / "r.pdf").read_bytes()[:5] == b"%PDF-"


def test_plot_refuses_other_suffixes_and_empty_folders(results, tmp_path):
    """An unknown suffix and a folder without games are errors that say what was expected."""
    with pytest.raises(ReportError, match=r"\.png, \.svg or \.pdf"):
        plot(results, tmp_path / "ratings.jpg")
    Store(tmp_path / "empty", create=True).close()
    with pytest.raises(ReportError, match="no games stored yet"):
        plot(tmp_path / "empty", tmp_path / "x.png")


def test_rating_plot_has_a_line_and_band_per_player(results):
    """One mu line and one sigma band per player; the legend is in rating order with final values."""
    fig = rating_plot(results)
    ax = fig.axes[0]
    assert len(ax.get_lines()) == len(PLAYERS)
    assert sum(isinstance(c, PolyCollection) for c in ax.collections) == len(PLAYERS)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert sorted(label.split(" ")[0] for label in labels) == sorted(PLAYERS)
    assert all("±" in label for label in labels)
    assert ax.get_xlabel() == "games played"


def test_rating_figure_x_is_games_played_and_thinned():
    """Each player's x runs 1..games played; long histories are thinned to MAX_POINTS, the last kept."""
    points = [HistoryPoint(i, name, 25 + i / 1000, 8 - i / 1000) for i in range(1200) for name in ("a", "b")]
    points += [HistoryPoint(2000 + i, "c", 20.0, 5.0) for i in range(3)]
    fig = rating_figure(points)
    lines = {line.get_label().split(" ")[0]: line for line in fig.axes[0].get_lines()}
    xs = lines["a"].get_xdata()
    assert len(xs) == MAX_POINTS and xs[0] == 1 and xs[-1] == 1200
    assert list(lines["c"].get_xdata()) == [1, 2, 3]


def test_bhabhi_figure_error_bars_and_chance_line():
    """One error-bar series per player and a dashed chance line per group, in percent."""
    groups = {"3 players": {"a": Rate(3, 10, 0.1, 0.6), "b": Rate(1, 10, 0.02, 0.4)},
              "4 players": {"a": Rate(2, 8, 0.07, 0.59)}}
    fig = bhabhi_figure(groups, {"3 players": 1 / 3, "4 players": 1 / 4}, ["a", "b"],
                        player_colors(["a", "b"]), "table size")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["3 players", "4 players"]
    assert len(ax.containers) == 2
    chance = [c for c in ax.collections if c.get_label() == "chance (mean 1/k)"]
    assert chance and abs(chance[0].get_segments()[0][0][1] - 100 / 3) < 1e-9


def test_faults_figure_stacks_kinds():
    """Bars per player stacked by fault kind."""
    fig = faults_figure({"a": {"illegal": 3, "timeout": 1}, "b": {}}, ["a", "b"])
    widths = [p.get_width() for p in fig.axes[0].patches]
    assert sum(widths) == 4


def test_every_fault_kind_has_a_colour_of_its_own():
    """The faults figure's legend is built from FAULT_KINDS: each kind, in order, in a distinct colour."""
    fig = faults_figure({"a": {kind: 1 for kind in FAULT_KINDS}}, ["a"])
    handles, labels = fig.axes[0].get_legend_handles_labels()
    assert labels == list(FAULT_KINDS)
    assert len({FAULT_COLORS[kind] for kind in FAULT_KINDS}) == len(FAULT_KINDS)
    assert [h.patches[0].get_facecolor() for h in handles] == [to_rgba(FAULT_COLORS[k]) for k in FAULT_KINDS]


def test_player_colours_are_stable():
    """A player's colour depends only on the set of names."""
    assert player_colors(["b", "a"]) == player_colors(["a", "b"])
    assert len(set(player_colors([f"p{i}" for i in range(15)]).values())) == 15


def test_svg_data_uri_decodes_to_the_svg():
    """The data URI is the figure's SVG text, base64-encoded."""
    fig = faults_figure({"a": {"crash": 1}}, ["a"])
    uri = svg_data_uri(fig)
    assert uri.startswith("data:image/svg+xml;base64,")
    assert base64.b64decode(uri.split(",", 1)[1]).decode() == svg_text(fig)
