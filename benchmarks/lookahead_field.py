"""The sampler looking one own decision further (players/lookahead.py), on the ladder's field (docs/training.md).

The modes are players.lookahead's: ``policies`` (the next own card by the one of heuristic, high and low
that is best over all worlds) and ``per-world`` (each world its own best next card). The games are
ladder_field.py's, so

    python benchmarks/lookahead_field.py run NAME DEALS FIRST policies     # writes /tmp/field-NAME-FIRST.json
    python benchmarks/ladder_field.py compare NAME SAMPLER_NAME             # paired, game by game
"""

from __future__ import annotations

import json
import sys

import ladder_field  # (benchmarks/ is the script's folder, so on the path)

from players.lookahead import MODES, LookaheadSampler


def main(argv: list[str]) -> None:
    if len(argv) != 5 or argv[0] != "run" or argv[4] not in MODES or not (argv[2] + argv[3]).isdigit():
        raise SystemExit(f"lookahead_field.py: expected run NAME DEALS FIRST {'|'.join(MODES)} (got {' '.join(argv)})")
    name, deals, first, mode = argv[1], int(argv[2]), int(argv[3]), argv[4]
    out = ladder_field.run(name, deals, first, make=lambda seed: LookaheadSampler(seed, mode=mode))
    with open(f"/tmp/field-{name}-{first}.json", "w") as f:
        json.dump(out, f)
    print(ladder_field.summary(name))


if __name__ == "__main__":
    main(sys.argv[1:])
