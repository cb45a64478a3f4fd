"""The ladder's field in-process, for training and measuring the learned player.

The same tables as benchmarks/ladder_field.py: the candidate with three of
``heuristic``, ``high``, ``low``, ``random`` (the four combinations), 4-player
``getaway``, every seat rotation of each deal, deal seed ``base + d`` and bot
seeds ``deal_seed * 8 + seat``; game keys as that script writes them, so its
``compare`` pools these games with its own. Three ``heuristic`` players are a
fifth table (``three``): a heuristic player in the candidate's seat there is
the Bhabhi in exactly a quarter of the games.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

from arena import Bot, Game, Rules

from players.heuristic import HeuristicBot
from players.policy import HEURISTIC, HIGH, LOW, RANDOM
from players.simple import HighBot, LowBot, RandomBot

BOTS: dict[str, Callable[[int], Bot]] = {"heuristic": HeuristicBot, "high": HighBot, "low": LowBot, "random": RandomBot}
KINDS = {"heuristic": HEURISTIC, "high": HIGH, "low": LOW, "random": RANDOM}
LADDER = tuple(itertools.combinations(sorted(BOTS), 3))
"""The ladder's four tables of three opponents."""
THREE = ("heuristic", "heuristic", "heuristic")
LADDER_SEED = 6 * 1_000_003
"""benchmarks/ladder_field.py's first deal seed (its deal ``d`` is ``LADDER_SEED + d``)."""
RULES = Rules.preset("getaway")


def play(candidate, others: tuple[str, ...], seat: int, deal_seed: int, on_decision=None, timings=None) -> Game:
    """One game: ``candidate`` (a bot) at ``seat``, the named players in the other seats in order.

    ``on_decision(game, view)`` is called at each of the candidate's decisions before it acts;
    ``timings`` (a list) gets the CPU seconds of each of its play decisions with a choice."""
    names = list(others)
    names.insert(seat, "candidate")
    bots = [candidate if p == "candidate" else BOTS[p](deal_seed * 8 + i) for i, p in enumerate(names)]
    for b in bots:
        b.new_game(None)
    game = Game.deal(RULES, 4, seed=deal_seed)
    while not game.is_over:
        s = game.current
        view = game.view(s)
        if s == seat:
            if on_decision is not None:
                on_decision(game, view)
            t = time.thread_time()
            action = bots[s].act(view)
            if timings is not None and len(view.legal) > 1:
                timings.append(time.thread_time() - t)
        else:
            action = bots[s].act(view)
        game.apply(action)
    return game


def run(make_candidate, deals: range, base: int = LADDER_SEED, tables=LADDER, timings=None) -> dict[str, dict]:
    """The candidate's games on ``deals`` (every table of ``tables``, all 4 rotations), by key:
    ``{"lost": bool, "loser": name or None, "place": int or None}``. ``make_candidate(seed)``
    makes a fresh bot for each game (seeded as the seat's bot seed)."""
    games = {}
    for d in deals:
        deal_seed = base + d
        for others in tables:
            for r in range(4):
                seats = [("candidate", *others)[(i + r) % 4] for i in range(4)]
                me = seats.index("candidate")
                rest = tuple(p for p in seats if p != "candidate")
                game = play(make_candidate(deal_seed * 8 + me), rest, me, deal_seed, timings=timings)
                order = list(game.result.order)
                loser = game.result.loser
                games[f"d{d}-{'+'.join(others)}-r{r}"] = {
                    "lost": loser == me, "loser": None if loser is None else seats[loser],
                    "place": order.index(me) if me in order else None}
    return games


def losses(games: dict[str, dict]) -> int:
    return sum(g["lost"] for g in games.values())
