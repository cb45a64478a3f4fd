"""The harness's cost of a sandboxed game, whole: CPU and wall time a game, the start and end included.

    .venv/bin/python benchmarks/game_cost.py [--games 40] [--rounds 7] [--player random]

Plays ``--games`` games of getaway between 4 sandboxed ``random`` bots (``--player``) (one
client a seat, kept across the games, as a tournament's worker keeps them),
``--rounds`` times, and prints each round's harness CPU time (this process:
the referee, the clients and their log drains), the CPU time of the bots'
processes (keepers, fork servers, game processes, live or reaped: Linux
/proc, each process's utime + stime + cutime + cstime, summed over this
process's descendants) and wall time per game, then the medians. To compare two versions, run it from each checkout in turn,
alternating (``PYTHONPATH=/path/to/checkout``), on the same machine: this is
how docs/sandbox.md's figure for the end of a game (the acknowledged
``finish`` and the logs taken per game) was measured.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from arena.bots.referee import play_game
from arena.game.rules import Rules
from arena.plugins.registry import load
from arena.sandbox.client import SandboxClient


def bots_cpu() -> float:
    """CPU seconds of this process's descendants, live or reaped by a live one (Linux /proc; else 0)."""
    tick, table = os.sysconf("SC_CLK_TCK"), {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        table[int(stat.parent.name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]) / tick)
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0.0, list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        total += table[pid][1]
        todo.extend(children.get(pid, []))
    return total


def one_round(games: int, player: str = "random") -> tuple[float, float, float]:
    """(harness CPU ms, bots' CPU ms, wall ms) per game over ``games`` games, after one warm-up game."""
    spec, rules = load().get(player), Rules.preset("getaway")
    clients = [SandboxClient(spec) for _ in range(4)]
    try:
        play_game(rules, clients, seed=0)  # start-up is not the figure
        cpu0, bots0, wall0 = time.process_time(), bots_cpu(), time.perf_counter()
        for g in range(games):
            play_game(rules, clients, seed=g + 1)
        return ((time.process_time() - cpu0) / games * 1000, (bots_cpu() - bots0) / games * 1000,
                (time.perf_counter() - wall0) / games * 1000)
    finally:
        for c in clients:
            c.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--player", default="random", help="the built-in player in all four seats")
    args = parser.parse_args()
    rounds = []
    for r in range(args.rounds):
        rounds.append(one_round(args.games, args.player))
        print(f"round {r + 1}: {rounds[-1][0]:6.2f} ms harness CPU  {rounds[-1][1]:6.2f} ms bots' CPU  "
              f"{rounds[-1][2]:7.2f} ms wall  a game", flush=True)
    print(f"median:  {statistics.median(c for c, _, _ in rounds):6.2f} ms harness CPU  "
          f"{statistics.median(b for _, b, _ in rounds):6.2f} ms bots' CPU  "
          f"{statistics.median(w for _, _, w in rounds):7.2f} ms wall  a game")


if __name__ == "__main__":
    main()
