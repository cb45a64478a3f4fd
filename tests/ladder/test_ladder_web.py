"""`arena ladder serve` in a real browser (Chromium through Playwright): the table follows the games,
a wheel submitted through the form with a submitter's token is checked and enters matchmaking; the token and
the size cap hold."""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
import subprocess
import sys

import pytest

from arena.cli.app import main
from support.browser import CHROMIUM_ARGS, executable
from support.ladder import make_ladder
from support.served import free_port, stop

pytest.importorskip("starlette", reason="arena ladder serve needs the [serve] extra")
from starlette.testclient import TestClient

from arena.ladder import submitters
from arena.ladder.ledger import Entry, open_ledger
from arena.ladder.install import install_submission
from arena.ladder.ladder import Ladder
from arena.ladder.web import app as web_app
from arena.ladder.web import make_app
from arena.plugins.registry import load
from arena.results.store.database import Store
from arena.tournament.executors import SerialExecutor

ENV = {**os.environ, "ARENA_DISABLE_PLUGIN_AUTOLOAD": "1"}


def _start(*args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "arena.cli.app", "ladder", *args], env=ENV, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def _token(folder, name: str = "alice") -> str:
    """A new submitter's token (`arena ladder submitter add`, which prints it on stdout)."""
    done = subprocess.run([sys.executable, "-m", "arena.cli.app", "ladder", "submitter", "add", str(folder), name],
                          check=False, env=ENV, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _serving(server: subprocess.Popen) -> None:
    line = server.stderr.readline()
    assert "serving " in line, line


class _Runs:
    """`arena ladder run FOLDER --games N -j 1` started beside the server, one at a time: the games a step
    of a test needs are played while the page reads the store, and no more (a run left playing until the
    end would spend a core on games nobody looks at)."""

    def __init__(self, folder) -> None:
        self.folder, self.started = folder, []

    def start(self, games: int) -> None:
        self.finish()
        self.started.append(_start("run", str(self.folder), "--games", str(games), "-j", "1", "-q"))

    def finish(self) -> None:
        """Wait for the last run to play its games; it must end with 0."""
        if self.started:
            run = self.started[-1]
            assert run.wait(180) == 0, run.stderr.read()


@contextmanager
def _ladder_in_chromium(tmp_path, playwright):
    """A ladder of three built-ins, served, and a Chromium page on it: (folder, the server's address, its
    submission token, the page, the :class:`_Runs` that play its games)."""
    path = executable()
    folder = tmp_path / "L"
    assert main(["ladder", "create", str(folder), "--table-sizes", "3", "--house", "random,low,high"]) == 0
    port = free_port()
    token = _token(folder)
    server = _start("serve", str(folder), "--port", str(port))
    runs = _Runs(folder)
    try:
        _serving(server)
        browser = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
        try:
            yield folder, f"http://127.0.0.1:{port}", token, browser.new_page(), runs
        finally:
            browser.close()
    finally:
        stop(*runs.started, server)


def test_the_table_moves_and_a_submission_through_the_form_enters(tmp_path, wheels, record_property, playwright):
    with _ladder_in_chromium(tmp_path, playwright) as (_folder, url, token, page, runs):
        runs.start(3)
        runs.finish()
        page.goto(f"{url}/")
        first = int(page.text_content("#games"))
        assert first == 3
        runs.start(6)
        page.wait_for_function(f"() => Number(document.getElementById('games').textContent) > {first}",
                               timeout=120_000)  # the page refreshes itself as games are stored
        record_property("games_when_the_table_moved", f"{first} -> {page.text_content('#games')}")
        runs.finish()
        page.goto(f"{url}/submit")
        page.set_input_files("input[name=wheel]", str(wheels["v1"]))
        page.fill("input[name=token]", "wrong")
        page.click("button[type=submit]")
        page.wait_for_function("() => document.getElementById('message').className.includes('refused')")
        assert "no submitter's" in page.text_content("#message")
        page.set_input_files("input[name=wheel]", str(wheels["v1"]))
        page.fill("input[name=token]", token)
        page.click("button[type=submit]")
        page.wait_for_function("() => document.getElementById('message').className.includes('admitted')",
                               timeout=180_000)
        assert "lbot-v1: active" in page.text_content("#message")
        runs.start(6)  # a new bot is seated first until its rating settles
        runs.finish()
        page.goto(f"{url}/")  # read when loaded (the refresh in place is the first step's)
        assert "lbot-v1" in page.eval_on_selector_all("#board tbody td:nth-child(2)",
                                                      "tds => tds.map(td => td.textContent)")
        page.goto(f"{url}/bot/lbot-v1")
        assert page.text_content("#status") == "active"
        assert page.locator("svg.history").count() == 1


def test_uploads_are_refused_without_a_token_or_over_the_cap(tmp_path, registry, wheels):
    """No token: 401; a token that is no one's: 403; over the cap, declared or streamed: 413; not a wheel: 400.
    The refused bodies leave nothing in the ladder's folders."""
    ladder = make_ladder(tmp_path / "L", registry)
    with Store(ladder.folder) as store:
        token = submitters.add(open_ledger(store), "alice")
    client = TestClient(make_app(Ladder.open(ladder.folder, registry), max_upload=1000))
    wheel = wheels["v1"].read_bytes()
    assert len(wheel) > 1000
    mine = {"Authorization": f"Bearer {token}"}
    big = client.post("/submit", content=wheel, headers=mine)
    assert big.status_code == 413 and "the most this ladder takes" in big.text
    streamed = client.post("/submit", content=iter([wheel[:600], wheel[600:]]), headers=mine)  # chunked
    assert streamed.status_code == 413 and "stopped reading" in streamed.text
    client = TestClient(make_app(Ladder.open(ladder.folder, registry)))
    assert client.post("/submit", content=wheel).status_code == 401
    assert client.post("/submit", content=wheel, headers={"Authorization": "Bearer nope"}).status_code == 403
    said = client.post("/submit", content=b"x" * 100, headers=mine)
    assert said.status_code == 400 and "not a wheel" in said.text
    assert client.get("/bot/nobody").status_code == 404
    assert client.get("/api/table").json()["games"] == 0
    assert list((ladder.folder / "uploads").iterdir()) == []
    assert list((ladder.folder / "plugins").iterdir()) == []


def test_a_bot_page_shows_its_faults_and_logs(tmp_path, registry, wheels):
    """Its faults and its own logs, each game once, even where another seat of that game printed too."""
    ladder = make_ladder(tmp_path / "L", registry, suspend_faults=3)
    with Store(ladder.folder) as store:
        for name in ("crashy-v1", "crashy-v2"):  # two bots that print at one table
            install_submission(wheels["crashy"], ladder.folder / "plugins" / name)
            open_ledger(store).add_entry(Entry(name, "crashy", "crashy", "0.1.0", "x-" + name, f"plugins/{name}", None,
                                             "active", "test", None, 0.0))
    Ladder.open(ladder.folder, registry).run(SerialExecutor(registry), max_games=8)
    with Store(ladder.folder) as store:
        logged = [game for game, _ in store.logged_seats()]
    assert len(logged) > len(set(logged)), "some game must hold the logs of both"
    page = TestClient(make_app(Ladder.open(ladder.folder, registry))).get("/bot/crashy-v1")
    assert page.status_code == 200
    assert "suspended" in page.text and "crash" in page.text
    logs = page.text.split('<div id="logs">', 1)[1]
    assert "broken on purpose" in logs
    shown = re.findall(r"<summary>game (\d+) ", logs)
    assert shown and len(shown) == len(set(shown))


def test_recent_games_update_and_open_in_the_report_viewer(tmp_path, record_property, playwright):
    """The leaderboard lists the last games, newest first, as they are stored; each opens in the report's
    replay viewer (that game only); /games holds the last 20; a bot's page links its own."""
    newest = "() => Number((document.querySelector('#recent li a') || {textContent: '#-1'}).textContent.slice(1))"
    with _ladder_in_chromium(tmp_path, playwright) as (folder, url, _, page, runs):
        runs.start(21)
        runs.finish()
        page.goto(f"{url}/")
        assert page.locator("#recent li").count() == 20
        first, games = page.evaluate(newest), int(page.text_content("#games"))
        runs.start(3)
        page.wait_for_function(f"() => ({newest})() > {first}", timeout=120_000)  # refreshed in place
        runs.finish()
        record_property("games_while_the_list_moved", int(page.text_content("#games")) - games)
        shown = page.eval_on_selector_all("#recent li a", "as => as.map(a => Number(a.textContent.slice(1)))")
        assert len(shown) == 20 and len(set(shown)) == 20
        with Store(folder) as store:  # newest first: the highest numbers, in order
            stored = sorted((i for (i,) in store.db.execute("SELECT idx FROM games")), reverse=True)
        assert shown == stored[:20]

        page.click("#recent li a")  # the newest game, alone in the report's viewer
        page.wait_for_url(f"{url}/game/{shown[0]}")
        page.wait_for_function("() => window.arenaBrowser && window.arenaBrowser.state.steps", timeout=60_000)
        assert page.evaluate("window.arenaBrowser.index.map(g => g.i)") == [shown[0]]
        assert page.text_content("#game-title").startswith(f"#{shown[0]} ")
        before = page.text_content("#step-label")
        page.click("#next")
        assert page.text_content("#step-label") != before
        page.click("#last")
        assert "Bhabhi" in page.text_content("#message") or "draw" in page.text_content("#message")

        page.goto(f"{url}/games")
        page.wait_for_function("() => window.arenaBrowser && window.arenaBrowser.state.steps", timeout=60_000)
        listed = page.evaluate("window.arenaBrowser.index.map(g => g.i)")
        assert len(listed) == 20 and page.locator("#game-list .game-pick").count() == 20
        assert page.text_content("#game-title").startswith(f"#{listed[0]} ")  # the newest is open

        page.goto(f"{url}/bot/low")
        mine = page.eval_on_selector_all("#recent li a", "as => as.map(a => Number(a.textContent.slice(1)))")
        assert 0 < len(mine) <= 20
        page.click("#its-games")
        page.wait_for_function("() => window.arenaBrowser && window.arenaBrowser.state.steps", timeout=60_000)
        assert all("low" in names for names in page.evaluate("window.arenaBrowser.index.map(g => g.names)"))
    client = TestClient(make_app(Ladder.open(folder, load(autoload=False))))
    assert client.get("/game/999999").status_code == 404
    assert client.get("/games?player=nobody").status_code == 404


def test_an_upload_is_refused_while_the_disk_is_nearly_full(tmp_path, registry, wheels, monkeypatch):
    """Below the upload, its quota and the margin free, a submission is refused 507 before its body is read,
    and nothing is spooled."""
    ladder = make_ladder(tmp_path / "L", registry)
    with Store(ladder.folder) as store:
        token = submitters.add(open_ledger(store), "alice")
    real = web_app.shutil.disk_usage
    monkeypatch.setattr(web_app.shutil, "disk_usage", lambda path: real(path)._replace(free=100 << 20))
    said = TestClient(make_app(Ladder.open(ladder.folder, registry))).post(
        "/submit", content=wheels["v1"].read_bytes(), headers={"Authorization": f"Bearer {token}"})
    assert said.status_code == 507 and "disk is nearly full" in said.text
    assert not (ladder.folder / "uploads").exists() and list((ladder.folder / "plugins").iterdir()) == []
