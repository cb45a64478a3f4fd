"""The live progress display of a running tournament (rich, on stderr)."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


class LiveProgress:
    """A progress bar fed by the runner's Progress snapshots; ``quiet`` shows nothing."""

    def __init__(self, quiet: bool, total: int, done: int) -> None:
        self.quiet, self.total, self.done = quiet, total, done
        self.bar = None

    def __enter__(self):
        if not self.quiet:
            self.bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                TextColumn("{task.fields[info]}"), transient=False, console=Console(stderr=True))
            self.bar.start()
            self.task = self.bar.add_task("games", total=self.total, completed=self.done, info="")
        return self.update

    def update(self, p) -> None:
        if self.bar is None:
            return
        left = f"{p.remaining:.0f}s left" if p.remaining is not None else "-"
        info = f"{p.rate:.1f} games/s, {left}, faults {p.faults}, leader {p.leader or '-'}"
        self.bar.update(self.task, completed=p.done, info=info)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
        return False
