"""Shared fixtures of the report tests: a results folder with faults and 64-bit seeds, its report, the browser."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.browser import launch, open_page, wait_game
from broken_bot.results import REPORT_GAMES, REPORT_SEED, make_results

from arena.results.report.html import report


@pytest.fixture(scope="session")
def results(tmp_path_factory) -> Path:
    """A results folder of 36 games: 5 players, getaway/donkey/bhabho, tables of 3 and 4, with faults;
    game ``i`` dealt with seed REPORT_SEED + i (beyond JavaScript's exact integers, as a tournament's)."""
    return make_results(tmp_path_factory.mktemp("results") / "report-test", REPORT_GAMES, seed_base=REPORT_SEED)


@pytest.fixture(scope="session")
def page_file(results, tmp_path_factory) -> Path:
    """The report with every game in the browser (two compressed chunks)."""
    return report(results, tmp_path_factory.mktemp("report") / "report.html", max_games=REPORT_GAMES)


@pytest.fixture(scope="session")
def browser(playwright, tmp_path_factory):
    """Headless Chromium; the tests that use it skip, saying why, where there is none."""
    with launch(playwright, tmp_path_factory.mktemp("chromium-profile")) as context:
        yield context


@pytest.fixture(scope="session")
def desktop(browser, page_file):
    """The report opened from disk at 1280 px, its first game shown."""
    page = open_page(browser, page_file.as_uri())
    wait_game(page, 0)
    yield page
    page.close()


@pytest.fixture(scope="session")
def phone(browser, page_file):
    """The report opened from disk at a phone's 390 px."""
    page = open_page(browser, page_file.as_uri(), 390, 844)
    wait_game(page, 0)
    yield page
    page.close()


@pytest.fixture()
def browser_page(desktop):
    """The desktop page, brought to the front (a background tab's animation frames are throttled)."""
    desktop.bring_to_front()
    return desktop


@pytest.fixture()
def phone_page(phone):
    """The phone page, brought to the front."""
    phone.bring_to_front()
    return phone
