"""``arena play`` and ``arena replay``: one game, told trick by trick (or as its JSON record)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from arena.cli.errors import UserError
from arena.cli.logs import log_lines
from arena.cli.options import SECRET_HELP, seats as parse_seats, secret_from as read_secret_from
from arena.cli.output import err, out, sandbox_warning
from arena.cli.session import session
from arena.game.display import describe
from arena.game.engine import Game
from arena.plugins.runner import play_one
from arena.results.store import Store

app = typer.Typer()


@app.command()
def play(
    ctx: typer.Context,
    rules: str = typer.Option("getaway", "--rules", "-r", help="Rule preset (see `arena variants`)."),
    seats: str = typer.Option("random,random,random,random", "--seats", "-s",
                              help="Player names, one per seat, comma-separated."),
    seed: int = typer.Option(1, "--seed", help="The game's seed (same seed and secret, same game)."),
    dealer: int = typer.Option(0, "--dealer", help="The dealer's seat."),
    set_: list[str] = typer.Option([], "--set", help="Override a rule option: OPTION=VALUE (repeatable)."),
    as_json: bool = typer.Option(False, "--json", help="Print the game record as JSON instead."),
    sandbox: Optional[bool] = typer.Option(None, "--sandbox/--in-process",
                                           help="Run bots sandboxed (default for untrusted bots) or in-process."),
    secret_from: Optional[Path] = typer.Option(None, "--secret-from", help=SECRET_HELP),
    show_logs: bool = typer.Option(True, "--logs/--no-logs",
                                   help="After the game, print what each bot printed (stdout, stderr) and its "
                                        "faults' tracebacks (to stderr with --json)."),
) -> None:
    """Play one game and print it trick by trick (or its record with --json), then each bot's output."""
    s = session(ctx)
    reg = s.registry
    if sandbox is True or (sandbox is None and not all(reg.get(n).trusted for n in parse_seats(seats))):
        sandbox_warning()
    record = play_one(reg, s.rules(rules, set_), parse_seats(seats), seed, dealer, sandbox,
                      secret=read_secret_from(secret_from))
    output = record.pop("logs", None) or []
    for problem in reg.notify_game_finished(record):
        err(f"warning: {problem}")
    _show(record, as_json)
    if show_logs:
        for line in log_lines(record["names"], dict(enumerate(output))):
            (err if as_json else out)(line)


@app.command()
def replay(
    folder: Path = typer.Argument(..., help="A tournament's results folder, or a game record .json file."),
    game: Optional[str] = typer.Argument(None, help="Game number or game id (for a results folder)."),
    as_json: bool = typer.Option(False, "--json", help="Print the record as JSON."),
) -> None:
    """Replay a stored game exactly (checking every step) and print it trick by trick."""
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
    _show(record, as_json)


def _show(record: dict, as_json: bool) -> None:
    if as_json:
        out(json.dumps(record, indent=1))
        return
    for line in describe(record):
        out(line)
