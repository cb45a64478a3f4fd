"""What the ladder's pages show, as plain data read from the store (no HTML is made here).

Every text in it came from a bot, a submitter or the organiser and is shown as
text by the autoescaped templates. None of it may tell a visitor where the
ladder lives: :class:`Redactor` replaces the ladder folder's path (and the
sandbox's copy of it) with ``DIR`` in every text a page shows from a bot or from
check-bot (prints, tracebacks, fault details, reasons, reports).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from arena.ladder.ledger import Entry, open_ledger
from arena.results.errors import StoreError
from arena.results.report.logs import cut_log
from arena.results.report.viewer import viewer_html
from arena.results.stats.head_to_head import head_to_head
from arena.results.stats.ratings import history, rate
from arena.results.stats.standings import COLUMNS, _cell, outcomes, rating_params
from arena.results.store.database import Store

MAX_LOGS = 10
"""The bot's most recent game logs its page shows (`arena logs DIR GAME` prints any)."""
MAX_FAULTS = 20
"""The bot's most recent faults its page lists."""
RECENT = 20
"""The recent games the leaderboard, a bot's page and ``/games`` show."""
NEWEST_ROUNDS = 200
"""Recent games are the latest of the games with the highest indices (read without a scan)."""
HIDDEN = "DIR"
"""What a page shows instead of the ladder folder's path."""
SVG_SIZE = (600, 200)


@dataclass(frozen=True, slots=True)
class Redactor:
    """Replaces every spelling of the ladder folder's path in a text with :data:`HIDDEN`."""

    paths: tuple[str, ...]

    @classmethod
    def of(cls, folder: Path) -> Redactor:
        spellings = {str(folder), str(folder.absolute()), str(folder.resolve())}
        return cls(tuple(sorted((p for p in spellings if len(p) > 1), key=len, reverse=True)))

    def __call__(self, text: str) -> str:
        for path in self.paths:
            text = text.replace(path, HIDDEN)
        return text


def table_rows(folder: Path) -> dict:
    """The leaderboard as plain data: headers and the rows' cells (text), each row's entry's status, the recent
    games."""
    with Store(folder) as store:
        statuses = {e.name: e.status for e in open_ledger(store).entries()}
        outs = outcomes(store)
        params = rating_params(store.meta("spec"))
        recent = recent_games(store)
    rows = rate(outs, **params).rows if outs else ()
    return {"games": len(outs), "headers": [h for h, _, _ in COLUMNS],
            "rows": [[str(_cell(r, a, f)) for _, a, f in COLUMNS] for r in rows],
            "statuses": [statuses.get(r.player, "") for r in rows], "recent": recent}


def recent_games(store: Store, player: str | None = None, limit: int = RECENT) -> list[dict]:
    """The last ``limit`` games stored (of ``player``, if given), highest index first: index, names, rules,
    Bhabhi. Games are numbered as their rounds were planned, so this is the order they were dealt in."""
    if player is None:
        newest = "SELECT idx FROM games ORDER BY idx DESC LIMIT ?"
        args: tuple = (NEWEST_ROUNDS,)
    else:
        newest = "SELECT idx FROM seats WHERE player = ? ORDER BY idx DESC LIMIT ?"
        args = (player, NEWEST_ROUNDS)
    rows = store.db.execute(f"SELECT idx, rules, seats, loser, draw FROM games WHERE idx IN ({newest}) "
                            f"ORDER BY idx DESC LIMIT ?", (*args, limit)).fetchall()
    out = []
    for idx, rules, seats, loser, draw in rows:
        names = json.loads(seats)
        bhabhi = "draw" if draw else names[loser] if loser is not None else ""
        out.append({"i": idx, "rules": rules, "names": names, "bhabhi": bhabhi})
    return out


def games_page(folder: Path, title: str, nonce: str, player: str | None = None, game: int | None = None) -> str | None:
    """The report's game viewer over the recent games (of ``player``), or over game ``game``; None: not stored."""
    with Store(folder) as store:
        if game is not None:
            try:
                store.record(game)
            except StoreError:
                return None
            chosen, heading = [game], f"game {game}"
            note = f"Game {game}. The most recent games: /games."
        else:
            chosen = [g["i"] for g in recent_games(store, player)]
            if not chosen:
                return None
            whose = f" of {player}" if player else ""
            heading = f"the last {len(chosen)} games{whose}"
            note = f"The last {len(chosen)} games{whose}, newest first."
        links = [("leaderboard", "/"), ("recent games", "/games")] + (
            [("its page", f"/bot/{quote(player, safe='')}")] if player else [])
        return viewer_html(store, chosen, name=title, heading=heading, note=note, links=links, nonce=nonce,
                           folder_hint=HIDDEN, redact=Redactor.of(folder))


def history_svg(points: list[tuple[int, float, float]]) -> dict | None:
    """A small plot of mu (line) with a band of +- sigma against games played, as the template's numbers."""
    if not points:
        return None
    w, h = SVG_SIZE
    lo = min(m - s for _, m, s in points)
    hi = max(m + s for _, m, s in points)
    span = (hi - lo) or 1.0

    def xy(i: int, v: float) -> str:
        return f"{10 + i * (w - 20) / max(1, len(points) - 1):.1f},{h - 10 - (v - lo) * (h - 20) / span:.1f}"
    line = " ".join(xy(i, m) for i, (_, m, _) in enumerate(points))
    band = " ".join([xy(i, m + s) for i, (_, m, s) in enumerate(points)]
                    + [xy(i, m - s) for i, (_, m, s) in reversed(list(enumerate(points)))])
    return {"width": w, "height": h, "line": line, "band": band, "mu": f"{points[-1][1]:.2f}",
            "sigma": f"{points[-1][2]:.2f}", "games": len(points)}


def bot_page_data(folder: Path, name: str) -> dict | None:
    """Everything a bot's page shows, its texts redacted; None: no such entry."""
    hide = Redactor.of(folder)
    with Store(folder) as store:
        entries = open_ledger(store).entries()
        entry = next((e for e in entries if e.name == name), None)
        if entry is None:
            return None
        outs = outcomes(store)
        params = rating_params(store.meta("spec"))
        faults = [(i, kind, hide(detail or "")) for i, kind, detail in store.db.execute(
            "SELECT idx, kind, detail FROM faults WHERE player = ? ORDER BY idx DESC LIMIT ?", (name, MAX_FAULTS))]
        logs = _logs(store, name, hide)
        recent = recent_games(store, name)
    chain: list[Entry] = []
    seen: Entry | None = entry
    while seen is not None:
        chain.append(seen)
        seen = next((e for e in entries if e.name == seen.previous), None)
    later = [e for e in entries if e.previous == name]
    points = [(p.index, p.mu, p.sigma) for p in history(outs, **params) if p.player == name]
    pairs = [p for p in head_to_head(outs).pairs if p.row == name] if outs else []
    report = hide(entry.report["text"]) if entry.report else ""
    return {"entry": entry, "reason": hide(entry.reason), "report": report, "versions": list(reversed(chain)) + later,
            "svg": history_svg(points), "pairs": pairs, "faults": faults, "logs": logs, "recent": recent}


def _logs(store: Store, name: str, hide: Redactor) -> list[tuple[int, str]]:
    """``name``'s logs in its last :data:`MAX_LOGS` games that have one, newest first, each cut as the report
    cuts it (each game read once, and no more games than that)."""
    logs: list[tuple[int, str]] = []
    for game in sorted({game for game, _ in store.logged_seats()}, reverse=True):
        logs += [(game, cut_log(hide(text), HIDDEN, game, seat))
                 for seat, (player, text) in store.logs(game).items() if player == name]
        if len(logs) >= MAX_LOGS:
            break
    return logs[:MAX_LOGS]
