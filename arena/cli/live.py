"""What a long run shows on stderr as it goes: an interval (seconds or games) and one line per game.

Shared by ``arena compare`` (the LLR line) and ``arena tournament run|resume``
(the rating table): both parse ``--interval`` with :meth:`Interval.parse`, ask
an :class:`Pacer` whether the next report is due, and write ``--log-games``
lines with :func:`game_line`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from arena.cli.errors import UserError

_INTERVAL = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)([sg]?)$")
INTERVAL_HELP = "every N seconds (10 or 10s), or every N games stored with a g (200g)"


@dataclass(frozen=True, slots=True)
class Interval:
    """How often a live report is due: every ``every`` seconds, or games stored with ``by_games``."""

    every: float
    by_games: bool

    @classmethod
    def parse(cls, text: str) -> Interval:
        """``"10"`` or ``"10s"``: seconds; ``"200g"``: games. Anything else is a one-line UserError."""
        found = _INTERVAL.match(text.strip().lower())
        if found is None:
            raise UserError(f"--interval expects seconds or games with a g, e.g. 10, 10s or 200g (got {text!r})")
        every, by_games = float(found[1]), found[2] == "g"
        if not every > 0 or (by_games and every != int(every)):
            raise UserError(f"--interval must be above 0 (whole games with a g), e.g. 10 or 200g (got {text!r})")
        return cls(every, by_games)


class Pacer:
    """When the next live report is due, by the run's clock or by the games stored since the last."""

    def __init__(self, interval: Interval) -> None:
        self.interval = interval
        self.stored = self.last_games = 0
        self.last_seconds = 0.0

    def seconds_due(self, elapsed: float) -> bool:
        """True (and the clock restarted) when ``every`` seconds of the run have passed since the last."""
        if self.interval.by_games or elapsed - self.last_seconds < self.interval.every:
            return False
        self.last_seconds = elapsed
        return True

    def game_due(self) -> bool:
        """Count one game stored; True when ``every`` games have come since the last report."""
        self.stored += 1
        if not self.interval.by_games or self.stored - self.last_games < self.interval.every:
            return False
        self.last_games = self.stored
        return True


def game_line(game, record: dict) -> str:
    """One finished game for a log: number, id, seats, finishing order, Bhabhi and faults.

    ``game`` is the schedule's :class:`~arena.tournament.schedule.GameSpec`, ``record`` the stored record.
    """
    names, result = record["names"], record["result"]
    loser = "none (a draw)" if result["loser"] is None else names[result["loser"]]
    order = ", ".join(names[s] for s in result["order"])
    faults = [f"{names[seat]} {f['kind']}" for seat, fs in enumerate(record.get("faults") or []) for f in fs]
    return (f"game {game.index} {game.game_id}: seats {', '.join(names)}; out in order {order}; "
            f"Bhabhi {loser}; faults {', '.join(faults) if faults else 'none'}")
