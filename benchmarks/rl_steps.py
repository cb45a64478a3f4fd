"""Environment steps per second for training (arena.rl), single and batched, against the engine's own speed.

    .venv/bin/python benchmarks/rl_steps.py [--rules getaway] [--players 4] [--games 200] [--rounds 5]
                                            [--batch 1,64,1024]

One step is one decision (a card played or a take answered) by uniformly
random legal play, the policy `arena bench engine` plays. Each round measures,
in this process's CPU time (``time.process_time``), side by side:

- the engine: ``--games`` games played straight on :class:`arena.Game` by
  ``arena bench engine``'s own loop (events recorded, no JSON record), its
  games per second turned into decisions per second with the decisions a
  game the AEC environment's random games of the round took;
- the AEC environment (``arena.rl.env``): the same number of games, each step
  an ``observe`` (the observation vector and the action mask of the seat to
  act) and a ``step``;
- ``arena.rl.SeatEnv``: the same number of games, the learner in seat 0
  against ``random`` players; steps are the learner's, the time includes
  the others' turns (through the referee's in-process clients);
- the batch (``arena.rl.Batch``) of each size in ``--batch``: steps until as
  many games have finished, each step observing and stepping every game;
- the random policy alone (``argmax(random * mask)``, numpy, what the loops
  above call each step), as many times as the AEC run's steps: its time is in
  the figures above, and the AEC environment's own cost (net of it) is shown.

The medians of ``--rounds`` rounds are printed, with the environments' cost
per step over the engine's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import arena.rl as rl
from arena.game.bench import _random_games
from arena.game.rules import PRESETS
from arena.plugins.registry import load


def engine(rules, players: int, games: int, seed: int) -> float:
    """CPU seconds of ``games`` random games on the engine alone (``arena bench engine``'s games)."""
    start = time.process_time()
    _random_games(rules, players, games, seed, record=False)
    return time.process_time() - start


def aec(rules, players: int, games: int, seed: int) -> tuple[float, int]:
    """(CPU seconds, steps) of ``games`` random games through the AEC environment."""
    rng, steps = np.random.default_rng(seed), 0
    env = rl.env(rules, players, seed=seed)
    start = time.process_time()
    for _ in range(games):
        env.reset()
        for _agent in env.agent_iter():
            observation, _, done, _, _ = env.last()
            if done:
                env.step(None)
                continue
            env.step(int(np.argmax(rng.random(rl.encoding.ACTIONS) * observation["action_mask"])))
            steps += 1
    return time.process_time() - start, steps


def seat_env(rules, players: int, games: int, seed: int, registry) -> tuple[float, int]:
    """(CPU seconds, learner steps) of ``games`` games of SeatEnv, seat 0 against ``random`` players
    (their turns, played through the referee's in-process clients, included in the time)."""
    rng, steps = np.random.default_rng(seed), 0
    env = rl.SeatEnv(rules, ["random"] * (players - 1), seed=seed, registry=registry)
    start = time.process_time()
    for _ in range(games):
        observation, _ = env.reset()
        done = False
        while not done:
            action = int(np.argmax(rng.random(rl.encoding.ACTIONS) * observation["action_mask"]))
            observation, _, done, _, _ = env.step(action)
            steps += 1
    return time.process_time() - start, steps


def batched(rules, players: int, games: int, size: int, seed: int) -> tuple[float, int]:
    """(CPU seconds, steps summed over the games) of a batch of ``size`` until ``games`` games have ended."""
    rng, steps = np.random.default_rng(seed), 0
    start = time.process_time()
    batch = rl.Batch(rules, players, size=size, seed=seed)
    _, masks, _ = batch.observe()
    while batch.finished < games:
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        _, masks, _, _, _ = batch.step(actions)
        steps += size
    return time.process_time() - start, steps


def policy(steps: int, seed: int) -> float:
    """CPU seconds of ``steps`` calls of the loops' random policy on one mask (four legal cards)."""
    rng, mask = np.random.default_rng(seed), np.zeros(rl.encoding.ACTIONS, dtype=np.int8)
    mask[[3, 17, 40, 51]] = 1
    start = time.process_time()
    for _ in range(steps):
        int(np.argmax(rng.random(rl.encoding.ACTIONS) * mask))
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="getaway")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch", default="1,64,1024", help="batch sizes, comma-separated")
    args = parser.parse_args()
    rules, sizes = PRESETS[args.rules], [int(s) for s in args.batch.split(",")]
    rates: dict[str, list[float]] = {}
    registry = load(autoload=False)
    games_per_s: list[float] = []
    for r in range(args.rounds):
        engine_cpu = engine(rules, args.players, args.games, r)
        cpu, steps = aec(rules, args.players, args.games, r)
        games_per_s.append(args.games / engine_cpu)
        # decisions a game: the AEC run's
        rates.setdefault("engine (Game, no observations)", []).append(steps / engine_cpu)
        rates.setdefault("AEC env, one game (observe + step)", []).append(steps / cpu)
        policy_cpu = policy(steps, r)
        rates.setdefault("the random policy alone", []).append(steps / policy_cpu)
        rates.setdefault("AEC env net of the policy", []).append(steps / (cpu - policy_cpu))
        cpu, steps = seat_env(rules, args.players, args.games, r, registry)
        rates.setdefault(f"SeatEnv, one seat against {args.players - 1} random (their turns included)",
                         []).append(steps / cpu)
        for size in sizes:
            cpu, steps = batched(rules, args.players, args.games, size, r)
            rates.setdefault(f"Batch of {size} (numpy arrays)", []).append(steps / cpu)
    base = statistics.median(rates["engine (Game, no observations)"])
    print(f"rl steps: {args.rules}, {args.players} players, uniformly random legal play, CPU time of one "
          f"process, {args.games} games x {args.rounds} rounds (median)")
    print(f"  engine: {statistics.median(games_per_s):8.0f} games/s")
    for label, values in rates.items():
        median = statistics.median(values)
        print(f"  {median:8.0f} steps/s  {1e6 / median:6.1f} us/step  x{base / median:5.1f} the engine's  {label}  "
              f"(min {min(values):.0f}, max {max(values):.0f})")


if __name__ == "__main__":
    main()
