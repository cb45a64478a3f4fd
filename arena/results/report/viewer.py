"""The report's game browser and replay viewer alone, over a few chosen games.

A whole report (:mod:`arena.results.report.html`) rates every game and draws its
figures: too heavy to serve for each look at a ladder of 100,000 games.
:func:`viewer_html` renders only the browser section of the report (the same
template, ``browser.html.j2``, and script) over the games it is given, in the
order given, the first one opened: `arena ladder serve` shows its most recent
games, or one game, with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from arena import __version__
from arena.results.errors import ReportError
from arena.results.report.games import browser_game
from arena.results.report.logs import logged_seats, pack_logs
from arena.results.report.pack import pack_games
from arena.results.store.database import Store, rules_label


def viewer_html(store: Store, games: Sequence[int], *, name: str, heading: str, note: str,
                links: Sequence[tuple[str, str]] = (), nonce: str = "", folder_hint: str | None = None,
                redact: Callable[[str], str] | None = None) -> str:
    """A page of the report's game browser holding ``games`` (stored indices), the first one open;
    ``links``: (text, href) pairs shown under the heading; ``nonce``: its inline style and script carry it;
    ``folder_hint``: how the notes of logs cut short name the folder (default: its path); ``redact``: applied
    to every bot's log first."""
    if not games:
        raise ReportError(f"no games to show in {store.folder}")
    logged = logged_seats(store)
    chosen = []
    for i in games:
        record = store.record(i)
        chosen.append({**browser_game(i, record, rules_label(record["rules"])), "lg": logged.get(i, [])})
    return environment().get_template("viewer.html.j2").render(
        name=name, heading=heading, links=list(links), version=__version__, games=pack_games(chosen),
        games_note=note,
        logs=pack_logs(store, [i for i in games if logged.get(i)], folder_hint or str(store.folder), redact),
        css=Markup(asset("report/report.css")), js=Markup(asset("report/browser.js")), nonce=nonce)


def environment() -> Environment:
    """The report's templates (``arena/results/report/templates/``)."""
    env = Environment(loader=PackageLoader("arena.results.report", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "separators": (",", ":"), "ensure_ascii": False}
    return env


def asset(name: str, env: Environment | None = None) -> str:
    """A CSS or JS file from the templates folder of ``env`` (default: the report's), as text (inlined, not
    run through jinja)."""
    env = env or environment()
    text, _, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]  # environment() sets a loader
    if "</script" in text.lower() or "</style" in text.lower():
        raise ReportError(f"template asset {name} must not contain a closing script or style tag")
    return text
