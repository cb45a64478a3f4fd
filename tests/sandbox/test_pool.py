"""Which game process may play which deal next: pool.goes_on and pool.spent, on stand-in processes."""

from __future__ import annotations

from dataclasses import dataclass, field

from arena.sandbox.pool import goes_on, spent


@dataclass
class Proc:
    """What goes_on reads of a BotProcess."""

    deals: set | None = field(default_factory=set)
    ready_info: dict | None = field(default_factory=dict)
    living: bool = True
    used: float | None = 0.5

    def alive(self) -> bool:
        return self.living

    def cpu(self) -> float | None:
        return self.used


def test_a_process_goes_on_only_to_a_deal_it_never_played():
    proc = Proc(deals={1, 2})
    assert goes_on(proc, 3, None) and goes_on(proc, 3, 10.0)
    assert not goes_on(proc, 1, None) and not goes_on(proc, 2, 10.0)


def test_a_process_does_not_go_on_when_the_deal_or_its_past_is_unknown_or_it_is_not_fit():
    assert not goes_on(Proc(), None, None)                    # the next game's deal unknown
    assert not goes_on(Proc(deals=None), 3, None)              # its own deals unknown: never reused
    assert not goes_on(Proc(ready_info=None), 3, None)         # never said ready
    assert not goes_on(Proc(living=False), 3, None)            # gone
    assert not goes_on(Proc(used=6.0), 3, 10.0)                # more than half its CPU backstop used
    assert goes_on(Proc(used=5.0), 3, 10.0) and goes_on(Proc(used=None), 3, 10.0)


def test_spent_is_more_than_half_the_backstop():
    assert spent(Proc(used=5.01), 10.0) and not spent(Proc(used=5.0), 10.0)
    assert not spent(Proc(used=99.0), None) and not spent(Proc(used=None), 10.0)
