"""``arena tournament run|resume|status``: play a tournament, continue one, say how far it got."""

from __future__ import annotations

from pathlib import Path

import typer

import tournaments as ready
from arena.bots.safetext import printable
from arena.cli.errors import EXIT_INTERRUPTED, UserError
from arena.cli.live import INTERVAL_HELP, Interval, Pacer, game_line
from arena.cli.options import limits_overrides, secret_from as read_secret_from, seed_value, spec_overrides
from arena.cli.output import out, sandbox_warning, wrapped
from arena.cli.progress import LiveProgress
from arena.cli.session import session
from arena.cli.text_tables import AUTO, FORMAT_HELP, WIDE_HELP, grid_for, rating_columns
from arena.results.stats.standings import check_format, ratings_text
from arena.results.store.database import Store
from arena.tournament.event import Tournament, status_lines
from arena.tournament.executors import make_executor
from arena.tournament.formats import FORMATS
from arena.tournament.match_run import stored_count
from arena.tournament.spec import load_spec, spec_from_dict

app = typer.Typer(help="Run, resume and inspect tournaments.", no_args_is_help=True)

FLAGS_GAMES = 400
"""About how many games a run from flags alone plays when ``--deals`` is not given (400 games give
sigma near 0.3 to each of four players; one deal a table gave four games and sigma 3.3)."""
FEW_GAMES = 100
"""Below this many games for some player, a run says that its ratings are rough."""


@app.command("run")
def run(
    ctx: typer.Context,
    file: Path | None = typer.Argument(
        None, help="A tournament file (TOML), or the name of a ready event (e.g. quick); flags override its keys."),
    name: str | None = typer.Option(None, "--name", help="Tournament name (results go to results/NAME)."),
    seed: int | None = typer.Option(None, "--seed", callback=seed_value, help="Tournament seed."),
    rules: str | None = typer.Option(None, "--rules", help="Rule presets, comma-separated."),
    players_: str | None = typer.Option(None, "--players", help="Player names, comma-separated."),
    table_sizes: str | None = typer.Option(None, "--table-sizes", help="Table sizes 3-8, comma-separated."),
    format_: str | None = typer.Option(None, "--format", help=f"The tournament format: {', '.join(FORMATS)}."),
    candidates: str | None = typer.Option(None, "--candidates", help="Gauntlet candidates, comma-separated."),
    deals: str | None = typer.Option(None, "--deals", help="Deals per table (each played in every rotation), "
                                        "or a deal book's file (one deal a line; docs/tournaments.md). Default: "
                                        f"the file's; without a file, enough for about {FLAGS_GAMES} games."),
    budget: int | None = typer.Option(None, "--budget", help="At most this many games (balanced sample)."),
    house: str | None = typer.Option(None, "--house", help="Fill-in players for tables larger than the pool."),
    decision_ms: int | None = typer.Option(None, "--decision-ms", help="Per-decision time limit (CPU ms)."),
    bank_ms: int | None = typer.Option(None, "--bank-ms", help="Per-game time bank (ms, 0 = none)."),
    startup_ms: int | None = typer.Option(None, "--startup-ms", help="Bot start-up limit (ms)."),
    memory_mb: int | None = typer.Option(None, "--memory-mb", help="Bot memory limit (MiB)."),
    fault_policy: str | None = typer.Option(None, "--fault-policy", help="penalty or random."),
    max_faults: int | None = typer.Option(None, "--max-faults", help="Faults in one game before a seat forfeits."),
    tau: float | None = typer.Option(None, "--tau", help="TrueSkill dynamics factor (default 0: fixed bots)."),
    draw_probability: float | None = typer.Option(None, "--draw-probability",
                                                     help="TrueSkill draw probability, between 0 and 1."),
    jobs: int | None = typer.Option(None, "--jobs", "-j", help="Worker processes (default: the number of cores)."),
    sandbox: str | None = typer.Option(None, "--sandbox", help="auto (default), always or never."),
    batch: int | None = typer.Option(None, "--batch", help="Games per task sent to a worker."),
    backend: str | None = typer.Option(None, "--backend", help="local (default) or dask."),
    scheduler: str | None = typer.Option(None, "--scheduler", help="Dask scheduler address tcp://HOST:PORT."),
    match_points: int | None = typer.Option(None, "--match-points",
                                               help="Play matches to this many penalty points, not single games."),
    match_score: str | None = typer.Option(None, "--match-score", help="A match's hands score places or cards."),
    results: Path = typer.Option(Path("results"), "--results", help="Folder that holds every tournament's results."),
    secret_from: Path | None = typer.Option(
        None, "--secret-from", help="A new tournament takes the key of this results folder (or secret file), "
        "to play another run's games again exactly (default: open among built-in players, else a fresh secret)."),
    sealed: bool | None = typer.Option(
        None, "--sealed/--open", help="Sealed: deals and bot seeds keyed with a fresh secret of the folder; open: "
        "the seed alone fixes them (default: open among built-in players, sealed with any third-party bot)."),
    table_format: str = typer.Option(AUTO, "--table-format", help=f"Format of the final table: {FORMAT_HELP}"),
    wide: bool = typer.Option(False, "--wide", "-w", help=WIDE_HELP),
    interval: str | None = typer.Option(None, "--interval", help=f"The rating table so far {INTERVAL_HELP} "
                                           "(default: only at the end)."),
    log_games: bool = typer.Option(False, "--log-games", help="One line per game stored (on stderr), for logs."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No live progress display."),
) -> None:
    """Run a tournament and print its rating table."""
    deals_given = int(deals) if deals is not None and deals.strip().isdigit() else deals
    flags = spec_overrides(name=name, seed=seed, rules=rules, players=players_, table_sizes=table_sizes,
                           format=format_, candidates=candidates, deals=deals_given, budget=budget, house=house,
                           fault_policy=fault_policy, max_faults=max_faults, tau=tau,
                           draw_probability=draw_probability, jobs=jobs, sandbox=sandbox, batch=batch, backend=backend,
                           scheduler=scheduler, match_points=match_points, match_score=match_score, sealed=sealed)
    limits = limits_overrides(decision_ms=decision_ms, bank_ms=bank_ms, startup_ms=startup_ms, memory_mb=memory_mb)
    presets = session(ctx).registry.presets
    if file is not None:
        file = event_file(file)
        spec = load_spec(file, presets, **flags, limits=None)
        if limits:
            spec = spec_from_dict({**spec.to_dict(), "limits": {**spec.to_dict()["limits"], **limits}}, str(file),
                                  presets)
    else:
        if "players" not in flags:
            raise UserError("expected a tournament file or --players (e.g. --players heuristic,random,low,high); "
                            "got neither")
        data = {"name": "cli", **flags, "limits": limits}
        spec = spec_from_dict(data, "command line", presets)
        if "deals" not in flags and "budget" not in flags:
            spec = spec_from_dict({**data, "deals": _enough_deals(spec)}, "command line", presets)
    live = _Live(interval, log_games)
    t = Tournament.create(spec, results / spec.name, session(ctx).registry, read_secret_from(secret_from))
    _play(t, quiet, table_format, wide, live=live)


def _enough_deals(spec) -> int:
    """Deals a table for ``spec`` (from flags alone, one deal a table) to play about :data:`FLAGS_GAMES`
    games (matches: a quarter of that), said on stderr."""
    per_deal = spec.schedule_format().count()
    target = FLAGS_GAMES // 4 if spec.match_points else FLAGS_GAMES
    deals = max(1, -(-target // per_deal))
    unit = "matches" if spec.match_points else "games"
    typer.echo(f"{spec.name}: no --deals given: {deals} deal{'s' if deals > 1 else ''} a table, "
               f"{per_deal * deals} {unit} (--deals N for another number)", err=True)
    return deals


def _few_games_note(t: Tournament) -> str | None:
    """A line when some player has fewer than :data:`FEW_GAMES` games: the ratings of so few are rough."""
    if t.total >= FEW_GAMES * len(t.spec.players):  # enough for everyone; a smaller schedule is cheap to count
        return None
    counts: dict[str, int] = {}
    for game in t.games:
        for name in game.seats:
            counts[name] = counts.get(name, 0) + 1
    if not counts or min(counts.values()) >= FEW_GAMES:
        return None
    who = min(counts, key=lambda name: (counts[name], name))
    unit = "matches" if t.spec.match_points else "games"
    return (f"note: {who} plays only {counts[who]} of the {t.total} {unit}: ratings from so few are rough "
            f"(sigma stays large); --deals N plays more")


def event_file(file: Path) -> Path:
    """``file`` itself when it is there or looks like a path; else the ready event of that name."""
    if file.exists() or file.suffix or len(file.parts) != 1:
        return file  # a path: loading it says what is wrong with it
    found = ready.path(file.name)
    if found is None:
        raise UserError(f"no tournament file {file.name!r} here and no ready event of that name: expected a "
                        f"path to a TOML file or one of the ready events {', '.join(ready.names())}")
    return found


@app.command("resume")
def resume(
    ctx: typer.Context,
    folder: Path = typer.Argument(..., help="The tournament's results folder, e.g. results/quick."),
    jobs: int | None = typer.Option(None, "--jobs", "-j", help="Worker processes."),
    backend: str | None = typer.Option(None, "--backend", help="local or dask (default: as stored)."),
    scheduler: str | None = typer.Option(None, "--scheduler", help="Dask scheduler address tcp://HOST:PORT."),
    table_format: str = typer.Option(AUTO, "--table-format", help=f"Format of the final table: {FORMAT_HELP}"),
    wide: bool = typer.Option(False, "--wide", "-w", help=WIDE_HELP),
    interval: str | None = typer.Option(None, "--interval", help=f"The rating table so far {INTERVAL_HELP} "
                                           "(default: only at the end)."),
    log_games: bool = typer.Option(False, "--log-games", help="One line per game stored (on stderr), for logs."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No live progress display."),
    allow_changed: bool = typer.Option(
        False, "--allow-changed", help="Go on although a player's code changed since the stored games; the "
        "change (player, old and new code, games stored) is recorded and shown by status and the report."),
) -> None:
    """Play only the games a stopped tournament is missing, then print its table."""
    live = _Live(interval, log_games)
    t = Tournament.open(folder, session(ctx).registry)
    if backend is not None or scheduler is not None:
        changed = {k: v for k, v in (("backend", backend), ("scheduler", scheduler)) if v is not None}
        t.spec = spec_from_dict({**t.spec.to_dict(), **changed}, "command line", t.spec.presets)
    _play(t, quiet, table_format, wide, jobs, allow_changed, live)


@app.command("status")
def status(ctx: typer.Context, folder: Path = typer.Argument(..., help="The tournament's results folder.")) -> None:
    """How far a tournament got: games stored of scheduled, faults, players."""
    for line in status_lines(Tournament.open(folder, session(ctx).registry)):
        out(wrapped(line))


def _play(t: Tournament, quiet: bool, table_format: str, wide: bool, jobs: int | None = None,
          allow_changed: bool = False, live: _Live | None = None) -> None:
    """Play the missing games with a live display, then print the table; Ctrl-C stops cleanly (exit 130)."""
    fmt, grid = grid_for(table_format, wide)
    check_format(fmt)  # before the games, not after
    with Store(t.folder) as store:
        missing = t.total - stored_count(store, t.spec)
    typer.echo(f"{t.spec.name}: {t.total} games scheduled, {missing} to play -> {t.folder}", err=True)
    note = _few_games_note(t)
    if note is not None:
        typer.echo(note, err=True)
    if missing and (t.spec.sandbox == "always" or (t.spec.sandbox == "auto" and not all(
            t.registry.get(p.get("base", p["name"])).trusted for p in t.roster))):
        sandbox_warning()
    executor = make_executor(t.spec, jobs, t.registry)
    interrupted, failed = False, True
    try:
        live = live or _Live(None, False)
        display = LiveProgress(quiet, t.total, t.total - missing)
        with display as show:
            live.start(t, display)
            t.run(executor, on_progress=live.progress(show), watch=live.game, allow_changed=allow_changed)
        failed = False
    except KeyboardInterrupt:
        interrupted = True
    finally:
        executor.shutdown(cancel=failed)
    with Store(t.folder) as store:
        done = stored_count(store, t.spec)
        unit = "matches" if t.spec.match_points else "games"
        if interrupted:
            typer.echo(f"stopped: {done} of {t.total} {unit} are stored; "
                       f"continue with `arena tournament resume {t.folder}`", err=True)
        out(ratings_text(store, fmt, columns=rating_columns(wide), grid=grid))
    if interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)


class _Live:
    """The live parts of a run besides the progress bar: the rating table so far every ``interval``
    (seconds, or games stored with a ``g``; none when None or ``--quiet``), and with ``log_games`` a
    line per game stored."""

    def __init__(self, interval: str | None, log_games: bool) -> None:
        self.pacer = Pacer(Interval.parse(interval)) if interval is not None else None
        self.log_games = log_games
        self.t: Tournament | None = None
        self.display: LiveProgress | None = None

    def start(self, t: Tournament, display: LiveProgress) -> None:
        self.t, self.display = t, display

    def progress(self, show):
        """The runner's progress callback: the bar, and the table when its seconds are up."""
        def tick(p) -> None:
            show(p)
            if self.pacer is not None and self.pacer.seconds_due(p.elapsed):
                self.table()
        return tick

    def game(self, game, record) -> bool:
        """One game stored now: its log line, and the table when its games are up; never stops the run."""
        if self.log_games:
            self.say(game_line(game, record))
        if self.pacer is not None and self.pacer.game_due():
            self.table()
        return False

    def table(self) -> None:
        display, t = self.display, self.t
        if display is None or t is None:
            raise UserError("the rating table asked for before the run started")
        if display.quiet:
            return
        fmt, grid = grid_for(AUTO, False)
        with Store(t.folder) as store:
            self.say(ratings_text(store, fmt, columns=rating_columns(False), grid=grid))

    def say(self, text: str) -> None:
        """A line (or table) on stderr, above the progress bar when there is one."""
        if self.display is not None and self.display.bar is not None:
            self.display.console.print(printable(text, one_line=False), markup=False, highlight=False,
                                       soft_wrap=True)
        else:
            typer.echo(printable(text, one_line=False), err=True)
