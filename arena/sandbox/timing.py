"""A seat's clock for one game: the per-decision limit and the optional bank.

A decision is judged on the bot process's CPU time, with a wall-clock cap of
:data:`WALL_FACTOR` times the allowance, so a loaded machine does not produce
false timeouts while a bot that sleeps still cannot stall the table. Both are
folded into one figure, the *charged* time ``max(cpu, wall / WALL_FACTOR)``:

- a decision may be charged ``decision + bank`` seconds; more is a timeout;
- what it is charged beyond ``decision`` comes off the bank for the rest of
  the game (a timeout empties the bank).

``None`` for the decision limit means "not limited" (then the bank is unused).
"""

from __future__ import annotations

from dataclasses import dataclass

WALL_FACTOR = 3.0


@dataclass(slots=True)
class Clock:
    """Mutable per-game state: the decision limit and what is left of the bank (seconds)."""

    decision: float | None
    bank: float = 0.0

    @classmethod
    def from_limits(cls, limits) -> Clock:
        """A fresh game's clock from a LimitsSpec-like object (``decision_ms``, ``bank_ms``)."""
        decision = limits.decision_ms / 1000 if limits.decision_ms else None
        return cls(decision, (limits.bank_ms or 0) / 1000)

    @property
    def allowed(self) -> float | None:
        """The most a decision may be charged now (seconds), or None."""
        return None if self.decision is None else self.decision + self.bank

    @property
    def wall_cap(self) -> float | None:
        """The wall-clock time after which the harness stops waiting."""
        allowed = self.allowed
        return None if allowed is None else WALL_FACTOR * allowed

    def charge(self, cpu: float, wall: float) -> str | None:
        """Charge one decision; None if it was in time, else why it was a timeout."""
        decision = self.decision
        if decision is None or (cpu <= decision and wall <= WALL_FACTOR * decision):
            return None  # the usual case: within the decision limit, the bank untouched
        allowed, charged = decision + self.bank, charged_time(cpu, wall)  # self.allowed, before the charge
        self.bank = max(0.0, self.bank - max(0.0, charged - decision))
        if charged <= allowed:
            return None
        if cpu >= wall / WALL_FACTOR:
            return f"used {cpu:.3f} s of CPU time (allowed {allowed:.3f} s)"
        return (f"took {wall:.3f} s of wall-clock time (cap {WALL_FACTOR:g} x "
                f"{allowed:.3f} s)")


def charged_time(cpu: float, wall: float) -> float:
    """What a decision costs against the clock: CPU time, or a third of the wall time."""
    return max(cpu, wall / WALL_FACTOR)


def not_ready(startup: float, detail: str) -> str:
    """A start-up timeout's detail: the limits it broke, then what was seen."""
    return (f"not ready within {startup:.3f} s of CPU time or {WALL_FACTOR:g} x that "
            f"of wall-clock time; {detail}")
