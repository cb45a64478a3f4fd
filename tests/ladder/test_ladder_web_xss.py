"""Stored and reflected markup in a real browser: the hostile bot's every text stays text on every page.

A ladder holds the hostile bot of tests/support/hostile.py twice: once entered
and played (its version, description and reason carry payloads; it prints
them at every decision and crashes with them now and then, so its faults, logs
and tracebacks carry them too), once submitted and rejected by check-bot (its
report and reason carry the crash messages). The real server (uvicorn) serves
it; Chromium opens every page, the hostile entries' and games' included, and
pages whose URL carries a payload. On each: no dialog, no element or
attribute the payload would have made, every script on the page the page's own
(with its nonce), no Content-Security-Policy or Trusted Types violation and no
script error; where the page shows a bot's text, the payload is there as
text. The bot pages and the leaderboard fit the width (1280 px and a phone's
390 px) with no horizontal scrollbar.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from urllib.parse import quote

import pytest

from arena.ladder import submitters
from arena.ladder.ledger import Entry, open_ledger
from arena.ladder.install import install_submission
from arena.ladder.ladder import Ladder
from arena.ladder.submit import submit
from arena.plugins.registry import load
from arena.results.store.database import Store
from arena.tournament.executors import SerialExecutor
from support.browser import CHROMIUM_ARGS, executable
from support.hostile import BREAKOUT, PAYLOAD, hostile_folder
from support.ladder import build_wheel, make_ladder
from support.processes import wait_for
from support.served import answers, free_port, stop

pytest.importorskip("uvicorn", reason="arena ladder serve needs the [serve] extra")
pytestmark = pytest.mark.long

ENV = {**os.environ, "ARENA_DISABLE_PLUGIN_AUTOLOAD": "1"}
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", e =>
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "") + " " + (e.sample || "")));
window.alert = window.confirm = window.prompt = (x) => window.__violations.push("dialog " + x);
"""
"""Run before the page's own scripts: every CSP violation and every dialog the page opens are counted."""
INJECTED = """() => Array.from(document.querySelectorAll(
  'img[src="x"], [onerror], [onload], svg[onload], script:not([nonce]):not([type^="application/"])')).length"""
"""Elements the payloads would make if they were read as markup (and scripts the page did not bring)."""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A played ladder with the hostile bot entered (and a second copy rejected), served by uvicorn: its URL."""
    tmp = tmp_path_factory.mktemp("xss")
    registry = load(autoload=False)
    ladder = make_ladder(tmp / "L", registry, table_sizes=[3], house=["random", "low", "high"], suspend_faults=10_000)
    install_submission(build_wheel(hostile_folder(tmp), tmp / "wheel"), ladder.folder / "plugins" / "xss-bot-v1")
    with Store(ladder.folder) as store:
        ledger = open_ledger(store)
        token = submitters.add(ledger, "alice")
        ledger.add_entry(Entry("xss-bot-v1", "xss-bot", "xss-bot", "1.0" + PAYLOAD, "x" + PAYLOAD, "plugins/xss-bot-v1",
                             None, "active", "entered by the test " + PAYLOAD + BREAKOUT, None, 0.0, "alice"))
        who = submitters.authenticate(ledger, token)
    rejected = submit(Ladder.open(ladder.folder, registry), hostile_folder(tmp, "xss-bot-two"), by=who)
    assert rejected.status == "rejected" and "<script>" in rejected.reason
    Ladder.open(ladder.folder, registry).run(SerialExecutor(registry), max_games=9)
    with Store(ladder.folder) as store:
        games = [i for (i,) in store.db.execute("SELECT DISTINCT idx FROM seats WHERE player = 'xss-bot-v1'")]
        faults = store.db.execute("SELECT COUNT(*) FROM faults WHERE player = 'xss-bot-v1'").fetchone()[0]
    assert games and faults, "the hostile bot must have played, and crashed with its payload"
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "arena.cli.app", "ladder", "serve", str(ladder.folder),
                               "--port", str(port)], env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, start_new_session=True)
    try:
        assert "serving " in server.stderr.readline()
        assert wait_for(lambda: answers(port), 30), f"the server on port {port} did not start"
        yield {"url": f"http://127.0.0.1:{port}", "game": games[0], "folder": ladder.folder}
    finally:
        stop(server)
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def browser(playwright):
    launched = playwright.chromium.launch(executable_path=executable(), headless=True, args=CHROMIUM_ARGS)
    try:
        yield launched
    finally:
        launched.close()


def _visit(browser, url: str, ready: str | None = None, width: int = 1280) -> dict:
    """Open ``url`` in a fresh context; what it did: dialogs, violations, script errors, injected elements."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        seen: dict = {"dialogs": [], "errors": []}
        page.on("dialog", lambda d: (seen["dialogs"].append(d.message), d.dismiss()))
        page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
        page.on("console", lambda m: seen["errors"].append(m.text) if m.type == "error" else None)
        page.add_init_script(WATCH)
        response = page.goto(url)
        if ready:
            page.wait_for_function(ready, timeout=60_000)
        page.wait_for_timeout(300)  # let any late script (a refresh, a decoded chunk, the logs) run
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        seen.update(status=response.status, violations=page.evaluate("() => window.__violations"),
                    injected=page.evaluate(INJECTED), text=page.evaluate("() => document.body.innerText"),
                    overflow=page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))
        return seen
    finally:
        context.close()


VIEWER = "() => window.arenaBrowser && window.arenaBrowser.state.steps"


def _pages(served) -> list[tuple[str, str | None, bool]]:
    """(path, what to wait for, whether the page shows the hostile bot's text)."""
    return [("/", None, False), ("/bot/xss-bot-v1", None, True), ("/bot/xss-bot-two-v1", None, True),
            ("/games", VIEWER, False), ("/games?player=xss-bot-v1", VIEWER, True),
            (f"/game/{served['game']}", VIEWER, True), ("/report", None, False), ("/submit", None, False),
            ("/bot/" + quote(PAYLOAD, safe=""), None, False), ("/games?player=" + quote(PAYLOAD, safe=""), None, False),
            ("/nope/" + quote(BREAKOUT, safe=""), None, False), ("/game/" + "9" * 30, None, False)]


def test_no_page_runs_a_bots_or_a_visitors_markup(served, browser, record_property):
    """Every page, the hostile bot's and payload URLs included: no dialog, no injected element, no CSP
    violation or script error; the hostile bot's texts are shown as text where the page shows them."""
    failures, figures = [], []
    for path, ready, shows in _pages(served):
        seen = _visit(browser, served["url"] + path, ready)
        if seen["status"] >= 400:  # the page itself: Chromium logs its status as a failed load
            seen["errors"] = [e for e in seen["errors"] if not e.startswith("Failed to load resource")]
        problems = [f"{len(seen[k])} {k}, first {seen[k][0][:160]!r}" for k in ("dialogs", "violations", "errors")
                    if seen[k]]
        if seen["injected"]:
            problems.append(f"{seen['injected']} injected elements")
        if shows and "<script>alert(1)</script>" not in seen["text"]:
            problems.append("the payload is not shown as text")
        if str(served["folder"]) in seen["text"]:
            problems.append("the ladder folder's path is shown")
        if seen["status"] >= 500:
            problems.append(f"status {seen['status']}")
        figures.append(f"{path[:40]} {seen['status']} {seen['text'].count('alert(')} payloads as text")
        if problems:
            failures.append(f"{path}: {'; '.join(problems)}")
    record_property("pages", " | ".join(figures))
    assert failures == [], "\n".join(failures)


def test_the_report_shows_the_hostile_version_as_text(served, browser):
    """The whole report lists the hostile bot with its payload version as text (and runs nothing of it)."""
    seen = _visit(browser, served["url"] + "/report")
    assert "xss-bot-v1" in seen["text"] and seen["injected"] == 0 and not seen["violations"]


@pytest.mark.parametrize("width", [1280, 390])
def test_the_pages_fit_the_width(served, browser, width):
    """The leaderboard and the bot pages (long hostile texts and all) have no horizontal scrollbar at 1280 px
    or at a phone's 390 px: wide tables scroll inside their own box."""
    for path in ("/", "/bot/xss-bot-v1", "/bot/xss-bot-two-v1", "/submit"):
        seen = _visit(browser, served["url"] + path, width=width)
        assert seen["overflow"] <= 0, f"{path} at {width} px is {seen['overflow']} px too wide"
