"""Tournament throughput: games per second of a round robin of the built-in fast players.

    .venv/bin/python benchmarks/tournament.py                    # --jobs 2, in-process, batch 8
    .venv/bin/python benchmarks/tournament.py --sandbox always   # sandboxed bots (needs arena.sandbox.client)
    .venv/bin/python benchmarks/tournament.py --batch 1,8,32 --jobs 1,2

Each repeat creates a fresh results folder, starts a fresh executor and times
``Tournament.run`` (schedule -> workers -> SQLite store, one transaction per
delivery of games). Two figures per setting, medians over the repeats:

- run: games / seconds of ``Tournament.run`` alone (the steady state a long
  event sees; the pool is already started);
- end-to-end: the same plus starting and stopping the worker pool (what a short
  ``arena tournament run`` sees, apart from interpreter start-up);
- CPU: CPU milliseconds per game of every process the run has: the
  coordinator, the pool's workers, the zygote and every sandboxed bot process,
  at ``--jobs 1`` as at ``--jobs 2`` (:mod:`arena.sandbox.cpu_meter`: a cpuacct
  control group where one can be made, else a /proc walk; the first line says
  which). On a machine shared with other work this is the steadier figure:
  games/s then depends on how much of the cores the run gets.

Built-in players only (plugin autoload off), so other installed bots cannot
slow the figures down.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("ARENA_DISABLE_PLUGIN_AUTOLOAD", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.tournament.spec import spec_from_dict
from arena.tournament.executors import SerialExecutor, make_executor
from arena.plugins.registry import load
from arena.tournament.event import Tournament
from arena.sandbox.cpu_meter import CpuMeter, start_meter

FAST = ["random", "low", "high", "heuristic"]


def _nap(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def _warm(executor) -> None:
    """Wait until every worker of a pool has started (spawn and imports are not part of a run)."""
    workers = getattr(executor, "workers", 1)
    if not hasattr(executor, "pool"):
        return
    for _ in range(20):
        futures = [executor.submit(_nap, 0.1) for _ in range(workers)]
        if len({f.result() for f in futures}) == workers:
            return


def one_run(jobs: int, batch: int, sandbox: str, deals: int, seed: int, registry,
            meter: CpuMeter, pin: bool = True) -> tuple[int, float, float, float]:
    """Play one round robin; return (games, seconds of run, seconds end to end, CPU seconds of run)."""
    spec = spec_from_dict({"name": "bench", "players": FAST, "table_sizes": [4], "deals": deals,
                           "seed": seed, "jobs": jobs, "batch": batch, "sandbox": sandbox}, "benchmark")
    with tempfile.TemporaryDirectory() as tmp:
        t = Tournament.create(spec, Path(tmp) / spec.name, registry)
        start = time.perf_counter()
        executor = SerialExecutor(registry, pin=pin) if jobs == 1 else make_executor(spec)
        try:
            _warm(executor)
            cpu_start, run_start = meter.seconds(), time.perf_counter()
            progress = t.run(executor)
            run_end = time.perf_counter()
            cpu = meter.seconds() - cpu_start
        finally:
            executor.shutdown()
        end = time.perf_counter()
    return progress.played_now, run_end - run_start, end - start, cpu


def bench(jobs: int, batch: int, sandbox: str, deals: int, repeats: int, registry, meter: CpuMeter,
          pin: bool = True) -> str:
    runs = [one_run(jobs, batch, sandbox, deals, seed, registry, meter, pin) for seed in range(1, repeats + 1)]
    games = runs[0][0]
    steady = [g / r for g, r, _, _ in runs]
    whole = [g / e for g, _, e, _ in runs]
    cpu = [1000 * c / g for g, _, _, c in runs]
    pinned = "" if jobs != 1 else ("  pinned" if pin else "  unpinned")
    return (f"jobs {jobs}{pinned}  batch {batch:3d}  sandbox {sandbox:6s}  {games} games x {repeats}:  "
            f"run {statistics.median(steady):6.1f} games/s (min {min(steady):.1f}, max {max(steady):.1f});  "
            f"end-to-end {statistics.median(whole):6.1f} games/s;  "
            f"CPU {statistics.median(cpu):.2f} ms/game")


def _ints(text: str) -> list[int]:
    return [int(v) for v in text.split(",") if v.strip()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", default="2", help="worker counts, comma-separated (1 = serial, in this process)")
    parser.add_argument("--batch", default="8", help="games per task, comma-separated")
    parser.add_argument("--sandbox", default="never", help="never, always or auto, comma-separated")
    parser.add_argument("--deals", type=int, default=250, help="deals per table (4 games each)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats per setting; medians are shown")
    parser.add_argument("--pin", default="yes", choices=("yes", "no", "both"),
                        help="at --jobs 1: yes (the serial executor on one core, as arena runs it), no, or both")
    args = parser.parse_args(argv)
    with start_meter() as meter:  # before any process is started: every one is counted
        registry = load()
        print(f"4-player getaway round robin of {', '.join(FAST)}; {os.cpu_count()} cores; "
              f"load average {os.getloadavg()[0]:.1f}; CPU counted by {meter.how}", flush=True)
        for sandbox in args.sandbox.split(","):
            for jobs in _ints(args.jobs):
                for batch in _ints(args.batch):
                    for pin in ({"yes": [True], "no": [False], "both": [False, True]}[args.pin] if jobs == 1
                                else [True]):
                        print(bench(jobs, batch, sandbox, args.deals, args.repeats, registry, meter, pin),
                              flush=True)


if __name__ == "__main__":
    main()
