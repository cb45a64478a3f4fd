"""Benchmarks: each returns lines of figures (the CLI prints them)."""

from __future__ import annotations

import random
import statistics
import time

from arena.game.engine import Game
from arena.game.rules import Rules
from arena.game.seeds import numbered_seed


def _random_games(rules: Rules, players: int, games: int, seed: int, record: bool) -> float:
    """Play ``games`` games with uniformly random legal play; return the seconds taken."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for g in range(games):
        game = Game.deal(rules, players, numbered_seed(seed, g))
        state = game.state
        while state.cur is not None:
            legal = game.legal_actions()
            game.apply(legal[int(rng.random() * len(legal))])
        if record:
            game.to_record()
    return time.perf_counter() - start


def engine_bench(rules: Rules, players: int, games: int, repeats: int) -> list[str]:
    """Games per second, events recorded, with and without building the JSON record.

    The two are measured side by side: each repeat plays the same games once
    each way, so both see the same machine load; the medians are reported.
    """
    rows: dict[str, list[float]] = {"events recorded, JSON record built (to_record)": [],
                                    "events recorded, no JSON record": []}
    for r in range(repeats):
        built = games / _random_games(rules, players, games, r, True)
        rows["events recorded, JSON record built (to_record)"].append(built)
        rows["events recorded, no JSON record"].append(games / _random_games(rules, players, games, r, False))
    lines = [f"engine: {rules.name}, {players} players, uniformly random legal play, one core, "
             f"{games} games x {repeats} repeats (median)"]
    for label, rates in rows.items():
        median = statistics.median(rates)
        lines.append(f"  {median:8.0f} games/s  {1e6 / median:6.1f} us/game  {label}  "
                     f"(min {min(rates):.0f}, max {max(rates):.0f})")
    return lines
