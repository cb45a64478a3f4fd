"""``arena ladder submitter add|list|revoke|new-token|limits``: who may submit bots to a ladder's web face.

Each submitter has a token of their own, shown once when it is made (only its
hash is stored); their bots are theirs (docs/ladder-service.md, "Submitters").
"""

from __future__ import annotations

import time
from pathlib import Path

import typer

from arena.cli.output import out
from arena.ladder import submitters
from arena.ladder.ledger import open_ledger
from arena.ladder.submitters import MAX_ACTIVE, PER_HOUR, Submitter
from arena.results.store.database import Store

app = typer.Typer(help="Who may submit bots to the ladder's web face, each with a token of their own.",
                  no_args_is_help=True)
FOLDER = typer.Argument(..., help="The ladder's folder.")
NAME = typer.Argument(..., help="The submitter's name (1-30 lowercase letters, digits or '-').")


def _ledger(folder: Path, action):
    with Store(folder) as store:
        return action(open_ledger(store))


def _shown(s: Submitter, live: int) -> str:
    made = time.strftime("%Y-%m-%d %H:%M", time.localtime(s.created_at))
    state = f"revoked {time.strftime('%Y-%m-%d %H:%M', time.localtime(s.revoked_at))}" if s.revoked else "active"
    return (f"{s.name:<24} {state:<22} since {made}; {s.per_hour} submissions an hour, "
            f"{live}/{s.max_active} live entries")


@app.command("add")
def add(folder: Path = FOLDER, name: str = NAME,
        per_hour: int = typer.Option(PER_HOUR, "--per-hour", min=1, help="Submissions they may begin in an hour."),
        max_active: int = typer.Option(MAX_ACTIVE, "--max-active", min=1,
                                       help="Entries of theirs that may be checking, active or suspended at once.")
        ) -> None:
    """Add a submitter and print their token, once: give it to them (only its hash is kept)."""
    token = _ledger(folder, lambda ledger: submitters.add(ledger, name, per_hour=per_hour, max_active=max_active))
    typer.echo(f"added the submitter {name}; their token (shown only now):", err=True)
    out(token)


@app.command("new-token")
def new_token(folder: Path = FOLDER, name: str = NAME) -> None:
    """Give a submitter a new token (the old one stops working; a revoked submitter may submit again)."""
    token = _ledger(folder, lambda ledger: submitters.new_token(ledger, name))
    typer.echo(f"a new token for {name} (shown only now; the old one no longer works):", err=True)
    out(token)


@app.command("revoke")
def revoke(folder: Path = FOLDER, name: str = NAME) -> None:
    """Revoke a submitter's token: they can submit or retire nothing more (their entries play on)."""
    _ledger(folder, lambda ledger: submitters.revoke(ledger, name))
    out(f"revoked {name}: their token no longer works (their entries stay; `arena ladder retire` takes one out)")


@app.command("limits")
def limits(folder: Path = FOLDER, name: str = NAME,
           per_hour: int | None = typer.Option(None, "--per-hour", min=1, help="Submissions an hour."),
           max_active: int | None = typer.Option(None, "--max-active", min=1, help="Live entries at once.")
           ) -> None:
    """Show or change one submitter's limits."""
    def change(ledger):
        return submitters.set_limits(ledger, name, per_hour=per_hour, max_active=max_active), ledger.entries()
    who, entries = _ledger(folder, change)
    out(_shown(who, sum(e.owner == who.name and e.status in submitters.LIVE for e in entries)))


@app.command("list")
def list_cmd(folder: Path = FOLDER) -> None:
    """Every submitter: active or revoked, their limits and live entries."""
    people, entries = _ledger(folder, lambda ledger: (submitters.submitters(ledger), ledger.entries()))
    if not people:
        out(f"no submitters yet: `arena ladder submitter add {folder} NAME` adds one")
    for s in people:
        out(_shown(s, sum(e.owner == s.name and e.status in submitters.LIVE for e in entries)))
