"""Old code against new, back to back in one run: in-process tournament CPU, engine games/s, ratings CPU.

    git worktree add --detach ../base main          # the code to compare against
    .venv/bin/python benchmarks/side_by_side.py --base ../base --rounds 5
    .venv/bin/python benchmarks/side_by_side.py --base ../base --only ratings --folder RESULTS
    .venv/bin/python benchmarks/side_by_side.py --base ../base --only solver,sampler
    .venv/bin/python benchmarks/side_by_side.py --base ../base --only sandboxed --rounds 3

(solver: the sum of the median CPU seconds of ``benchmarks/solver.py sizes``, this
tree's script on each tree's code; sampler: the median CPU ms of a decision,
``benchmarks/solver.py sampler``.)

Each round runs every figure once with each tree, alternating (which goes
first swaps every round), in fresh subprocesses (the tree's own ``arena`` and ``players`` packages first on the
path, whatever is installed), so both see the same machine load; medians over
the rounds are printed with new / old. Figures are CPU time:

- tournament: ``benchmarks/tournament.py --jobs 1`` (the 4-player getaway round
  robin of random, low, high and heuristic, serial, in-process, results to
  SQLite), CPU ms a game;
- sandboxed (issue 18, item 2): ``benchmarks/tournament.py --jobs 2 --sandbox
  never,always`` (``--sandbox-deals``, 1,000 by default: 4,000 games each way),
  the sandboxed CPU ms a game and games/s, the in-process games/s, and the ratio
  of the two games/s;
- engine: ``arena bench engine`` (getaway, 4 players, random play), games/s with
  the JSON record built, and without, its clock made the process's CPU clock;
- ratings: CPU and wall seconds of ``arena ratings FOLDER`` (with ``--ratings-options``;
  the tables of both trees are also compared: they must be identical).
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
BOOT = """
import runpy, sys
tree = sys.argv[1]
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
sys.path.insert(0, tree)
sys.argv = sys.argv[2:]
if sys.argv[0] == "arena-cpu":     # arena, its wall clock replaced by this process's CPU clock
    import time
    time.perf_counter = time.process_time
    sys.argv[0] = "arena"
if sys.argv[0] == "arena":
    from arena.cli.app import run
    sys.exit(run())
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def _run(tree: Path, *args: str) -> tuple[str, float]:
    """Run a script (or ``arena``) against ``tree``; its output and the CPU seconds it used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", BOOT, str(tree), *args], capture_output=True, text=True,
                          check=True, env={"ARENA_DISABLE_PLUGIN_AUTOLOAD": "1", "PATH": "/usr/bin:/bin"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return done.stdout, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def tournament(tree: Path, deals: int) -> dict[str, float]:
    out, _ = _run(tree, str(tree / "benchmarks" / "tournament.py"), "--jobs", "1", "--deals", str(deals),
                  "--repeats", "1")
    return {"tournament, in-process, CPU ms a game": float(re.search(r"CPU ([\d.]+) ms/game", out).group(1))}


def sandboxed(tree: Path, deals: int) -> dict[str, float]:
    """Issue 18's item 2: the round robin with ``--jobs 2``, in-process and sandboxed, in one run."""
    out, _ = _run(tree, str(tree / "benchmarks" / "tournament.py"), "--jobs", "2", "--sandbox", "never,always",
                  "--deals", str(deals), "--repeats", "1")
    (never_rate, _never_cpu), (always_rate, always_cpu) = (
        (float(m.group(1)), float(m.group(2))) for m in
        re.finditer(r"run\s+([\d.]+) games/s.*CPU ([\d.]+) ms/game", out))
    return {"sandboxed round robin, CPU ms a game": always_cpu, "sandboxed round robin, games/s": always_rate,
            "in-process round robin (jobs 2), games/s": never_rate,
            "sandboxed / in-process games/s": always_rate / never_rate}


def engine(tree: Path, games: int) -> dict[str, float]:
    out, _ = _run(tree, "arena-cpu", "bench", "engine", "-n", str(games), "--repeats", "3")
    rates = [float(m) for m in re.findall(r"^\s+(\d+) games/s", out, re.M)]
    return {"engine, games/s with the JSON record": rates[0], "engine, games/s without it": rates[1]}


def ratings(tree: Path, folder: str, tables: dict, options: str = "") -> dict[str, float]:
    start = time.perf_counter()
    out, cpu = _run(tree, "arena", "ratings", folder, *options.split())
    tables[tree] = out
    return {"arena ratings, CPU s": cpu, "arena ratings, wall s": time.perf_counter() - start}


def solver(tree: Path) -> dict[str, float]:
    out, _ = _run(tree, str(HERE / "benchmarks" / "solver.py"), "sizes")
    return {"solver, sum of median CPU s": sum(float(m) for m in re.findall(r"k=\d+\s+([\d.]+) s", out))}


def sampler(tree: Path) -> dict[str, float]:
    out, _ = _run(tree, str(HERE / "benchmarks" / "solver.py"), "sampler")
    return {"sampler, median CPU ms a decision": float(re.search(r"CPU median ([\d.]+) ms", out).group(1))}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, type=Path, help="a checkout of the code to compare against")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default="tournament,engine",
                        help="tournament, sandboxed, engine, ratings, solver, sampler (comma-separated)")
    parser.add_argument("--deals", type=int, default=100, help="tournament deals per table (4 games each)")
    parser.add_argument("--sandbox-deals", type=int, default=1000,
                        help="sandboxed: deals per table of the round robin (4 games each), "
                             "run in-process then sandboxed")
    parser.add_argument("--games", type=int, default=1000, help="engine games per repeat")
    parser.add_argument("--folder", help="a results folder for ratings")
    parser.add_argument("--ratings-options", default="",
                        help="options for arena ratings, e.g. '-f json --by seat' (JSON: every digit compared)")
    args = parser.parse_args(argv)
    what = args.only.split(",")
    if "ratings" in what and not args.folder:
        parser.error("ratings needs --folder")
    trees = {"old": args.base.resolve(), "new": HERE}
    figures: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    tables: dict = {}
    for r in range(args.rounds):
        # Which tree goes first swaps every round: on a loaded machine the second of two runs
        # back to back measured about 5% slower (main against itself, 5 rounds: 0.94 and 0.97).
        for label, tree in (list(trees.items()) if r % 2 == 0 else list(trees.items())[::-1]):
            got: dict[str, float] = {}
            if "solver" in what:
                got.update(solver(tree))
            if "sampler" in what:
                got.update(sampler(tree))
            if "tournament" in what:
                got.update(tournament(tree, args.deals))
            if "sandboxed" in what:
                got.update(sandboxed(tree, args.sandbox_deals))
            if "engine" in what:
                got.update(engine(tree, args.games))
            if "ratings" in what:
                got.update(ratings(tree, args.folder, tables, args.ratings_options))
            for k, v in got.items():
                figures[label].setdefault(k, []).append(v)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    print(f"medians of {args.rounds} rounds, old = {trees['old']}, new = {trees['new']}")
    for k, old in figures["old"].items():
        a, b = statistics.median(old), statistics.median(figures["new"][k])
        print(f"  {k:42s} old {a:10.2f}   new {b:10.2f}   new/old {b / a:5.2f}")
    if tables:
        print("  rating tables identical:", len(set(tables.values())) == 1)


if __name__ == "__main__":
    main()
