"""How a tournament's cost grows with games and with workers: wall, CPU and peak memory, per game.

    .venv/bin/python benchmarks/scale.py --games 1000,10000 --setups local-1,local-2,dask-1,dask-2
    .venv/bin/python benchmarks/scale.py --games 100000 --setups local-2
    .venv/bin/python benchmarks/scale.py --games 2000 --setups dask-1 --no-dask-profiler

Each cell (a number of games on a setup) runs in a fresh Python process (so
peak memory is that run's): the 4-player getaway round robin of the fast
built-ins (random, low, high, heuristic; in-process bots, batch 8, seed 1;
``games / 4`` deals in each of the 4 rotations) into a fresh SQLite results
folder. Setups: ``local-N``, the local ``multiprocess`` pool with N worker
processes; ``dask-N``, a ``distributed.LocalCluster`` of N worker processes
of one thread each, made in a process of its own (as on a real cluster, the
scheduler is not the coordinator's process: its memory is shown apart, in the
``scheduler`` columns; ``--scheduler-here`` puts it in the coordinator, as
the figures before session 10 had it). The pool or cluster is started and
warmed (an empty batch per worker) before the clock starts; start-up is
shown apart.

Figures, from Linux ``/proc`` and ``getrusage``:

- wall: ``Tournament.run`` alone, ms a game;
- CPU: the coordinator (this process: schedule, submits, storing; the Dask
  client) and the workers (every process under it: pool workers, or the Dask
  scheduler, nannies and workers), ms a game;
- memory: the coordinator's peak RSS, the largest peak RSS of one worker
  process under it, and the Dask scheduler's, in MB; ``+KB/game``: how much
  each grew during the run (peak minus the RSS just before it), over the
  games. Flat per game means the peaks do not grow with the number of games:
  ``+KB/game`` falls as games grow.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("ARENA_DISABLE_PLUGIN_AUTOLOAD", "1")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from tournament import FAST  # noqa: E402  (benchmarks/tournament.py)

from arena.plugins.registry import load  # noqa: E402
from arena.sandbox.cpu_meter import start_meter  # noqa: E402
from arena.tournament.event import Tournament  # noqa: E402
from arena.tournament.executors import LocalExecutor  # noqa: E402
from arena.tournament.spec import spec_from_dict  # noqa: E402
from arena.tournament.worker import batch_payload, run_batch  # noqa: E402


def _descendants() -> list[int]:
    """Every live process under this one."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(stat.parent.name))
    out, todo = [], list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def _status_kb(pid: int | str, field: str) -> int:
    """A ``VmRSS``/``VmHWM`` line of /proc/PID/status, in KB (0 if the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _reset_peaks(pids: list[int]) -> None:
    """Start each process's peak RSS afresh (Linux: writing 5 to clear_refs), where allowed."""
    for pid in pids:
        try:
            Path(f"/proc/{pid}/clear_refs").write_text("5")
        except OSError:
            pass


CLUSTER_OPTIONS = {"threads_per_worker": 1, "processes": True, "dashboard_address": ":0", "silence_logs": 50}
"""How every setup's ``LocalCluster`` is made (besides its number of workers), here or in its own process."""
CLUSTER = r"""
import json, sys
from distributed import LocalCluster
cluster = LocalCluster(n_workers=int(sys.argv[1]), **json.loads(sys.argv[2]))
print(cluster.scheduler_address, flush=True)
sys.stdin.read()  # until the benchmark closes its end
cluster.close()
"""
"""A LocalCluster in a process of its own: prints the scheduler's address, ends when stdin closes."""


class _ClusterProcess:
    def __init__(self, workers: int) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", CLUSTER, str(workers), json.dumps(CLUSTER_OPTIONS)],
                                        stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        self.address = self.process.stdout.readline().strip()

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(60)


def _executor(setup: str, scheduler_here: bool):
    """The executor of a setup, and what to close after it (a cluster), and the scheduler's pid (or None)."""
    kind, n = setup.split("-")
    if kind == "local":
        return LocalExecutor(int(n)), None, None
    from arena.tournament.dask_backend import DaskExecutor  # dask: only for its setups
    if scheduler_here:
        from distributed import LocalCluster
        cluster = LocalCluster(n_workers=int(n), **CLUSTER_OPTIONS)
        return DaskExecutor(cluster), cluster, None
    cluster = _ClusterProcess(int(n))
    return DaskExecutor(cluster.address), cluster, cluster.process.pid


def one(games: int, setup: str, scheduler_here: bool = False) -> dict:
    """Play one cell in this process; its figures."""
    spec = spec_from_dict({"name": "scale", "players": FAST, "table_sizes": [4], "deals": games // 4, "seed": 1,
                           "batch": 8, "sandbox": "never"}, "benchmark")
    meter = start_meter()  # before the workers start: every process of the cell is counted
    registry = load()
    start = time.perf_counter()
    executor, cluster, scheduler = _executor(setup, scheduler_here)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            t = Tournament.create(spec, Path(tmp) / spec.name, registry)
            empty = batch_payload(spec, [], t.roster, t.secret)
            for f in [executor.submit(run_batch, empty) for _ in range(executor.workers)]:
                f.result()
            startup = time.perf_counter() - start
            workers = _descendants()
            _reset_peaks([os.getpid(), *workers])
            rss0 = {p: _status_kb(p, "VmRSS") for p in ["self", *workers]}
            cpu0 = (time.process_time(), meter.seconds())
            run_start = time.perf_counter()
            played = t.run(executor).played_now
            wall = time.perf_counter() - run_start
            own = time.process_time() - cpu0[0]
            cpu = (own, meter.seconds() - cpu0[1] - own)  # the workers': every other process
            peak = {p: _status_kb(p, "VmHWM") for p in rss0}
        finally:
            executor.shutdown()
            if cluster is not None:
                cluster.close()
    under = max((p for p in peak if p not in ("self", scheduler)), key=lambda p: peak[p], default=None)
    return {"games": played, "setup": setup, "startup_s": startup, "wall_s": wall, "coord_cpu_s": cpu[0],
            "workers_cpu_s": cpu[1], "coord_peak_kb": peak["self"], "coord_grew_kb": peak["self"] - rss0["self"],
            "worker_peak_kb": peak[under] if under else 0,
            "worker_grew_kb": peak[under] - rss0[under] if under else 0,
            "scheduler_peak_kb": peak.get(scheduler, 0),
            "scheduler_grew_kb": peak.get(scheduler, 0) - rss0.get(scheduler, 0),
            "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}


def _row(r: dict) -> str:
    g = r["games"]
    return (f"| {r['setup']} | {g:,} | {r['startup_s']:.1f} | {1000 * r['wall_s'] / g:.2f} | "
            f"{1000 * r['coord_cpu_s'] / g:.2f} | {1000 * r['workers_cpu_s'] / g:.2f} | "
            f"{r['coord_peak_kb'] / 1024:.0f} | {r['coord_grew_kb'] / g:.2f} | "
            f"{r['worker_peak_kb'] / 1024:.0f} | {r['worker_grew_kb'] / g:.2f} | "
            + (f"{r['scheduler_peak_kb'] / 1024:.0f} | {r['scheduler_grew_kb'] / g:.2f} |" if r["scheduler_peak_kb"]
               else "- | - |"))


HEADER = ("| setup | games | start s | wall ms/game | coord CPU ms/game | workers CPU ms/game | coord peak MB "
          "| coord +KB/game | worker peak MB | worker +KB/game | scheduler peak MB | scheduler +KB/game |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="1000,10000", help="games per run, comma-separated (multiples of 4)")
    parser.add_argument("--setups", default="local-1,local-2,dask-1,dask-2", help="local-N and dask-N, comma-separated")
    parser.add_argument("--no-dask-profiler", action="store_true",
                        help="turn off the Dask workers' statistical profiler (its history grows for an hour)")
    parser.add_argument("--scheduler-here", action="store_true",
                        help="run the Dask scheduler in the coordinator's process (a LocalCluster made there)")
    parser.add_argument("--one", nargs=2, metavar=("GAMES", "SETUP"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.no_dask_profiler:     # read by each Dask process (the cluster's workers inherit the environment)
        os.environ["DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED"] = "False"
    if args.one:
        print(json.dumps(one(int(args.one[0]), args.one[1], args.scheduler_here)))
        return
    print(f"4-player getaway round robin of {', '.join(FAST)}, in-process, batch 8; {os.cpu_count()} cores; "
          f"Dask profiler {'off' if args.no_dask_profiler else 'on'}; load average {os.getloadavg()[0]:.1f} at start",
          flush=True)
    print(HEADER, flush=True)
    for games in [int(g) for g in args.games.split(",")]:
        for setup in args.setups.split(","):
            done = subprocess.run([sys.executable, __file__, "--one", str(games), setup,
                                   *(["--scheduler-here"] if args.scheduler_here else [])], capture_output=True,
                                  text=True, check=False)
            if done.returncode:
                print(f"| {setup} | {games:,} | failed: {done.stderr.strip().splitlines()[-1:]} |", flush=True)
                continue
            print(_row(json.loads(done.stdout.strip().splitlines()[-1])), flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
