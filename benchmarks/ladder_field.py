"""The ladder's field in-process, for comparing sampler versions on the same games.

A candidate player sits at each of the four tables the ladder gives it (itself
and three of ``heuristic``, ``low``, ``high``, ``random``), 4-player ``getaway``,
every seat rotation of each deal (duplicate deals). The same deals, seatings
and seeds for every candidate, so two candidates can be compared game by game
(paired): the games where exactly one of them was the Bhabhi decide.

    python benchmarks/ladder_field.py run NAME DEALS [FIRST] [key=value ...]   # writes /tmp/field-NAME-FIRST.json
    python benchmarks/ladder_field.py compare A B                                # pools /tmp/field-A-*.json
    python benchmarks/ladder_field.py accuracy                                   # opponent models named right

NAME ``heuristic`` plays the heuristic player as the candidate (the baseline);
any other name plays :class:`players.sampler.SamplerBot` with the keyword
options given (``worlds=120 gate_z=1.0 model=1``).
"""

from __future__ import annotations

import glob
import itertools
import json
import statistics
import sys
import time

from arena import Game, Rules
from arena.results.stats.intervals import wilson
from players.heuristic import HeuristicBot
from players.sampler import SamplerBot
from players.simple import HighBot, LowBot, RandomBot

FIELD = {"heuristic": HeuristicBot, "low": LowBot, "high": HighBot, "random": RandomBot}
SEED = 6


def _candidate(name: str, options: dict, seed: int):
    if name == "heuristic":
        return HeuristicBot(seed)
    return SamplerBot(seed=seed, **options)


def run(name: str, deals: int, first: int = 0, options: dict | None = None, make=None) -> dict:
    """Play the candidate's games for deals ``first .. first + deals - 1``; the outcome of each. ``make(seed)``
    builds the candidate instead of ``name`` and ``options`` (benchmarks/lookahead_field.py)."""
    options = options or {}
    make = make or (lambda seed: _candidate(name, options, seed))
    rules = Rules.preset("getaway")
    games: dict[str, dict] = {}
    cpu_decisions: list[float] = []
    start = time.process_time()
    for d in range(first, first + deals):
        deal_seed = SEED * 1_000_003 + d
        for others in itertools.combinations(sorted(FIELD), 3):
            table = ("candidate", *others)
            for r in range(4):
                seats = [table[(i + r) % 4] for i in range(4)]
                bots = [(make(deal_seed * 8 + i) if p == "candidate"
                         else FIELD[p](deal_seed * 8 + i)) for i, p in enumerate(seats)]
                for b in bots:
                    b.new_game(None)
                game = Game.deal(rules, 4, seed=deal_seed)
                me = seats.index("candidate")
                while not game.is_over:
                    seat = game.current
                    view = game.view(seat)
                    t = time.thread_time()
                    action = bots[seat].act(view)
                    if seat == me and len(view.legal) > 1:
                        cpu_decisions.append(time.thread_time() - t)
                    game.apply(action)
                loser = game.result.loser
                games[f"d{d}-{'+'.join(others)}-r{r}"] = {
                    "lost": loser == me, "loser": None if loser is None else seats[loser],
                    "place": game.result.to_dict().get("order", []).index(me)
                    if me in game.result.to_dict().get("order", []) else None}
    return {"name": name, "options": options, "games": games, "cpu": time.process_time() - start,
            "decision_ms": sorted(1000 * x for x in cpu_decisions)}


def accuracy(games: int = 150, seed: int = 0) -> list[str]:
    """How often :func:`players.opponents.infer` names an opponent's true policy, by phase.

    Getaway games of four reference players drawn at random; at every decision each
    other active seat's model is compared with its real policy. Phases: ``early`` (four
    players, 30 or more cards in hands), ``late`` (four players, fewer), ``three left``.
    """
    import collections

    from players.opponents import NAMES, infer, reference_games
    right: collections.Counter = collections.Counter()
    total: collections.Counter = collections.Counter()
    for _, names, view in reference_games(games, seed):
        models = infer(view)
        left = sum(view.active)
        phase = "three left" if left == 3 else "late" if left == 4 and sum(view.hand_sizes) < 30 else \
            "early" if left == 4 else None
        for s in range(4):
            if phase and s != view.seat and view.active[s]:
                total[(phase, names[s])] += 1
                right[(phase, names[s])] += NAMES[models.kinds[s]] == names[s]
    lines = [f"opponent models named right ({games} games of random reference players):"]
    for phase in ("early", "late", "three left"):
        cells = [f"{p} {100 * right[(phase, p)] / total[(phase, p)]:.0f}%" for p in sorted(FIELD)
                 if total[(phase, p)]]
        lines.append(f"  {phase:<10} " + ", ".join(cells))
    return lines


def _load(name: str) -> dict:
    games, cpu, dec = {}, 0.0, []
    for path in sorted(glob.glob(f"/tmp/field-{name}-*.json")):
        with open(path) as f:
            data = json.load(f)
        games.update(data["games"])
        cpu += data["cpu"]
        dec += data["decision_ms"]
    return {"games": games, "cpu": cpu, "decision_ms": dec}


def summary(name: str) -> str:
    data = _load(name)
    g = data["games"]
    lost = sum(x["lost"] for x in g.values())
    lo, hi = wilson(lost, len(g))
    dec = data["decision_ms"]
    timing = (f"; decisions median {statistics.median(dec):.1f} ms, p99 {dec[int(0.99 * len(dec))]:.1f} ms"
              if dec else "")
    return (f"{name}: {len(g)} games, Bhabhi {lost} = {100 * lost / max(1, len(g)):.2f}% "
            f"(95% {100 * lo:.2f}-{100 * hi:.2f}%), CPU {data['cpu']:.0f} s{timing}")


def compare(a: str, b: str) -> str:
    ga, gb = _load(a)["games"], _load(b)["games"]
    common = sorted(set(ga) & set(gb))
    only_a = sum(ga[k]["lost"] and not gb[k]["lost"] for k in common)
    only_b = sum(gb[k]["lost"] and not ga[k]["lost"] for k in common)
    la = sum(ga[k]["lost"] for k in common)
    lb = sum(gb[k]["lost"] for k in common)
    m = only_a + only_b
    z = (only_a - only_b) / m ** 0.5 if m else 0.0
    return (f"{len(common)} common games: {a} lost {la}, {b} lost {lb}; only {a} lost {only_a}, "
            f"only {b} lost {only_b} (sign test z = {z:+.2f}, positive: {b} better)")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "run":
        name, deals = sys.argv[2], int(sys.argv[3])
        first = int(sys.argv[4]) if len(sys.argv) > 4 and "=" not in sys.argv[4] else 0
        opts = {}
        for kv in sys.argv[4:]:
            if "=" in kv:
                k, v = kv.split("=", 1)
                opts[k] = None if v == "none" else (float(v) if "." in v else int(v))
        out = run(name, deals, first, opts)
        with open(f"/tmp/field-{name}-{first}.json", "w") as f:
            json.dump(out, f)
        print(summary(name))
    elif cmd == "accuracy":
        print("\n".join(accuracy()))
    elif cmd == "summary":
        for name in sys.argv[2:]:
            print(summary(name))
    elif cmd == "compare":
        print(summary(sys.argv[2]))
        print(summary(sys.argv[3]))
        print(compare(sys.argv[2], sys.argv[3]))
