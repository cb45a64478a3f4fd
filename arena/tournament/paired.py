"""The paired format: two candidates play the same deals, seats, opponents and bot seeds.

Deal ``d`` draws ``n - 1`` opponents from the field (a seeded draw per deal),
shuffles the circle round the table as every format does (:func:`seating`),
and is played ``2 n`` times: candidate A in each cyclic rotation, then B in the
same ``n`` games with A's place taken by B. The bot seeds are keyed with the
candidate's seat named ``candidate`` rather than A or B, so the field's bots and
the candidate's get the same seeds in both halves: the two halves of a deal
differ only in the candidate's code. Game indices follow
:func:`arena.results.paired.game_index`, so deal ``d``'s games come before deal
``d + 1``'s and a sequential test can stop after any deal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from arena.game.seeds import canonical, derive_seed
from arena.results.paired import game_index
from arena.tournament.schedule import Cell, Format, GameSpec, _fail, _names, register, seating

SEED_NAME = "candidate"
"""The name both candidates' seat is keyed with (no player can be called that: it is not in the pool)."""


@register
@dataclass(frozen=True, slots=True, kw_only=True)
class Paired(Format):
    """Candidates A and B (exactly two) on the same deals against opponents drawn from the field.

    ``deals`` is the cap: the schedule has ``2 * n * deals`` games, played in
    deal order; one table size and one rule set.
    """

    name: ClassVar[str] = "paired"
    prefix: ClassVar[str] = "p"

    candidates: tuple[str, ...]
    field: tuple[str, ...]

    def _validate(self) -> None:
        self._set("candidates", _names(self.name, "candidates", self.candidates))
        self._set("field", _names(self.name, "field", self.field, empty=True))
        if len(self.candidates) != 2:
            raise _fail(self.name, "candidates", "two players, A and B", list(self.candidates))
        if set(self.candidates) & set(self.field):
            raise _fail(self.name, "field", "a list without the candidates", list(self.field))
        if len(self.table_sizes) != 1:
            raise _fail(self.name, "table_sizes", "one table size", list(self.table_sizes))
        if len(self.rules) != 1:
            raise _fail(self.name, "rules", "one rule set", list(self.rules))
        if self.budget is not None:
            raise _fail(self.name, "budget", "unset (deals caps a comparison)", self.budget)

    @property
    def size(self) -> int:
        return self.table_sizes[0]

    def cells(self) -> list[Cell]:
        pool = self._fill(self.field, self.size - 1, self.candidates, "field players", self.size)
        return [Cell(f"{self.prefix}-0-{self.size}p", self.rules[0], self.size, pool, ((SEED_NAME,),))]

    def opponents(self, deal: int) -> tuple[str, ...]:
        """The field players of deal ``deal``, in the pool's order."""
        pool = self.cells()[0].pool
        drawn = set(random.Random(derive_seed(self.seed, "paired-field", deal)).sample(pool, self.size - 1))
        return tuple(p for p in pool if p in drawn)

    def games(self) -> list[GameSpec]:
        n, rules, specs = self.size, self.rules[0], []
        for deal in range(self.deals):
            deal_seed = derive_seed(self.seed, "paired-deal", canonical(rules), n, deal)
            circle = seating((SEED_NAME, *self.opponents(deal)), deal_seed)
            for side, candidate in enumerate(self.candidates):
                for r in range(n):
                    keyed = tuple(circle[(s - r) % n] for s in range(n))
                    seats = tuple(candidate if p == SEED_NAME else p for p in keyed)
                    game_id = f"{self.prefix}-{n}p-d{deal}-{'ab'[side]}-r{r}"
                    specs.append(GameSpec(game_index(deal, side, r, n), game_id,
                                          rules, seats, deal_seed, r, seed_names=keyed))
        return specs

    def count(self) -> int:
        return 2 * self.size * self.deals

    @property
    def sampled(self) -> bool:
        return False

    def _who(self) -> str:
        return f"{self.candidates[0]} against {self.candidates[1]}, {len(self.field)} field players"

    def describe(self) -> str:
        return (f"{self.name}: {self._who()}; {self.size} seats; seed {self.seed}: up to {self.deals} deals, "
                f"{self.count()} games (each deal {self.size} rotations for each candidate)")
