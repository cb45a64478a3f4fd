"""The HTML report: self-contained, complete, and its game browser shows what the engine did.

The browser tests open the report from disk in headless Chromium (Debian's
``chromium`` driven by Playwright's Python package, no browser download) and
skip, saying why, only where no Chromium or no Playwright is installed.
Set ``ARENA_REPORT_SCREENSHOT=path.png`` to keep a screenshot of the page.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from broken_bot.results import PLAYERS, make_results

from arena import Bot, PlayerSpec, Rules
from arena.game.display import describe, moments
from arena.game.engine import Game
from arena.plugins.registry import load
from arena.bots.referee import InProcessClient, play_game
from arena.results.errors import ReportError, StoreError
from arena.results.report import report, report_html
from arena.results.report_games import apply_recorded, pick_games, replay_steps, start_game
from arena.results.store import Store

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    """A results folder of 36 games: 5 players, getaway/donkey/bhabho, tables of 3 and 4, with faults."""
    return make_results(tmp_path_factory.mktemp("results") / "report-test")


@pytest.fixture(scope="module")
def page_file(results, tmp_path_factory) -> Path:
    """The report written with at most 12 games in the browser."""
    return report(results, tmp_path_factory.mktemp("report") / "report.html", max_games=12)


# ---------------------------------------------------------------- the file


def test_report_is_self_contained(page_file):
    """No external scripts, styles, images or fonts: the page works from disk with no network."""
    html = page_file.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<link" not in html and "@import" not in html and "url(http" not in html
    assert html.count("data:image/svg+xml;base64,") >= 3


def test_report_has_every_section(page_file):
    """Ratings, both Bhabhi-rate groupings, head to head, faults and the browser are all there."""
    html = page_file.read_text()
    for anchor in ("ratings", "bhabhi-size", "bhabhi-rules", "head-to-head", "faults", "browser"):
        assert f'id="{anchor}"' in html
    for player in PLAYERS:
        assert f'data-player="{player}"' in html


def test_report_is_deterministic(results):
    """The same results give the same bytes (no dates, fixed figure ids)."""
    assert report_html(results, max_games=3) == report_html(results, max_games=3)


def test_report_default_path(results, tmp_path):
    """Without an output path the report goes to FOLDER/report.html."""
    folder = tmp_path / "copy"
    shutil.copytree(results, folder)
    assert report(folder, max_games=0) == folder / "report.html"
    assert "No games embedded" in (folder / "report.html").read_text()


def test_report_of_empty_or_missing_folder(tmp_path):
    """An empty results folder and a missing one are errors that say so."""
    Store(tmp_path / "empty", create=True).close()
    with pytest.raises(ReportError, match="no games stored yet"):
        report_html(tmp_path / "empty")
    with pytest.raises(StoreError, match="no results database"):
        report_html(tmp_path / "missing")


def test_embedded_games_are_capped_with_a_note(results):
    """At most max_games games are embedded, and the page says how many of how many."""
    html = report_html(results, max_games=5)
    data = json.loads(re.search(r'<script type="application/json" id="games-data">(.*?)</script>', html, re.S)[1])
    assert len(data) == 5
    assert "5 of 36 games" in html


# ---------------------------------------------------------------- choosing and replaying games


def test_pick_games_spreads_over_groups():
    """The choice is deterministic, within the limit, covers every group and takes some faulty games."""
    games = [(i, ("getaway" if i % 3 else "donkey", 3 + i % 2), i in (7, 50)) for i in range(90)]
    chosen = pick_games(games, 12)
    assert chosen == pick_games(games, 12) and len(chosen) == 12
    assert {games[i][1] for i in chosen} == {g[1] for g in games}
    assert 7 in chosen and 50 in chosen
    assert pick_games(games[:5], 12) == [0, 1, 2, 3, 4]
    assert pick_games(games, 0) == []


def test_steps_end_with_the_engine_result(results):
    """Every game's last step is the end, with the Bhabhi holding exactly the cards the result names."""
    with Store(results) as store:
        for idx, record in store.records():
            steps = replay_steps(record, idx)
            last, result = steps[-1], record["result"]
            assert last["k"] == "end" and steps[0]["k"] == "deal"
            if result["loser"] is not None:
                shown = re.findall(r"[2-9TJQKA][CDHS]\*?", last["h"][result["loser"]])
                assert sorted(shown) == sorted(result["loser_cards"])


def test_steps_match_the_engine_at_every_decision(results):
    """At each step after which a seat must act, the step's hands, trick and seat are the engine's."""
    with Store(results) as store:
        for idx, record in store.records():
            game, checked = start_game(record), 0
            for n, step in enumerate(replay_steps(record, idx)):
                if "turn" not in step:
                    continue
                while len(game.events) <= step["ev"]:
                    apply_recorded(game, record["events"][len(game.events)])
                assert len(game.events) == step["ev"] + 1 and game.current == step["turn"], (idx, n)
                hands = [set(re.findall(r"[2-9TJQKA][CDHS]\*?", h)) for h in step["h"]]
                assert hands == [{str(c) for c in game.hand(s)} for s in range(game.players)], (idx, n)
                if not step.get("gone"):
                    assert [tuple(t) for t in step["t"]] == [(s, str(c)) for s, c in game.trick], (idx, n)
                checked += 1
            assert checked > 10


def test_steps_show_cuts_and_pickups(results):
    """A pick-up step names the cutter and the picker, and the picker's hand holds the trick's cards."""
    found = 0
    with Store(results) as store:
        for idx, record in store.records():
            steps = replay_steps(record, idx)
            for prev, step in zip(steps, steps[1:]):
                if step["k"] == "pickup" and "cut" in step:
                    found += 1
                    assert prev["k"] == "cut" and prev["cut"] == step["cut"]
                    picked = {c for _, c in step["t"]}
                    assert picked <= set(re.findall(r"[2-9TJQKA][CDHS]\*?", step["h"][step["pick"]]))
                    assert "CUTS" in prev["m"] and "PICKS UP" in step["m"]
    assert found > 0


def test_replay_text_and_browser_tell_one_narration(results):
    """`arena replay`'s lines and the browser's steps are both told from the same moments."""
    ruffs = 0
    with Store(results) as store:
        for idx, record in store.records():
            told = list(moments(record))
            lines, steps = describe(record), replay_steps(record, idx)
            tricks = max(m.number for m in told)
            assert sum(line.startswith("Trick ") for line in lines) == tricks == max(s["n"] for s in steps)
            cuts = [m for m in told if m.kind == "pickup" and m.cutter is not None]
            assert sum("cuts (thulla)!" in line for line in lines) == len(cuts)
            assert [s["cut"] for s in steps if s["k"] == "pickup" and "cut" in s] == [m.cutter for m in cuts]
            ruff = sum(m.kind == "ruff" for m in told)
            assert sum("trumps with" in s["m"] for s in steps) == ruff
            ruffs += ruff
    assert ruffs > 0  # donkey games: trumps from players who cannot follow


class _Taker(Bot):
    """Always takes its neighbour's cards (bhabho); plays its lowest legal card."""

    def take(self, view):
        return True

    def play(self, view):
        return min(view.legal, key=lambda c: c.rank)


def test_steps_show_takes():
    """A take in bhabho is its own step: the taker holds the neighbour's cards, who is out with none."""
    taker = PlayerSpec("taker", _Taker, trusted=True)
    registry = load(autoload=False)
    clients = [InProcessClient(taker), *(InProcessClient(registry.get(n)) for n in ("low", "high", "random"))]
    record = play_game(Rules.preset("bhabho"), clients, 5, names=["taker", "low", "high", "random"])
    steps = replay_steps(record)
    takes = [s for s in steps if s["k"] == "take"]
    assert takes, "the taker never took"
    for step in takes:
        assert step["h"][step["victim"]] == "" and step["o"][step["victim"]] is not None
        assert "TAKES all" in step["m"]


# ---------------------------------------------------------------- in a real browser


def _chromium() -> str | None:
    for candidate in (os.environ.get("ARENA_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    return None


@pytest.fixture(scope="module")
def browser_page(page_file, tmp_path_factory):
    """The report opened from disk in headless Chromium; page errors are collected on ``page.errors``."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the browser tests need Playwright's Python package: pip install playwright")
    chromium = _chromium()
    if chromium is None:
        pytest.skip("the browser tests need Chromium: apt-get install chromium (or set ARENA_CHROMIUM)")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=chromium, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900}, offline=True)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
        page.goto(page_file.as_uri())
        yield page
        context.close()


def test_browser_table_shows_every_player(browser_page):
    """The rating table has one visible row per player, with the player's name."""
    rows = browser_page.locator("#rating-table tbody tr")
    assert rows.count() == len(PLAYERS)
    shown = {rows.nth(i).get_attribute("data-player") for i in range(rows.count())}
    assert shown == set(PLAYERS)
    for player in PLAYERS:
        cell = browser_page.locator(f'#rating-table tr[data-player="{player}"] td.player')
        assert cell.is_visible() and cell.inner_text().startswith(player)
        assert browser_page.locator(f'#h2h-table th:text-is("{player}")').count() == 2


def test_browser_plots_are_drawn(browser_page):
    """Every plot image decoded to a real picture of a sensible size."""
    images = browser_page.locator("figure.plot img")
    assert images.count() >= 4  # ratings, two Bhabhi-rate plots, faults
    for i in range(images.count()):
        img = images.nth(i)
        img.scroll_into_view_if_needed()
        natural = img.evaluate("e => [e.complete, e.naturalWidth, e.naturalHeight]")
        box = img.bounding_box()
        assert natural[0] and natural[1] > 200 and natural[2] > 150, natural
        assert box["width"] > 300 and box["height"] > 150, box


def test_browser_cards_are_cards(browser_page):
    """Hands are drawn as cards with a rank and a suit symbol, hearts and diamonds in red."""
    browser_page.locator("#first").click()
    cards = browser_page.locator("#seats .card")
    assert cards.count() > 20
    for text, symbol, red in (("AH", "♥", True), ("AS", "♠", False), ("TD", "♦", True), ("KC", "♣", False)):
        c = browser_page.locator(f'#seats .card[data-card="{text}"]').first
        if c.count():
            assert symbol in c.inner_text() and ("10" in c.inner_text()) == (text[0] == "T")
            colour = c.evaluate("e => getComputedStyle(e).color")
            assert (colour == "rgb(200, 16, 46)") == red, (text, colour)


def _engine_at(record: dict, event: int) -> Game:
    """The engine replayed from the record up to and including ``event``."""
    game = start_game(record)
    while len(game.events) <= event:
        apply_recorded(game, record["events"][len(game.events)])
    return game


def _shown(page) -> tuple[list[set[str]], list[tuple[int, str]], int]:
    hands = page.evaluate("""() => Array.from(document.querySelectorAll('#seats .seat')).map(
        s => Array.from(s.querySelectorAll('.hand .card')).map(c => c.dataset.card))""")
    trick = page.evaluate("""() => Array.from(document.querySelectorAll('#trick .slot')).map(
        s => [Number(s.dataset.seat), s.querySelector('.card').dataset.card])""")
    return [set(h) for h in hands], [tuple(t) for t in trick], int(page.locator("#viewer").get_attribute("data-event"))


def _record(results: Path, index: int) -> dict:
    with Store(results) as store:
        return store.record(index)


def test_browser_steps_show_the_engine_cards(browser_page, results):
    """Clicking "step" N times shows every hand and the trick exactly as the engine has them then.

    Compared at each step after which a seat must act (the engine stops there),
    through the first 60 steps of a Donkey game.
    """
    page = browser_page
    games = page.evaluate("() => window.arenaBrowser.games.map(g => [g.i, g.rules, g.steps.length])")
    index = next(g[0] for g in games if g[1] == "donkey" and g[2] > 60)
    page.select_option("#game-select", str([g[0] for g in games].index(index)))
    record = _record(results, index)
    compared = tricks = 0
    for clicks in range(1, 61):
        page.locator("#next").click()
        viewer = page.locator("#viewer")
        assert viewer.get_attribute("data-step") == str(clicks)
        turn = viewer.get_attribute("data-turn")
        if turn == "":
            continue  # the engine does not stop here (e.g. the last card of a trick, before it is settled)
        hands, trick, event = _shown(page)
        game = _engine_at(record, event)
        assert len(game.events) == event + 1 and game.current == int(turn), f"step {clicks}"
        assert hands == [{str(c) for c in game.hand(s)} for s in range(game.players)], f"step {clicks}"
        if viewer.get_attribute("data-kind") in ("play", "cut"):
            assert trick == [(s, str(c)) for s, c in game.trick], f"step {clicks}"
            tricks += bool(trick)
        compared += 1
    assert compared >= 30 and tricks >= 20


def test_browser_trick_buttons_and_keys(browser_page, results):
    """"trick ▶▶" stops at the end of each trick (cut and pick-up shown), keys step back and forth."""
    page = browser_page
    page.locator("#first").click()
    page.locator("#next-trick").click()
    step = page.evaluate("() => window.arenaBrowser.games[window.arenaBrowser.state.game].steps"
                         "[window.arenaBrowser.state.step]")
    assert step["k"] in ("clean", "pickup", "end")
    for _ in range(40):
        if step["k"] == "pickup" and "cut" in step:
            break
        page.locator("#next-trick").click()
        step = page.evaluate("() => window.arenaBrowser.games[window.arenaBrowser.state.game].steps"
                             "[window.arenaBrowser.state.step]")
    if step["k"] == "pickup" and "cut" in step:
        assert page.locator("#trick .tag.cut").count() == 1
        assert page.locator("#trick .tag.high").inner_text() == "PICKS UP"
        assert page.locator(f'#seats .seat[data-seat="{step["pick"]}"] .badge.pick').count() == 1
        assert "PICKS UP" in page.locator("#message").inner_text()
    before = int(page.locator("#viewer").get_attribute("data-step"))
    page.locator("body").press("ArrowRight")
    assert int(page.locator("#viewer").get_attribute("data-step")) == before + 1
    page.locator("body").press("ArrowLeft")
    assert int(page.locator("#viewer").get_attribute("data-step")) == before
    page.locator("body").press("End")
    assert "Game over" in page.locator("#message").inner_text()
    assert page.locator(".badge.loser").count() + page.evaluate(
        "() => window.arenaBrowser.games[window.arenaBrowser.state.game].steps.at(-1).m.includes('draw')") >= 1


def test_browser_has_no_errors(browser_page, tmp_path):
    """No script errors; a screenshot is kept when ARENA_REPORT_SCREENSHOT names a file."""
    keep = os.environ.get("ARENA_REPORT_SCREENSHOT")
    browser_page.screenshot(path=keep or str(tmp_path / "report.png"), full_page=True)
    assert browser_page.errors == []
