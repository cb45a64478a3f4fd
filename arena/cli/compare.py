"""``arena compare A B``: two players on the same deals, with a sequential test or fixed games.

A thin typer command over :mod:`arena.tournament.compare` (docs/compare.md).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import typer

from arena.bots.safetext import printable
from arena.cli.errors import EXIT_INTERRUPTED, UserError
from arena.cli.live import INTERVAL_HELP, Interval, Pacer, game_line
from arena.cli.options import parse_overrides, secret_from as read_secret_from, seed_value
from arena.cli.output import err, out, sandbox_warning, wrapped
from arena.cli.progress import clock
from arena.cli.session import session
from arena.plugins.names import split_names
from arena.results.stats.paired import CompareTest, figures_lines
from arena.tournament.compare import FAST_FIELD, WIDE_FIELD, Comparison, compare_spec, default_field, field_for
from arena.tournament.executors import make_executor

app = typer.Typer()


def _bounds(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        low, high = (float(v) for v in text.split(","))
    except ValueError:
        raise UserError(f"--sprt expects two numbers H0,H1 in points, e.g. 0,2 (got {text!r})") from None
    return (low, high)


def _field(text: str) -> tuple[str, ...]:
    names = tuple(split_names(text))
    if not names:
        raise UserError(f"--field needs player names separated by commas, e.g. heuristic,low,random (got {text!r})")
    return names


@app.command()
def compare(
    ctx: typer.Context,
    a: str | None = typer.Argument(None, metavar="A",
                                      help="Player A (the candidate; positive differences favour it)."),
    b: str | None = typer.Argument(None, metavar="B", help="Player B (the baseline)."),
    field: str | None = typer.Option(None, "--field", help="Opponents, drawn per deal (comma-separated; default "
                                     f"{','.join(FAST_FIELD)}, at 7-8 seats {','.join(WIDE_FIELD)})."),
    rules: str = typer.Option("getaway", "--rules", "-r", help="Rule preset."),
    set_: list[str] = typer.Option([], "--set", help="Override a rule option: OPTION=VALUE (repeatable)."),
    table_size: int = typer.Option(4, "--table-size", help="Seats at every table (3-8)."),
    score: str = typer.Option("bhabhi", "--score", help="bhabhi, place or penalty."),
    sprt: str | None = typer.Option(None, "--sprt", help="SPRT bounds H0,H1 on the difference, in points, "
                                       "e.g. 0,2 (default: fixed games)."),
    alpha: float = typer.Option(0.05, "--alpha", help="The SPRT's chance of a false H1."),
    beta: float = typer.Option(0.05, "--beta", help="The SPRT's chance of a false H0."),
    games: int = typer.Option(2000, "--games", "-n", min=1, help="The cap (SPRT) or the number of games."),
    seed: int = typer.Option(1, "--seed", callback=seed_value, help="Seed of the schedule."),
    deals: Path | None = typer.Option(None, "--deals", help="A deal book: play its deals (each once, in "
                                         "order) instead of seeded ones; --games is then not used."),
    name: str | None = typer.Option(None, "--name", help="Results go to RESULTS/NAME (default compare-A-B)."),
    results: Path = typer.Option(Path("results"), "--results", help="Folder that holds every event's results."),
    resume: Path | None = typer.Option(None, "--resume", help="Go on with the comparison in this folder."),
    secret_from: Path | None = typer.Option(None, "--secret-from",
                                               help="Take the key of this results folder (the same deals)."),
    sealed: bool | None = typer.Option(None, "--sealed/--open", help="Key the deals with a fresh secret, or "
                                          "not (default: open among built-in players, sealed with any other)."),
    decision_ms: int | None = typer.Option(None, "--decision-ms", help="Per-decision time limit (CPU ms)."),
    jobs: int | None = typer.Option(None, "--jobs", "-j", help="Worker processes (default: the cores)."),
    sandbox: str = typer.Option("auto", "--sandbox", help="auto (default), always or never."),
    backend: str = typer.Option("local", "--backend", help="local (default) or dask."),
    scheduler: str | None = typer.Option(None, "--scheduler", help="Dask scheduler address tcp://HOST:PORT."),
    interval: str = typer.Option("1", "--interval", help=f"The live line when its figures changed, at most "
                                 f"{INTERVAL_HELP}; unchanged, once a minute."),
    log_games: bool = typer.Option(False, "--log-games", help="One line per game stored (on stderr), for logs."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No live display."),
) -> None:
    """Compare two players on the same deals: paired differences, an SPRT or a fixed number of games."""
    live = _Live(interval, quiet, log_games)
    registry = session(ctx).registry
    if resume is not None:
        comparison = Comparison.open(resume, registry)
    elif a is None or b is None:
        given = "none" if a is None else f"only {a!r}"
        raise UserError(f"expected two players, e.g. arena compare sampler heuristic (or --resume FOLDER); "
                        f"got {given}")
    else:
        test = CompareTest(a, b, score, _bounds(sprt), alpha, beta)
        keys = {"seed": seed, "rules": [{"preset": rules, **parse_overrides(set_)}], "table_sizes": [table_size],
                "sandbox": sandbox, "backend": backend, "scheduler": scheduler, "jobs": jobs or 0,
                "limits": {} if decision_ms is None else {"decision_ms": decision_ms}}
        if sealed is not None:
            keys["sealed"] = sealed
        if name is not None:
            keys["name"] = name
        if deals is not None:
            keys["book"] = str(deals)
        opponents = default_field(table_size) if field is None else _field(field)
        spec = compare_spec(test, field_for(a, b, opponents), games, registry.presets, **keys)
        test = replace(test, a=spec.candidates[0], b=spec.candidates[1])  # as the spec writes them: options sorted
        comparison = Comparison.create(spec, test, results / spec.name, registry, read_secret_from(secret_from))
    _run(comparison, jobs, live)


def _run(comparison: Comparison, jobs: int | None, live: _Live) -> None:
    t = comparison.tournament
    live.total = t.total
    typer.echo(wrapped(printable(f"{t.spec.name}: {t.spec.schedule_format().describe()} -> {t.folder}"),
                      sys.stderr), err=True)
    if t.spec.sandbox == "always" or (t.spec.sandbox == "auto" and not all(
            t.registry.get(p.get("base", p["name"])).trusted for p in t.roster)):
        sandbox_warning()
    executor = make_executor(t.spec, jobs, t.registry)
    failed = True
    try:
        figures = comparison.run(executor, on_progress=live.tick, on_game=live.game)
        live.line(figures)
        failed = False
    except KeyboardInterrupt:
        err(f"stopped; continue with `arena compare --resume {t.folder}`")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        executor.shutdown(cancel=failed)
    for line in figures_lines(figures):
        out(wrapped(line))


class _Live:
    """What stderr shows while a comparison runs: a line when the figures changed (games stored, the
    difference, the LLR), at most once every ``interval`` (seconds, or games stored with a ``g``), and
    once a minute when nothing changed, so a log shows the run is alive; with ``log_games``, a line per
    game stored."""

    def __init__(self, interval: str, quiet: bool, log_games: bool) -> None:
        self.pacer = Pacer(Interval.parse(interval))
        self.quiet, self.log_games, self.total = quiet, log_games, 0
        self.stored, self.elapsed = 0, 0.0
        self.last: str | None = None
        self.last_at = 0.0

    def tick(self, progress, f) -> None:
        """The runner's progress: a line when ``every`` seconds have passed since the last, if it says
        something new (or a minute has passed)."""
        self.stored, self.elapsed = progress.done, progress.elapsed
        if self.pacer.seconds_due(progress.elapsed):
            self.line(f)

    def game(self, game, record, figures) -> None:
        """One game stored now: its log line, and the live line when ``every`` games have come since the last."""
        self.stored += 1
        if self.log_games:
            err(game_line(game, record))
        if self.pacer.game_due():
            self.line(figures())

    def line(self, f) -> None:
        """The line of figures ``f``, unless it is the one printed last less than :data:`HEARTBEAT` s ago."""
        if self.quiet:
            return
        text = self.text(f)
        if text == self.last and self.elapsed - self.last_at < HEARTBEAT:
            return
        self.last, self.last_at = text, self.elapsed
        err(wrapped(f"  {clock(self.elapsed)} {text}", sys.stderr))

    def text(self, f) -> str:
        llr = "" if f.llr is None else f", LLR {f.llr:+.2f} ({f.lower:+.2f} .. {f.upper:+.2f})"
        interval = f" ({f.low:+.2f} .. {f.high:+.2f})" if f.units > 1 else ""
        stored = max(self.stored, f.games)
        return (f"games {stored}/{self.total} stored, {f.games} counted ({f.units} deals): "
                f"{f.test.a} - {f.test.b} {f.diff:+.2f} points{interval}{llr}")


HEARTBEAT = 60.0
"""Seconds after which an unchanged live line is printed again (a log shows the run is alive)."""
