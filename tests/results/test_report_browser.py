"""The report in a real browser: the rating table (every player, sorting, a phone's width), the plots,
the cards, and stepping through a game as the engine played it (fixtures: conftest.py).

Set ``ARENA_REPORT_SCREENSHOT=path.png`` to keep a screenshot of the page.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.browser import shown as _shown, wait_game as _wait_game
from broken_bot.results import PLAYERS

from arena.game.engine import Game
from arena.results.report.games import apply_recorded, start_game
from arena.results.stats.ratings import rate
from arena.results.stats.standings import outcomes, rating_params
from arena.results.store.database import Store

pytestmark = pytest.mark.xdist_group("report")  # one Chromium and one report for the three files


def _clear(page) -> None:
    page.locator("#f-clear").click()


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


# the rating table's columns after # and player, and what each sorts by (largest first on the first click)
_SORTS = (("mu-3σ", lambda r: r.conservative), ("μ", lambda r: r.mu), ("σ", lambda r: r.sigma),
          ("P(>next)", lambda r: r.p_above_next), ("games", lambda r: r.games), ("Bhabhi", lambda r: r.bhabhi_rate),
          ("×1/k", lambda r: r.bhabhi_ratio), ("place", lambda r: r.place), ("penalty", lambda r: r.penalty),
          ("first out", lambda r: r.first_out_rate), ("faults", lambda r: sum(n for _, n in r.faults)),
          ("ms/dec", lambda r: r.decision_ms))


def _table(results: Path):
    with Store(results) as store:
        return rate(outcomes(store), **rating_params(store.meta("spec")))


def _expected_order(table, key, descending: bool) -> list[str]:
    """Players sorted by ``key`` (None last, ties in rank order), as the page should show them."""
    rows = sorted(table.rows, key=lambda r: r.rank)
    known = [r for r in rows if key(r) is not None]
    known.sort(key=key, reverse=descending)  # stable: ties keep rank order
    return [r.player for r in known + [r for r in rows if key(r) is None]]


def _shown_order(page) -> list[str]:
    return page.evaluate("() => Array.from(document.querySelectorAll('#rating-table tbody tr'))"
                         ".map(r => r.dataset.player)")


def test_browser_rating_table_sorts_by_every_column(browser_page, results):
    """Clicking a column name sorts by it, largest first; clicking again reverses; # and player too."""
    page, table = browser_page, _table(results)
    headers = page.locator("#rating-table thead th")
    assert headers.count() == 2 + len(_SORTS)
    for n, (header, key) in enumerate(_SORTS, start=2):
        th = headers.nth(n)
        assert th.inner_text().strip() == header
        th.click()
        assert _shown_order(page) == _expected_order(table, key, True), header
        assert th.get_attribute("aria-sort") == "descending"
        th.click()
        assert _shown_order(page) == _expected_order(table, key, False), header
    headers.nth(1).click()
    assert _shown_order(page) == sorted(PLAYERS)
    headers.nth(0).click()
    assert _shown_order(page) == [r.player for r in table.rows]
    assert headers.nth(0).get_attribute("aria-sort") == "ascending"


def test_browser_rating_table_on_a_phone(phone_page, results):
    """At 390 px nothing is cut: the page does not scroll sideways, every value of every player is on
    screen in full, labelled, and the "sort by" control sorts."""
    page, table = phone_page, _table(results)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    cells = page.evaluate("""() => Array.from(document.querySelectorAll('#rating-table tbody td')).map(td => {
        const b = td.getBoundingClientRect();
        return [td.dataset.label, b.left, b.right, b.width, td.scrollWidth <= td.clientWidth + 1,
                getComputedStyle(td, '::before').content, td.textContent.trim()]; })""")
    assert len(cells) == len(PLAYERS) * (2 + len(_SORTS))
    for label, left, right, width, fits, before, text in cells:
        assert left >= 0 and right <= 390 and width > 40 and fits, (label, left, right, text)
        assert text and (label == "player" or before == f'"{label}"'), (label, before)
    page.select_option("#rating-sort", label="games")
    assert _shown_order(page) == _expected_order(table, lambda r: r.games, True)
    page.locator("#rating-reverse").click()
    assert _shown_order(page) == _expected_order(table, lambda r: r.games, False)
    assert page.errors == []


def test_browser_phone_game_viewer_fits(phone_page):
    """At 390 px the game browser's controls, list and hands stay inside the screen."""
    page = phone_page
    page.locator("#browser").scroll_into_view_if_needed()
    for selector in ("#game-filters", "#game-list", ".controls", "#viewer", "#seats .seat"):
        box = page.locator(selector).first.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, selector
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


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


def _record(results: Path, index: int) -> dict:
    with Store(results) as store:
        return store.record(index)


def test_browser_steps_show_the_engine_cards(browser_page, results):
    """Clicking "step" N times shows every hand and the trick exactly as the engine has them then.

    Compared at each step after which a seat must act (the engine stops there),
    through the first 60 steps of a Donkey game.
    """
    page = browser_page
    _clear(page)
    page.select_option("#f-rules", "donkey")
    games = page.evaluate("() => window.arenaBrowser.index.map(g => [g.i, g.rules, g.n])")
    index = next(g[0] for g in games if g[1] == "donkey" and g[2] > 60)
    page.locator(f'#game-list .game-pick[data-game="{index}"]').click()
    _wait_game(page, index)
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
    step = page.evaluate("() => window.arenaBrowser.step()")
    assert step["k"] in ("clean", "pickup", "end")
    for _ in range(40):
        if step["k"] == "pickup" and "cut" in step:
            break
        page.locator("#next-trick").click()
        step = page.evaluate("() => window.arenaBrowser.step()")
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
        "() => window.arenaBrowser.state.steps.at(-1).m.includes('draw')") >= 1


def test_browser_has_no_errors(browser_page, tmp_path):
    """No script errors; a screenshot is kept when ARENA_REPORT_SCREENSHOT names a file."""
    keep = os.environ.get("ARENA_REPORT_SCREENSHOT")
    browser_page.screenshot(path=keep or str(tmp_path / "report.png"), full_page=True)
    assert browser_page.errors == []
