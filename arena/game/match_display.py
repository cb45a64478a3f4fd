"""A match told hand by hand: each hand as :func:`arena.game.display.describe` tells it, the running
score after it, and the final standings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.game.display import describe
from arena.game.match import MatchResult, hand_points
from arena.game.result import Result


def _seat(names: Sequence[str], seat: int) -> str:
    return f"{names[seat]}[{seat}]"


def hand_lines(hand: dict[str, Any], score: str) -> list[str]:
    """One hand of a match (its game record, which carries the ``match`` score before it)."""
    before = hand["match"]
    names = hand["names"]
    points = hand_points(Result.from_dict(hand["result"]), score)
    totals = [a + b for a, b in zip(before["scores"], points)]
    lines = [f"== Hand {before['hand'] + 1} of a match to {before['points']} ({before['score']}), "
             f"dealer {_seat(names, hand['dealer'])} =="]
    lines += describe(hand)
    running = ", ".join(f"{_seat(names, s)} {t} (+{p})" for s, (t, p) in enumerate(zip(totals, points)))
    lines.append(f"Score after hand {before['hand'] + 1}: {running}")
    return lines


def result_lines(record: dict[str, Any]) -> list[str]:
    """The end of a match record: why it ended, the standings and the winner(s)."""
    result = MatchResult.from_dict(record["result"])
    names = record["names"]
    why = (f"someone reached {record['match']['points']}" if result.reason == "points"
           else f"the limit of {record['match']['max_hands']} hands")
    lines = [f"Match over after {result.hands} hand(s): {why}. Lowest total wins "
             f"(ties: fewer Bhabhis, then the place is shared)."]
    for seat in result.order:
        lines.append(f"  {result.ranks[seat] + 1}. {_seat(names, seat)}: {result.scores[seat]} point(s), "
                     f"Bhabhi {result.bhabhis[seat]} time(s)")
    winners = " and ".join(_seat(names, s) for s in result.winners)
    lines.append(f"Winner: {winners}" if len(result.winners) == 1 else f"Shared win: {winners}")
    return lines


def describe_match(record: dict[str, Any]) -> list[str]:
    """A whole match record, hand by hand, then its standings."""
    lines: list[str] = []
    for hand in record["hands"]:
        lines += hand_lines(hand, record["match"]["score"])
        lines.append("")
    return lines + result_lines(record)
