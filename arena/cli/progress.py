"""The progress display of a running tournament, on stderr.

On a terminal, a rich progress bar (counts never cut, times as h:mm:ss; the
bar gives up width first, then the figures one by one, so the leader's name
stays whole); when stderr is not a terminal (CI logs, a pipe), one plain line
every :data:`PLAIN_EVERY` seconds of the run and one at the end.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

PLAIN_EVERY = 10.0
"""Seconds between two plain progress lines."""
_BAR = 5
"""The narrowest the bar gets on a terminal."""


def clock(seconds: float | None) -> str:
    """``3725.2`` -> ``1:02:05``; None -> ``-``."""
    if seconds is None:
        return "-"
    whole = round(seconds)
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def summary(p, width: int | None = None) -> str:
    """One line about a progress snapshot (:class:`arena.tournament.event.Progress`); with ``width``,
    the fullest form that fits it: the rate goes first, then the time left, the faults and the time
    elapsed; the leader's name goes last (cut with an ellipsis only where nothing else is left)."""
    leader = f"leader {p.leader or '-'}"
    parts = [f"{clock(p.elapsed)} elapsed", f"{clock(p.remaining)} left", f"{p.rate:.1f} games/s",
             f"faults {p.faults}"]
    if width is None:
        return ", ".join([*parts, leader])
    for drop in ([], [2], [1, 2], [1, 2, 3], [0, 1, 2, 3]):
        text = ", ".join([*(x for i, x in enumerate(parts) if i not in drop), leader])
        if len(text) <= width:
            return text
    return text[:max(1, width - 1)] + "…"


class LiveProgress:
    """Feeds the runner's Progress snapshots to a bar (a terminal) or plain lines; ``quiet`` shows nothing."""

    def __init__(self, quiet: bool, total: int, done: int, console: Console | None = None,
                 every: float = PLAIN_EVERY) -> None:
        # rich deferred: it costs every `arena` process about 0.1 s at start-up, and most show no progress
        from rich.console import Console

        self.quiet, self.total, self.done, self.every = quiet, total, done, every
        self.console = console or Console(stderr=True)
        self.bar: Progress | None = None
        self.last = self.printed = None
        self._next = 0.0

    def __enter__(self) -> Callable:
        if self.quiet:
            return lambda p: None
        if not self.console.is_terminal:
            return self._line
        from rich.progress import BarColumn, Progress, TextColumn
        from rich.table import Column

        count = len(f"{self.total}/{self.total}")
        self.room = self.console.width - len("games") - _BAR - count - 3  # what the figures may take
        bar = self.bar = Progress(
            TextColumn("games"), BarColumn(bar_width=None, table_column=Column(ratio=1, min_width=_BAR)),
            TextColumn("{task.completed}/{task.total}", table_column=Column(no_wrap=True, min_width=count)),
            TextColumn("{task.fields[info]}", table_column=Column(no_wrap=True, overflow="ellipsis")),
            transient=False, console=self.console, expand=True)
        bar.start()
        self.task = bar.add_task("games", total=self.total, completed=self.done, info="")
        return functools.partial(self._bar, bar)

    def _bar(self, bar: Progress, p) -> None:
        bar.update(self.task, completed=p.done, info=summary(p, self.room))

    def _line(self, p) -> None:
        """A plain line now and then (by the run's own clock) and at the end."""
        self.last = p
        if p.elapsed >= self._next or p.done >= p.total:
            self._next = p.elapsed + self.every
            self._print(p)

    def _print(self, p) -> None:
        share = 100 * p.done / p.total if p.total else 100.0
        self.console.print(f"games {p.done}/{p.total} ({share:.0f}%), {summary(p)}", markup=False,
                           highlight=False, soft_wrap=True)
        self.printed = p

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
        elif self.last is not None and self.printed is not self.last:
            self._print(self.last)  # the state it stopped in (Ctrl-C, an error)
        return False
