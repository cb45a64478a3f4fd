"""The bots' logs in the report: embedded, linked from the fault list, shown in the game browser.

The results come from a real tournament of an installed bot package whose
bots print and raise, sandboxed (tests/support/chatty.py); the browser tests
drive Chromium (fixture ``browser``: conftest.py).
"""

from __future__ import annotations

import re

import pytest
from support.browser import open_page, wait_game
from support.chatty import chatty_results

from arena.results.report.html import report
from arena.results.report.logs import REPORT_LOG_CAP, unpack_logs
from arena.results.store.database import Store


@pytest.fixture(scope="module")
def chatty(tmp_path_factory, zygote):
    """(results folder, report file, {(game, seat): log}, {game: names}) of the chatty tournament."""
    root = tmp_path_factory.mktemp("chatty-report")
    _, results = chatty_results(zygote, root)
    with Store(results) as store:
        names = {i: r["names"] for i, r in store.records()}
        logs = {(g, s): text for g in names for s, (_, text) in store.logs(g).items()}
    return results, report(results, root / "report.html"), logs, names


def _embedded(html: str) -> dict:
    blob = re.search(r'<script type="application/octet-stream" id="games-logs">([^<]*)</script>', html).group(1)
    return unpack_logs(blob.strip())


def test_report_embeds_every_log_of_its_games(chatty):
    """Every stored log of the embedded games is in the page, whole (they are under the report's cap)."""
    _, page_file, logs, _ = chatty
    embedded = _embedded(page_file.read_text())
    assert {(int(g), int(s)): t for g, seats in embedded.items() for s, t in seats.items()} == logs
    assert all(len(t) < REPORT_LOG_CAP for t in logs.values())


def test_fault_rows_link_to_their_logs(chatty):
    """Each crash row of the fault list links to its game's seat log."""
    _, page_file, logs, names = chatty
    html = page_file.read_text()
    links = re.findall(r'<a href="#game-(\d+)-log-(\d+)" class="log-link"', html)
    assert links
    for game, seat in links:
        assert names[int(game)][int(seat)] == "chatty-raiser" and (int(game), int(seat)) in logs


def _raiser(names, game):
    return names[game].index("chatty-raiser")


def test_browser_fault_link_opens_the_log(browser, chatty):
    """Clicking a fault row's log link opens its game in the browser with that seat's log unfolded:
    the bot's prints, the fault's line and the traceback ending in the exception."""
    _, page_file, logs, names = chatty
    page = open_page(browser, page_file.as_uri())
    wait_game(page, 0)
    page.locator("#faults details summary").click()
    link = page.locator("#faults .log-link[href]").last
    game, seat = int(link.get_attribute("data-game")), int(link.get_attribute("data-seat"))
    link.click()
    wait_game(page, game)
    log = page.locator(f"#log-{game}-{seat}")
    log.wait_for()
    assert log.get_attribute("open") is not None
    text = log.locator("pre").inner_text()
    assert text == logs[(game, seat)].rstrip("\n") or text == logs[(game, seat)]
    assert "[arena: crash: ValueError: raiser gives up at decision 2]" in text
    assert "ValueError: raiser gives up at decision 2" in text.splitlines()
    assert log.locator("summary").inner_text() == f"chatty-raiser [{seat}]: its log"
    assert page.evaluate("location.hash") == f"#game-{game}-log-{seat}"
    assert page.errors == []
    page.close()


def test_browser_shows_every_seat_log_of_a_game(browser, chatty):
    """A game opened from the list shows a folded log per seat that printed (the printer, the raiser), not
    for the quiet seat; opening the file at #game-N-log-S unfolds that log."""
    _, page_file, logs, names = chatty
    page = open_page(browser, page_file.as_uri() + "#game-3-log-" + str(_raiser(names, 3)))
    wait_game(page, 3)
    page.locator(f"#log-3-{_raiser(names, 3)}").wait_for()
    assert page.locator(f"#log-3-{_raiser(names, 3)}").get_attribute("open") is not None
    page.locator('#game-list .game-pick[data-game="4"]').click()
    wait_game(page, 4)
    page.wait_for_selector('#game-logs[data-game="4"]')
    shown = page.locator("#game-logs details")
    seats = sorted(int(shown.nth(i).get_attribute("data-seat")) for i in range(shown.count()))
    assert seats == sorted(s for (g, s) in logs if g == 4)
    assert names[4][seats[0]] != "random" and len(seats) == 2
    printer = names[4].index("chatty-printer")
    box = page.locator(f"#log-4-{printer}")
    assert box.get_attribute("open") is None
    box.locator("summary").click()
    assert f"printer: new game, seat {printer}" in box.locator("pre").inner_text()
    assert page.errors == []
    page.close()
