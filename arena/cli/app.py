"""The ``arena`` command line, assembled from one module per command group.

This package is the only layer that prints or exits: :func:`main` runs the app
with a fresh :class:`~arena.cli.session.Session` and turns every error into one
line on stderr and an exit code (:mod:`arena.cli.errors`).
"""

from __future__ import annotations

import sys
from importlib import import_module

import typer
from typer.core import TyperGroup

from arena import __version__
from arena.cli.errors import exit_code
from arena.cli.session import Session
from arena.sandbox import harden_harness

COMMANDS = {
    "players": "players", "variants": "players", "play": "play", "replay": "play", "ratings": "results",
    "report": "results", "plot": "results", "logs": "logs", "new-bot": "bots", "check-bot": "bots",
    "sandbox-info": "sandbox", "compare": "compare", "export": "export",
}
"""Each top-level command and the module of ``arena.cli`` that defines it."""
GROUPS = ("tournament", "ladder", "bench", "research")
"""The command groups: each the module of ``arena.cli`` of its name."""


class WholeHelpGroup(TyperGroup):
    """A command group whose list of commands gives each one's first sentence whole, wrapped at words to
    the terminal (click's own cuts it to the line and ends it with "...")."""

    def format_commands(self, ctx, formatter) -> None:
        rows = [(name, command.get_short_help_str(limit=10_000)) for name in self.list_commands(ctx)
                if (command := self.get_command(ctx, name)) is not None and not command.hidden]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"arena {__version__}")
        raise typer.Exit(0)


def _options(
    version: bool = typer.Option(False, "--version", "-V", is_eager=True, callback=_version,
                                 help="Print the arena's version and exit."),
) -> None:
    """Bhabhi bot arena: play, test and rank card-playing bots."""


def build(command: str | None = None) -> typer.Typer:
    """The ``arena`` app: every command, or, when ``command`` names one, only the module that defines it
    (``arena ratings`` need not import the engine, the sandbox and the tournament runner: a third of
    its start-up)."""
    app = typer.Typer(
        name="arena", help="Bhabhi bot arena: play, test and rank card-playing bots.",
        no_args_is_help=True, add_completion=True, pretty_exceptions_enable=False, rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]}, cls=WholeHelpGroup,
    )
    app.callback()(_options)
    if command in GROUPS:
        app.add_typer(import_module(f"arena.cli.{command}").app, name=command, cls=WholeHelpGroup)
    elif command in COMMANDS:
        app.add_typer(import_module(f"arena.cli.{COMMANDS[command]}").app)
    else:
        for module in dict.fromkeys(COMMANDS.values()):
            app.add_typer(import_module(f"arena.cli.{module}").app)
        for group in GROUPS:
            app.add_typer(import_module(f"arena.cli.{group}").app, name=group, cls=WholeHelpGroup)
    return app


def __getattr__(name: str) -> typer.Typer:
    """``app``: the whole app, for typer's own runners (built when first asked for, not on import)."""
    if name == "app":
        globals()["app"] = app = build()
        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning every error into one line and an exit code."""
    if argv is None:
        argv = sys.argv[1:]
    if not argv:
        argv = ["--help"]
    app = build(next((a for a in argv if not a.startswith("-")), None))
    return exit_code(lambda: app(args=argv, prog_name="arena", standalone_mode=False, obj=Session()))


def _harden_harness() -> None:
    """The arena process runs bots: keep them from reading it and reap what they leave."""
    try:
        harden_harness()
    except Exception:  # noqa: BLE001 - a platform without these controls still runs (detect() warns)
        pass


def run() -> None:  # pragma: no cover - console script wrapper
    _harden_harness()
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
