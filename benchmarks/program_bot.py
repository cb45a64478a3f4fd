"""A program bot in C against a sandboxed Python bot, side by side: a game's CPU, a decision's round trip.

    .venv/bin/python benchmarks/program_bot.py [--games 30] [--rounds 5] [--rules getaway]

Compiles benchmarks/program_bot_c/lowest.c (gcc, -O2) into a folder with its
bot.toml, then plays, round after round and alternating, ``--games`` games of a
4-player table where seat 0 is the bot measured and seats 1-3 are the trusted
built-in ``random``, ``low`` and ``high`` (in-process, the same in every run):

- ``C program``: ``program:FOLDER`` (docs/protocol.md), the lowest legal card;
- ``Python, sandboxed``: the built-in ``low`` (the lowest legal card too) forced
  into its sandbox, as any third-party Python bot runs;
- ``Python program``: tests/program_bots/lowest (a Python script, no arena
  import) as a program bot, for scale.

Each round makes fresh clients (their fork servers' start included, as a
tournament worker's first games pay it), plays the games with the same seeds,
and closes them, the harness and the bots on one core (as a tournament's
worker runs them: :mod:`arena.tournament.pinning`). A game's CPU counts every
process the run started (:mod:`arena.sandbox.cpu_meter`, which the first line
names). A decision's round trip is the
wall time the harness measured for each of seat 0's decisions (the records'
``timings``: from writing the request to reading the whole answer). Medians
over the rounds (CPU) and over every decision (round trip).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import tournament  # noqa: E402, F401  (it puts this checkout first on the path)

from arena.bots.referee import InProcessClient, play_game  # noqa: E402
from arena.game.rules import Rules  # noqa: E402
from arena.plugins.registry import load  # noqa: E402
from arena.plugins.runner import make_client  # noqa: E402
from arena.sandbox.cpu_meter import CpuMeter, start_meter  # noqa: E402
from arena.tournament.pinning import pin_tree  # noqa: E402


def build_c(folder: Path) -> str:
    """The C bot compiled into ``folder`` with its bot.toml; its seat name."""
    shutil.copy(HERE / "program_bot_c" / "bot.toml", folder / "bot.toml")
    subprocess.run(["gcc", "-O2", "-o", str(folder / "lowest"), str(HERE / "program_bot_c" / "lowest.c")], check=True)
    return f"program:{folder}"


def play_round(registry, seat0: str, sandbox: bool, rules: Rules, games: int,
               meter: CpuMeter) -> tuple[float, list[float], int]:
    """(CPU seconds of everything, seat 0's decision wall times in ms, faults) for ``games`` games."""
    before = meter.seconds()
    bot = make_client(registry.get(seat0), sandbox=sandbox)
    others = [InProcessClient(registry.get(n)) for n in ("random", "low", "high")]
    walls, faults = [], 0
    try:
        for g in range(games):
            record = play_game(rules, [bot, *others], seed=1000 + g, bot_seeds=[g, g, g, g])
            walls += record["timings"][0]["wall_ms"]
            faults += len(record["faults"][0])
    finally:
        bot.close()
        for c in others:
            c.close()
    return meter.seconds() - before, walls, faults


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rules", default="getaway")
    args = parser.parse_args()
    meter = start_meter()  # before any bot process: every one is counted
    pin_tree()  # the referee and the bots on one core, as a tournament's worker plays (arena.tournament.pinning)
    rules, registry = Rules.preset(args.rules), load(autoload=False)
    with tempfile.TemporaryDirectory(prefix="program-bench-") as tmp:
        variants = [("C program", build_c(Path(tmp)), True), ("Python, sandboxed", "low", True),
                    ("Python program", f"program:{HERE.parent / 'tests' / 'program_bots' / 'lowest'}", True)]
        cpu = {label: [] for label, _, _ in variants}
        walls = {label: [] for label, _, _ in variants}
        faults = dict.fromkeys(cpu, 0)
        for _ in range(args.rounds):
            for label, seat0, sandbox in variants:
                spent, w, f = play_round(registry, seat0, sandbox, rules, args.games, meter)
                cpu[label].append(spent * 1000 / args.games)
                walls[label] += w
                faults[label] += f
    print(f"{args.rules}, 4 players, seat 0 measured (seats 1-3 in-process random, low, high), "
          f"{args.games} games x {args.rounds} rounds, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}; "
          f"CPU counted by {meter.how}")
    for label, _, _ in variants:
        w = sorted(walls[label])
        print(f"  {label:<18} CPU a game {statistics.median(cpu[label]):7.2f} ms (rounds "
              f"{min(cpu[label]):.2f}-{max(cpu[label]):.2f})   round trip median {statistics.median(w) * 1000:6.1f} us"
              f"  p90 {w[int(len(w) * 0.9)] * 1000:6.1f} us   faults {faults[label]}")


if __name__ == "__main__":
    main()
