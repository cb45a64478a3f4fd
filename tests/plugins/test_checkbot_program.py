"""`arena check-bot` for program bots (docs/protocol.md): the handshake, timing, determinism and faults,
with protocol-level messages that name the line."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from arena.plugins.checkbot import check_bot
from arena.plugins.registry import load
from arena.sandbox.limits import detect

BOTS = Path(__file__).resolve().parents[1] / "program_bots"
pytestmark = pytest.mark.skipif(not detect().available("forkserver") or not os.path.exists("/usr/bin/python3"),
                                reason="program bots need the fork server and /usr/bin/python3")


def _rows(name: str) -> dict:
    report = check_bot(name, registry=load(autoload=False), games=1, presets=["getaway", "bhabho"], table_sizes=[3])
    return {row.check: row for row in report.rows}


def _hostile(tmp_path: Path, mode: str) -> str:
    shutil.copy(BOTS / "hostile" / "bot.py", tmp_path / "bot.py")
    (tmp_path / "bot.toml").write_text(f'command = ["/usr/bin/python3", "-S", "bot.py"]\n[options]\nmode = "{mode}"\n')
    return f"program:{tmp_path}"


def test_a_good_program_passes_and_its_hello_is_shown():
    rows = _rows(f"program:{BOTS / 'lowest'}")
    assert all(row.ok is not False for row in rows.values()), rows
    assert "said hello as lowest version 1, protocol 1" in rows["loads"].detail
    assert rows["deterministic"].ok and rows["time"].ok


@pytest.mark.parametrize("mode,row,words", [
    ("garbage", "legal answers", ("malformed: line 4 is not JSON: 'thinking...'",)),
    ("illegal", "legal answers", ("illegal: line 4: answered ", ", a card not in the hand (legal: ")),
    ("protocol2", "loads", ("line 1: the program speaks protocol 2, expected 1",)),
])
def test_a_faulty_program_fails_naming_the_line(tmp_path, mode, row, words):
    rows = _rows(_hostile(tmp_path, mode))
    assert rows[row].ok is False
    for part in words:
        assert part in rows[row].detail, rows[row].detail
