"""docs/training.md's OpenSpiel example (its ```py block) runs as shown."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "training.md"


def test_the_openspiel_example_runs(capsys):
    blocks = re.findall(r"^```py\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.M | re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], str(DOC), "exec"), {})
    assert capsys.readouterr().out.split("[")[1].strip("]\n") == "51"
