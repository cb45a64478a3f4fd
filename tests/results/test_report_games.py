"""The report's game list in a real browser: search and filters, games decoded on demand from any chunk,
links that open a game, and a browser without DecompressionStream (fixtures: conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.browser import listed as _listed, open_page as _open, shown as _shown, wait_game as _wait_game
from broken_bot.results import REPORT_GAMES as GAMES, REPORT_SEED as BIG_SEED

from arena.results.report.games import start_game
from arena.results.store.database import Store

pytestmark = pytest.mark.xdist_group("report")  # one Chromium and one report for the three files


def _record(results: Path, index: int) -> dict:
    with Store(results) as store:
        return store.record(index)


# ---------------------------------------------------------------- the game list: search and filters


def _clear(page) -> None:
    page.locator("#f-clear").click()
    assert len(_listed(page)) == GAMES


def _games_where(results: Path, test) -> list[int]:
    with Store(results) as store:
        return [i for i, record in store.records() if test(record)]


def test_browser_filters_by_player_and_seat(browser_page, results):
    """"player" lists the games the player sat in; with a seat, those where it sat there."""
    page = browser_page
    _clear(page)
    assert page.locator("#f-seat").is_disabled()
    page.select_option("#f-player", "cheat")
    assert _listed(page) == _games_where(results, lambda r: "cheat" in r["names"])
    page.select_option("#f-seat", "1")
    expected = _games_where(results, lambda r: r["names"][1] == "cheat")
    assert _listed(page) == expected and 0 < len(expected) < GAMES
    assert page.locator("#game-count").inner_text().startswith(f"{len(expected)} of {GAMES} ")
    page.select_option("#f-player", "")
    assert page.locator("#f-seat").is_disabled() and len(_listed(page)) == GAMES


def test_browser_filters_by_rules_size_bhabhi_and_faults(browser_page, results):
    """Each filter lists exactly the stored games that match it, and filters combine."""
    page = browser_page
    cases = (
        ("#f-rules", "donkey", lambda r: r["rules"]["name"] == "donkey"),
        ("#f-size", "4", lambda r: r["players"] == 4),
        ("#f-bhabhi", "random", lambda r: r["result"]["loser"] is not None
         and r["names"][r["result"]["loser"]] == "random"),
        ("#f-faults", "yes", lambda r: any(r["faults"])),
        ("#f-faults", "no", lambda r: not any(r["faults"])),
    )
    for selector, value, test in cases:
        _clear(page)
        page.select_option(selector, value)
        expected = _games_where(results, test)
        assert _listed(page) == expected and 0 < len(expected) < GAMES, (selector, value)
    _clear(page)
    page.select_option("#f-rules", "donkey")
    page.select_option("#f-faults", "yes")
    both = _games_where(results, lambda r: r["rules"]["name"] == "donkey" and any(r["faults"]))
    assert _listed(page) == both and both
    _clear(page)


def test_browser_search_finds_a_game_by_seed_and_opens_it(browser_page, results):
    """Typing a game's full seed lists that game alone; opening it shows the seed exactly (no rounding)."""
    page = browser_page
    _clear(page)
    page.fill("#f-text", str(BIG_SEED + 17))
    assert _listed(page) == [17]
    page.locator('#game-list .game-pick[data-game="17"]').click()
    _wait_game(page, 17)
    assert f"seed {BIG_SEED + 17} " in page.locator("#game-meta").inner_text() + " "
    assert "4084665165901890000" not in page.content()
    page.fill("#f-text", "test-3 cheat")
    assert _listed(page) == [i for i in _games_where(results, lambda r: "cheat" in r["names"])
                             if str(i).startswith("3")]
    _clear(page)


def test_browser_opens_games_of_every_chunk_and_from_links(browser_page, results):
    """A game in the second chunk opens (decoded on demand); a fault row's link opens its game."""
    page = browser_page
    page.evaluate(f"() => window.arenaBrowser.open({GAMES - 1}, 0)")
    _wait_game(page, GAMES - 1)
    assert page.evaluate("() => window.arenaBrowser.state.game.c") == 1
    record = _record(results, GAMES - 1)
    hands, _, _ = _shown(page)
    assert hands == [set(h) for h in _start_hands(record)]
    link = page.locator("#faults .game-link[href]").first
    target = int(link.get_attribute("data-game"))
    page.locator("#faults details summary").click()
    link.click()
    _wait_game(page, target)
    assert page.evaluate("location.hash") == f"#game-{target}"
    assert "fault" in page.locator("#game-meta").inner_text()


def test_browser_lists_a_page_at_a_time(browser_page):
    """Only a page of matches is listed at once; "show more" lists the next page, and the count says so."""
    page = browser_page
    page.evaluate("() => { window.arenaBrowser.state.page = 10; window.arenaBrowser.filter(true); }")
    assert _listed(page) == list(range(10))
    assert "the first 10 are listed" in page.locator("#game-count").inner_text()
    page.locator("#game-more").click()
    assert _listed(page) == list(range(20))
    for _ in range(2):
        page.locator("#game-more").click()
    assert _listed(page) == list(range(GAMES)) and page.locator("#game-more").is_hidden()
    page.evaluate("() => { window.arenaBrowser.state.page = 50; window.arenaBrowser.filter(true); }")


def test_browser_hash_opens_a_game(browser, page_file):
    """Opening the file with #game-N shows game N."""
    page = _open(browser, page_file.as_uri() + "#game-23")
    _wait_game(page, 23)
    assert page.locator("#game-title").inner_text().startswith("#23 ")
    assert page.errors == []
    page.close()


def test_browser_without_decompression_says_why(browser, page_file):
    """A browser without DecompressionStream gets a message naming what it lacks, not a blank viewer."""
    page = _open(browser, page_file.as_uri(), init="delete window.DecompressionStream;")
    page.wait_for_selector('#viewer[data-loading=""]')
    assert "DecompressionStream" in page.locator("#message").inner_text()
    assert len(_listed(page)) == GAMES  # the list and filters still work
    page.close()


def _start_hands(record: dict) -> list[list[str]]:
    return [[str(c) for c in start_game(record).hand(s)] for s in range(record["players"])]
