"""Command-line values parsed into library arguments; a malformed one is a :class:`UserError`."""

from __future__ import annotations

from pathlib import Path

import typer

from arena.cli.errors import UserError
from arena.game.rules import OPTIONS
from arena.game.seeds import Secret, read_secret
from arena.plugins.names import split_names

SECRET_HELP = ("Key the deal and bot seeds with the secret in this file or results folder (default: none among "
               "built-in players; with a third-party bot or --sealed, yours: ~/.local/share/bhabhi-arena/secret "
               "or under XDG_DATA_HOME).")


def seed_value(value: int | None) -> int | None:
    """A ``--seed`` as a tournament file takes it: a whole number >= 0 (a negative one is one line)."""
    if value is not None and value < 0:
        raise UserError(f"--seed expects a whole number >= 0, as a tournament file's seed does (got {value})")
    return value


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


def seats(text: str) -> list[str]:
    """``"heuristic, random,low"`` -> the player names (commas inside a player's options,
    ``sampler(budget_ms=20,worlds=40)``, do not split)."""
    names = split_names(text)
    if not names:
        raise UserError(f"--seats expects player names separated by commas, e.g. heuristic,random,low "
                        f"(got {text!r})")
    return names


def spec_overrides(**flags) -> dict:
    """Tournament flags given (not None) as spec keys: name lists split, table sizes as numbers."""
    out = {}
    for key, value in flags.items():
        if value is None:
            continue
        if key in ("players", "candidates", "house"):
            value = seats(value)
        elif key == "table_sizes":
            try:
                value = [int(v) for v in value.split(",") if v.strip()]
            except ValueError:
                raise UserError(f"--table-sizes expects numbers 3-8 separated by commas (got {value!r})") from None
        elif key == "rules":
            value = [v.strip() for v in value.split(",") if v.strip()]
        out[key] = value
    return out


def limits_overrides(**flags) -> dict:
    """The limit flags given (not None)."""
    return {k: v for k, v in flags.items() if v is not None}


DECISION_MS = typer.Option(None, "--decision-ms", help="Per-decision time limit (CPU ms).")
BANK_MS = typer.Option(None, "--bank-ms", help="Per-game time bank (ms, 0 = none).")
STARTUP_MS = typer.Option(None, "--startup-ms", help="Bot start-up limit (ms).")
MEMORY_MB = typer.Option(None, "--memory-mb", help="Bot memory limit (MiB).")
"""The limit flags of `check-bot` and `arena play` (the flags of LimitsSpec's fields; a tournament's
limits are set in its file's [limits] table)."""


def secret_from(path: Path | None) -> Secret | None:
    """The secret of a results folder or secret file named by --secret-from (None: not given)."""
    return None if path is None else read_secret(path)
