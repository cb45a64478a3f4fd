"""What a bot can take from the others through CPU contention (the sandbox's residual channel).

    .venv/bin/python benchmarks/contention.py [--games 30] [--spin-ms 600]

Plays 3-seat getaway games, everything pinned to one core (the harness and,
by inheritance, every bot process): seat 0 is a sandboxed heuristic bot (the
victim), seat 1 a sandboxed "spinner" that answers at once but keeps a thread
burning CPU between its decisions (up to --spin-ms per decision, under its
1,000 ms allowance, so it is never faulted), seat 2 an in-process random bot.
The same deals are played with seat 1 an honest sandboxed random bot. Prints,
for the victim, the medians of its decisions' CPU and wall-clock times, and
each setting's faults: its CPU time (what it is judged on) stays put while
its wall-clock time grows with what the spinner takes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("ARENA_DISABLE_PLUGIN_AUTOLOAD", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import arena
from arena import PlayerSpec, Rules
from arena.sandbox.limits_spec import LimitsSpec
from arena.plugins.registry import load
from arena.bots.referee import InProcessClient, play_game
from arena.sandbox.client import SandboxClient

SPIN_MS = float(os.environ.get("ARENA_SPIN_MS", "600"))


class Spinner(arena.Bot):
    """Answers at once; a thread burns up to SPIN_MS of CPU after each answer."""

    def new_game(self, view):
        self.go = threading.Event()
        threading.Thread(target=self._spin, daemon=True).start()

    def _spin(self):
        while True:
            self.go.wait()
            self.go.clear()
            start = time.thread_time()
            while time.thread_time() - start < SPIN_MS / 1000:
                pass

    def play(self, view):
        self.go.set()
        return view.legal[0]


def victim_times(second, games: int) -> tuple[list[float], list[float], int]:
    reg = load(autoload=False)
    limits = LimitsSpec()
    victim = SandboxClient(reg.get("heuristic"), limits)
    other = SandboxClient(second, limits)
    cpu, wall, faults = [], [], 0
    try:
        for seed in range(games):
            record = play_game(Rules.preset("getaway"), [victim, other,
                               InProcessClient(reg.get("random"))], seed)
            t = record["timings"][0]
            cpu += t["cpu_ms"]
            wall += t["wall_ms"]
            faults += sum(len(f) for f in record["faults"])
    finally:
        victim.close()
        other.close()
    return cpu, wall, faults


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--spin-ms", type=float, default=SPIN_MS)
    args = parser.parse_args()
    os.environ["ARENA_SPIN_MS"] = str(args.spin_ms)
    import contention  # this file under its module name: the sandbox imports the bot by it
    os.sched_setaffinity(0, {0})
    reg = load(autoload=False)
    print(f"victim: sandboxed heuristic, {args.games} games, all pinned to CPU 0")
    for label, second in (("beside an honest random bot", reg.get("random")),
                          (f"beside a spinner ({args.spin_ms:g} ms a decision)",
                           PlayerSpec("spinner", contention.Spinner))):
        cpu, wall, faults = victim_times(second, args.games)
        print(f"  {label:<42} CPU median {statistics.median(cpu):7.3f} ms  "
              f"wall median {statistics.median(wall):8.3f} ms  "
              f"wall p90 {statistics.quantiles(wall, n=10)[-1]:8.3f} ms  faults {faults}")


if __name__ == "__main__":
    main()
