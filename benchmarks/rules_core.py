"""The rules core, old code against new, back to back in one run: engine games, State copies, playouts.

    git worktree add --detach ../base main          # the code to compare against
    .venv/bin/python benchmarks/rules_core.py --base ../base [--new .] [--rounds 9]

Each round runs the measuring script once with each tree (which goes first swaps every round), in a
fresh subprocess with the tree's own ``arena`` and ``players`` first on the path, so both see the same
machine load; the medians over the rounds are printed with new / old, and the median of each round's own
new / old (the two runs of a round back to back) with its range, and the least of each tree's rounds (a
load only ever adds time, so on a shared machine the least is the steadiest). Every figure is CPU time
(``time.process_time``), the least of ``--repeats`` runs (default 5) inside a subprocess:

- engine: ``Game.deal`` and uniformly random legal play through ``Game.legal_actions``/``apply``
  (no JSON record), us a game, for getaway (4 players), bhabho (5: the take phase), donkey (4:
  trumps), champions (4: the shootout) and playnest (6), and their sum;
- copy: ``State.copy()`` of sampled-world states (``players.playout.World``) taken from those games
  at random points, ns a copy;
- state: ``State(rules, ...)`` made for a sampled world (what ``players.playout.playout_state`` does
  before ``resume``), ns each;
- playout: what the sampler does for each world and move: a copy, a fresh ``PlayoutRandom``, the
  heuristic policy at every seat to the end (``players.playout.play_out``), us a playout.

Each subprocess also prints a checksum of every game's loser and every playout's end; the script
says whether the trees' checksums agree (they must: the same seeds play the same games).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
MEASURE = r"""
import hashlib, random, sys, time
tree, repeats = sys.argv[1], int(sys.argv[2])
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
sys.path.insert(0, tree)
from arena.game.engine import Game
from arena.game.rules import PRESETS
from arena.game.state import State
from players.playout import PlayoutRandom, World, play_out
from players.policy import HEURISTIC

TABLES = (("getaway", 4, 1500), ("bhabho", 5, 600), ("donkey", 4, 1000), ("champions", 4, 1000),
          ("playnest", 6, 600))
digest = hashlib.sha256()


def games(name, players, count, keep=None):
    rules, rng = PRESETS[name], random.Random(7)
    for g in range(count):
        game = Game.deal(rules, players, 1000 + g)
        state, stop, plays = game.state, rng.randrange(4, 40), 0
        while state.cur is not None:
            legal = game.legal_actions()
            game.apply(legal[int(rng.random() * len(legal))])
            plays += 1
            if plays == stop and keep is not None and state.cur is not None and state.decision == "play":
                keep.append((World.of(state), rules))      # one world a game, at a random point
        digest.update(repr((state.loser, state.reason, len(game.events))).encode())


def least(fn):
    best = None
    for _ in range(repeats):
        t = time.process_time()
        fn()
        t = time.process_time() - t
        best = t if best is None else min(best, t)
    return best


figures, worlds = {}, []
for name, players, count in TABLES:
    games(name, players, count, worlds)                 # warm-up, and the worlds
total = 0.0
for name, players, count in TABLES:
    t = least(lambda: games(name, players, count))
    figures[f"engine {name} {players}p, us a game"] = t / count * 1e6
    total += t / count * 1e6
figures["engine, sum of the five, us"] = total
worlds = random.Random(1).sample(worlds, 3000)        # of every table
made = [(w.n, w.hands, w.pile, w.out, w.trump, rules) for w, rules in worlds]
worlds = [w for w, _ in worlds]


def copies():
    for _ in range(4):
        for w in worlds:
            w.copy(); w.copy(); w.copy(); w.copy(); w.copy()


figures["State.copy, ns a copy"] = least(copies) / (20 * len(worlds)) * 1e9


def states():
    for _ in range(4):
        for n, hands, pile, out, trump, rules in made:
            World(rules, n, None, 0, hands, pile, out, trump)


figures["State(...) for a world, ns each"] = least(states) / (4 * len(made)) * 1e9
kinds = {n: (HEURISTIC,) * n for n in range(3, 9)}


def playouts(check=False):
    for i, w in enumerate(worlds):
        s = w.copy()
        s.rng = PlayoutRandom(i)
        play_out(s, kinds[s.n])
        if check:
            digest.update(repr((s.loser, s.reason, s.out)).encode())


playouts(True)
figures["playout (copy + play_out), us each"] = least(playouts) / len(worlds) * 1e6
print("worlds", len(worlds))
print("checksum", digest.hexdigest())
for k, v in figures.items():
    print(f"{k}\t{v!r}")
"""


def run(tree: Path, repeats: int) -> tuple[dict[str, float], str]:
    done = subprocess.run([sys.executable, "-c", MEASURE, str(tree), str(repeats)], capture_output=True,
                          text=True, env={"ARENA_DISABLE_PLUGIN_AUTOLOAD": "1", "PATH": "/usr/bin:/bin"}, check=False)
    if done.returncode:
        sys.exit(f"the measuring script failed on {tree}:\n{done.stderr}")
    figures, checksum = {}, ""
    for line in done.stdout.splitlines():
        if line.startswith("checksum "):
            checksum = line.split()[1]
        elif "\t" in line:
            k, v = line.split("\t")
            figures[k] = float(v)
    return figures, checksum


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, type=Path, help="a checkout of the code to compare against")
    parser.add_argument("--new", type=Path, default=HERE, help="the checkout to measure (default: this one)")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeats", type=int, default=5, help="runs of each figure in a subprocess (the least kept)")
    args = parser.parse_args(argv)
    trees = {"old": args.base.resolve(), "new": args.new.resolve()}
    figures: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    sums: dict[str, set[str]] = {"old": set(), "new": set()}
    for r in range(args.rounds):
        for label, tree in (list(trees.items()) if r % 2 == 0 else list(trees.items())[::-1]):
            got, checksum = run(tree, args.repeats)
            sums[label].add(checksum)
            for k, v in got.items():
                figures[label].setdefault(k, []).append(v)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    print(f"medians of {args.rounds} rounds (CPU), old = {trees['old']}, new = {trees['new']}; "
          f"paired: the median of the rounds' own new/old (each round's two runs back to back), its range; "
          f"least: of each tree's rounds")
    for k, old in figures["old"].items():
        new = figures["new"][k]
        a, b = statistics.median(old), statistics.median(new)
        paired = sorted(y / x for x, y in zip(old, new))
        print(f"  {k:38s} old {a:9.2f}   new {b:9.2f}   new/old {b / a:6.3f}   paired {statistics.median(paired):6.3f} "
              f"({paired[0]:.3f}-{paired[-1]:.3f})   least: old {min(old):9.2f} new {min(new):9.2f} "
              f"new/old {min(new) / min(old):6.3f}")
    same = len(sums["old"]) == len(sums["new"]) == 1 and sums["old"] == sums["new"]
    print("  games and playouts identical (checksums):", same)
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
