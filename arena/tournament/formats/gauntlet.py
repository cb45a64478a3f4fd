"""Gauntlet: each candidate at every table, against combinations of the field.

In a tournament spec the field is every player who is not a candidate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from arena.tournament.errors import ScheduleError
from arena.tournament.formats.base import Format, check_names, fail
from arena.tournament.schedule import Cell


@dataclass(frozen=True, slots=True, kw_only=True)
class Gauntlet(Format):
    """Each candidate at every table, against combinations of the field."""

    name: ClassVar[str] = "gauntlet"
    prefix: ClassVar[str] = "g"
    reads: ClassVar[tuple[str, ...]] = ("players", "candidates")
    spec_keys: ClassVar[Mapping[str, str]] = MappingProxyType({"field": "players"})

    candidates: tuple[str, ...]
    field: tuple[str, ...]

    @classmethod
    def entrants(cls, spec) -> dict[str, Any]:
        if not spec.candidates:
            raise ScheduleError("a gauntlet expects at least one candidate (got none)", fmt=cls.name,
                                param="candidates")
        field_ = tuple(p for p in spec.players if p not in spec.candidates)
        return {"candidates": spec.candidates, "field": field_}

    def _validate(self) -> None:
        self._set("candidates", check_names(self.name, "candidates", self.candidates))
        self._set("field", check_names(self.name, "field", self.field, empty=True))
        both = [c for c in self.candidates if c in self.field]
        if both:
            raise fail(self.name, "field", "a list without the candidates", list(self.field))

    def _cell(self, label: str, rules: Any, size: int) -> Cell:
        pool = self._fill(self.field, size - 1, self.candidates, "field players", size)
        return Cell(label, rules, size, pool, tuple((c,) for c in self.candidates))

    def _who(self) -> str:
        return f"{len(self.candidates)} candidate(s) against {len(self.field)} field players"
