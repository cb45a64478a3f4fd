"""The HTML report: self-contained, complete, and its game browser shows what the engine did.

The browser tests open the report from disk in headless Chromium (Debian's
``chromium`` driven by Playwright's Python package, no browser download) and
skip, saying why, only where no Chromium or no Playwright is installed.
Set ``ARENA_REPORT_SCREENSHOT=path.png`` to keep a screenshot of the page.
The results fixture deals with 64-bit seeds (beyond JavaScript's exact
integers), as a tournament does.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from broken_bot import TakerBot
from broken_bot.results import PLAYERS, make_results

from arena import PlayerSpec, Rules
from arena.game.display import describe, moments
from arena.game.engine import Game
from arena.plugins.registry import load
from arena.bots.referee import InProcessClient, play_game
from arena.results.errors import ReportError, StoreError
from arena.results.ratings import rate
from arena.results.report import report, report_html
from arena.results.report_games import apply_recorded, pick_games, replay_steps, start_game
from arena.results.report_pack import CHUNK_GAMES, JS_SAFE, pack_games, text_big_ints, unpack_chunk
from arena.results.standings import outcomes, rating_params
from arena.results.store import Store

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


BIG_SEED = 4084665165901889882
"""The seed JavaScript showed as 4084665165901890000 (issue 14): game ``i`` of the fixture is dealt with BIG_SEED + i."""
GAMES = 36


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    """A results folder of 36 games: 5 players, getaway/donkey/bhabho, tables of 3 and 4, with faults."""
    return make_results(tmp_path_factory.mktemp("results") / "report-test", GAMES, seed_base=BIG_SEED)


@pytest.fixture(scope="module")
def page_file(results, tmp_path_factory) -> Path:
    """The report with every game in the browser (two compressed chunks)."""
    return report(results, tmp_path_factory.mktemp("report") / "report.html", max_games=GAMES)


def _index(html: str) -> list[dict]:
    return json.loads(re.search(r'<script type="application/json" id="games-index">(.*?)</script>', html, re.S)[1])


def _chunks(html: str) -> list[str]:
    return re.findall(r'<script type="application/octet-stream" id="games-chunk-\d+">(.*?)</script>', html, re.S)


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
    assert len(_index(html)) == 5 and len(_chunks(html)) == 1
    assert "5 of 36 games" in html


def test_embedded_steps_are_the_replayed_steps(page_file, results):
    """Each index entry's chunk holds exactly the game's replayed steps, in index order."""
    html = page_file.read_text()
    index, chunks = _index(html), [unpack_chunk(c) for c in _chunks(html)]
    assert len(index) == GAMES and len(chunks) == -(-GAMES // CHUNK_GAMES) >= 2
    with Store(results) as store:
        for entry in index:
            in_chunk = [e for e in index if e["c"] == entry["c"]]
            steps = chunks[entry["c"]][in_chunk.index(entry)]
            assert steps == replay_steps(store.record(entry["i"]), entry["i"]) and entry["n"] == len(steps)


def test_large_integers_reach_the_page_as_text(page_file, results):
    """Every seed in the page's data is the stored seed's exact decimal text, never a JSON number."""
    index = _index(page_file.read_text())
    with Store(results) as store:
        for entry in index:
            assert entry["seed"] == str(store.record(entry["i"])["seed"]) == str(BIG_SEED + entry["i"])
    assert text_big_ints({"a": [JS_SAFE, JS_SAFE + 1, -JS_SAFE - 1, True, 2.5]}) == {
        "a": [JS_SAFE, str(JS_SAFE + 1), str(-JS_SAFE - 1), True, 2.5]}


def test_game_data_is_compressed(results):
    """The embedded games take a fraction of their plain JSON: the report grows gently with games."""
    with Store(results) as store:
        games = [{"i": i, "steps": replay_steps(r, i)} for i, r in store.records()]
    plain = len(json.dumps([g["steps"] for g in games], separators=(",", ":"), ensure_ascii=False).encode())
    packed = pack_games(games)
    assert sum(map(len, packed.chunks)) < plain / 4
    assert pack_games(games) == packed  # the same games give the same bytes


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


def test_steps_show_takes():
    """A take in bhabho is its own step: the taker holds the neighbour's cards, who is out with none."""
    taker = PlayerSpec("taker", TakerBot, trusted=True)
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
def browser(tmp_path_factory):
    """Headless Chromium (a persistent context, offline); skips, saying why, where there is none."""
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
        yield context
        context.close()


def _open(context, url: str, width: int = 1280, height: int = 900, init: str | None = None):
    """A new page at ``url``; page errors are collected on ``page.errors``; waits for the first game."""
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": height})
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    if init:
        page.add_init_script(init)
    page.goto(url)
    return page


def _wait_game(page, index: int) -> None:
    """Wait until the viewer shows game ``index`` (its chunk decoded)."""
    page.wait_for_selector(f'#viewer[data-game="{index}"][data-loading=""]')


@pytest.fixture(scope="module")
def desktop(browser, page_file):
    """The report opened from disk at 1280 px, its first game shown."""
    page = _open(browser, page_file.as_uri())
    _wait_game(page, 0)
    yield page
    page.close()


@pytest.fixture(scope="module")
def phone(browser, page_file):
    """The report opened from disk at a phone's 390 px."""
    page = _open(browser, page_file.as_uri(), 390, 844)
    _wait_game(page, 0)
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


# ---------------------------------------------------------------- the game list: search and filters


def _listed(page) -> list[int]:
    return page.evaluate("() => Array.from(document.querySelectorAll('#game-list .game-pick'))"
                         ".map(b => Number(b.dataset.game))")


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
