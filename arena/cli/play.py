"""``arena play`` and ``arena replay``: one game, told trick by trick (or as its JSON record)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from arena.cli.errors import UserError
from arena.cli.logs import log_lines
from arena.cli.options import (BANK_MS, DECISION_MS, MEMORY_MB, SECRET_HELP, STARTUP_MS, limits_overrides,
                               seats as parse_seats, secret_from as read_secret_from, seed_value)
from arena.cli.output import err, out, sandbox_warning, wrapped
from arena.cli.session import session
from arena.game.display import describe
from arena.game.engine import Game
from arena.game.match import MatchRules
from arena.game.match_display import describe_match, hand_lines, result_lines
from arena.game.match_record import is_match_record, replay_match
from arena.plugins.runner import play_match_one, play_one
from arena.results.store.database import Store
from arena.results.store.matches import stored_match
from arena.sandbox.limits_spec import LimitsSpec

app = typer.Typer()


@app.command()
def play(
    ctx: typer.Context,
    rules: str = typer.Option("getaway", "--rules", "-r", help="Rule preset (see `arena variants`)."),
    seats: str = typer.Option("random,random,random,random", "--seats", "-s",
                              help="Player names, one per seat, comma-separated (a bot in one file: "
                                   "PATH.py:ClassName)."),
    seed: int = typer.Option(1, "--seed", callback=seed_value,
                             help="The game's seed: among built-in players it alone fixes the game (the same on "
                                  "any machine); with a third-party bot, or --sealed, with your secret."),
    dealer: int = typer.Option(0, "--dealer", help="The dealer's seat."),
    set_: list[str] = typer.Option([], "--set", help="Override a rule option: OPTION=VALUE (repeatable)."),
    as_json: bool = typer.Option(False, "--json", help="Print the game record as JSON instead."),
    sandbox: bool | None = typer.Option(None, "--sandbox/--in-process",
                                           help="Run bots sandboxed (default for untrusted bots) or in-process."),
    secret_from: Path | None = typer.Option(None, "--secret-from", help=SECRET_HELP),
    sealed: bool = typer.Option(False, "--sealed", help="Key the deal and bot seeds with your secret even "
                                "among built-in players (a game with a third-party bot always is)."),
    match: int | None = typer.Option(None, "--match", metavar="POINTS",
                                        help="Play a match to POINTS penalty points, hand by hand (docs/rules.md)."),
    match_score: str | None = typer.Option(None, "--match-score",
                                              help="How a match's hands score: places (0/1/2/3, the default) "
                                                   "or cards (the Bhabhi's cards left)."),
    decision_ms: int | None = DECISION_MS,
    bank_ms: int | None = BANK_MS,
    startup_ms: int | None = STARTUP_MS,
    memory_mb: int | None = MEMORY_MB,
    show_logs: bool = typer.Option(True, "--logs/--no-logs",
                                   help="After the game, print what each bot printed (stdout, stderr) and its "
                                        "faults' tracebacks (to stderr with --json)."),
) -> None:
    """Play one game and print it trick by trick (or its record with --json), then each bot's output;
    --match 6 plays a match, hand by hand."""
    s = session(ctx)
    reg = s.registry
    if match is None and match_score is not None:
        raise UserError(f"--match-score needs --match POINTS (got --match-score {match_score} alone)")
    match_rules = MatchRules(match, match_score or "places") if match is not None else None
    limits = LimitsSpec(**limits_overrides(decision_ms=decision_ms, bank_ms=bank_ms, startup_ms=startup_ms,
                                           memory_mb=memory_mb))
    if sandbox is True or (sandbox is None and not all(reg.get(n).trusted for n in parse_seats(seats))):
        sandbox_warning()
    if match_rules is not None:
        _play_match(reg, s.rules(rules, set_), parse_seats(seats), seed, dealer, sandbox, secret_from,
                    match_rules, as_json, show_logs, limits, sealed)
        return
    record = play_one(reg, s.rules(rules, set_), parse_seats(seats), seed, dealer, sandbox, limits,
                      secret=read_secret_from(secret_from), sealed=sealed)
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
    game: str | None = typer.Argument(None, help="Game number or game id (for a results folder)."),
    as_json: bool = typer.Option(False, "--json", help="Print the record as JSON."),
    match: str | None = typer.Option(None, "--match", metavar="MATCH",
                                        help="Replay a whole stored match: its number or match id."),
) -> None:
    """Replay a stored game (or a whole match) exactly, checking every step, and print it trick by trick."""
    if match is not None:
        if folder.is_file() or game is not None:
            got = f"the file {folder}" if folder.is_file() else f"a game {game!r} too"
            raise UserError(f"--match expects a results folder and no game: arena replay FOLDER --match MATCH "
                            f"(got {got})")
        with Store(folder) as store:
            record = stored_match(store, match)
    elif folder.is_file():
        try:
            record = json.loads(folder.read_text())
        except ValueError as exc:
            raise UserError(f"{folder}: expected a JSON game record or a results folder (got a file that is "
                            f"not JSON: {exc})") from None
    else:
        if game is None:
            raise UserError(f"expected a game number or id after the results folder, e.g. arena replay "
                            f"results/quick 0 (got only {folder})")
        with Store(folder) as store:
            record = store.record(game)
    if is_match_record(record):
        replay_match(record)
        if not as_json:
            for line in describe_match(record):
                out(wrapped(line))
            return
    else:
        Game.from_record(record)
    _show(record, as_json)


def _play_match(reg, rules, names, seed, dealer, sandbox, secret_from, match_rules, as_json, show_logs,
                limits, sealed=False) -> None:
    """``arena play --match``: each hand printed as it ends, with the running score and its bots' output,
    then the standings."""
    def shown(hand: dict, state) -> None:
        output = hand.pop("logs", None) or []
        for problem in reg.notify_game_finished(hand):
            err(f"warning: {problem}")
        if not as_json:
            for line in hand_lines(hand, match_rules.score):
                out(wrapped(line))
        if show_logs:
            for line in log_lines(hand["names"], dict(enumerate(output))):
                (err if as_json else out)(line)
        if not as_json:
            out("")

    record = play_match_one(reg, rules, names, seed, match_rules, dealer, sandbox, limits,
                            secret=read_secret_from(secret_from), on_hand=shown, sealed=sealed)
    if as_json:
        out(json.dumps(record, indent=1))
        return
    for line in result_lines(record):
        out(wrapped(line))


def _show(record: dict, as_json: bool) -> None:
    if as_json:
        out(json.dumps(record, indent=1))
        return
    for line in describe(record):
        out(wrapped(line))
