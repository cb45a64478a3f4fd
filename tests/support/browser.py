"""Test helpers for the report's browser tests: headless Chromium through Playwright, and the page's state.

Debian's ``chromium`` driven by Playwright's Python package (no browser
download); :func:`launch` skips, saying why, where either is missing.
"""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager

import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium() -> str | None:
    for candidate in (os.environ.get("ARENA_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    return None


def start_playwright():
    """Playwright's sync API, started: the ``playwright`` session fixture (tests/conftest.py) holds the one of
    this worker process, which every browser test shares (a second ``sync_playwright`` in a thread where one
    is running is refused: "using Playwright Sync API inside the asyncio loop")."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the browser tests need Playwright's Python package: pip install playwright")
    return sync_api.sync_playwright().start()


def executable() -> str:
    """Chromium's path; skips the test, saying why, where there is none."""
    found = chromium()
    if found is None:
        pytest.skip("the browser tests need Chromium: apt-get install chromium (or set ARENA_CHROMIUM)")
    return found


@contextmanager
def launch(playwright, profile):
    """A persistent headless Chromium context (offline) in the folder ``profile``."""
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=executable(), headless=True, args=CHROMIUM_ARGS,
        viewport={"width": 1280, "height": 900}, offline=True)
    try:
        yield context
    finally:
        context.close()


def open_page(context, url: str, width: int = 1280, height: int = 900, init: str | None = None):
    """A new page at ``url``; page errors are collected on ``page.errors``."""
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": height})
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    if init:
        page.add_init_script(init)
    page.goto(url)
    return page


def wait_game(page, index: int) -> None:
    """Wait until the viewer shows game ``index`` (its chunk decoded)."""
    page.wait_for_selector(f'#viewer[data-game="{index}"][data-loading=""]')


def listed(page) -> list[int]:
    """The game numbers the game list shows."""
    return page.evaluate("() => Array.from(document.querySelectorAll('#game-list .game-pick'))"
                         ".map(b => Number(b.dataset.game))")


def shown(page) -> tuple[list[set[str]], list[tuple[int, str]], int]:
    """The viewer's hands, trick and event number."""
    hands = page.evaluate("""() => Array.from(document.querySelectorAll('#seats .seat')).map(
        s => Array.from(s.querySelectorAll('.hand .card')).map(c => c.dataset.card))""")
    trick = page.evaluate("""() => Array.from(document.querySelectorAll('#trick .slot')).map(
        s => [Number(s.dataset.seat), s.querySelector('.card').dataset.card])""")
    return [set(h) for h in hands], [tuple(t) for t in trick], int(page.locator("#viewer").get_attribute("data-event"))
