"""`arena play --match POINTS`: a match shown hand by hand with a running score; its JSON record replays."""

from __future__ import annotations

import json
import re

import pytest

from arena.game.match_record import replay_match
from support.cli import run

pytestmark = pytest.mark.usefixtures("builtin_players_only")
SEATS = ("--seats", "heuristic,low,high", "--seed", "3")


def test_play_match_shows_each_hand_with_a_running_score(capsys):
    code, out, err = run(capsys, "play", *SEATS, "--match", 6)
    assert code == 0, err
    hands = re.findall(r"^== Hand (\d+) of a match to 6 \(places\), dealer \S+\[(\d)\] ==$", out, re.M)
    assert hands and [int(h) for h, _ in hands] == list(range(1, len(hands) + 1))
    assert [int(d) for _, d in hands] == [h % 3 for h in range(len(hands))]       # one seat on each hand
    totals = [list(map(int, re.findall(r"\] (\d+) \(\+\d\)", line)))
              for line in out.splitlines() if line.startswith("Score after hand")]
    assert len(totals) == len(hands) and all(max(t) < 6 for t in totals[:-1]) and max(totals[-1]) >= 6
    assert "Match over after" in out and re.search(r"^(Winner|Shared win): ", out, re.M)


def test_play_match_json_is_a_replayable_match_record(capsys, tmp_path):
    code, out, err = run(capsys, "play", *SEATS, "--match", 6, "--match-score", "cards", "--json")
    assert code == 0, err
    record = json.loads(out)
    assert record["type"] == "match" and record["match"]["score"] == "cards"
    assert replay_match(record).result().to_dict() == record["result"]
    again = json.loads(run(capsys, "play", *SEATS, "--match", 6, "--match-score", "cards", "--json")[1])
    assert [h["events"] for h in again["hands"]] == [h["events"] for h in record["hands"]]   # same seed
    path = tmp_path / "match.json"
    path.write_text(out)
    code, shown, err = run(capsys, "replay", path)
    assert code == 0, err
    assert shown.count("== Hand") == len(record["hands"])
    record["hands"][0]["dealer"] = 1
    path.write_text(json.dumps(record))
    code, shown, err = run(capsys, "replay", path)
    assert code != 0 and shown == "" and err.startswith("error: hand 0:") and len(err.splitlines()) == 1


@pytest.mark.parametrize("args,fragment", [
    (("--match", 0), "match_points must be a positive whole number (got 0)"),
    (("--match", -2), "match_points must be a positive whole number (got -2)"),
    (("--match", 6, "--match-score", "legs"), "match_score must be one of places, cards (got 'legs')"),
    (("--match-score", "cards"), "--match-score needs --match POINTS (got --match-score cards alone)"),
])
def test_bad_match_options_are_one_error_line(capsys, args, fragment):
    code, out, err = run(capsys, "play", *SEATS, *args)
    assert code != 0 and out == "" and "Traceback" not in err
    assert err.splitlines() == [f"error: {fragment}"]
