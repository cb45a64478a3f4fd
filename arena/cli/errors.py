"""The one place where a failed command becomes one line on stderr and an exit code.

Every library error (:class:`arena.ArenaError`) is one ``error: ...`` line and
exit code 2; a usage error is typer's message on one line with its exit code;
Ctrl-C is 130. Nothing else in the CLI catches an error to print it.
"""

from __future__ import annotations

from collections.abc import Callable

import typer

from arena.bots.safetext import printable
from arena.game.errors import ArenaError

EXIT_ERROR = 2
EXIT_INTERRUPTED = 130


class UserError(ArenaError):
    """A mistake on the command line found by the CLI itself."""


def exit_code(command: Callable[[], object]) -> int:
    """Run ``command`` (the typer app); its exit code, every error turned into one line on stderr."""
    try:
        result = command()
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        typer.echo("aborted", err=True)
        return EXIT_INTERRUPTED
    except ArenaError as exc:
        typer.echo(printable(f"error: {exc}"), err=True)  # problems quote plugin text
        return EXIT_ERROR
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        return EXIT_INTERRUPTED
    except Exception as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            typer.echo(exc.ctx.get_help())  # type: ignore[attr-defined]  # click's NoArgsIsHelpError, by name
            return 0
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):  # a usage error
            typer.echo(f"error: {exc.format_message()}", err=True)
            return exc.exit_code
        raise
    return result if isinstance(result, int) else 0
