"""The one reply type, from the wire up to the referee.

Whatever a bot does, each layer hands the one above a :class:`Reply`: the
wire for one frame, a bot process for one request, a client for one call.
Failures are data (a :class:`~arena.game.status.Status` other than ``ok``),
never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.game.status import Status


@dataclass(frozen=True, slots=True)
class Reply:
    """One answer: ``status`` ok (``value`` holds it) or a fault kind; CPU and wall seconds."""

    status: Status
    value: Any = None
    cpu: float = 0.0
    wall: float = 0.0
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status == Status.OK
