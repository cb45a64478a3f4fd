"""Ratings by match: each stored match as one ratings :class:`Outcome` (``arena ratings --by-match``).

A match's outcome ranks its seats by the match's standings (lowest total
first, then fewer Bhabhis; seats equal on both share a place), so TrueSkill
rates the match's final ranking. Its ``loser`` (the ``bhabhi`` column) is the
seat alone in last place, if one is; its ``penalty`` is the match place scored
as a hand's (0 first, 1 second, 2 others, 3 last alone); its faults and play
times are the sums over its hands.
"""

from __future__ import annotations

from collections import defaultdict

from arena.results.stats.ratings import Outcome
from arena.results.stats.standings import outcomes
from arena.results.store.database import Store
from arena.results.store.matches import HAND_STRIDE, match_rows


def match_outcomes(store: Store) -> list[Outcome]:
    """Every stored match as an :class:`Outcome`, in schedule order (empty without matches)."""
    rows = match_rows(store)
    if not rows:
        return []
    hands: dict[int, list[Outcome]] = defaultdict(list)
    for o in outcomes(store):
        hands[o.index // HAND_STRIDE].append(o)
    return [_outcome(row, hands[row["idx"]]) for row in rows]


def _outcome(row: dict, hands: list[Outcome]) -> Outcome:
    n, ranks = row["table_size"], tuple(row["result"]["ranks"])
    last = max(ranks)
    loser = ranks.index(last) if ranks.count(last) == 1 and n > 1 else None
    penalty = tuple(3 if s == loser else min(r, 2) for s, r in enumerate(ranks))
    faults: list[defaultdict[str, int]] = [defaultdict(int) for _ in range(n)]
    plays, cpu = [0] * n, [0.0] * n
    for o in hands:
        for s in range(n):
            for kind, count in o.faults[s].items():
                faults[s][kind] += count
            ms = o.decision_ms[s]
            if ms is not None:
                plays[s] += o.plays[s]
                cpu[s] += ms * o.plays[s]
    return Outcome(index=row["idx"], seats=tuple(row["seats"]), ranks=ranks, loser=loser, table_size=n,
                   rules=row["rules"], penalty=penalty, faults=tuple(dict(f) for f in faults),
                   decision_ms=tuple(cpu[s] / plays[s] if plays[s] else None for s in range(n)),
                   plays=tuple(plays))
