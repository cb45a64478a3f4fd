"""The harness's cost of a sandboxed game, whole: CPU and wall time a game, the start and end included.

    .venv/bin/python benchmarks/game_cost.py [--games 40] [--rounds 7] [--player random | --players A,B,C,D]
                                             [--order new | rotations]

Plays ``--games`` games of getaway between 4 sandboxed ``random`` bots (``--player``; or the
four ``--players``, e.g. ``random,low,high,heuristic``) (one
client a seat, kept across the games, as a tournament's worker keeps them),
``--rounds`` times, and prints each round's harness CPU time (this process:
the referee, the clients and their log drains), the CPU time of the bots'
processes (keepers, fork servers, game processes, live or reaped: Linux
/proc, each process's utime + stime + cutime + cstime, summed over this
process's descendants) and wall time per game, then the medians. To compare
two versions, run each checkout's copy in turn, alternating (each puts its
own checkout first on the path; copy this file and ``tournament.py`` into an
older checkout's ``benchmarks/``), on the same machine: this is how
docs/sandbox.md's figure for the end of a game (the acknowledged
``finish`` and the logs taken per game) was measured.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from arena.bots.referee import play_game
from arena.game.rules import Rules
from arena.plugins.registry import load
from arena.sandbox.client import SandboxClient
from arena.sandbox.cpu_meter import CpuMeter, start_meter


def one_round(games: int, players: list[str], meter: CpuMeter, order: str = "new") -> tuple[float, float, float]:
    """(harness CPU ms, bots' CPU ms, wall ms) per game over ``games`` games, after a warm-up (the bots':
    every other process ``meter`` counts).

    ``order``: ``new``, every game a new deal (a client's process goes on from game to game);
    ``rotations``, each deal's four seat rotations in a row, as a round robin's batch plays them (a
    client needs a process per rotation: the warm-up, one deal's rotations, forks them all).
    """
    registry, rules = load(), Rules.preset("getaway")
    clients = [SandboxClient(registry.get(name)) for name in players]
    rotations = order == "rotations"
    try:
        for r in range(4 if rotations else 1):  # start-up is not the figure
            play_game(rules, clients[r:] + clients[:r], seed=0)
        cpu0, all0, wall0 = time.process_time(), meter.seconds(), time.perf_counter()
        for g in range(games):
            if rotations:
                r = g % 4
                play_game(rules, clients[r:] + clients[:r], seed=g // 4 + 1)
            else:
                play_game(rules, clients, seed=g + 1)
        harness, everything = time.process_time() - cpu0, meter.seconds() - all0
        return (harness / games * 1000, (everything - harness) / games * 1000,
                (time.perf_counter() - wall0) / games * 1000)
    finally:
        for c in clients:
            c.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--player", default="random", help="the built-in player in all four seats")
    parser.add_argument("--players", default=None, help="four built-in players, comma-separated (instead of --player)")
    parser.add_argument("--order", choices=("new", "rotations"), default="new",
                        help="every game a new deal, or each deal's four seat rotations in a row")
    args = parser.parse_args()
    players = args.players.split(",") if args.players else [args.player] * 4
    if len(players) != 4:
        parser.error(f"--players: expected four names, got {len(players)}")
    rounds = []
    meter = start_meter()  # before any bot process: every one is counted
    print(f"CPU counted by {meter.how}")
    for r in range(args.rounds):
        rounds.append(one_round(args.games, players, meter, args.order))
        print(f"round {r + 1}: {rounds[-1][0]:6.2f} ms harness CPU  {rounds[-1][1]:6.2f} ms bots' CPU  "
              f"{rounds[-1][0] + rounds[-1][1]:6.2f} ms both  {rounds[-1][2]:7.2f} ms wall  a game", flush=True)
    print(f"median:  {statistics.median(c for c, _, _ in rounds):6.2f} ms harness CPU  "
          f"{statistics.median(b for _, b, _ in rounds):6.2f} ms bots' CPU  "
          f"{statistics.median(c + b for c, b, _ in rounds):6.2f} ms both  "
          f"{statistics.median(w for _, _, w in rounds):7.2f} ms wall  a game")


if __name__ == "__main__":
    main()
