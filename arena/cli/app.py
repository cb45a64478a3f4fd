"""The ``arena`` command line: thin typer commands over library calls.

This is the only module that prints or exits. Every library error
(:class:`arena.ArenaError`) becomes one line on stderr and exit code 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from tabulate import tabulate

from arena.game.errors import ArenaError
from arena.game.rules import CHOICES, OPTION_HELP, OPTIONS, PRESET_SOURCES, PRESETS, Rules
from arena.bots.safetext import printable
from arena.cli.compare import compare

app = typer.Typer(
    name="arena", help="Bhabhi bot arena: play, test and rank card-playing bots.",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
)
bench_app = typer.Typer(help="Benchmarks that print figures.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")
tournament_app = typer.Typer(help="Run, resume and inspect tournaments.", no_args_is_help=True)
app.add_typer(tournament_app, name="tournament")
check_app = typer.Typer(help="Check the seeds' claims with the exact solver and strong players.",
                        no_args_is_help=True)
app.add_typer(check_app, name="check")
app.command("compare")(compare)


class UserError(ArenaError):
    """A mistake on the command line found by the CLI itself."""


def _out(text: str = "") -> None:
    """Print to stdout; text from plugins and bots (descriptions, fault details) loses its control characters."""
    typer.echo(printable(text, one_line=False))


def _err(text: str) -> None:
    """Print one line to stderr, control characters stripped (problems quote plugin text)."""
    typer.echo(printable(text), err=True)


def parse_overrides(items: list[str]) -> dict:
    """``["escape=pass", "shootout=true", "decks=2"]`` -> typed keyword overrides."""
    out = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise UserError(f"--set expects OPTION=VALUE, e.g. escape=pass (got {item!r})")
        low = raw.strip().lower()
        value = True if low == "true" else False if low == "false" else int(low) if low.isdigit() else raw.strip()
        key = key.strip().replace("-", "_")
        if key not in OPTIONS:
            raise UserError(f"--set: unknown option {key!r} (known: {', '.join(OPTIONS)})")
        out[key] = value
    return out


def _rules(preset: str, overrides: list[str]) -> Rules:
    _registry()  # plugins may add presets
    return Rules.preset(preset, **parse_overrides(overrides))


_REGISTRY = None


def _registry():
    global _REGISTRY
    if _REGISTRY is None:
        from arena.plugins.registry import load
        _REGISTRY = load()
        for problem in _REGISTRY.problems:
            _err(f"warning: {problem}")
    return _REGISTRY


def _seats(text: str) -> list[str]:
    names = [s.strip() for s in text.split(",") if s.strip()]
    if not names:
        raise UserError("--seats needs player names separated by commas, e.g. heuristic,random,low")
    return names


# ------------------------------------------------------------------- players
@app.command()
def players() -> None:
    """List every discovered player: name, plugin, version, description."""
    reg = _registry()
    rows = [(s.name, s.plugin, s.version, "yes" if s.trusted else "no", s.description)
            for s in sorted(reg.players.values(), key=lambda s: s.name)]
    _out(tabulate(rows, headers=["player", "plugin", "version", "trusted", "description"]))


@app.command()
def variants() -> None:
    """Show the rule presets, their options and seat ranges, and every option's values."""
    _registry()
    headers = ["preset", "seats", *OPTIONS[:-3], "source"]
    rows = []
    for name, rules in PRESETS.items():
        d = rules.to_dict()
        rows.append([name, f"{rules.min_players}-{rules.max_players}",
                     *[_show(d[o]) for o in OPTIONS[:-3]], PRESET_SOURCES.get(name, "plugin")])
    _out(tabulate(rows, headers=headers))
    _out()
    opt_rows = [(o, " | ".join(_show(v) for v in CHOICES.get(o, ())) or "whole number", OPTION_HELP.get(o, ""))
                for o in OPTIONS]
    _out(tabulate(opt_rows, headers=["option", "values", "meaning"]))
    _out("\nOverride any option with --set OPTION=VALUE, e.g. arena play --rules getaway --set escape=pass")


def _show(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# ---------------------------------------------------------------------- play
_SECRET_HELP = ("Key the deal and bot seeds with the secret in this file or results folder "
                "(default: yours, ~/.local/share/bhabhi-arena/secret or under XDG_DATA_HOME).")


def _secret_from(path: Path | None):
    from arena.game.seeds import read_secret
    return None if path is None else read_secret(path)


@app.command()
def play(
    rules: str = typer.Option("getaway", "--rules", "-r", help="Rule preset (see `arena variants`)."),
    seats: str = typer.Option("random,random,random,random", "--seats", "-s",
                              help="Player names, one per seat, comma-separated."),
    seed: int = typer.Option(1, "--seed", help="The game's seed (same seed and secret, same game)."),
    dealer: int = typer.Option(0, "--dealer", help="The dealer's seat."),
    set_: list[str] = typer.Option([], "--set", help="Override a rule option: OPTION=VALUE (repeatable)."),
    as_json: bool = typer.Option(False, "--json", help="Print the game record as JSON instead."),
    sandbox: Optional[bool] = typer.Option(None, "--sandbox/--in-process",
                                           help="Run bots sandboxed (default for untrusted bots) or in-process."),
    secret_from: Optional[Path] = typer.Option(None, "--secret-from", help=_SECRET_HELP),
) -> None:
    """Play one game and print it trick by trick (or its record with --json)."""
    from arena.game.display import describe
    from arena.plugins.runner import play_one
    reg = _registry()
    if sandbox is True or (sandbox is None and not all(reg.get(n).trusted for n in _seats(seats))):
        _sandbox_warning()
    record = play_one(reg, _rules(rules, set_), _seats(seats), seed, dealer, sandbox,
                      secret=_secret_from(secret_from))
    for problem in reg.notify_game_finished(record):
        _err(f"warning: {problem}")
    if as_json:
        _out(json.dumps(record, indent=1))
    else:
        for line in describe(record):
            _out(line)


# ------------------------------------------------------------------- new-bot
@app.command("new-bot")
def new_bot(
    name: str = typer.Argument(..., help="The bot's name (lowercase, e.g. my-bot)."),
    directory: Path = typer.Option(Path("."), "--dir", help="Where to create the package folder."),
) -> None:
    """Create a ready-to-install bot plugin package."""
    from arena.plugins.scaffold import new_bot as scaffold
    target = scaffold(name, directory)
    _out(f"created {target}")
    _out(f"next:  pip install -e {target}   then   arena players")


# --------------------------------------------------------------------- bench
@bench_app.command("engine")
def bench_engine(
    games: int = typer.Option(2000, "--games", "-n", min=1, help="Games per repeat."),
    repeats: int = typer.Option(9, "--repeats", min=1, help="Repeats; the median is reported."),
    players_: int = typer.Option(4, "--players", help="Table size."),
    rules: str = typer.Option("getaway", "--rules", help="Rule preset."),
) -> None:
    """Games per second of the engine with uniformly random legal play, on one core."""
    from arena.game.bench import engine_bench
    for line in engine_bench(_rules(rules, []), players_, games, repeats):
        _out(line)


@bench_app.command("sandbox")
def bench_sandbox(
    decisions: int = typer.Option(5000, "--decisions", min=10, help="Round trips to time."),
    games: int = typer.Option(100, "--games", "-n", min=1, help="Games per side for games/s."),
    players_: int = typer.Option(4, "--players", help="Table size."),
    rules: str = typer.Option("getaway", "--rules", help="Rule preset."),
    cpu: Optional[int] = typer.Option(None, "--cpu", help="The core to pin the referee and bots to."),
) -> None:
    """Round trip per decision of a trivial sandboxed bot, and sandboxed vs in-process games/s."""
    from arena.sandbox.bench import sandbox_bench
    for line in sandbox_bench(decisions, games, players_, _rules(rules, []), cpu):
        _out(line)


# --------------------------------------------------------------- tournaments
def _spec_overrides(**flags) -> dict:
    out = {}
    for key, value in flags.items():
        if value is None:
            continue
        if key in ("players", "candidates", "house"):
            value = _seats(value)
        elif key == "table_sizes":
            try:
                value = [int(v) for v in value.split(",") if v.strip()]
            except ValueError:
                raise UserError(f"--table-sizes expects numbers 3-8 separated by commas (got {value!r})") from None
        elif key == "rules":
            value = [v.strip() for v in value.split(",") if v.strip()]
        out[key] = value
    return out


def _limits_overrides(**flags) -> dict:
    return {k: v for k, v in flags.items() if v is not None}


@tournament_app.command("run")
def tournament_run(
    file: Optional[Path] = typer.Argument(None, help="A tournament file (TOML); flags override its keys."),
    name: Optional[str] = typer.Option(None, "--name", help="Tournament name (results go to results/NAME)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Tournament seed."),
    rules: Optional[str] = typer.Option(None, "--rules", help="Rule presets, comma-separated."),
    players_: Optional[str] = typer.Option(None, "--players", help="Player names, comma-separated."),
    table_sizes: Optional[str] = typer.Option(None, "--table-sizes", help="Table sizes 3-8, comma-separated."),
    format_: Optional[str] = typer.Option(None, "--format", help="round-robin or gauntlet."),
    candidates: Optional[str] = typer.Option(None, "--candidates", help="Gauntlet candidates, comma-separated."),
    deals: Optional[int] = typer.Option(None, "--deals", help="Deals per table (each played in every rotation)."),
    budget: Optional[int] = typer.Option(None, "--budget", help="At most this many games (balanced sample)."),
    house: Optional[str] = typer.Option(None, "--house", help="Fill-in players for tables larger than the pool."),
    decision_ms: Optional[int] = typer.Option(None, "--decision-ms", help="Per-decision time limit (CPU ms)."),
    bank_ms: Optional[int] = typer.Option(None, "--bank-ms", help="Per-game time bank (ms, 0 = none)."),
    startup_ms: Optional[int] = typer.Option(None, "--startup-ms", help="Bot start-up limit (ms)."),
    memory_mb: Optional[int] = typer.Option(None, "--memory-mb", help="Bot memory limit (MiB)."),
    fault_policy: Optional[str] = typer.Option(None, "--fault-policy", help="penalty or random."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", help="Worker processes (default: the number of cores)."),
    sandbox: Optional[str] = typer.Option(None, "--sandbox", help="auto (default), always or never."),
    batch: Optional[int] = typer.Option(None, "--batch", help="Games per task sent to a worker."),
    backend: Optional[str] = typer.Option(None, "--backend", help="local (default) or dask."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address tcp://HOST:PORT."),
    results: Path = typer.Option(Path("results"), "--results", help="Folder that holds every tournament's results."),
    secret_from: Optional[Path] = typer.Option(
        None, "--secret-from", help="A new tournament takes the secret of this results folder (or secret file), "
        "to play another run's games again exactly (default: a fresh random secret)."),
    table_format: str = typer.Option("simple", "--table-format", help="Format of the final table."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No live progress display."),
) -> None:
    """Run a tournament and print its rating table."""
    from arena.tournament.spec import load_spec, spec_from_dict
    from arena.tournament.event import Tournament
    flags = _spec_overrides(name=name, seed=seed, rules=rules, players=players_, table_sizes=table_sizes,
                            format=format_, candidates=candidates, deals=deals, budget=budget, house=house,
                            fault_policy=fault_policy, jobs=jobs, sandbox=sandbox, batch=batch, backend=backend,
                            scheduler=scheduler)
    limits = _limits_overrides(decision_ms=decision_ms, bank_ms=bank_ms, startup_ms=startup_ms, memory_mb=memory_mb)
    if file is not None:
        spec = load_spec(file, **flags, limits=None)
        if limits:
            spec = spec_from_dict({**spec.to_dict(), "limits": {**spec.to_dict()["limits"], **limits}}, str(file))
    else:
        if "players" not in flags:
            raise UserError("give a tournament file or --players (e.g. --players heuristic,random,low,high)")
        spec = spec_from_dict({"name": "cli", **flags, "limits": limits}, "command line")
    t = Tournament.create(spec, results / spec.name, _registry(), _secret_from(secret_from))
    _run_tournament(t, quiet, table_format)


@tournament_app.command("resume")
def tournament_resume(
    folder: Path = typer.Argument(..., help="The tournament's results folder, e.g. results/quick."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", help="Worker processes."),
    backend: Optional[str] = typer.Option(None, "--backend", help="local or dask (default: as stored)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address tcp://HOST:PORT."),
    table_format: str = typer.Option("simple", "--table-format", help="Format of the final table."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No live progress display."),
) -> None:
    """Play only the games a stopped tournament is missing, then print its table."""
    from arena.tournament.event import Tournament
    t = Tournament.open(folder, _registry())
    if backend is not None or scheduler is not None:
        from arena.tournament.spec import spec_from_dict
        changed = {k: v for k, v in (("backend", backend), ("scheduler", scheduler)) if v is not None}
        t.spec = spec_from_dict({**t.spec.to_dict(), **changed}, "command line")
    _run_tournament(t, quiet, table_format, jobs)


@tournament_app.command("status")
def tournament_status(folder: Path = typer.Argument(..., help="The tournament's results folder.")) -> None:
    """How far a tournament got: games stored of scheduled, faults, players."""
    from arena.tournament.event import Tournament, status_lines
    for line in status_lines(Tournament.open(folder, _registry())):
        _out(line)


def _sandbox_warning() -> None:
    """One line when this machine confines bots less than the threat model asks (sandbox-info says why)."""
    from arena.sandbox.limits import detect
    warning = detect().warning
    if warning:
        typer.echo(f"warning: {warning} (see `arena sandbox-info`)", err=True)


def _run_tournament(t, quiet: bool, table_format: str, jobs: int | None = None) -> None:
    from arena.tournament.executors import make_executor
    from arena.results.standings import ratings_text
    from arena.results.store import Store
    from arena.tournament.event import Tournament  # noqa: F401
    with Store(t.folder) as store:
        missing = len(t.pending(store))
    typer.echo(f"{t.spec.name}: {len(t.games)} games scheduled, {missing} to play -> {t.folder}", err=True)
    if missing and (t.spec.sandbox == "always" or (t.spec.sandbox == "auto" and not all(
            t.registry.get(p.get("base", p["name"])).trusted for p in t.players))):
        _sandbox_warning()
    executor = make_executor(t.spec, jobs, t.registry)
    interrupted, failed = False, True
    try:
        with _progress(quiet, len(t.games), len(t.games) - missing) as show:
            t.run(executor, on_progress=show)
        failed = False
    except KeyboardInterrupt:
        interrupted = True
    finally:
        executor.shutdown(cancel=failed)
    with Store(t.folder) as store:
        done = store.count()
        if interrupted:
            typer.echo(f"stopped: {done} of {len(t.games)} games are stored; "
                       f"continue with `arena tournament resume {t.folder}`", err=True)
        _out(ratings_text(store, table_format))
    if interrupted:
        raise typer.Exit(130)


class _progress:
    """A live progress display (rich) fed by the runner's Progress snapshots."""

    def __init__(self, quiet: bool, total: int, done: int) -> None:
        self.quiet, self.total, self.done = quiet, total, done
        self.bar = None

    def __enter__(self):
        if not self.quiet:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
            from rich.console import Console
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


@app.command()
def ratings(
    folder: Path = typer.Argument(..., help="A tournament's results folder."),
    by: Optional[str] = typer.Option(None, "--by", help="One table per table-size, rules or seat."),
    table_format: str = typer.Option("simple", "--format", "-f", help="csv, json or a tabulate format (simple, github, grid, ...)."),
    h2h: bool = typer.Option(False, "--head-to-head", help="Show the head-to-head table instead."),
) -> None:
    """The TrueSkill rating table of a tournament (computed from the store, in game order)."""
    from arena.results.standings import head_to_head_text, ratings_text
    from arena.results.store import Store
    with Store(folder) as store:
        _out(head_to_head_text(store, table_format) if h2h else ratings_text(store, table_format, by))


@app.command()
def replay(
    folder: Path = typer.Argument(..., help="A tournament's results folder, or a game record .json file."),
    game: Optional[str] = typer.Argument(None, help="Game number or game id (for a results folder)."),
    as_json: bool = typer.Option(False, "--json", help="Print the record as JSON."),
) -> None:
    """Replay a stored game exactly (checking every step) and print it trick by trick."""
    from arena.game.display import describe
    from arena.game.engine import Game
    from arena.results.store import Store
    if folder.is_file():
        try:
            record = json.loads(folder.read_text())
        except ValueError as exc:
            raise UserError(f"{folder}: not a JSON game record ({exc})") from None
    else:
        if game is None:
            raise UserError("give the game number or id to replay, e.g. arena replay results/quick 0")
        with Store(folder) as store:
            record = store.record(game)
    Game.from_record(record)
    if as_json:
        _out(json.dumps(record, indent=1))
        return
    for line in describe(record):
        _out(line)


@app.command("sandbox-info")
def sandbox_info() -> None:
    """What isolation this machine provides for bot processes."""
    from arena.sandbox.limits import detect
    caps = detect()
    _out(tabulate(caps.rows(), headers=["layer", "available", "detail"]))
    if caps.warning:
        typer.echo(f"warning: {caps.warning}", err=True)


# ---------------------------------------------------------- report and plots
@app.command("report")
def report_cmd(
    folder: Path = typer.Argument(..., help="A tournament's results folder."),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="The HTML file to write (default: FOLDER/report.html)."),
    games: int = typer.Option(40, "--games", min=0,
                              help="Games in the game browser, chosen evenly over rules and table sizes (0: none)."),
) -> None:
    """Write one self-contained HTML report: ratings, plots, head to head, faults and a game browser."""
    from arena.results.report import report
    path = report(folder, output, max_games=games)
    _out(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB); open it in any browser, no network needed")


@app.command("plot")
def plot_cmd(
    folder: Path = typer.Argument(..., help="A tournament's results folder."),
    output: Path = typer.Option(Path("ratings.png"), "--output", "-o", help="The image to write: .png, .svg or .pdf."),
    dpi: int = typer.Option(150, "--dpi", min=50, max=600, help="Resolution of a PNG."),
) -> None:
    """Plot each player's rating (mu, with a band of +- sigma) against games played."""
    from arena.results.plot import plot
    _out(f"wrote {plot(folder, output, dpi)}")


# ----------------------------------------------------------------- check-bot
@app.command("check-bot")
def check_bot_cmd(
    name: str = typer.Argument(..., help="The player to check, as `arena players` lists it."),
    games: int = typer.Option(2, "--games", "-n", min=1, help="Seeded games per preset and table size."),
    seed: int = typer.Option(1, "--seed", help="Seed of the check's games."),
    rules: Optional[str] = typer.Option(None, "--rules", help="Presets to check, comma-separated (default: all)."),
    table_sizes: Optional[str] = typer.Option(None, "--table-sizes",
                                              help="Table sizes, comma-separated (default: all each preset allows)."),
    decision_ms: Optional[int] = typer.Option(None, "--decision-ms", help="Per-decision time limit (CPU ms)."),
    bank_ms: Optional[int] = typer.Option(None, "--bank-ms", help="Per-game time bank (ms, 0 = none)."),
    startup_ms: Optional[int] = typer.Option(None, "--startup-ms", help="Bot start-up limit (ms)."),
    memory_mb: Optional[int] = typer.Option(None, "--memory-mb", help="Bot memory limit (MiB)."),
    sandbox: bool = typer.Option(True, "--sandbox/--in-process",
                                 help="Run the bot in its sandbox, as tournaments do (default), or in-process."),
    table_format: str = typer.Option("simple", "--table-format", help="A tabulate format for the table."),
) -> None:
    """Check a bot before submitting it; exit code 1 when any check fails.

    Plays seeded games at every table size of every preset and reports whether
    the bot loads, answers every decision legally, stays within the time and
    memory limits, handles takes (bhabho) and trumps (donkey), and plays the
    same moves given the same seeds.
    """
    from arena.plugins.checkbot import check_bot, planned_games
    from arena.tournament.spec import LimitsSpec
    from arena.plugins.registry import check_in_process
    chosen = _spec_overrides(rules=rules, table_sizes=table_sizes)
    limits = LimitsSpec(**_limits_overrides(decision_ms=decision_ms, bank_ms=bank_ms, startup_ms=startup_ms,
                                            memory_mb=memory_mb))
    reg = _registry()
    if not sandbox and name in reg.players:
        check_in_process(reg.players[name])  # a third-party bot: refused before anything starts
    kwargs = dict(games=games, presets=chosen.get("rules"), table_sizes=chosen.get("table_sizes"))
    typer.echo(f"check-bot {name}: {planned_games(**kwargs)} games ...", err=True)
    report = check_bot(name, registry=reg, seed=seed, limits=limits, sandbox=sandbox, **kwargs)
    _out(report.table(table_format))
    if not report.ok:
        raise typer.Exit(1)


# ------------------------------------------------------------ solver, checks
@app.command()
def solve(
    position: str = typer.Argument(..., help='Two hands, e.g. "leader: AS KS 2H / other: 3C 4C".'),
    rules: str = typer.Option("playnest", "--rules", "-r", help="Rule preset."),
    set_: list[str] = typer.Option([], "--set", help="Override a rule option: OPTION=VALUE (repeatable)."),
    draw_value: float = typer.Option(0.5, "--draw-value", help="What a drawn game counts as (0 win .. 1 loss)."),
) -> None:
    """Solve a two-player position exactly: the leader's chance of losing and the best moves."""
    from arena.game.solver import solve_text
    for line in solve_text(position, _rules(rules, set_), draw_value):
        _out(line)


@check_app.command("shootout")
def check_shootout(
    ranks: int = typer.Option(4, "--ranks", min=1, max=13, help="Ranks in each suit of the small pack."),
    escape: str = typer.Option("pass", "--escape", help="The escape rule to solve under."),
) -> None:
    """Seed 002: in every two-player position whose hands share no suit, the leader never wins."""
    from arena.research.solver_check import check_seed002
    lines, _ = check_seed002(ranks, escape)
    for line in lines:
        _out(line)


@check_app.command("shared-suits")
def check_shared_suits(
    samples: int = typer.Option(3000, "--samples", min=1, help="Random positions per escape rule."),
    seed: int = typer.Option(2, "--seed", help="Seed of the sample."),
    ranks: int = typer.Option(4, "--ranks", min=1, max=13, help="Ranks in each suit of the small pack."),
) -> None:
    """How often the leader wins with perfect play when the two hands share suits, per escape rule."""
    from arena.research.solver_check import shared_suit_survey, survey_lines
    for line in survey_lines(shared_suit_survey(samples, seed, ranks), ranks):
        _out(line)


@check_app.command("shootout-share")
def check_shootout_share(
    players_: str = typer.Option(..., "--players", help="Four player names, comma-separated (may repeat)."),
    games: int = typer.Option(100, "--games", "-n", min=1, help="Games to play."),
    seed: int = typer.Option(2, "--seed", help="Seed of the deals."),
    first: int = typer.Option(0, "--first", min=0, help="First game number (to split a run over processes)."),
) -> None:
    """Seed 002: the share of champions games that end in a shootout, with its interval."""
    from arena.research.solver_check import shootout_share
    _registry()
    lines, _ = shootout_share(_seats(players_), games, seed, first=first)
    for line in lines:
        _out(line)


@check_app.command("endings")
def check_endings(folder: Path = typer.Argument(..., help="A tournament's results folder.")) -> None:
    """How a tournament's games ended: the shootout share with its interval."""
    from arena.research.solver_check import endings_from_results
    lines, _ = endings_from_results(folder)
    for line in lines:
        _out(line)


# ---------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning every error into one line and an exit code."""
    if argv is None:
        argv = sys.argv[1:]
    if not argv:
        argv = ["--help"]
    try:
        result = app(args=argv, prog_name="arena", standalone_mode=False)
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        typer.echo("aborted", err=True)
        return 130
    except ArenaError as exc:
        _err(f"error: {exc}")
        return 2
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        return 130
    except Exception as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            typer.echo(exc.ctx.get_help())
            return 0
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):  # a usage error
            typer.echo(f"error: {exc.format_message()}", err=True)
            return exc.exit_code
        raise
    return result if isinstance(result, int) else 0


def _harden_harness() -> None:
    """The arena process runs bots: keep them from reading it and reap what they leave."""
    try:
        from arena.sandbox import harden_harness
        harden_harness()
    except Exception:
        pass


def run() -> None:  # pragma: no cover - console script wrapper
    _harden_harness()
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
