"""Do two trees play the same games through the referee? Old code against new, built-in bots.

    git worktree add --detach ../base main
    .venv/bin/python benchmarks/same_games.py --base ../base --games 2000

Each tree plays the same games in a fresh subprocess (its own ``arena`` and
``players`` first on the path) with :func:`arena.bots.referee.play_game` and
in-process clients: every preset at every table size it allows, seats drawn
from random, low, high, heuristic and a flaky bot (defined here) that now and
then raises, answers nonsense or an illegal card, prints, and takes at random.
Each record, less its ``timings`` (CPU times differ from run to run), its
bots' logs with the tree's folder left out, as ``json.dumps`` gives it (key
order included), is hashed; the script prints
how many games differ, and exits non-zero when any does. (benchmarks/same_records.py
compares the engine alone.)
"""

from __future__ import annotations

import argparse
from pathlib import Path

from same_records import compare
PLAY = r"""
import hashlib, json, random, sys
tree, games = sys.argv[1], int(sys.argv[2])
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
sys.path.insert(0, tree)
from arena import Bot, PlayerSpec
from arena.bots.referee import InProcessClient, play_game
from arena.game.rules import PRESETS
from arena.plugins.registry import load


class Flaky(Bot):
    def play(self, view):
        r = self.rng.random()
        if r < 0.02:
            raise RuntimeError("flaky")
        if r < 0.04:
            print("flaky prints", view.hand_sizes)
            return "nonsense"
        if r < 0.06:
            return [c for c in view.hand if c not in view.legal][:1] or view.legal[0]
        return view.legal[self.rng.randrange(len(view.legal))]

    def take(self, view):
        return self.rng.random() < 0.5


registry = load(autoload=False)
specs = {n: registry.get(n) for n in ("random", "low", "high", "heuristic")}
specs["flaky"] = PlayerSpec("flaky", Flaky, trusted=True)
rng = random.Random(2026)
presets = list(PRESETS)
for g in range(games):
    rules = PRESETS.rules(presets[g % len(presets)])
    lo, hi = rules.seat_range
    names = [rng.choice(list(specs)) for _ in range(rng.randint(lo, hi))]
    clients = [InProcessClient(specs[n]) for n in names]
    record = play_game(rules, clients, rng.getrandbits(40), dealer=rng.randrange(len(names)), names=names)
    record.pop("timings")
    if "logs" in record:   # what the bots printed, and their tracebacks (which name the tree's files)
        record["logs"] = [text.replace(tree, "TREE") for text in record["logs"]]
    print(g, hashlib.sha256(json.dumps(record).encode()).hexdigest()[:16])
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, type=Path, help="a checkout of the code to compare against")
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args(argv)
    compare(args.base, args.games, PLAY, {"ARENA_DISABLE_PLUGIN_AUTOLOAD": "1"})


if __name__ == "__main__":
    main()
