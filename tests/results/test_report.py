"""The HTML report's file: self-contained, complete, deterministic, its games packed small, seeds as text;
and the game browser's steps, which show exactly what the engine did (fixtures: conftest.py)."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from broken_bot import TakerBot
from broken_bot.results import PLAYERS, REPORT_GAMES as GAMES, REPORT_SEED as BIG_SEED

from arena import PlayerSpec, Rules
from arena.bots.referee import InProcessClient, play_game
from arena.game.display import describe, moments
from arena.plugins.registry import load
from arena.results.errors import ReportError, StoreError
from arena.results.report.games import apply_recorded, pick_games, replay_steps, start_game
from arena.results.report.html import report, report_html
from arena.results.report.pack import CHUNK_GAMES, JS_SAFE, pack_games, text_big_ints, unpack_chunk
from arena.results.store.database import Store

pytestmark = pytest.mark.xdist_group("report")  # one Chromium and one report for the three files


def _index(html: str) -> list[dict]:
    return json.loads(re.search(r'<script type="application/json" id="games-index">(.*?)</script>', html, re.S)[1])


def _chunks(html: str) -> list[str]:
    return re.findall(r'<script type="application/octet-stream" id="games-chunk-\d+">(.*?)</script>', html, re.S)


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
    with pytest.raises(ReportError, match=r"chunk_games must be 1 or more \(got 0\)"):
        pack_games(games, 0)


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
