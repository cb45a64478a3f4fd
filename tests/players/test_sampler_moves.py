"""The sampler's moves on fixed seeded games against a recording: a faster playout must choose the same cards.

Each game of ``GAMES`` is played whole from its seed, the sampler in the seats named so, and every
decision the sampler makes is compared with ``sampler_moves.json``: the card, and a digest of every
decision's per-move totals (the sum of each legal card's playout scores over the same worlds), so a
change that keeps the cards but moves a playout's score shows too. The solver is given no time
(``solver_share=0``: two players left go to playouts as well) and the clock no say (a large
``cap_ms``), so the games depend on the seeds alone.

The recording was made once with the code before the playouts were made faster (issue 39, item 2):

    .venv/bin/python tests/players/test_sampler_moves.py --record
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from arena import Game, Rules
from players.heuristic import HeuristicBot
from players.sampler import SamplerBot
from players.simple import HighBot, LowBot, RandomBot

RECORDING = Path(__file__).with_name("sampler_moves.json")
OTHERS = {"heuristic": HeuristicBot, "low": LowBot, "high": HighBot, "random": RandomBot}
TABLES = [
    # (preset, overrides, seats, worlds): each played from the three deal seeds of SEEDS
    ("getaway", {}, ("sampler", "heuristic", "heuristic", "heuristic"), 120),
    ("getaway", {}, ("heuristic", "sampler", "low", "random"), 16),
    ("getaway", {}, ("sampler", "high", "sampler"), 16),
    ("getaway", {"escape": "draw_next_hand"}, ("low", "sampler", "heuristic", "high", "random"), 16),
    ("getaway", {"escape": "pass_if_3plus", "direction": "anticlockwise"},
     ("sampler", "random", "heuristic", "heuristic"), 16),
    ("playnest", {}, ("random", "heuristic", "sampler", "low", "high", "heuristic"), 12),
    ("playnest", {"first_trick": "normal"}, ("sampler", "heuristic", "heuristic", "sampler"), 16),
    ("champions", {}, ("heuristic", "heuristic", "sampler", "heuristic"), 16),
    ("champions", {"simultaneous": "highest_loses", "drawn_cut_loses": True}, ("sampler", "low", "heuristic"), 16),
    ("bhabho", {}, ("heuristic", "sampler", "random", "heuristic", "high"), 12),
    ("getaway", {"escape": "pass"}, ("sampler", "heuristic", "heuristic", "heuristic"), 24),
]
SEEDS = (1, 2, 3)
GAMES = [(preset, overrides, seats, 100 * t + seed, worlds)
         for t, (preset, overrides, seats, worlds) in enumerate(TABLES) for seed in SEEDS]


def play(preset: str, overrides: dict, seats: tuple[str, ...], seed: int, worlds: int) -> dict:
    """One game from its seed; every sampler decision's card and per-move totals."""
    rules = Rules.preset(preset, **overrides)
    bots = [SamplerBot(seed=seed * 10 + i, worlds=worlds, cap_ms=600_000.0, solver_share=0.0)
            if name == "sampler" else OTHERS[name](seed * 10 + i) for i, name in enumerate(seats)]
    game = Game.deal(rules, len(seats), seed=seed)
    for i, bot in enumerate(bots):
        bot.new_game(game.view(i))
    moves: list[str] = []
    digest = hashlib.sha256()
    while not game.is_over:
        seat = game.current
        bot = bots[seat]
        view = game.view(seat)
        action = bot.act(view)
        if isinstance(bot, SamplerBot) and game.decision == "play" and len(view.legal) > 1:
            moves.append(f"{seat}:{action}")
            digest.update(repr(bot.last.get("totals")).encode())
        game.apply(action)
    return {"moves": moves, "totals": digest.hexdigest()}


def _key(preset: str, overrides: dict, seats: tuple[str, ...], seed: int, worlds: int) -> str:
    return json.dumps([preset, overrides, list(seats), seed, worlds], sort_keys=True)


@pytest.mark.parametrize("game", GAMES, ids=[f"{g[0]}-{g[3]}" for g in GAMES])
def test_the_sampler_chooses_the_recorded_moves(game):
    recorded = json.loads(RECORDING.read_text())[_key(*game)]
    got = play(*game)
    first = next((i for i, (a, b) in enumerate(zip(got["moves"], recorded["moves"])) if a != b), None)
    assert got["moves"] == recorded["moves"], f"first different decision: {first}"
    assert got["totals"] == recorded["totals"], "the same cards, but some playout scored differently"


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    RECORDING.write_text(json.dumps({_key(*g): play(*g) for g in GAMES}, indent=1, sort_keys=True) + "\n")
    print(f"recorded {len(GAMES)} games in {RECORDING}")
