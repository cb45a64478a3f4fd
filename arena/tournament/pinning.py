"""One core for a serial run (``--jobs 1``), as a pool worker has one: the referee and its bots share it.

A pool worker pins itself before it starts anything, so its bots' processes
inherit its core. A serial run plays in the coordinator's process, whose bots
are cloned by a zygote and fork servers that may exist already (plugin
discovery starts the zygote): left unpinned, the referee's thread and each
bot process it waits on run on different cores, and every decision's round
trip pays a cross-core wake-up. Measured (benchmarks/tournament.py, four
sandboxed built-in bots, 600 games, two cores, loaded): unpinned 7.62 ms of
CPU and 37 games/s, pinned 5.72 ms and 123 games/s.

:func:`pin_tree` pins every thread of this process and of its descendants to
the first core this process may use; threads and processes started afterwards
inherit it. The undo it returns gives the whole tree, as it is then, the
cores it had.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from arena.sandbox import processes


def pin_tree() -> Callable[[], None]:
    """Pin this process's and its descendants' threads to one core; the undo (a no-op where pinning is
    not possible)."""
    if not hasattr(os, "sched_setaffinity") or not os.path.isdir("/proc/self/task"):
        return lambda: None
    before = os.sched_getaffinity(0)
    _set(_tree_threads(), {min(before)})
    return lambda: _set(_tree_threads(), before)


def _set(threads: list[int], cores: set[int]) -> None:
    for tid in threads:
        try:
            os.sched_setaffinity(tid, cores)
        except OSError:
            pass  # ended meanwhile, or not ours to move


def _tree_threads() -> list[int]:
    """The thread ids of this process and of every process under it (Linux /proc)."""
    threads = []
    for pid in [os.getpid(), *processes.descendants(os.getpid())]:
        try:
            threads += [int(t) for t in os.listdir(f"/proc/{pid}/task")]
        except OSError:
            pass  # ended meanwhile
    return threads
