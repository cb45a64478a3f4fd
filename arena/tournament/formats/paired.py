"""Paired: two candidates play the same deals, seats, opponents and bot seeds.

Deal ``d`` draws ``n - 1`` opponents from the field (a seeded draw per deal),
shuffles the circle round the table as every format does (:func:`seating`),
and is played ``2 n`` times: candidate A in each cyclic rotation, then B in the
same ``n`` games with A's place taken by B. The bot seeds are keyed with the
candidate's seat named ``candidate`` rather than A or B, so the field's bots and
the candidate's get the same seeds in both halves: the two halves of a deal
differ only in the candidate's code. Game indices follow
:func:`arena.results.stats.paired.game_index`, so deal ``d``'s games come before deal
``d + 1``'s and a sequential test can stop after any deal. In a tournament
spec the field is every player who is not a candidate; ``deals`` is the cap.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from arena.game.seeds import sample_seed, schedule_deal_seed
from arena.results.stats.paired import game_index, unit_of
from arena.tournament.formats.base import fail
from arena.tournament.formats.gauntlet import Gauntlet
from arena.tournament.schedule import Cell, GameSpec, seating

SEED_NAME = "candidate"
"""The name both candidates' seat is keyed with in the bot seeds (never a seat's name: not in the pool)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Paired(Gauntlet):
    """A gauntlet of exactly two candidates, A and B, on the same deals against opponents drawn from the field.

    The schedule has ``2 * n * deals`` games in deal order; one table size and one rule set.
    """

    name: ClassVar[str] = "paired"
    prefix: ClassVar[str] = "p"

    def _validate(self) -> None:
        Gauntlet._validate(self)  # names, and no candidate in the field
        if len(self.candidates) != 2:
            raise fail(self.name, "candidates", "two players, A and B", list(self.candidates))
        if len(self.table_sizes) != 1:
            raise fail(self.name, "table_sizes", "one table size", list(self.table_sizes))
        if len(self.rules) != 1:
            raise fail(self.name, "rules", "one rule set", list(self.rules))
        if self.budget is not None:
            raise fail(self.name, "budget", "unset (deals caps a comparison)", self.budget)

    @property
    def size(self) -> int:
        return self.table_sizes[0]

    def _cell(self, label: str, rules: Any, size: int) -> Cell:
        pool = self._fill(self.field, size - 1, self.candidates, "field players", size)
        return Cell(label, rules, size, pool, ((SEED_NAME,),))

    def opponents(self, deal: int) -> tuple[str, ...]:
        """The field players of deal ``deal``, in the pool's order."""
        pool = self.cells()[0].pool
        rng = random.Random(sample_seed(self.seed, f"{self.prefix}-field-d{deal}"))
        drawn = set(rng.sample(pool, self.size - 1))
        return tuple(p for p in pool if p in drawn)

    def iter_games(self) -> Iterator[GameSpec]:
        for deal in range(self.deals):
            yield from self._deal_games(deal)

    def _deal_games(self, deal: int) -> list[GameSpec]:
        """Deal ``deal``'s ``2 n`` games in index order: A's rotations, then B's."""
        n, rules, specs = self.size, self.rules[0], []
        opponents = self.opponents(deal)
        deal_seed = schedule_deal_seed(self.seed, rules, n, opponents, deal)
        circle = seating((SEED_NAME, *opponents), deal_seed)
        for side, candidate in enumerate(self.candidates):
            for r in range(n):
                keyed = tuple(circle[(s - r) % n] for s in range(n))
                seats = tuple(candidate if p == SEED_NAME else p for p in keyed)
                game_id = f"{self.prefix}-{n}p-d{deal}-{'ab'[side]}-r{r}"
                specs.append(GameSpec(game_index(deal, side, r, n), game_id, rules, seats, deal_seed, r,
                                      seed_names=keyed))
        return specs

    def play_order(self, games: Sequence[GameSpec]) -> list[GameSpec]:
        """Deal by deal (a sequential test stops after any deal), A's and B's rotations alternating:
        at any prefix the two candidates' game counts differ by at most one."""
        n = self.size
        return sorted(games, key=lambda g: (*unit_of(g.index, n)[:1], g.index % n, unit_of(g.index, n)[1]))

    def ordered(self) -> Iterator[GameSpec]:
        n = self.size
        for deal in range(self.deals):
            games = self._deal_games(deal)
            for r in range(n):
                yield games[r]
                yield games[n + r]

    def player_names(self) -> list[str]:
        return sorted({*self.candidates, *(p for deal in range(self.deals) for p in self.opponents(deal))})

    def count(self) -> int:
        return 2 * self.size * self.deals

    @property
    def sampled(self) -> bool:
        return False

    def describe(self) -> str:
        return (f"{self.name}: {self._who()}; {self.size} seats; seed {self.seed}: up to {self.deals} deals, "
                f"{self.count()} games (each deal {self.size} rotations for each candidate)")

    def _who(self) -> str:
        return f"{self.candidates[0]} against {self.candidates[1]}, {len(self.field)} field players"
