"""The one reply type, from the wire up to the referee.

Whatever a bot does, each layer hands the one above a :class:`Reply`: the
wire for one frame, a bot process for one request, a client for one call.
Failures are data (a :class:`~arena.game.status.Status` other than ``ok``),
never an exception.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from arena.game.status import Status


class Reply(NamedTuple):
    """One answer: ``status`` ok (``value`` holds it) or a fault kind; CPU and wall seconds.

    Immutable like every value object here, but a NamedTuple rather than a frozen
    dataclass: two are built on every sandboxed decision, and a NamedTuple is
    built in less than half the time (``arena bench sandbox``).
    """

    status: Status
    value: Any = None
    cpu: float = 0.0
    wall: float = 0.0
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status == Status.OK
