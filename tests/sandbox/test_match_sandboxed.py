"""A sandboxed bot in a match: its process is told the match score before every hand (view.match)."""

from __future__ import annotations

import json

import sandbox_bots

from arena import PlayerSpec, Rules
from arena.bots.match_play import play_match
from arena.bots.referee import InProcessClient
from arena.game.match import MatchRules
from arena.plugins.registry import load
from arena.sandbox.client import SandboxClient
from arena.tournament.spec import LimitsSpec

REGISTRY = load(autoload=False)
LIMITS = LimitsSpec(decision_ms=500, bank_ms=0, startup_ms=10000, memory_mb=1024)


def test_a_sandboxed_bot_sees_the_match_score_before_each_hand():
    client = SandboxClient(PlayerSpec("match-reporter", sandbox_bots.MatchReporter), LIMITS)
    others = [InProcessClient(REGISTRY.get(n)) for n in ("heuristic", "low")]
    try:
        record = play_match(Rules.preset("getaway"), [client] + others, 21, MatchRules(6))
    finally:
        client.close()
    reports = [json.loads(line[7:]) for line in client.log_text().splitlines() if line.startswith("REPORT ")]
    starts = [r["match"] for r in reports if r["op"] == "new_game"]
    expected = [[h["match"]["hand"], h["match"]["scores"], h["dealer"]] for h in record["hands"]]
    assert starts == expected and len(expected) >= 2
    assert all(r["match"] in expected for r in reports if r["op"] == "play")
    assert all(f == [] for h in record["hands"] for f in h["faults"])
