"""Shared checks of the schedule tests (tests/tournament/test_schedule.py, test_format_*.py)."""

from __future__ import annotations

import itertools
from collections import Counter

from arena.tournament.formats import make_format
from arena.tournament.schedule import GameSpec

NAMES = [f"p{i:02d}" for i in range(20)]


def rr(players=5, sizes=(4,), deals=1, rules=("getaway",), seed=1, **kw):
    """A round robin over the first ``players`` names."""
    names = NAMES[:players] if isinstance(players, int) else players
    return make_format(
        "round-robin", players=names, table_sizes=list(sizes), deals=deals, rules=list(rules), seed=seed, **kw
    )


def groups(games):
    """Games grouped by table and deal (one rotation group each), in order."""
    out: dict[str, list[GameSpec]] = {}
    for g in games:
        out.setdefault(g.game_id.rsplit("-r", 1)[0], []).append(g)
    return out


def tables(games):
    """The distinct tables (player sets with their rule set label) of a schedule."""
    return [(gs[0].game_id.split("-")[1], frozenset(gs[0].seats)) for gs in groups(games).values()]


def pair_counts(games, names):
    """How many tables (counted once per table, not per game) each pair shared."""
    seen = Counter()
    for _, players in set(tables(games)):
        seen.update(itertools.combinations(sorted(players), 2))
    return [seen[p] for p in itertools.combinations(sorted(names), 2)]


def check_structure(fmt):
    """Invariants every schedule keeps."""
    games = fmt.games()
    assert [g.index for g in games] == list(range(len(games)))
    assert len({g.game_id for g in games}) == len(games)
    assert fmt.count() == len(games)
    for g in games:
        assert len(set(g.seats)) == len(g.seats), g
        assert g.dealer == 0
    for gs in groups(games).values():
        n = len(gs[0].seats)
        assert [g.rotation for g in gs] == list(range(n))
        assert len({g.deal_seed for g in gs}) == 1
        base = gs[0].seats
        for g in gs:
            r = g.rotation
            assert g.seats == tuple(base[(s - r) % n] for s in range(n))
    return games
