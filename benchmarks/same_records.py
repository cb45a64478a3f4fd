"""Do two trees make the same game records? Old code against new, every preset and option, with faults.

    git worktree add --detach ../base main
    .venv/bin/python benchmarks/same_records.py --base ../base --games 3000

Each tree plays the same games in a fresh subprocess (its own ``arena`` first on
the path): dealt games of every preset at every table size it allows, each
with a random set of option changes drawn from ``CHOICES`` (``max_faults`` 1
to 3), random legal play and random faults (every kind), from seeds drawn by
one ``random.Random``. Each game's record, as ``json.dumps`` gives it (key
order included), is hashed; the script prints how many games differ (and the
first few), and exits non-zero when any does. Every record is also replayed
with the tree's own ``Game.from_record``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PLAY = r"""
import hashlib, json, random, sys
tree, games = sys.argv[1], int(sys.argv[2])
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
sys.path.insert(0, tree)
from arena.game.engine import Game
from arena.game.errors import RulesError
from arena.game.rules import CHOICES, PRESETS
from arena.game.status import FAULT_KINDS
rng = random.Random(2026)
names = list(PRESETS)
for g in range(games):
    rules = PRESETS.rules(names[g % len(names)])
    changes = {k: rng.choice(v) for k, v in CHOICES.items() if rng.random() < 0.3 and k != "decks"}
    changes["max_faults"] = rng.randint(1, 3)
    try:
        rules = rules.replace(**changes)
    except RulesError:
        rules = PRESETS.rules(names[g % len(names)])
    lo, hi = rules.seat_range
    game = Game.deal(rules, rng.randint(lo, hi), rng.getrandbits(40), dealer=0)
    fault_rate = rng.choice((0.0, 0.0, 0.02, 0.1))
    while not game.is_over:
        if rng.random() < fault_rate:
            game.apply_fault(rng.choice(FAULT_KINDS))
            continue
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    record = game.to_record(names=[f"p{s}" for s in range(game.players)], extra=g)
    text = json.dumps(record)
    assert json.dumps(Game.from_record(json.loads(text)).to_record(names=record["names"], extra=g)) == text
    print(g, hashlib.sha256(text.encode()).hexdigest()[:16])
"""


def hashes(tree: Path, games: int, play: str = PLAY, env: dict | None = None) -> list[str]:
    done = subprocess.run([sys.executable, "-c", play, str(tree), str(games)], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", **(env or {})}, check=False)
    if done.returncode:
        sys.exit(f"{tree}: {done.stderr.strip().splitlines()[-1]}")
    return done.stdout.split("\n")


def compare(base: Path, games: int, play: str = PLAY, env: dict | None = None) -> None:
    """Run ``play`` (a script printing a hash a game) against ``base`` and this tree; print how many
    differ and exit non-zero when any does (benchmarks/same_games.py uses it too)."""
    old, new = hashes(base.resolve(), games, play, env), hashes(HERE, games, play, env)
    differ = [a.split()[0] for a, b in zip(old, new) if a != b]
    print(f"{games} games: {games - len(differ)} records identical, {len(differ)} differ"
          + (f" (games {', '.join(differ[:10])})" if differ else ""))
    sys.exit(1 if differ or len(old) != len(new) else 0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, type=Path, help="a checkout of the code to compare against")
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args(argv)
    compare(args.base, args.games)


if __name__ == "__main__":
    main()
