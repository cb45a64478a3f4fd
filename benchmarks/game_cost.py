"""The harness's cost of a sandboxed game, whole: CPU and wall time a game, the start and end included.

    .venv/bin/python benchmarks/game_cost.py [--games 40] [--rounds 7]

Plays ``--games`` games of getaway between 4 sandboxed ``random`` bots (one
client a seat, kept across the games, as a tournament's worker keeps them),
``--rounds`` times, and prints each round's harness CPU time (this process:
the referee, the clients and their log drains) and wall time per game, then
the medians. To compare two versions, run it from each checkout in turn,
alternating (``PYTHONPATH=/path/to/checkout``), on the same machine: this is
how docs/sandbox.md's figure for the end of a game (the acknowledged
``finish`` and the logs taken per game) was measured.
"""

from __future__ import annotations

import argparse
import statistics
import time

from arena.bots.referee import play_game
from arena.game.rules import Rules
from arena.plugins.registry import load
from arena.sandbox.client import SandboxClient


def one_round(games: int) -> tuple[float, float]:
    """(harness CPU ms, wall ms) per game over ``games`` games, after one warm-up game."""
    spec, rules = load().get("random"), Rules.preset("getaway")
    clients = [SandboxClient(spec) for _ in range(4)]
    try:
        play_game(rules, clients, seed=0)  # start-up is not the figure
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for g in range(games):
            play_game(rules, clients, seed=g + 1)
        return (time.process_time() - cpu0) / games * 1000, (time.perf_counter() - wall0) / games * 1000
    finally:
        for c in clients:
            c.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    rounds = []
    for r in range(args.rounds):
        rounds.append(one_round(args.games))
        print(f"round {r + 1}: {rounds[-1][0]:6.2f} ms CPU  {rounds[-1][1]:7.2f} ms wall  a game")
    print(f"median:  {statistics.median(c for c, _ in rounds):6.2f} ms CPU  "
          f"{statistics.median(w for _, w in rounds):7.2f} ms wall  a game")


if __name__ == "__main__":
    main()
