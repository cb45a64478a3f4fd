"""A large results folder for timing ``arena ratings``: real games, their rows copied over in SQLite.

    .venv/bin/python benchmarks/ratings_folder.py /tmp/big100k --games 100000

Plays a round robin of random, low, high, heuristic and a second random at 3
and 4 players (getaway, in-process, seed 3; 100 deals a table: 5,000 games),
then copies the ``games``, ``seats`` and ``faults`` rows of those games over
and over (each copy's indices and game ids shifted) until ``--games`` are
stored. TrueSkill does not care that games repeat: the tables are a function
of the rows, so the folder times the rating of that many games.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys
from pathlib import Path

os.environ.setdefault("ARENA_DISABLE_PLUGIN_AUTOLOAD", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.plugins.registry import load
from arena.tournament.event import Tournament
from arena.tournament.executors import make_executor
from arena.tournament.spec import spec_from_dict

SPEC = {"name": "big", "players": ["random", "low", "high", "heuristic", "random#2"], "table_sizes": [3, 4],
        "deals": 100, "seed": 3, "jobs": 1, "batch": 8, "sandbox": "never"}


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in db.execute(f"PRAGMA table_info({table})")]


def build(out: Path, games: int) -> int:
    """Play the round robin into ``out`` (replaced) and copy its rows up to ``games``; the games played."""
    if out.exists():
        shutil.rmtree(out)
    spec = spec_from_dict(SPEC, "bench")
    executor = make_executor(spec)
    try:
        Tournament.create(spec, out, load()).run(executor)
    finally:
        executor.shutdown()
    db = sqlite3.connect(out / "results.sqlite")
    n = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    shifted = {"idx": "idx + {k}", "game_id": "game_id || '-{c}'"}
    with db:
        for c in range(1, -(-games // n)):
            for table in ("games", "seats", "faults"):
                cols = ", ".join(shifted.get(col, col) for col in _columns(db, table)).format(k=c * n, c=c)
                db.execute(f"INSERT INTO {table} SELECT {cols} FROM {table} WHERE idx < {n}")
        for table in ("faults", "seats", "games"):
            db.execute(f"DELETE FROM {table} WHERE idx >= ?", (games,))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return n


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the results folder to make (replaced if it exists)")
    parser.add_argument("--games", type=int, default=100_000, help="games stored in the end")
    args = parser.parse_args(argv)
    played = build(args.folder, args.games)
    print(f"{played} games played, {args.games} stored in {args.folder}")


if __name__ == "__main__":
    main()
