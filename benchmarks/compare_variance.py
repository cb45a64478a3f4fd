"""How much tighter the paired comparison is than independent ones, on the same games budget.

For a comparison's games (played here in-process with the product's paired
schedule, or read from a results folder of ``arena compare``) it prints the
standard error of the difference A - B, in points, three ways, each from
``D`` deals and ``2 n D`` games in all:

- **paired**: the units of :mod:`arena.results.stats.paired` (one per deal, both
  players in every rotation of it): ``sd(x) / sqrt(D)``.
- **two independent tournaments**: each player plays every rotation of its own
  ``D`` deals (duplicate deals, but not the other player's): the per-deal means
  ``a_d`` and ``b_d`` of the same games, taken as independent samples,
  ``sqrt(var(a) / D + var(b) / D)``.
- **independent games**: every game a fresh deal (no rotations, no pairing):
  ``sqrt(var_a / (n D) + var_b / (n D))`` with the per-game score variances.

and the ratios of the widths (a 95% interval is 3.92 standard errors wide
with either), with the factor of games the paired design saves (the ratio
squared).

    python benchmarks/compare_variance.py play A B DEALS [SCORES] [SEED]   # in-process, trusted players
    python benchmarks/compare_variance.py folder RESULTS/NAME [SCORES]      # the stored games of `arena compare`

SCORES: comma-separated, default ``bhabhi,place,penalty`` (each from the same games).
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from dataclasses import replace

from arena.game.seeds import Secret
from arena.plugins.registry import load
from arena.results.stats.paired import POINTS, CompareTest, game_score, tally, unit_of
from arena.results.store.database import Store
from arena.tournament.compare import compare_spec, field_for
from arena.tournament.event import roster_of, player_names
from arena.tournament.worker import Worker, batch_payload


def play(a: str, b: str, deals: int, seed: int) -> tuple[CompareTest, int, list]:
    """Every game of ``deals`` paired deals, in-process: ``(test, table size, [(index, record)])``."""
    test = CompareTest(a, b)
    spec = compare_spec(test, field_for(a, b), 8 * deals, sandbox="never", seed=seed)
    games = spec.schedule_format().games()
    registry = load()
    worker = Worker(registry)
    payload = batch_payload(spec, games, roster_of(registry, player_names(games)), Secret(bytes(32)))
    try:
        return test, 4, worker.run_batch(payload)
    finally:
        worker.close()


def stored(folder: str) -> tuple[CompareTest, int, list]:
    with Store(folder) as store:
        data = store.meta("compare")
        size = store.meta("spec")["table_sizes"][0]
        records = list(store.records())
    return CompareTest.from_dict({**data, "sprt": None}), size, records


def standard_errors(test: CompareTest, size: int, records: list) -> dict[str, float]:
    """The three standard errors (points) over the complete deals, and the counts."""
    units = tally(test, size, records)
    deals = len(units.raw)
    top = size - 1 if test.score == "place" else 1
    per_game: list[list[float]] = [[], []]
    per_deal: list[dict[int, float]] = [{}, {}]
    for index, record in records:
        deal, side = unit_of(index, size)
        if deal >= deals:
            continue
        seat = record["names"].index(test.b if side else test.a)
        value = POINTS * game_score(record, seat, test.score) / top
        per_game[side].append(value)
        per_deal[side][deal] = per_deal[side].get(deal, 0.0) + value / size
    paired = statistics.stdev(units.values()) / math.sqrt(deals)
    tournaments = math.sqrt(sum(statistics.variance(d.values()) for d in per_deal) / deals)
    games = math.sqrt(sum(statistics.variance(g) for g in per_game) / (size * deals))
    return {"deals": deals, "games": 2 * size * deals, "paired": paired, "tournaments": tournaments,
            "independent": games, "diff": statistics.fmean(units.values())}


def report(test: CompareTest, se: dict[str, float], seconds: float | None) -> list[str]:
    took = f", {seconds:.0f} s" if seconds is not None else ""
    lines = [f"{test.a} against {test.b}, score {test.score}: {se['deals']} deals, {se['games']} games{took}",
             f"  difference {se['diff']:+.2f} points; standard error (points), 95% interval width = 3.92 x SE:"]
    for key, label in (("paired", "paired deals"), ("tournaments", "two independent tournaments (rotations)"),
                       ("independent", "independent games")):
        lines.append(f"    {label:<42} SE {se[key]:6.3f}   width {3.92 * se[key]:7.2f}")
    for key, label in (("tournaments", "two tournaments"), ("independent", "independent games")):
        ratio = se[key] / se["paired"]
        lines.append(f"  paired is {ratio:.2f} x tighter than {label} (the same interval with {ratio * ratio:.1f} x "
                     f"fewer games)")
    return lines


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    start = time.perf_counter()
    if cmd == "play":
        test, size, records = play(args[0], args[1], int(args[2]), int(args[4]) if len(args) > 4 else 1)
        seconds, scores = time.perf_counter() - start, args[3] if len(args) > 3 else None
    else:
        (test, size, records), seconds, scores = stored(args[0]), None, args[1] if len(args) > 1 else None
    for score in (scores or "bhabhi,place,penalty").split(","):
        scored = replace(test, score=score)
        print("\n".join(report(scored, standard_errors(scored, size, records), seconds)))
