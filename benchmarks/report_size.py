"""Size and build time of the HTML report (run: python benchmarks/report_size.py RESULTS [GAMES ...]).

For each number of embedded games (default 0, 40, 200 and every game) writes
the report of the results folder RESULTS to a temporary file and prints its
size, the size per embedded game over the report without games, and the CPU
time it took. E.g. after ``arena tournament run quick --jobs 2``:
``python benchmarks/report_size.py results/quick 0 40 200 1600``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from arena.results.report.html import report
from arena.results.store.database import Store


def measure(folder: Path, games: int, out: Path) -> tuple[int, float]:
    """(bytes, CPU seconds) of the report of ``folder`` with ``games`` games embedded."""
    cpu = time.process_time()
    path = report(folder, out, max_games=games)
    return path.stat().st_size, time.process_time() - cpu


def main(argv: list[str]) -> None:
    if not argv:
        sys.exit("usage: python benchmarks/report_size.py RESULTS [GAMES ...]")
    folder = Path(argv[0])
    with Store(folder) as store:
        stored = store.count()
    counts = [int(a) for a in argv[1:]] or [0, 40, 200, stored]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.html"
        base, _ = measure(folder, 0, out)
        print(f"{folder}: {stored} games stored")
        for n in counts:
            size, cpu = measure(folder, n, out)
            shown = min(n, stored)
            per = f"{(size - base) / shown / 1e3:6.2f} KB/game" if shown else " " * 14
            print(f"  --games {n:<6} {size / 1e6:7.2f} MB  {per}  CPU {cpu:6.2f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
