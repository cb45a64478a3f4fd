"""Train the learned player: rollout targets for every legal card, regressed by a small numpy network.

    python -m players.learned.train RUN_DIR [--minutes M] [--games G] [--seed S] ...
    python -m players.learned.train --ship RUN_DIR/weights-GAMES.npz [--gate G]    # becomes weights.npz

The method (one-step policy improvement over the heuristic player, distilled):
the learner plays 4-player ``getaway`` games in the ladder's field (at a
random seat, with three of ``heuristic``, ``high``, ``low``, ``random``, or
three ``heuristic`` players). At each of its play decisions with a choice it
computes its card features from its view (:mod:`players.learned.features`)
and, for each legal card, plays the game out once from the *true* position
(every hand known: this is training, not play) with that card first, then
every seat its own policy (the learner the heuristic policy) to the end, on
the rules core (:mod:`players.playout`). The outcome (1 for the Bhabhi, plus
0.05 x the finishing place) is that card's target. The network learns to
predict, from the view alone, the differences between the cards' targets
(:mod:`players.learned.net`): in expectation over the hidden cards, which card
loses least. It acts with the network (and at random in ``--explore`` of its
decisions) once it has trained; before that, as the heuristic player.

The next round of policy iteration: ``--continue-with WEIGHTS`` rolls the
learner out with that network instead of the heuristic policy
(:func:`players.learned.rollout.net_rollout`), and ``--init WEIGHTS`` starts the
new network from those weights rather than random ones.

Distilling a search instead: ``--teacher lookahead`` takes the targets of the
decisions with more than three players in from
:class:`players.lookahead.LookaheadSampler` (``--teacher-worlds`` sampled deals
consistent with the learner's *view*, its next own card by the best of three
policies over all of them): each card's mean score over the worlds. The
targets of the other decisions stay rollouts.

Resumable: every ``--chunk`` games it trains on a replay buffer of recent
decisions and writes ``RUN_DIR/checkpoint.npz`` (weights, optimiser state,
games played); run the same command again to go on (the buffer starts empty
again; deal seeds go on from the games played, none repeats). Every
``--eval-every`` games it measures the network (gated) on fixed deals of the
field, paired with the heuristic player on the same games, appends a line to
``RUN_DIR/log.jsonl`` and keeps ``RUN_DIR/weights-GAMES.npz``. numpy only.
"""

from __future__ import annotations

import argparse
import hashlib
import collections
import json
import random
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import multiprocess
import numpy as np

from arena import Bot

from players.heuristic import HeuristicBot
from players.learned.bot import WEIGHTS, LearnedBot, choose
from players.learned import field
from players.learned.features import card_features
from players.learned.net import Net
from players.learned.rollout import heuristic_rollout, net_rollout
from players.lookahead import LookaheadSampler
from players.policy import HEURISTIC

TRAIN_SEED = 91 * 1_000_003
"""Training deals are ``TRAIN_SEED + seed * 10_000_000 + game``: apart from the ladder's and the evaluation's."""
EVAL_SEED = 97 * 1_000_003
TABLES = (*field.LADDER, field.THREE)


def options(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m players.learned.train", description=__doc__.split("\n\n")[0])
    p.add_argument("run_dir", type=Path, nargs="?", help="where the checkpoint, log and weight snapshots go")
    p.add_argument("--minutes", type=float, default=None, help="stop after this much wall time (this run)")
    p.add_argument("--games", type=int, default=100_000, help="stop at this many training games in all")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--hidden", type=int, default=64, help="units per hidden layer")
    p.add_argument("--chunk", type=int, default=200, help="games between training rounds and checkpoints")
    p.add_argument("--steps", type=int, default=60, help="Adam steps per training round")
    p.add_argument("--batch", type=int, default=256, help="decisions per Adam step")
    p.add_argument("--buffer", type=int, default=60_000, help="decisions kept for replay")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--explore", type=float, default=0.05, help="share of decisions played at random")
    p.add_argument("--gate", type=float, default=0.02, help="the player's gate (written with the weights)")
    p.add_argument("--init", type=Path, default=None, metavar="FILE",
                   help="start from the weights in FILE instead of random ones (a new run only)")
    p.add_argument("--continue-with", type=Path, default=None, metavar="FILE",
                   help="in the rollouts the learner plays on with the net in FILE (its gate), not the "
                        "heuristic policy: the next round of policy iteration")
    p.add_argument("--teacher", choices=("rollout", "lookahead"), default="rollout",
                   help="where the targets of decisions with more than three players in come from: one rollout "
                        "per card from the true position, or the lookahead sampler over worlds of the view")
    p.add_argument("--teacher-worlds", type=_positive, default=30, help="worlds per decision of --teacher lookahead")
    p.add_argument("--workers", type=_positive, default=1, help="processes playing the training games (the same "
                   "games and results as one)")
    p.add_argument("--eval-every", type=int, default=5_000, help="training games between measurements")
    p.add_argument("--eval-deals", type=int, default=25, help="deals per measurement (20 games each)")
    p.add_argument("--ship", type=Path, default=None, metavar="FILE",
                   help="instead of training: copy weights FILE (with --gate) to the player's weights.npz "
                        "and print the digest for WEIGHTS_SHA256")
    return p.parse_args(argv)


def _positive(text: str) -> int:
    """A count of at least 1 (argparse reports the error on one line and exits with 2)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return int(text)


class Trainer:
    """The state of a run: the net, the buffer, the counters; :meth:`run` goes on from a checkpoint."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.dir: Path = args.run_dir
        self.dir.mkdir(parents=True, exist_ok=True)
        self.buffer: collections.deque = collections.deque(maxlen=args.buffer)
        self.np_rng = np.random.default_rng(args.seed)
        ckpt = self.dir / "checkpoint.npz"
        if ckpt.exists():
            self.net, arrays = Net.load(ckpt)
            self.games, self.trained = int(arrays["games"]), int(arrays["trained"])
            self.seconds = float(arrays["seconds"])
            self.np_rng = np.random.default_rng([args.seed, self.games])
        else:
            self.net = Net.new(args.hidden, self.np_rng)
            if args.init is not None:           # its weights, with a fresh optimiser
                self.net = Net({k: v.copy() for k, v in Net.load(args.init)[0].p.items()})
            self.games, self.trained, self.seconds = 0, 0, 0.0
        self.net.gate = args.gate
        self.rollout_net = Net.load(args.continue_with)[0] if args.continue_with is not None else None

    # ------------------------------------------------------------- the loop
    def run(self) -> None:
        """Train until ``--games`` or ``--minutes``; with ``--workers`` above 1 the chunk's games are played in
        that many processes (the same games and records: the net changes only between chunks)."""
        if self.args.workers > 1:   # (the workers leave Ctrl-C to this process, which stops them)
            with multiprocess.Pool(self.args.workers, initializer=signal.signal,
                                   initargs=(signal.SIGINT, signal.SIG_IGN)) as pool:
                self._run(pool)
        else:
            self._run(None)

    def _run(self, pool) -> None:
        args, start = self.args, time.monotonic()
        if self.games == 0:
            self.measure()
        while self.games < args.games:
            if args.minutes is not None and time.monotonic() - start > 60 * args.minutes:
                break
            t = time.monotonic()
            chunk = range(self.games, min(self.games + args.chunk, args.games))
            for records in pool.imap(self.learner().game, chunk) if pool else map(self.learner().game, chunk):
                self.buffer.extend(records)
            self.games += len(chunk)
            loss = self.train_round()
            self.seconds += time.monotonic() - t
            self.checkpoint()
            self.log({"games": self.games, "seconds": round(self.seconds), "loss": loss,
                      "buffer": len(self.buffer)})
            if self.games % args.eval_every < args.chunk:
                self.measure()

    def learner(self) -> Learner:
        """What the next training games play with (until the next training round)."""
        return Learner(self.args, self.net, self.trained, self.rollout_net)

    def train_round(self) -> float:
        """``--steps`` Adam steps on decisions drawn from the buffer; the mean loss."""
        args = self.args
        if len(self.buffer) < args.batch:
            return float("nan")
        total = 0.0
        for _ in range(args.steps):
            pick = self.np_rng.integers(0, len(self.buffer), args.batch)
            xs = [self.buffer[i][0] for i in pick]
            ys = [self.buffer[i][1] for i in pick]
            group = np.repeat(np.arange(args.batch), [len(y) for y in ys])
            total += self.net.train_step(np.concatenate(xs), np.concatenate(ys), group, args.batch, args.lr)
        self.trained += args.steps
        return total / args.steps

    # ------------------------------------------------------------ records
    def checkpoint(self) -> None:
        self.net.save(self.dir / "checkpoint.npz", extra={
            "games": np.array(self.games), "trained": np.array(self.trained),
            "seconds": np.array(self.seconds)})

    def log(self, line: dict) -> None:
        with open(self.dir / "log.jsonl", "a") as f:
            f.write(json.dumps(line) + "\n")
        print(json.dumps(line), flush=True)

    def measure(self) -> None:
        """The gated net against the heuristic player on ``--eval-deals`` fixed deals: the field's four
        tables and three heuristic players, the same games for both; a weight snapshot beside it."""
        snapshot = self.dir / f"weights-{self.games}.npz"
        self.net.save(snapshot)
        deals = range(self.args.eval_deals)
        base = self._baseline(deals)
        t = time.process_time()
        mine = field.run(lambda s: LearnedBot(s, weights=str(snapshot)), deals, EVAL_SEED, TABLES)
        ladder = [k for k in mine if "heuristic+heuristic+heuristic" not in k]
        three = [k for k in mine if k not in ladder]
        self.log({"games": self.games, "eval_seconds": round(time.process_time() - t, 1),
                  "field_lost": sum(mine[k]["lost"] for k in ladder), "field_games": len(ladder),
                  "heuristic_field_lost": sum(base[k]["lost"] for k in ladder),
                  "three_lost": sum(mine[k]["lost"] for k in three), "three_games": len(three),
                  "only_learned_lost": sum(mine[k]["lost"] and not base[k]["lost"] for k in mine),
                  "only_heuristic_lost": sum(base[k]["lost"] and not mine[k]["lost"] for k in mine)})

    def _baseline(self, deals: range) -> dict:
        path = self.dir / f"heuristic-{len(deals)}.json"
        if path.exists():
            return json.loads(path.read_text())
        games = field.run(HeuristicBot, deals, EVAL_SEED, TABLES)
        path.write_text(json.dumps(games))
        return games


@dataclass(frozen=True)
class Learner:
    """The run as a training game needs it: fixed between two training rounds, so games may be played in any
    process and order and give the same records."""

    args: argparse.Namespace
    net: Net
    trained: int
    """Adam steps so far (0: the learner plays the heuristic card, the net being untrained)."""
    rollout_net: Net | None

    def game(self, g: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """Training game ``g``: the learner's decisions with a choice, each its card features and targets."""
        rng = random.Random(f"{self.args.seed}-{g}")
        others = list(TABLES[rng.randrange(len(TABLES))])
        rng.shuffle(others)
        seat = rng.randrange(4)
        kinds = [field.KINDS[p] for p in others]
        kinds.insert(seat, HEURISTIC)
        explorer = _Explorer(self, g, rng, seat, kinds)
        field.play(explorer, tuple(others), seat, TRAIN_SEED + self.args.seed * 10_000_000 + g,
                   on_decision=explorer.observe)
        return explorer.records


class _Explorer(Bot):
    """The learner in a training game: records targets, then plays the net (or explores)."""

    def __init__(self, learner: Learner, g: int, rng: random.Random, seat: int, kinds: list[int]) -> None:
        super().__init__(0)
        self.fallback = HeuristicBot(0)
        self.learner, self.g, self.r, self.seat, self.kinds = learner, g, rng, seat, kinds
        self.rows: np.ndarray | None = None
        self.records: list[tuple[np.ndarray, np.ndarray]] = []
        args = learner.args
        self.teacher = (LookaheadSampler(args.seed * 10_000_000 + g, worlds=args.teacher_worlds)
                        if args.teacher == "lookahead" else None)

    def observe(self, game, view) -> None:
        """Before acting: the features and each legal card's rollout target."""
        self.rows = None
        if view.decision != "play" or len(view.legal) < 2:
            return
        rows = card_features(view)
        if self.teacher is not None and sum(view.active) > 3:
            targets = np.array(self.teacher.values(view), dtype=np.float32)
        else:
            targets = np.array([self._rollout(game, int(c)) for c in view.legal], dtype=np.float32)
        self.records.append((rows, targets))
        self.rows = rows

    def _rollout(self, game, card: int) -> float:
        learner = self.learner
        if learner.rollout_net is None:
            return heuristic_rollout(game, self.seat, card, self.kinds, self.g)
        return net_rollout(game, self.seat, card, self.kinds, self.g, learner.rollout_net)

    def play(self, view):
        if self.rows is None:
            return view.legal[0] if len(view.legal) == 1 else self.fallback.play(view)
        if self.r.random() < self.learner.args.explore:
            return view.legal[self.r.randrange(len(view.legal))]
        if self.learner.trained == 0:
            return self.fallback.play(view)
        return view.legal[choose(self.learner.net, self.rows, self.learner.net.gate)]


def main(argv: list[str] | None = None) -> int:
    args = options(sys.argv[1:] if argv is None else argv)
    if args.ship is None and args.run_dir is None:
        print("python -m players.learned.train: give RUN_DIR (to train) or --ship FILE", file=sys.stderr)
        return 2
    try:
        if args.ship is not None:
            print(ship(args.ship, args.gate, WEIGHTS))
        else:
            Trainer(args).run()
    except (OSError, ValueError, KeyError) as exc:      # a missing or foreign weights file or checkpoint
        print(f"python -m players.learned.train: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("python -m players.learned.train: stopped; run the same command to go on from the last "
              "checkpoint", file=sys.stderr)
        return 130
    return 0


def ship(source: Path, gate: float, target: Path) -> str:
    """Write the weights of ``source`` with ``gate`` to ``target``; their SHA-256."""
    net, _ = Net.load(source)
    net.gate = gate
    net.save(target)
    return hashlib.sha256(target.read_bytes()).hexdigest()


if __name__ == "__main__":
    raise SystemExit(main())
