"""The ladder's web application: its routes, each answering with an autoescaped page or one line of text.

Visitors read; submitters, each with their own token, post wheels and retire
their own entries. See the package's docstring for the pages, :mod:`.guard`
for the headers every answer carries and :mod:`.upload` for how a body is
taken in.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import time

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from arena.game.errors import ArenaError
from arena.ladder import submitters
from arena.ladder.archive import DEFAULT_LIMITS as LIMITS
from arena.ladder.archive import MAX_UPLOAD
from arena.ladder.ledger import open_ledger
from arena.ladder.errors import SubmissionError, UploadTooLarge
from arena.ladder.ladder import Ladder
from arena.ladder.submit import retire, submit
from arena.ladder.submitters import Submitter
from arena.ladder.web import upload
from arena.ladder.web.guard import Guard
from arena.ladder.web.pages import HIDDEN, Redactor, bot_page_data, games_page, table_rows
from arena.results.errors import ReportError
from arena.results.report.viewer import asset
from arena.results.store.database import Store

LOG = logging.getLogger("arena.ladder.web")
"""What the organiser should know (uvicorn prints warnings on the server's stderr)."""
TITLE = "Bhabhi ladder"
"""The pages' title unless the organiser gives one (never the ladder folder's path)."""
MAX_NAME = 64
"""The longest entry name a URL or query may ask for (a longer one is answered 404 without a look)."""
MAX_GAME = (1 << 63) - 1
"""The highest game number there can be (SQLite's integers)."""
ECHO = 60
"""Characters of a visitor's input an error page shows back (the rest cut)."""
PARALLEL_SUBMISSIONS = 2
"""Submissions received and checked at once; another is answered 503 (try again)."""


def pages() -> Environment:
    """The ladder's templates, every one autoescaped whatever its name ends in."""
    env = Environment(loader=PackageLoader("arena.ladder", "templates"), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True)
    env.globals["css"] = Markup(asset("report/report.css") + "\n" + asset("ladder.css", env))
    env.globals["script"] = lambda name: Markup(asset(name, env))
    return env


def echo(text: str) -> str:
    """A visitor's input as an error page shows it: at most :data:`ECHO` characters."""
    return text if len(text) <= ECHO else text[:ECHO] + "…"


class Site:
    """The handlers of one ladder's web face."""

    def __init__(self, ladder: Ladder, title: str, max_upload: int) -> None:
        self.ladder, self.folder, self.title, self.max_upload = ladder, ladder.folder, title, max_upload
        self.hide = Redactor.of(self.folder)
        self.env = pages()
        self.busy = asyncio.Semaphore(PARALLEL_SUBMISSIONS)

    def page(self, request: Request, template: str, code: int = 200, **values) -> HTMLResponse:
        html = self.env.get_template(template).render(title=self.title, nonce=request.state.nonce, **values)
        return HTMLResponse(html, status_code=code)

    def error(self, request: Request, code: int, message: str) -> HTMLResponse:
        return self.page(request, "ladder_error.html.j2", code, status=code, message=message)

    # ------------------------------------------------------------ reading
    async def index(self, request: Request) -> Response:
        table = await run_in_threadpool(table_rows, self.folder)
        return self.page(request, "ladder.html.j2", table=table)

    async def api_table(self, request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(table_rows, self.folder))

    async def bot(self, request: Request) -> Response:
        name = request.path_params["name"]
        data = None if len(name) > MAX_NAME else await run_in_threadpool(bot_page_data, self.folder, name)
        if data is None:
            return self.error(request, 404, f"There is no entry {echo(name)!r} on this ladder.")
        return self.page(request, "ladder_bot.html.j2", **data)

    async def games(self, request: Request) -> Response:
        player = request.query_params.get("player") or None
        if player is not None and len(player) > MAX_NAME:
            return self.error(request, 400, f"The player name {echo(player)!r} is longer than any entry's.")
        html = await run_in_threadpool(games_page, self.folder, self.title, request.state.nonce, player)
        if html is None:
            whose = f" of {echo(player)!r}" if player else ""
            return self.error(request, 404, f"No games{whose} are stored yet.")
        return HTMLResponse(html)

    async def game(self, request: Request) -> Response:
        number = request.path_params["number"]
        html = None
        if 0 <= number <= MAX_GAME:
            html = await run_in_threadpool(games_page, self.folder, self.title, request.state.nonce, None, number)
        if html is None:
            return self.error(request, 404, f"There is no game {echo(str(number))} on this ladder.")
        return HTMLResponse(html)

    async def report(self, request: Request) -> Response:
        from arena.results.report.html import report_html  # matplotlib: only when the report is asked for
        request.state.style_attributes = True  # its cells are coloured with style attributes
        try:
            html = await run_in_threadpool(report_html, self.folder, 60, nonce=request.state.nonce,
                                           folder_hint=HIDDEN, redact=self.hide)
        except ReportError:
            return self.error(request, 404, "No games are stored yet: the report has nothing to show.")
        return HTMLResponse(self.hide(html))

    async def submit_form(self, request: Request) -> Response:
        return self.page(request, "ladder_submit.html.j2", max_mb=self.max_upload >> 20, max_bytes=self.max_upload)

    # ------------------------------------------------------------ submitters
    async def submit(self, request: Request) -> Response:
        who = await self._who(request)
        if isinstance(who, Response):
            return who
        size = upload.declared_size(request)
        if size is not None and not 0 <= size <= self.max_upload:
            return _line(f"refused: the upload is {size >> 20} MiB, the most this ladder takes is "
                         f"{self.max_upload >> 20} MiB" if size >= 0 else "refused: a malformed Content-Length",
                         413 if size > 0 else 400, close=True)
        free = shutil.disk_usage(self.folder).free
        if free < self.max_upload + LIMITS.disk_quota + LIMITS.free_margin:
            LOG.warning("a submission by %s refused: the ladder's disk has only %d MiB free", who.name, free >> 20)
            return _line("refused: the ladder's disk is nearly full; try again later", 507, close=True)
        if self.busy.locked():
            return _line("refused: the ladder is checking other submissions; try again in a minute", 503,
                         close=True, headers={"Retry-After": "60"})
        async with self.busy:
            return await self._receive(request, who)

    async def _receive(self, request: Request, who: Submitter) -> Response:
        try:
            row = await run_in_threadpool(self._begin, who)
        except SubmissionError as exc:  # past the hourly limit
            return _line(str(exc), 429, close=True)
        spool = upload.new_spool(self.folder)
        outcome = "refused"
        try:
            sent = upload.name_upload(await upload.receive(request, spool, self.max_upload))
            entry = await run_in_threadpool(submit, self.ladder, sent, by=who)
            outcome = f"{entry.name}: {entry.status}"
            return _line(f"{entry.name}: {entry.status} ({self.hide(entry.reason)})",
                         200 if entry.status == "active" else 422)
        except UploadTooLarge as exc:
            return _line(str(exc), 413, close=True)
        except ArenaError as exc:
            outcome = f"refused: {exc}"[:200]
            return _line(self.hide(str(exc)), 400, close=True)
        finally:
            upload.remove(spool)
            await run_in_threadpool(self._end, row, outcome)

    def _begin(self, who: Submitter) -> int:
        with Store(self.folder) as store:
            ledger = open_ledger(store)
            now = time.time()
            submitters.check_rate(ledger, who, now)
            return ledger.begin_submission(who.name, now)

    def _end(self, row: int, outcome: str) -> None:
        with Store(self.folder) as store:
            open_ledger(store).end_submission(row, outcome)

    async def retire(self, request: Request) -> Response:
        who = await self._who(request)
        if isinstance(who, Response):
            return who
        name = request.path_params["name"]
        try:
            entry = await run_in_threadpool(retire, self.ladder, name, f"retired by its submitter {who.name}",
                                            f"submitter {who.name}", who)
        except ArenaError as exc:
            if name not in await run_in_threadpool(self._names):
                return _line(f"refused: no entry {echo(name)!r} on this ladder", 404, close=True)
            return _line(f"refused: {exc}", 403, close=True)
        return _line(f"{entry.name}: {entry.status}", 200)

    def _names(self) -> set[str]:
        with Store(self.folder) as store:
            return {e.name for e in open_ledger(store).entries()}

    async def _who(self, request: Request) -> Submitter | Response:
        """The submitter the request's token is, or the answer refusing it (nothing of the body read)."""
        token = upload.bearer(request)
        if not token:
            return _line("refused: a submission needs your submitter token in an 'Authorization: Bearer TOKEN' "
                         "header (the organiser gives it)", 401, close=True,
                         headers={"WWW-Authenticate": 'Bearer realm="ladder"'})
        who = await run_in_threadpool(self._authenticate, token)
        if who is None:
            return _line("refused: that token is no submitter's (or it was revoked)", 403, close=True)
        return who

    def _authenticate(self, token: str) -> Submitter | None:
        with Store(self.folder) as store:
            return submitters.authenticate(open_ledger(store), token)


def _line(text: str, status: int, close: bool = False, headers: dict | None = None) -> Response:
    """One line of text (a submission's answer, for a script or curl); ``close``: end the connection after it,
    so the rest of an unread body is not read."""
    extra = {**(headers or {}), **({"Connection": "close"} if close else {})}
    return PlainTextResponse(text + "\n", status_code=status, headers=extra)


async def _no_icon(request: Request) -> Response:
    """No icon (browsers ask for one on every page; a 204 keeps their consoles clean)."""
    return Response(status_code=204)


def make_app(ladder: Ladder, title: str = TITLE, max_upload: int = MAX_UPLOAD) -> Guard:
    """The ladder's ASGI application, wrapped in :class:`Guard`."""
    site = Site(ladder, title, max_upload)

    async def not_found(request: Request, exc: HTTPException) -> Response:
        shown = {404: f"There is no page {echo(request.url.path)!r} here.",
                 405: f"{echo(request.method)} is not how {echo(request.url.path)!r} is used."}
        return site.error(request, exc.status_code, shown.get(exc.status_code, "That request is not understood."))

    async def failed(request: Request, exc: Exception) -> Response:
        return PlainTextResponse("internal error: the organiser can find it in the server's log\n", status_code=500)

    routes = [Route("/", site.index), Route("/api/table", site.api_table), Route("/bot/{name}", site.bot),
              Route("/games", site.games), Route("/game/{number:int}", site.game), Route("/report", site.report),
              Route("/submit", site.submit_form, methods=["GET"]), Route("/submit", site.submit, methods=["POST"]),
              Route("/retire/{name}", site.retire, methods=["POST"]), Route("/favicon.ico", _no_icon)]
    # Starlette's handler type takes any Exception; it calls each with its key's kind, not_found with an HTTPException
    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found,  # type: ignore[dict-item]
                                                       Exception: failed})
    return Guard(app)


def serve(ladder: Ladder, host: str, port: int, title: str = TITLE, proxy: str | None = None) -> None:
    """Serve until interrupted (uvicorn); ``proxy``: the addresses of a reverse proxy whose forwarded
    headers are believed (None: none)."""
    import uvicorn
    uvicorn.run(make_app(ladder, title), host=host, port=port, log_level="warning", server_header=False,
                proxy_headers=proxy is not None, forwarded_allow_ips=proxy or "127.0.0.1",
                limit_concurrency=64, timeout_keep_alive=5, h11_max_incomplete_event_size=64 << 10)
