"""``arena ladder create|run|submit|retire|reinstate|entries|table|serve|submitter``: a standing ladder
(docs/ladder-service.md)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer

from arena.bots.safetext import printable
from arena.cli.errors import EXIT_INTERRUPTED
from arena.cli.ladder_submitters import app as submitter_app
from arena.cli.options import limits_overrides, spec_overrides
from arena.cli.output import out, sandbox_warning
from arena.cli.session import session
from arena.cli.text_tables import AUTO, FORMAT_HELP, WIDE_HELP, grid_for, rating_columns
from arena.ladder import submitters
from arena.ladder.ledger import open_ledger
from arena.ladder.errors import LadderError
from arena.ladder.ladder import SUSPEND_FAULTS, Ladder
from arena.ladder.submit import reinstate, retire, submit
from arena.results.stats.standings import check_format, ratings_text
from arena.results.store.database import Store
from arena.tournament.executors import make_executor
from arena.tournament.spec import spec_from_dict

app = typer.Typer(help="A standing ladder: bots are submitted, checked, and play as long as it runs.",
                  no_args_is_help=True)
app.add_typer(submitter_app, name="submitter")
DEFAULT_HOUSE = "random,low,high,heuristic"


@app.command("create")
def create(
    ctx: typer.Context,
    folder: Path = typer.Argument(..., help="The ladder's folder (made; it must not hold results yet)."),
    rules: str = typer.Option("getaway", "--rules", help="Rule presets, comma-separated (one per round in turn)."),
    table_sizes: str = typer.Option("4", "--table-sizes", help="Table sizes 3-8, comma-separated (in turn)."),
    house: str = typer.Option(DEFAULT_HOUSE, "--house",
                              help="Built-in players that are entries from the start, comma-separated."),
    seed: int = typer.Option(1, "--seed", help="The ladder's seed (deals, tables)."),
    decision_ms: int | None = typer.Option(None, "--decision-ms", help="Per-decision time limit (CPU ms)."),
    bank_ms: int | None = typer.Option(None, "--bank-ms", help="Per-game time bank (ms, 0 = none)."),
    startup_ms: int | None = typer.Option(None, "--startup-ms", help="Bot start-up limit (ms)."),
    memory_mb: int | None = typer.Option(None, "--memory-mb", help="Bot memory limit (MiB)."),
    max_faults: int | None = typer.Option(None, "--max-faults", help="Faults in one game before a seat forfeits."),
    suspend_faults: int = typer.Option(SUSPEND_FAULTS, "--suspend-faults", min=1,
                                       help="Faults (over all its games) after which a bot is suspended."),
    sandbox: str | None = typer.Option(None, "--sandbox", help="auto (default: built-ins in-process) or always."),
) -> None:
    """Make a ladder: its own results database (as a tournament's), secret and plugin folder."""
    chosen = spec_overrides(rules=rules, table_sizes=table_sizes, house=house)
    extra = spec_overrides(max_faults=max_faults, sandbox=sandbox)
    limits = limits_overrides(decision_ms=decision_ms, bank_ms=bank_ms, startup_ms=startup_ms, memory_mb=memory_mb)
    ladder = Ladder.create(folder, session(ctx).registry, rules=chosen["rules"], table_sizes=chosen["table_sizes"],
                           house=chosen["house"], seed=seed, extra={**extra, "limits": limits},
                           suspend_faults=suspend_faults)
    out(f"created the ladder {ladder.folder} ({', '.join(chosen['house'])} entered); "
        f"submit bots with `arena ladder submit {folder} BOT.whl`, play with `arena ladder run {folder}`")


@app.command("run")
def run(
    ctx: typer.Context,
    folder: Path = typer.Argument(..., help="The ladder's folder."),
    jobs: int | None = typer.Option(None, "--jobs", "-j", help="Worker processes (default: the cores)."),
    backend: str | None = typer.Option(None, "--backend", help="local (default) or dask."),
    scheduler: str | None = typer.Option(None, "--scheduler", help="Dask scheduler address tcp://HOST:PORT."),
    games: int | None = typer.Option(None, "--games", min=1, help="Stop after this many more games "
                                        "(default: play until Ctrl-C)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress lines."),
) -> None:
    """Play games for as long as it runs (Ctrl-C stops; running it again loses nothing)."""
    ladder = Ladder.open(folder, session(ctx).registry)
    if backend is not None or scheduler is not None:
        changed = {k: v for k, v in (("backend", backend), ("scheduler", scheduler)) if v is not None}
        ladder.spec = spec_from_dict({**ladder.spec.to_dict(), **changed}, "command line", ladder.spec.presets)
    sandbox_warning()
    executor = make_executor(ladder.spec, jobs, ladder.registry, say=lambda t: typer.echo(f"ladder: {t}", err=True))
    typer.echo(f"ladder {folder}: playing{f' {games} games' if games else ' until stopped (Ctrl-C)'}", err=True)
    shown = [0]

    def show(p) -> None:
        if not quiet and (p.stored // 20 > shown[0] // 20 or p.waiting):
            shown[0] = p.stored
            typer.echo(f"ladder: {p.stored} games stored ({p.played_now} now), {p.active} active"
                       + (f"; {p.waiting}" if p.waiting else ""), err=True)
    failed, interrupted = True, False
    try:
        final = ladder.run(executor, max_games=games, on_progress=show)
        failed = False
    except KeyboardInterrupt:
        interrupted = True
    finally:
        executor.shutdown(cancel=failed)
    if interrupted:
        typer.echo(f"stopped; `arena ladder run {folder}` goes on where it stopped", err=True)
        raise typer.Exit(EXIT_INTERRUPTED)
    for name in final.suspended:
        typer.echo(f"suspended {name} (too many faults; see `arena ladder entries {folder}`)", err=True)
    typer.echo(f"ladder: {final.stored} games stored ({final.played_now} now)", err=True)


@app.command("submit")
def submit_cmd(
    ctx: typer.Context,
    folder: Path = typer.Argument(..., help="The ladder's folder."),
    package: Path = typer.Argument(..., help="A wheel (.whl), a bot folder (with its pyproject.toml), or a program "
                                   "bot's folder or .zip (with bot.toml; its build runs confined)."),
    player: str = typer.Option("", "--player", help="The player to enter, when the plugin offers several."),
    games: int = typer.Option(1, "--check-games", min=1, help="check-bot's games per preset and table size."),
    owner: str | None = typer.Option(None, "--as", help="The submitter whose bot a new chain is (default: "
                                        "the organiser's; a new version keeps its chain's owner)."),
) -> None:
    """Install a bot into the ladder's own plugin area, check it in its sandbox, admit it if it passes."""
    ladder = Ladder.open(folder, session(ctx).registry)
    if owner is not None:
        with Store(ladder.folder) as store:
            submitters.find(open_ledger(store), owner)
    entry = submit(ladder, package, player=player, games=games, owner=owner,
                   progress=lambda t: typer.echo(printable(t), err=True))
    out(f"{entry.name}: {entry.status} ({entry.reason})")
    if entry.status != "active":
        raise typer.Exit(1)


@app.command("retire")
def retire_cmd(ctx: typer.Context, folder: Path = typer.Argument(..., help="The ladder's folder."),
               name: str = typer.Argument(..., help="The entry to retire, e.g. mybot-v1.")) -> None:
    """Take an entry out of matchmaking (its games and rating stay on the table)."""
    entry = retire(Ladder.open(folder, session(ctx).registry), name)
    out(f"{entry.name}: {entry.status}")


@app.command("reinstate")
def reinstate_cmd(ctx: typer.Context, folder: Path = typer.Argument(..., help="The ladder's folder."),
                  name: str = typer.Argument(..., help="The suspended entry to put back, e.g. mybot-v1."),
                  reason: str = typer.Option("", "--reason", help="Why (stored with the change).")) -> None:
    """Put a suspended entry back into matchmaking; its suspension counts faults from now on."""
    entry = reinstate(Ladder.open(folder, session(ctx).registry), name, reason)
    out(f"{entry.name}: {entry.status} ({entry.reason})")


@app.command("entries")
def entries_cmd(
    folder: Path = typer.Argument(..., help="The ladder's folder."),
    name: str | None = typer.Option(None, "--report", help="Print this entry's check-bot report."),
    changes: str | None = typer.Option(None, "--changes", help="Print this entry's status changes: when, "
                                          "to what, by whom and why."),
    as_json: bool = typer.Option(False, "--json", help="Every entry as JSON."),
) -> None:
    """Every entry: version, status and why, the version it follows."""
    with Store(folder) as store:
        ledger = open_ledger(store)
        entries = ledger.entries()
        if changes is not None:
            if ledger.entry(changes) is None:
                raise LadderError(f"no entry {changes!r} in {folder} (entries: {', '.join(e.name for e in entries)})")
            for status, reason, by, at in ledger.changes(changes):
                out(f"{time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(at))}  {status:<10} by {by}: {reason}")
            return
    if name is not None:
        entry = next((e for e in entries if e.name == name), None)
        if entry is None or not entry.report:
            raise LadderError(f"no check-bot report for {name!r} in {folder} (house players have none)")
        out(entry.report["text"])
        return
    if as_json:
        out(json.dumps([{k: getattr(e, k) for k in e.__dataclass_fields__ if k != "report"} for e in entries],
                       indent=1))
        return
    for e in entries:
        follows = f", follows {e.previous}" if e.previous else ""
        owner = f", {e.owner}'s" if e.owner else ""
        version = f" {e.version}" if e.version else ""  # a program bot's bot.toml may give none
        out(f"{e.name:<24} {e.status:<10} {e.player}{version} (code {e.code_hash}{follows}{owner}): {e.reason}")


@app.command("table")
def table(
    folder: Path = typer.Argument(..., help="The ladder's folder."),
    by: str | None = typer.Option(None, "--by", help="One table per table-size, rules or seat."),
    table_format: str = typer.Option(AUTO, "--format", "-f", help=FORMAT_HELP),
    wide: bool = typer.Option(False, "--wide", "-w", help=WIDE_HELP),
) -> None:
    """The ladder's rating table: the columns and formats of `arena ratings`."""
    fmt, grid = grid_for(table_format, wide)
    check_format(fmt, by)
    with Store(folder) as store:
        open_ledger(store)
        out(ratings_text(store, fmt, by, rating_columns(wide), grid))


@app.command("serve")
def serve_cmd(
    ctx: typer.Context,
    folder: Path = typer.Argument(..., help="The ladder's folder."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (default: this machine only)."),
    port: int = typer.Option(8765, "--port", min=0, max=65535, help="Port to listen on."),
    title: str = typer.Option("Bhabhi ladder", "--title", help="The pages' title (the folder is never shown)."),
    proxy: str | None = typer.Option(None, "--proxy", help="Addresses of a reverse proxy in front, whose "
                                        "X-Forwarded-For/-Proto headers are believed, comma-separated."),
) -> None:
    """Serve the leaderboard, each bot's page, recent games in the replay viewer, the report and a submission form
    for submitters (needs the [serve] extra; submitters: `arena ladder submitter add`)."""
    try:
        import arena.ladder.web as web  # starlette and uvicorn: only when serving
    except ImportError as exc:
        raise LadderError(f"arena ladder serve needs the web extra: pip install 'bhabhi-arena[serve]' "
                          f"({exc.name} is missing)") from None
    ladder = Ladder.open(folder, session(ctx).registry)
    with Store(ladder.folder) as store:
        people = [s for s in submitters.submitters(open_ledger(store)) if not s.revoked]
    typer.echo(f"serving {folder} on http://{host}:{port}/ (Ctrl-C stops); {len(people)} submitters may submit "
               f"(`arena ladder submitter add {folder} NAME` adds one)", err=True)
    web.serve(ladder, host, port, title, proxy)
