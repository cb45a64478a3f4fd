"""The hostile-bot suite's shared pieces: limits, rules, the Table an attack is judged on."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from arena import Game, Rules
from arena.tournament.spec import LimitsSpec
from arena.plugins.registry import load
from arena.sandbox.client import SandboxClient
from arena.sandbox.limits import detect

BOTS = Path(__file__).parent / "bots"
FAST = LimitsSpec(decision_ms=200, bank_ms=0, startup_ms=10000, memory_mb=1024)
RULES = Rules.preset("getaway", max_faults=2)
CAPS = detect()
REGISTRY = load(autoload=False)


def needs(*layers: str):
    """Skip unless every named isolation layer works on this machine."""
    missing = [n for n in layers if not CAPS.available(n)]
    return pytest.mark.skipif(bool(missing), reason=f"layer unavailable here: {missing}")


@dataclass
class Table:
    """One game with a hostile bot at seat 0, as the harness observed it."""

    record: dict
    client: SandboxClient

    def faults(self, seat: int = 0) -> list[str]:
        return [f["kind"] for f in self.record["faults"][seat]]

    def details(self, seat: int = 0) -> list[str]:
        return [f["detail"] for f in self.record["faults"][seat]]

    @property
    def log(self) -> str:
        return self.client.log_text()

    def reports(self) -> list[dict]:
        """The ``REPORT {json}`` lines the hostile bot printed to its log."""
        return [json.loads(line[len("REPORT "):]) for line in self.log.splitlines()
                if line.startswith("REPORT ")]

    def timings(self, seat: int = 0) -> dict:
        return self.record["timings"][seat]


def check_unharmed(record: dict, honest: SandboxClient, sentinel) -> None:
    """The game completed and replays; the honest seats played clean; bystanders live."""
    assert sorted(record["result"]["order"]) == [0, 1, 2]
    assert Game.from_record(record).result is not None
    for seat in (1, 2):
        assert record["faults"][seat] == [], record["faults"][seat]
        assert record["timings"][seat]["decisions"] > 0
    assert honest.pid is not None and os.path.exists(f"/proc/{honest.pid}")
    assert sentinel.poll() is None
