"""Games per second of one event: the local pool against a local Dask cluster.

    python benchmarks/cluster.py [--deals 100] [--batch 8] [--sandbox auto] [--repeat 1]

Plays the same 4-player round robin of the built-in players (heuristic,
random, low, high; getaway; ``--deals`` deals in every rotation) on:

- ``local``: the local ``multiprocess`` pool with 2 workers (``--jobs 2``);
- ``dask-1`` and ``dask-2``: a ``LocalCluster`` with 1 and 2 worker
  processes of 1 thread each.

Each run writes a fresh results database; the time is ``Tournament.run``
alone, from the first submit to the last stored game. Start-up (the pool or
cluster, and one empty batch per worker so each has imported the arena) is
reported apart; the players themselves load in each worker's first batch. The per-batch
overhead is the median round trip of an empty batch (``run_batch`` of no
games, submitted one at a time) on each executor.

The machine this runs on may be shared, so beside wall-clock figures it
reports CPU time: of this process (coordinator, and with Dask the scheduler
and nannies too) plus every process under it (workers, bots), per game and per
empty batch. CPU time hardly depends on what else the machine is doing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

PLAYERS = ["heuristic", "random", "low", "high"]


def spec(deals: int, batch: int, sandbox: str):
    from arena.tournament.spec import spec_from_dict
    return spec_from_dict({"name": "bench", "players": PLAYERS, "rules": ["getaway"], "table_sizes": [4],
                           "deals": deals, "batch": batch, "sandbox": sandbox, "seed": 1})


def cpu_seconds() -> float:
    """User + system CPU of this process and every live process under it."""
    import psutil
    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except psutil.Error:
            pass
    return total


def play(executor, tournament_spec, registry, root: Path) -> tuple[int, float, float]:
    """Games played, seconds and CPU seconds taken by one run of the event on ``executor``."""
    from arena.tournament.event import Tournament
    folder = Path(tempfile.mkdtemp(dir=root))
    t = Tournament.create(tournament_spec, folder, registry)
    cpu, start = cpu_seconds(), time.perf_counter()
    progress = t.run(executor)
    return progress.played_now, time.perf_counter() - start, cpu_seconds() - cpu


def empty_payload(tournament_spec, registry) -> dict:
    from arena.tournament.event import roster_of, player_names, schedule
    from arena.game.seeds import Secret
    from arena.tournament.worker import batch_payload
    roster = roster_of(registry, player_names(schedule(tournament_spec)))
    return batch_payload(tournament_spec, [], roster, Secret.generate())


def warm_up(executor, tournament_spec, registry) -> None:
    """One empty batch on every worker slot: the pool or cluster is up and has imported the arena."""
    from arena.tournament.worker import run_batch
    payload = empty_payload(tournament_spec, registry)
    for fut in [executor.submit(run_batch, payload) for _ in range(executor.workers)]:
        fut.result()


def empty_batch_ms(executor, tournament_spec, registry, n: int = 100) -> tuple[float, float]:
    """Median round trip of an empty batch and mean CPU per empty batch, in ms."""
    from arena.tournament.worker import run_batch
    payload = empty_payload(tournament_spec, registry)
    times = []
    cpu = cpu_seconds()
    for _ in range(n):
        start = time.perf_counter()
        executor.submit(run_batch, payload).result()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times), 1000 * (cpu_seconds() - cpu) / n


def local_run(args, tournament_spec, registry, root):
    from arena.tournament.executors import LocalExecutor
    start = time.perf_counter()
    with LocalExecutor(2) as pool:
        warm_up(pool, tournament_spec, registry)
        startup = time.perf_counter() - start
        runs = [play(pool, tournament_spec, registry, root) for _ in range(args.repeat)]
        overhead = empty_batch_ms(pool, tournament_spec, registry)
    return startup, runs, overhead


def dask_run(workers: int, args, tournament_spec, registry, root):
    from distributed import LocalCluster

    from arena.tournament.dask_backend import DaskExecutor
    start = time.perf_counter()
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=50) as cluster, \
            DaskExecutor(cluster.scheduler_address) as executor:
        warm_up(executor, tournament_spec, registry)
        startup = time.perf_counter() - start
        runs = [play(executor, tournament_spec, registry, root) for _ in range(args.repeat)]
        overhead = empty_batch_ms(executor, tournament_spec, registry)
    return startup, runs, overhead


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="deals per table (x4 rotations = games)")
    parser.add_argument("--batch", type=int, default=8, help="games per task")
    parser.add_argument("--sandbox", default="auto", help="auto (built-ins in-process), always, never")
    parser.add_argument("--repeat", type=int, default=1, help="runs of the event per executor (best is shown)")
    args = parser.parse_args(argv)
    from arena.plugins.registry import load
    registry = load()
    tournament_spec = spec(args.deals, args.batch, args.sandbox)
    load1 = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for label, run in (("local --jobs 2", lambda: local_run(args, tournament_spec, registry, root)),
                           ("dask 1 worker", lambda: dask_run(1, args, tournament_spec, registry, root)),
                           ("dask 2 workers", lambda: dask_run(2, args, tournament_spec, registry, root))):
            startup, runs, (overhead, overhead_cpu) = run()
            games, seconds, cpu = min(runs, key=lambda r: r[1])
            rows.append((label, startup, games, seconds, games / seconds, 1000 * cpu / games, overhead,
                         overhead_cpu))
            print(f"  {label}: {games} games in {seconds:.2f} s", file=sys.stderr, flush=True)
    print(f"event: 4-player getaway round robin of {', '.join(PLAYERS)}; {args.deals} deals x 4 rotations; "
          f"batch {args.batch}; sandbox {args.sandbox}; {os.cpu_count()} cores, load {load1:.1f} at start")
    print(f"{'backend':<16}{'start s':>8}{'games':>7}{'run s':>7}{'games/s':>9}{'cpu ms/game':>12}"
          f"{'empty batch ms':>15}{'cpu ms':>8}")
    for label, startup, games, seconds, rate, game_cpu, overhead, overhead_cpu in rows:
        print(f"{label:<16}{startup:>8.2f}{games:>7}{seconds:>7.2f}{rate:>9.1f}{game_cpu:>12.2f}"
              f"{overhead:>15.2f}{overhead_cpu:>8.2f}")
    rate = {r[0]: r[4] for r in rows}
    print(f"scaling dask 2 workers / 1 worker: {rate['dask 2 workers'] / rate['dask 1 worker']:.2f}x; "
          f"dask 2 workers / local --jobs 2: {rate['dask 2 workers'] / rate['local --jobs 2']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
