"""Benchmarks for the two-player solver and the sampler (run: python benchmarks/solver.py [quick]).

``python benchmarks/solver.py sizes`` or ``sampler`` prints only that part, quick
(side_by_side.py runs them old against new).

Prints medians: the machine is shared, so single timings are noise. CPU time
(``time.process_time``) is reported beside wall time.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from arena import Game, Rules
from arena.game.solver import Solver, SolverBudget
from arena.research.solver_check import check_seed002
from players.heuristic import HeuristicBot
from players.sampler import SamplerBot


def solver_sizes(presets=("playnest", "champions", "getaway"), sizes=(4, 6, 8), repeats=7,
                 max_states=3_000_000, seed=1) -> list[str]:
    """Solve random deals of k cards each from a full pack (pile: the rest); median CPU seconds."""
    lines = ["solver: random two-player deals, k cards each, pile = rest of the pack (median CPU s, states)"]
    rng = random.Random(seed)
    for preset in presets:
        rules = Rules.preset(preset)
        for k in sizes:
            times, states, over = [], [], 0
            for _ in range(repeats):
                deck = list(range(52))
                rng.shuffle(deck)
                a, b = sum(1 << c for c in deck[:k]), sum(1 << c for c in deck[k:2 * k])
                solver = Solver(rules)
                solver.max_states = max_states
                t = time.process_time()
                try:
                    solver.value(a, b)
                except SolverBudget:
                    over += 1
                times.append(time.process_time() - t)
                states.append(len(solver.memo))
            lines.append(f"  {preset:<10} k={k:<3} {statistics.median(times):8.3f} s  max {max(times):7.3f} s  "
                         f"states {int(statistics.median(states)):>9}  over budget {over}/{repeats}")
    return lines


def sampler_decisions(games=3, budget_ms=50.0) -> list[str]:
    """CPU per decision of one sampler against three heuristic players (decisions with a choice)."""
    rules = Rules.preset("getaway")
    cpu, worlds = [], []
    for g in range(games):
        bots = [SamplerBot(seed=g, budget_ms=budget_ms)] + [HeuristicBot(g) for _ in range(3)]
        game = Game.deal(rules, 4, seed=g)
        while not game.is_over:
            seat = game.current
            view = game.view(seat)
            t = time.thread_time()
            action = bots[seat].act(view)
            if seat == 0 and len(view.legal) > 1:
                cpu.append(1000 * (time.thread_time() - t))
                worlds.append(bots[0].last.get("worlds", 0))
            game.apply(action)
    return [(f"sampler ({budget_ms:.0f} ms budget): {len(cpu)} decisions with a choice, CPU median "
             f"{statistics.median(cpu):.1f} ms, max {max(cpu):.1f} ms; sampled worlds median "
             f"{statistics.median(worlds):.0f}")]


def seed002(ranks=4) -> list[str]:
    """The full seed-002 check, timed (CPU and wall)."""
    cpu, wall = time.process_time(), time.perf_counter()
    lines, _ = check_seed002(ranks)
    return lines + [f"CPU {time.process_time() - cpu:.1f} s, wall {time.perf_counter() - wall:.1f} s"]


def versus_heuristics(deals: int, first: int = 0, seed: int = 6, preset: str = "getaway",
                      budget_ms: float = 50.0) -> tuple[list[str], dict]:
    """Duplicate deals: the sampler in each seat in turn, three heuristic players in the others.

    Heuristic players are deterministic, so with four of them every rotation of a
    deal is the same game and a heuristic player in the sampler's seat loses
    exactly one game in four. The sampler's Bhabhi rate is compared with that 25%.
    """
    from arena.results.stats.intervals import wilson
    rules = Rules.preset(preset)
    lost = games = 0
    wall = time.perf_counter()
    for d in range(first, first + deals):
        deal_seed = seed * 1_000_003 + d
        for r in range(4):
            bots = [HeuristicBot(deal_seed) for _ in range(4)]
            bots[r] = SamplerBot(seed=deal_seed + r, budget_ms=budget_ms)
            for b in bots:
                b.new_game(None)
            game = Game.deal(rules, 4, seed=deal_seed)
            while not game.is_over:
                game.apply(bots[game.current].act(game.view(game.current)))
            lost += game.result.loser == r
            games += 1
    lo, hi = wilson(lost, games)
    lines = [(f"{preset}, 4 players: sampler ({budget_ms:.0f} ms) in each seat in turn against 3 heuristic "
              f"players, {deals} deals x 4 rotations = {games} games"),
             (f"sampler is the Bhabhi in {lost} = {100 * lost / games:.1f}% "
              f"(95% Wilson {100 * lo:.1f}-{100 * hi:.1f}%); a heuristic player in its seat: 25.0% exactly"),
             f"wall {time.perf_counter() - wall:.0f} s"]
    return lines, {"games": games, "lost": lost}


if __name__ == "__main__":
    if sys.argv[1:2] == ["versus"]:
        deals, first = int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 0
        lines, stats = versus_heuristics(deals, first)
        print("\n".join(lines))
        print(stats)
        sys.exit(0)
    if sys.argv[1:2] == ["sizes"]:
        print("\n".join(solver_sizes(sizes=(4, 6), repeats=3)))
        sys.exit(0)
    if sys.argv[1:2] == ["sampler"]:
        print("\n".join(sampler_decisions(games=3)))
        sys.exit(0)
    quick = sys.argv[1:] == ["quick"]
    out = sampler_decisions(games=1 if quick else 3)
    out += solver_sizes(sizes=(4, 6) if quick else (4, 6, 8), repeats=3 if quick else 7)
    out += seed002(3 if quick else 4)
    print("\n".join(out))
