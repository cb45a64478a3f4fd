"""The sandbox's speed: round trip per decision, and games per second, side by side.

Both the referee and its bots are pinned to one core (``os.sched_setaffinity``;
bot processes inherit it), as a tournament worker should run: a pipe round
trip within one core costs a few µs, across cores tens of µs.
"""

from __future__ import annotations

import contextlib
import os
import random
import statistics
import time

from arena.bots.bot import Bot
from arena.game.engine import Game
from arena.bots.player_spec import PlayerSpec
from arena.plugins.errors import CheckError
from arena.plugins.registry import load
from arena.bots.referee import InProcessClient, play_game
from arena.game.rules import Rules
from arena.sandbox.client import SandboxClient
from arena.sandbox.cpu_meter import CpuMeter, start_meter


class TrivialBot(Bot):
    """Plays its first legal card: the sandbox's cost with (almost) no bot."""

    def play(self, view):
        return view.legal[0]


def sandbox_bench(decisions: int = 5000, games: int = 100, players: int = 4,
                  rules: Rules | None = None, cpu: int | None = None) -> list[str]:
    """Figures for the CLI: round trips for a trivial bot, then random-bot games/s.

    ``cpu``: the core to pin to (default: the first this process may use);
    the previous affinity is restored afterwards.
    """
    rules = rules or Rules.preset("getaway")
    with _pinned(cpu) as core, start_meter() as meter:  # the meter first: every bot process is counted
        lines = [(f"sandbox round trip per decision: trivial bot, referee and bot pinned to "
                  f"CPU {core}, {decisions} decisions")]
        lines += _round_trips(rules, players, decisions)
        lines.append(f"sandbox games: {rules.name}, {players} random bots, {games} games, "
                     f"pinned to CPU {core}")
        lines += _games(rules, players, games, meter)
    return lines


@contextlib.contextmanager
def _pinned(cpu: int | None):
    if not hasattr(os, "sched_setaffinity"):
        yield "(not pinned: no sched_setaffinity here)"
        return
    before = os.sched_getaffinity(0)
    core = min(before) if cpu is None else cpu
    os.sched_setaffinity(0, {core})
    try:
        yield core
    finally:
        os.sched_setaffinity(0, before)


def _position(rules: Rules, players: int) -> tuple[Game, int]:
    """A game a few tricks in (a realistic view to rebuild), and the seat to act."""
    game = Game.deal(rules, players, 7)
    rng = random.Random(7)
    for _ in range(players * 3):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    seat = game.current
    if seat is None:
        raise CheckError(f"the bench's position for {players} players ended within {players * 3} plays")
    return game, seat


def _round_trips(rules: Rules, players: int, n: int) -> list[str]:
    game, seat = _position(rules, players)
    spec = PlayerSpec("trivial", TrivialBot, trusted=True)
    legal, decision = game.legal_actions(), game.decision
    rows = []
    sandboxed = SandboxClient(spec)
    try:
        sandboxed.begin(seat, players, rules, 1, game.seat_events(seat))
        rows.append(("decide(), sandboxed (the host rebuilds the view)",
                     _times(lambda: sandboxed.decide([], legal, decision), n)))
        rows.append(("transport only (a ping frame through the host)",
                     _times(sandboxed.ping, n)))
    finally:
        sandboxed.close()
    local = InProcessClient(spec)
    local.begin(seat, players, rules, 1, game.seat_events(seat))
    rows.append(("decide(), in-process, for comparison",
                 _times(lambda: local.decide([], legal, decision), n)))
    return [f"  median {statistics.median(t):7.1f} µs  p99 {_p99(t):7.1f} µs  {label}"
            for label, t in rows]


def _times(call, n: int) -> list[float]:
    """µs per call, after a short warm-up; a failed call stops the benchmark."""
    out = []
    clock = time.perf_counter_ns
    for i in range(n + n // 10):
        t0 = clock()
        reply = call()
        t1 = clock()
        if not reply.ok:
            raise RuntimeError(f"benchmark bot faulted: {reply.status}: {reply.detail}")
        if i >= n // 10:
            out.append((t1 - t0) / 1000)
    return out


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) >= 2 else values[0]


class _Timed:
    """A client wrapper that keeps the µs of every decide() call."""

    def __init__(self, inner, times: list[float]) -> None:
        self.inner, self.times, self.name = inner, times, inner.name
        self.takes_compact = getattr(inner, "takes_compact", False)  # handed what the inner client is

    def begin(self, *args, **kw):
        return self.inner.begin(*args, **kw)

    def decide(self, *args):
        t0 = time.perf_counter_ns()
        reply = self.inner.decide(*args)
        self.times.append((time.perf_counter_ns() - t0) / 1000)
        return reply

    def finish(self, *args):
        return self.inner.finish(*args)

    def game_log(self) -> str:
        return self.inner.game_log()

    def close(self):
        return self.inner.close()


def _games(rules: Rules, players: int, games: int, meter: CpuMeter) -> list[str]:
    spec = load().get("random")
    rates: dict[str, float] = {}
    cpu: dict[str, float] = {}
    times: dict[str, list[float]] = {}
    for label, make in (("sandboxed", lambda: SandboxClient(spec)),
                        ("in-process", lambda: InProcessClient(spec))):
        times[label] = []
        clients = [_Timed(make(), times[label]) for _ in range(players)]
        try:
            play_game(rules, clients, seed=0)  # warm-up: start-up is not the figure
            del times[label][:]
            start, cpu0 = time.perf_counter(), meter.seconds()
            for g in range(games):
                play_game(rules, clients, seed=g + 1)
            rates[label] = games / (time.perf_counter() - start)
            cpu[label] = (meter.seconds() - cpu0) / games * 1000
        finally:
            for c in clients:
                c.close()
    boxed, local = rates["sandboxed"], rates["in-process"]
    lines = [(f"  {boxed:8.1f} games/s sandboxed   {local:8.1f} games/s in-process   "
              f"(sandboxed at {boxed / local:.0%} of in-process speed)"),
             (f"  {cpu['sandboxed']:8.2f} ms CPU a game sandboxed   {cpu['in-process']:8.2f} ms in-process   "
              f"(every process, by {meter.how})")]
    for label, t in times.items():
        lines.append(f"  median {statistics.median(t):7.1f} µs  p99 {_p99(t):7.1f} µs  "
                     f"decide() in these games, {label} ({len(t)} decisions)")
    return lines
