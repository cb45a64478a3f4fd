"""Rewards from a game's result: minus the score the arena counts against a seat.

The three scores are the comparisons' (docs/compare.md, ``--score``;
:func:`arena.results.stats.paired.game_score`): ``bhabhi`` 1 for the Bhabhi,
``place`` the finishing place scaled to 0 (first out) .. 1 (last), ``penalty``
the 0-3 penalty points. A reward is that score negated, so more is better: 0
at best, -1 (``bhabhi``, ``place``) or -3 (``penalty``) at worst. A draw has
no Bhabhi; its tied seats share the place of the first of them.
"""

from __future__ import annotations

from arena.game.result import Result
from arena.rl.errors import EnvError

REWARDS = ("bhabhi", "place", "penalty")
WORST = {"bhabhi": -1.0, "place": -1.0, "penalty": -3.0}
"""The lowest reward of each kind (the highest is 0)."""


def check_reward(kind: str) -> str:
    """``kind`` if it names a reward, else :class:`EnvError` naming the known ones."""
    if kind not in REWARDS:
        raise EnvError(f"reward must be one of {', '.join(REWARDS)} (got {kind!r})")
    return kind


def rewards(result: Result, kind: str) -> tuple[float, ...]:
    """Each seat's reward of kind ``kind`` for a finished game."""
    n = len(result.order)
    if kind == "bhabhi":
        return tuple(-1.0 if seat == result.loser else 0.0 for seat in range(n))
    if kind == "place":
        return tuple(-r / (n - 1) for r in result.ranks)
    return tuple(-float(p) for p in result.penalty)
