"""Rating tables from a store: outcomes in game order, every output format, groupings, head-to-head."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest

from arena.plugins.registry import load
from arena.tournament.spec import spec_from_dict
from arena.results.stats.standings import (
    GROUPINGS,
    TableFormatError,
    head_to_head_text,
    outcomes,
    rating_params,
    ratings_text,
)
from arena.results.store.database import Store
from arena.tournament.event import Tournament
from arena.tournament.worker import batch_payload, run_batch

SPEC = {"name": "st", "seed": 3, "players": ["heuristic", "low", "high"], "table_sizes": [3, 4],
        "rules": ["getaway", {"preset": "getaway", "escape": "pass"}], "deals": 2}


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """(spec dict, [(GameSpec, record)]) of a small mixed tournament, played once."""
    t = Tournament.create(spec_from_dict(SPEC, "test"), tmp_path_factory.mktemp("st") / "st", load(autoload=False))
    results = dict(run_batch(batch_payload(t.spec, t.games, t.roster, t.secret)))
    return t.spec.to_dict(), [(g, results[g.index]) for g in t.games]


def make_store(folder, games, order=None) -> Store:
    spec, items = games
    store = Store(folder, create=True)
    store.set_meta("spec", spec)
    for i in order if order is not None else range(len(items)):
        store.add_game(*items[i])
    return store


@pytest.fixture()
def store(tmp_path, games):
    with make_store(tmp_path / "s", games) as s:
        yield s


def test_outcomes_in_game_order(store, games):
    """One outcome per stored game, in schedule order, with seats, ranks, table size and rules label."""
    _, items = games
    outs = outcomes(store)
    assert [o.index for o in outs] == [g.index for g, _ in items]
    for o, (g, record) in zip(outs, items):
        assert o.seats == g.seats and o.table_size == g.table_size
        assert list(o.ranks) == record["result"]["ranks"] and o.loser == record["result"]["loser"]
    assert {o.rules for o in outs} == {"getaway", "getaway escape=pass"}


def test_text_table(store, games):
    """The default table: a title with the game count, the documented columns, best player first."""
    text = ratings_text(store)
    lines = text.splitlines()
    assert lines[0] == f"{len(games[1])} games"
    for column in ("rank", "player", "mu-3σ", "P(>next)", "bhabhi", "95% CI", "×1/k", "place", "first out",
                   "faults t/c/i/m", "ms/dec"):
        assert column in lines[1]
    rows = json.loads(ratings_text(store, "json"))
    assert [line.split()[1] for line in lines[3:]] == [r["player"] for r in rows]


def test_json_and_csv(store):
    """JSON: rows sorted by mu - 3 sigma with ranks 1..n; CSV: the same rows and keys."""
    rows = json.loads(ratings_text(store, "json"))
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    assert [r["conservative"] for r in rows] == sorted((r["conservative"] for r in rows), reverse=True)
    assert {r["player"] for r in rows} == {"heuristic", "low", "high", "random"}
    for r in rows:
        assert r["conservative"] == pytest.approx(r["mu"] - 3 * r["sigma"])
        assert 0 <= r["bhabhi_low"] <= r["bhabhi_rate"] <= r["bhabhi_high"] <= 1
    table = list(csv.DictReader(io.StringIO(ratings_text(store, "csv"))))
    assert [row["player"] for row in table] == [r["player"] for r in rows]
    assert list(table[0]) == list(rows[0])


@pytest.mark.parametrize("fmt, mark", [("github", "|"), ("grid", "+--"), ("plain", "heuristic")])
def test_tabulate_formats(store, fmt, mark):
    """Any tabulate format works."""
    assert mark in ratings_text(store, fmt)


@pytest.mark.parametrize("by", GROUPINGS)
def test_grouped_tables(store, by):
    """--by: one table per group; the groups split each player's games (every game in one group)."""
    groups = json.loads(ratings_text(store, "json", by))
    expected = {"table-size": {"3", "4"}, "rules": {"getaway", "getaway escape=pass"},
                "seat": {"0", "1", "2", "3"}}[by]
    assert set(groups) == expected
    text = ratings_text(store, "simple", by)
    for key in expected:
        assert f"{by} {key}: " in text
    overall = {r["player"]: r["games"] for r in json.loads(ratings_text(store, "json"))}
    split = {}
    for rows in groups.values():
        for r in rows:
            split[r["player"]] = split.get(r["player"], 0) + r["games"]
    assert split == overall


def test_head_to_head(store):
    """Pairs: shares of shared games finished ahead; both directions over the same games sum to 1."""
    pairs = json.loads(head_to_head_text(store, "json"))
    by_pair = {(p["row"], p["col"]): p for p in pairs}
    assert by_pair
    for (a, b), p in by_pair.items():
        q = by_pair[(b, a)]
        assert p["games"] == q["games"] > 0
        assert p["share"] + q["share"] == pytest.approx(1)
        assert p["low"] <= p["share"] <= p["high"]
    text = head_to_head_text(store)
    assert text.splitlines()[0] == "row finished ahead of column (95% CI), n = shared games"
    rows = list(csv.DictReader(io.StringIO(head_to_head_text(store, "csv"))))
    assert list(rows[0]) == ["row", "col", "games", "wins", "share", "low", "high"]
    assert [(r["row"], r["col"], int(r["games"]), float(r["share"])) for r in rows] == [
        (p["row"], p["col"], p["games"], p["share"]) for p in pairs]  # numbers, one per column


@pytest.mark.parametrize("call", [
    lambda s: ratings_text(s, "bogus"),
    lambda s: ratings_text(s, "json", "colour"),
    lambda s: head_to_head_text(s, "bogus"),
])
def test_bad_format_or_grouping(tmp_path, store, call):
    """An unknown format or grouping is a TableFormatError, with games stored or not."""
    with pytest.raises(TableFormatError):
        call(store)
    with Store(tmp_path / "empty", create=True) as empty, pytest.raises(TableFormatError):
        call(empty)


def test_empty_store(tmp_path):
    """No games: a plain message, and still valid JSON or CSV where those were asked for."""
    with Store(tmp_path / "e", create=True) as empty:
        assert ratings_text(empty) == "no games stored yet"
        assert json.loads(ratings_text(empty, "json")) == []
        assert json.loads(ratings_text(empty, "json", "seat")) == {}
        assert ratings_text(empty, "csv") == ""
        assert json.loads(head_to_head_text(empty, "json")) == []


def test_rating_parameters_from_the_spec():
    """tau and draw_probability come from the stored spec, with the documented defaults."""
    assert rating_params(None) == {"tau": 0.0, "draw_probability": 0.001}
    assert rating_params({"tau": 0.2, "draw_probability": 0.01}) == {"tau": 0.2, "draw_probability": 0.01}


def test_storing_order_changes_nothing(tmp_path, games):
    """Games stored in any order (as parallel workers finish them) give identical tables."""
    n = len(games[1])
    with make_store(tmp_path / "a", games) as a:
        want = [ratings_text(a, "json", by) for by in (None, *GROUPINGS)] + [head_to_head_text(a, "json")]
    for seed in range(2):
        order = list(range(n))
        random.Random(seed).shuffle(order)
        with make_store(tmp_path / f"b{seed}", games, order) as b:
            got = [ratings_text(b, "json", by) for by in (None, *GROUPINGS)] + [head_to_head_text(b, "json")]
        assert got == want


@pytest.mark.parametrize("was_on", [True, False])
def test_the_collector_is_paused_while_rating_and_left_as_it_was(store, monkeypatch, was_on):
    """ratings_text reads and rates with the cyclic collector off, and leaves it as it found it."""
    import gc

    import arena.results.stats.standings as standings
    seen = []
    real = standings.outcomes
    monkeypatch.setattr(standings, "outcomes", lambda s: seen.append(gc.isenabled()) or real(s))
    (gc.enable if was_on else gc.disable)()
    try:
        table = json.loads(ratings_text(store, "json"))
        assert seen == [False] and gc.isenabled() is was_on
        assert [r["player"] for r in table] and len(table) == len({p for o in real(store) for p in o.seats})
    finally:
        gc.enable()
