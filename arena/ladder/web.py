"""``arena ladder serve``: the ladder's web pages (Starlette, served by uvicorn).

- ``/``: the leaderboard (the columns of ``arena ratings``) and the most recent
  games, refreshed from ``/api/table`` every two seconds as games arrive;
- ``/bot/NAME``: one entry: its versions, status and check-bot report, its
  rating history (an SVG plot), head to head, faults and recent games;
- ``/games`` (``?player=NAME``: that entry's) and ``/game/N``: the most recent
  games, or game N, in the report's game browser and replay viewer
  (:mod:`arena.results.report_viewer`: only those games, not the whole report);
- ``/report``: the ladder's whole HTML report now (``arena report``: it rates
  every game and draws its figures, slow on a large ladder);
- ``/submit``: a form for a wheel; a submission needs the token printed when
  the server starts, and an upload larger than the ladder takes is refused
  before it is read whole.

The server reads the store and admits submissions (check-bot in the sandbox,
in a worker thread); the games are played by ``arena ladder run``.
"""

from __future__ import annotations

import hmac
import json
import secrets
import tempfile
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from arena.game.errors import ArenaError
from arena.ladder.book import open_book
from arena.ladder.install import MAX_UPLOAD
from arena.ladder.ladder import Ladder
from arena.ladder.submit import submit
from arena.results.errors import StoreError
from arena.results.head_to_head import head_to_head
from arena.results.ratings import history, rate
from arena.results.report_viewer import viewer_html
from arena.results.standings import COLUMNS, _cell, outcomes, rating_params
from arena.results.store import Store

MAX_LOGS = 10
"""The bot's most recent game logs its page shows (`arena logs DIR GAME` prints any)."""
RECENT = 20
"""The recent games the leaderboard, a bot's page and ``/games`` show."""
_NEWEST_ROUNDS = 200
"""Recent games are the latest finished of the games with the highest indices (read without a scan)."""
_PAGES = Environment(loader=PackageLoader("arena.ladder", "templates"), autoescape=select_autoescape())


def new_token() -> str:
    return secrets.token_urlsafe(16)


def table_rows(folder: Path) -> dict:
    """The leaderboard as plain data: headers and the rows' cells (text), the entries' statuses."""
    with Store(folder) as store:
        statuses = {e.name: e.status for e in open_book(store).entries()}
        outs = outcomes(store)
        params = rating_params(store.meta("spec"))
        recent = recent_games(store)
    rows = rate(outs, **params).rows if outs else ()
    return {"games": len(outs), "headers": [h for h, _, _ in COLUMNS] + ["status"],
            "rows": [[str(_cell(r, a, f)) for _, a, f in COLUMNS] + [statuses.get(r.player, "")] for r in rows],
            "recent": recent}


def recent_games(store: Store, player: str | None = None, limit: int = RECENT) -> list[dict]:
    """The last ``limit`` games stored (of ``player``, if given), newest first: index, names, rules, Bhabhi."""
    if player is None:
        newest = "SELECT idx FROM games ORDER BY idx DESC LIMIT ?"
        args: tuple = (_NEWEST_ROUNDS,)
    else:
        newest = "SELECT idx FROM seats WHERE player = ? ORDER BY idx DESC LIMIT ?"
        args = (player, _NEWEST_ROUNDS)
    rows = store.db.execute(f"SELECT idx, rules, seats, loser, draw FROM games WHERE idx IN ({newest}) "
                            f"ORDER BY finished_at DESC, idx DESC LIMIT ?", (*args, limit)).fetchall()
    out = []
    for idx, rules, seats, loser, draw in rows:
        names = json.loads(seats)
        bhabhi = "draw" if draw else names[loser] if loser is not None else ""
        out.append({"i": idx, "rules": rules, "names": names, "bhabhi": bhabhi})
    return out


def games_page(folder: Path, player: str | None = None, game: int | None = None) -> str | None:
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
            note = f"The last {len(chosen)} games{whose}, newest first; `arena replay {folder} N` shows any game."
        return viewer_html(store, chosen, name=f"Ladder {folder}", heading=heading, note=note,
                           links=[("leaderboard", "/")] + ([("its page", f"/bot/{player}")] if player else []))


def _svg(points: list[tuple[int, float, float]]) -> str:
    """A small SVG of mu (line) with a band of +- sigma against games played."""
    if not points:
        return ""
    w, h = 600, 200
    lo = min(m - s for _, m, s in points)
    hi = max(m + s for _, m, s in points)
    span = (hi - lo) or 1.0

    def xy(i, v):
        return f"{10 + i * (w - 20) / max(1, len(points) - 1):.1f},{h - 10 - (v - lo) * (h - 20) / span:.1f}"
    line = " ".join(xy(i, m) for i, (_, m, _) in enumerate(points))
    band = " ".join([xy(i, m + s) for i, (_, m, s) in enumerate(points)]
                    + [xy(i, m - s) for i, (_, m, s) in reversed(list(enumerate(points)))])
    return (f'<svg class="history" viewBox="0 0 {w} {h}" width="{w}" height="{h}">'
            f'<polygon points="{band}" fill="#cde" /><polyline points="{line}" fill="none" stroke="#136" '
            f'stroke-width="2" /><text x="12" y="16">mu {points[-1][1]:.2f}, sigma {points[-1][2]:.2f} after '
            f'{len(points)} games</text></svg>')


def bot_page_data(folder: Path, name: str) -> dict | None:
    with Store(folder) as store:
        book = open_book(store)
        entries = book.entries()
        entry = next((e for e in entries if e.name == name), None)
        if entry is None:
            return None
        outs = outcomes(store)
        params = rating_params(store.meta("spec"))
        faults = store.db.execute("SELECT idx, kind, detail FROM faults WHERE player = ? ORDER BY idx DESC LIMIT 50",
                                  (name,)).fetchall()
        logged = sorted((i for i, s in store.logged_seats()), reverse=True)
        logs = [(i, text) for i in logged for p, text in store.logs(i).values() if p == name][:MAX_LOGS]
        recent = recent_games(store, name)
    chain, seen = [], entry
    while seen is not None:
        chain.append(seen)
        seen = next((e for e in entries if e.name == seen.previous), None)
    later = [e for e in entries if e.previous == name]
    points = [(p.index, p.mu, p.sigma) for p in history(outs, **params) if p.player == name]
    pairs = [p for p in head_to_head(outs).pairs if p.row == name] if outs else []
    return {"entry": entry, "versions": list(reversed(chain)) + later, "svg": _svg(points), "pairs": pairs,
            "faults": faults, "logs": logs, "recent": recent}


def make_app(ladder: Ladder, token: str, max_upload: int = MAX_UPLOAD) -> Starlette:
    folder = ladder.folder

    async def index(request: Request) -> Response:
        return HTMLResponse(_PAGES.get_template("ladder.html.j2").render(
            folder=str(folder), table=await run_in_threadpool(table_rows, folder)))

    async def api_table(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(table_rows, folder))

    async def bot(request: Request) -> Response:
        data = await run_in_threadpool(bot_page_data, folder, request.path_params["name"])
        if data is None:
            return HTMLResponse(f"no entry {request.path_params['name']!r}", status_code=404)
        return HTMLResponse(_PAGES.get_template("ladder_bot.html.j2").render(**data))

    async def games(request: Request) -> Response:
        player = request.query_params.get("player") or None
        page = await run_in_threadpool(games_page, folder, player)
        if page is None:
            return PlainTextResponse(f"no games stored{f' of {player!r}' if player else ''} yet", status_code=404)
        return HTMLResponse(page)

    async def game(request: Request) -> Response:
        number = request.path_params["number"]
        page = await run_in_threadpool(games_page, folder, None, number)
        if page is None:
            return PlainTextResponse(f"no game {number} stored", status_code=404)
        return HTMLResponse(page)

    async def report(request: Request) -> Response:
        from arena.results.report import report_html  # matplotlib: only when the report is asked for
        return HTMLResponse(await run_in_threadpool(report_html, folder, 60))

    async def submit_form(request: Request) -> Response:
        if request.method == "GET":
            return HTMLResponse(_PAGES.get_template("ladder_submit.html.j2").render(message=None, max_mb=max_upload >> 20))
        return await _submission(request)

    async def _submission(request: Request) -> Response:
        size = int(request.headers.get("content-length") or 0)
        if size > max_upload + 65536:
            return _said(f"refused: the upload is {size >> 20} MiB, the ladder takes at most {max_upload >> 20} MiB",
                         413, max_upload)
        async with request.form(max_files=1, max_fields=4, max_part_size=max_upload) as form:
            given = str(form.get("token") or "")
            if not hmac.compare_digest(given.encode(), token.encode()):
                return _said("refused: a submission needs the ladder's token (printed when the server started)",
                             403, max_upload)
            upload = form.get("wheel")
            filename = Path(getattr(upload, "filename", "") or "").name
            if not filename.endswith(".whl"):
                return _said("refused: expected a wheel (.whl)", 400, max_upload)
            data = await upload.read()
        if len(data) > max_upload:
            return _said(f"refused: the wheel is larger than {max_upload >> 20} MiB", 413, max_upload)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / filename
            path.write_bytes(data)
            try:
                entry = await run_in_threadpool(submit, ladder, path)
            except ArenaError as exc:
                return _said(f"refused: {exc}", 400, max_upload)
        return _said(f"{entry.name}: {entry.status} ({entry.reason})", 200 if entry.status == "active" else 422,
                     max_upload)

    routes = [Route("/", index), Route("/api/table", api_table), Route("/bot/{name}", bot),
              Route("/games", games), Route("/game/{number:int}", game), Route("/report", report), Route("/submit", submit_form, methods=["GET", "POST"])]
    return Starlette(routes=routes)


def _said(message: str, status: int, max_upload: int) -> Response:
    return HTMLResponse(_PAGES.get_template("ladder_submit.html.j2").render(message=message, max_mb=max_upload >> 20),
                        status_code=status)


def serve(ladder: Ladder, host: str, port: int, token: str) -> None:
    """Serve until interrupted (uvicorn)."""
    import uvicorn
    uvicorn.run(make_app(ladder, token), host=host, port=port, log_level="warning")
