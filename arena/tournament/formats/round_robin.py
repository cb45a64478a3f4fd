"""Round robin: every combination of distinct players at every table size and rule set."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from arena.tournament.formats.base import Format, check_names
from arena.tournament.schedule import Cell


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundRobin(Format):
    """Every combination of distinct players at every table size and rule set."""

    name: ClassVar[str] = "round-robin"
    prefix: ClassVar[str] = "rr"

    players: tuple[str, ...]

    @classmethod
    def entrants(cls, spec) -> dict[str, Any]:
        return {"players": spec.players}

    def _validate(self) -> None:
        self._set("players", check_names(self.name, "players", self.players))

    def _cell(self, label: str, rules: Any, size: int) -> Cell:
        return Cell(label, rules, size, self._fill(self.players, size, (), "players", size))

    def _who(self) -> str:
        return f"{len(self.players)} players"
