"""The ``arena`` command line, assembled from one module per command group.

This package is the only layer that prints or exits: :func:`main` runs the app
with a fresh :class:`~arena.cli.session.Session` and turns every error into one
line on stderr and an exit code (:mod:`arena.cli.errors`).
"""

from __future__ import annotations

import sys

import typer

from arena import __version__
from arena.cli import (bench, bots, compare, export, logs, play, players, research, results, sandbox,
                       tournament)
from arena.cli.errors import exit_code
from arena.cli.session import Session
from arena.sandbox import harden_harness

app = typer.Typer(
    name="arena", help="Bhabhi bot arena: play, test and rank card-playing bots.",
    no_args_is_help=True, add_completion=True, pretty_exceptions_enable=False, rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"arena {__version__}")
        raise typer.Exit(0)


@app.callback()
def _options(
    version: bool = typer.Option(False, "--version", "-V", is_eager=True, callback=_version,
                                 help="Print the arena's version and exit."),
) -> None:
    """Bhabhi bot arena: play, test and rank card-playing bots."""


for group in (players, play, results, logs, bots, sandbox, compare, export):
    app.add_typer(group.app)
app.add_typer(tournament.app, name="tournament")
app.add_typer(bench.app, name="bench")
app.add_typer(research.app, name="research")


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning every error into one line and an exit code."""
    if argv is None:
        argv = sys.argv[1:]
    if not argv:
        argv = ["--help"]
    return exit_code(lambda: app(args=argv, prog_name="arena", standalone_mode=False, obj=Session()))


def _harden_harness() -> None:
    """The arena process runs bots: keep them from reading it and reap what they leave."""
    try:
        harden_harness()
    except Exception:
        pass


def run() -> None:  # pragma: no cover - console script wrapper
    _harden_harness()
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
