"""Start-up time of the ``arena`` command line (run: python benchmarks/cli_startup.py [TREE ...]).

Times ``arena --help`` in a fresh interpreter: the median and the fastest of
10 runs per source tree. With no TREE it times this checkout; give several
(e.g. this checkout and an exported older commit: ``git archive REV arena
players tournaments | tar -x -C /tmp/old``) and their runs interleave, so a
shared machine's load falls on each alike.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 10
HELP = "from arena.cli.app import main; main(['--help'])"


def time_once(tree: Path, runs: list[float]) -> None:
    """One run of ``arena --help`` with ``tree`` first on the path; its wall time appended to ``runs``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", HELP], stdout=subprocess.DEVNULL, env=env, check=True, cwd=tree.parent)
    runs.append(time.perf_counter() - start)


def main(trees: list[Path]) -> list[str]:
    """The figure lines, one per tree."""
    times: dict[Path, list[float]] = {tree: [] for tree in trees}
    for _ in range(RUNS):
        for tree in trees:
            time_once(tree, times[tree])
    return [f"{tree}: arena --help median {1000 * statistics.median(t):.0f} ms, fastest {1000 * min(t):.0f} ms "
            f"({RUNS} runs)" for tree, t in times.items()]


if __name__ == "__main__":
    for line in main([Path(a).resolve() for a in sys.argv[1:]] or [Path(__file__).resolve().parents[1]]):
        print(line)
