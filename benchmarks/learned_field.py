"""The learned player in the ladder's field (and against three heuristic players), paired with the others.

Plays the games of benchmarks/ladder_field.py (the same deals, seats, bot seeds
and game keys) with the learned player, or the heuristic player, as the
candidate, and writes them where that script reads them, so its ``summary``
and ``compare`` pool them with the sampler's:

    python benchmarks/learned_field.py run NAME DEALS [FIRST] [player=P] [weights=FILE] [gate=G]
        [sampler_at=N,...] [table=A+B+C] [three=lookahead] [worlds=N]
    python benchmarks/learned_field.py three NAME DEALS [FIRST] [...]      # three heuristic players
    python benchmarks/ladder_field.py compare NAME1 NAME2                   # the paired sign test
    python benchmarks/ladder_field.py run sampler DEALS FIRST              # the sampler on the field's games

    python benchmarks/learned_field.py cpu DEALS [FIRST] learned sampler        # CPU per decision, side by side

``cpu`` plays both players' games deal by deal in one process (which goes first swaps every deal),
so both see the same machine, and prints each one's CPU per decision with a choice and the ratio
of the means. ``run`` writes /tmp/field-NAME-FIRST.json, ``three`` /tmp/field-three_NAME-FIRST.json (compare
``three_A`` with ``three_B``). NAME is a label; ``player`` is ``learned`` (the default, with the
options ``weights`` and ``gate``), ``heuristic`` or ``sampler``. ``sampler_at=4`` (a list of counts of
players in) hands the learned player's decisions with a choice with that many players in to the
``sampler`` player (its own seed, 120 worlds, its solver): where does the learned player lose to the
sampler. ``three=lookahead`` plays the three-left card by players/lookahead.py's by-policy lookahead
instead of the sampler's. ``table=heuristic+high+random`` plays that one of the field's four tables only.
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from arena.results.stats.intervals import wilson
from players.heuristic import HeuristicBot
from players.learned.bot import WORLDS, LearnedBot
from players.learned import field
from players.lookahead import LookaheadSampler
from players.sampler import SamplerBot


class _Handing(LearnedBot):
    """The learned player, handing its decisions with a choice with ``at`` players in to the sampler."""

    def __init__(self, seed: int, at: set[int], **options) -> None:
        super().__init__(seed, **options)
        self.at, self.full = at, SamplerBot(seed)

    def new_game(self, info) -> None:
        super().new_game(info)
        self.full.new_game(info)

    def play(self, view):
        if len(view.legal) > 1 and sum(view.active) in self.at:
            return self.full.play(view)
        return super().play(view)


class _Looking(LearnedBot):
    """The learned player whose three-left card is players/lookahead.py's by-policy lookahead."""

    def __init__(self, seed: int, **options) -> None:
        super().__init__(seed, **options)
        worlds = self.sampler.max_worlds if self.sampler is not None else WORLDS
        self.sampler = LookaheadSampler(seed, mode="policies", worlds=worlds)


def _maker(options: dict):
    player = options.pop("player", "learned")
    at = {int(n) for n in options.pop("sampler_at", "").split(",") if n}
    if options.pop("three", "sampler") == "lookahead":
        return lambda seed: _Looking(seed, **options)
    if player == "heuristic":
        return HeuristicBot
    if player == "sampler":
        return SamplerBot
    if at:
        return lambda seed: _Handing(seed, at, **options)
    return lambda seed: LearnedBot(seed, **options)


def run(name: str, deals: int, first: int, options: dict, tables) -> dict:
    timings: list[float] = []
    start = time.process_time()
    games = field.run(_maker(dict(options)), range(first, first + deals), field.LADDER_SEED, tables, timings)
    return {"name": name, "options": options, "games": games, "cpu": time.process_time() - start,
            "decision_ms": sorted(1000 * t for t in timings)}


def side_by_side(deals: int, first: int, players: list[str]) -> None:
    timings: dict[str, list[float]] = {p: [] for p in players}
    for d in range(first, first + deals):
        for p in players if d % 2 == 0 else players[::-1]:
            field.run(_maker({"player": p}), range(d, d + 1), field.LADDER_SEED, field.LADDER, timings[p])
    means = {}
    for p, t in timings.items():
        ms = [1000 * x for x in t]
        means[p] = statistics.fmean(ms)
        print(f"{p}: {len(ms)} decisions with a choice, CPU median {statistics.median(ms):.3f} ms, "
              f"mean {means[p]:.3f} ms")
    a, b = players
    print(f"mean {a} / mean {b} = {means[a] / means[b]:.4f}")


def main(argv: list[str]) -> None:
    if argv[0] == "cpu":
        rest = [a for a in argv[1:] if not a.isdigit()]
        numbers = [int(a) for a in argv[1:] if a.isdigit()]
        side_by_side(numbers[0], numbers[1] if len(numbers) > 1 else 0, rest or ["learned", "sampler"])
        return
    cmd, name, deals = argv[0], argv[1], int(argv[2])
    first = int(argv[3]) if len(argv) > 3 and "=" not in argv[3] else 0
    opts = dict(kv.split("=", 1) for kv in argv[3:] if "=" in kv)
    if "gate" in opts:
        opts["gate"] = float(opts["gate"])
    table = tuple(opts.pop("table").split("+")) if "table" in opts else None
    if table is not None and table not in field.LADDER:
        raise SystemExit(f"learned_field.py: table must be one of {', '.join('+'.join(t) for t in field.LADDER)}"
                         f" (got {'+'.join(table)})")
    tables = (field.THREE,) if cmd == "three" else (table,) if table else field.LADDER
    label = f"three_{name}" if cmd == "three" else name
    data = run(name, deals, first, opts, tables)
    with open(f"/tmp/field-{label}-{first}.json", "w") as f:
        json.dump(data, f)
    g = data["games"]
    lost = field.losses(g)
    lo, hi = wilson(lost, len(g))
    dec = data["decision_ms"]
    print(f"{label}: {len(g)} games, Bhabhi {lost} = {100 * lost / len(g):.2f}% (95% {100 * lo:.2f}-"
          f"{100 * hi:.2f}%), CPU {data['cpu']:.0f} s; decisions median {statistics.median(dec):.3f} ms, "
          f"mean {statistics.fmean(dec):.3f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
