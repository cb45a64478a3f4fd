"""Tests for arena.sandbox.client (and its clock, process and host): the sandboxed seat.

The attacks are in tests/sandbox/hostile/; these check the ordinary contract: the
same games as in-process, only the seat's own events sent, one process across
games, restarts that catch up, the clock and its bank, start-up failures, the
log, and a bot that dies with its harness.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import sandbox_bots
from sandbox_bots import broken, numpy_bot, slow_import
from support.processes import all_gone, cpu_seconds, wait_for

from arena import Game, PlayerSpec, Rules
from arena.tournament.spec import LimitsSpec
from arena.plugins.registry import load
from arena.bots.referee import InProcessClient, play_game
from arena.game.events import from_compact
from arena.sandbox import botproc, wire
from arena.sandbox.pool import IdleProcesses
from arena.plugins.sandbox_bench import sandbox_bench
from arena.sandbox.processes import describe_exit
from arena.sandbox.client import SandboxClient, player_target, read_answer
from arena.sandbox.processes import state
from arena.sandbox.timing import Clock

REGISTRY = load(autoload=False)
FAST = LimitsSpec(decision_ms=200, bank_ms=0, startup_ms=10000, memory_mb=1024)
RULES = Rules.preset("getaway")
LINUX = sys.platform.startswith("linux")


def spec(factory, name: str = "test-bot") -> PlayerSpec:
    return PlayerSpec(name, factory)


def reports(client: SandboxClient) -> list[dict]:
    """The REPORT lines of the bot's log; closes the client first (a live process's
    log may still be on its way through the pipe)."""
    client.close()
    return [json.loads(line[7:]) for line in client.log_text().splitlines()
            if line.startswith("REPORT ")]


def sandboxed(clients, factory_or_spec, limits=FAST, **kw) -> SandboxClient:
    s = factory_or_spec if isinstance(factory_or_spec, PlayerSpec) else spec(factory_or_spec)
    client = SandboxClient(s, limits, **kw)
    clients.append(client)
    return client


def without_timings(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "timings"}


# ------------------------------------------------------------------- the clock
def test_clock_within_the_decision_limit_leaves_the_bank():
    """A decision charged within its limit costs the bank nothing."""
    clock = Clock(0.2, 1.0)
    assert clock.charge(0.1, 0.3) is None and clock.bank == 1.0
    assert clock.allowed == pytest.approx(1.2) and clock.wall_cap == pytest.approx(3.6)


def test_clock_overrun_comes_off_the_bank_then_times_out():
    """Time over the limit is taken from the bank; past it, a timeout that empties the bank."""
    clock = Clock(0.2, 0.5)
    assert clock.charge(0.5, 0.6) is None and clock.bank == pytest.approx(0.2)
    detail = clock.charge(0.5, 0.6)
    assert "0.500 s of CPU time" in detail and clock.bank == 0.0


def test_clock_charges_a_third_of_the_wall_time():
    """A sleeper is charged wall/3: 0.9 s of wall time against a 0.2 s limit is a timeout."""
    clock = Clock(0.2, 0.0)
    assert clock.charge(0.0, 0.59) is None
    assert "wall-clock" in clock.charge(0.0, 0.9)


def test_clock_from_limits_and_unlimited():
    """decision_ms 0 means no limit; bank_ms becomes seconds."""
    assert Clock.from_limits(LimitsSpec(decision_ms=0)).allowed is None
    assert Clock.from_limits(LimitsSpec(decision_ms=0)).charge(100.0, 100.0) is None
    clock = Clock.from_limits(LimitsSpec(decision_ms=250, bank_ms=2000))
    assert (clock.decision, clock.bank) == (0.25, 2.0)


# -------------------------------------------------------------- small helpers
def test_read_answer_statuses():
    """Replies are judged by shape: error -> crash, bad -> malformed, missing key -> malformed."""
    assert read_answer({"action": 5}, "action") == ("ok", 5, "")
    assert read_answer({"error": "ValueError: x"}, "action")[0:2] == ("crash", None)
    assert read_answer({"bad": "<object>"}, "action")[0] == "malformed"
    assert read_answer({"other": 1}, "action")[0] == "malformed"
    assert read_answer([1, 2], "action")[0] == "malformed"


def test_player_target_by_module_path_only_when_importable():
    """A module-level class is named by path (with its import root); others by name."""
    target = player_target(spec(sandbox_bots.Reporter))
    assert target["player"] == {"name": "test-bot", "module": "sandbox_bots",
                                "qualname": "Reporter"}
    assert target["path"] == str(Path(__file__).resolve().parents[1])
    assert "module" not in player_target(spec(lambda seed: None))["player"]
    assert "module" not in player_target(spec(functools.partial(sandbox_bots.Reporter)))["player"]


def test_describe_exit():
    """Exit statuses in words, with a hint for the signals bots die of."""
    assert describe_exit(3) == "exited with status 3"
    assert describe_exit(-11).startswith("was killed by SIGSEGV")
    assert "seccomp" in describe_exit(-31)


# ------------------------------------------------------------- whole games
def test_sandboxed_games_equal_in_process_games(clients):
    """Built-in bots play exactly the same games sandboxed as in-process (same seeds)."""
    names = ("random", "heuristic", "low", "high")
    boxed = [sandboxed(clients, REGISTRY.get(n)) for n in names]
    local = [InProcessClient(REGISTRY.get(n)) for n in names]
    for seed in (1, 2, 3):
        a, b = play_game(RULES, boxed, seed), play_game(RULES, local, seed)
        assert without_timings(a) == without_timings(b)
        assert all(t["wall_ms_median"] > 0 for t in a["timings"])
    forked = boxed[0]._forked  # three deals: one frozen-and-woken process each, or one a game
    assert all(c.processes == (1 if forked else 3) for c in boxed)


def test_only_the_seats_own_events_are_sent(clients, monkeypatch):
    """Every event sent to the bot process is exactly its seat's filtered view of the game."""
    sent = []
    request = botproc.BotProcess.request

    def spy(self, message, *args):
        sent.append(json.loads(wire.encode(message)[4:]))  # what crosses the pipe
        return request(self, message, *args)

    monkeypatch.setattr(botproc.BotProcess, "request", spy)
    client = sandboxed(clients, REGISTRY.get("random"))
    others = [InProcessClient(REGISTRY.get(n)) for n in ("heuristic", "low")]
    record = play_game(RULES, [client] + others, 14)  # a deal with draws by others
    events = [from_compact(e, 0) for m in sent for e in m.get("events", ())]
    assert events == Game.from_record(record).seat_events(0)[:len(events)]
    assert "hands" not in events[0] and events[0]["hand"] == record["events"][0]["hands"][0]
    assert any(e["type"] == "draw" and e["card"] is None for e in events)  # others' draws hidden



def test_no_process_plays_two_games_of_one_deal_and_close_kills_all(clients, monkeypatch):
    """Deals 0, 1, 0, 1, 2: a process goes on to a deal it never played, is frozen when the next
    deal is one it played, and is woken only for a deal it never played (in an exec'd mode every
    game is fresh); close() kills every one."""
    client = sandboxed(clients, REGISTRY.get("random"))
    others = [InProcessClient(REGISTRY.get(n)) for n in ("heuristic", "low")]
    parked, park = [], IdleProcesses.park
    monkeypatch.setattr(IdleProcesses, "park", lambda self, proc: parked.append(proc.pid) or park(self, proc))
    pids = []
    for seed in (0, 1, 0, 1, 2):
        play_game(RULES, [client] + others, seed)
        pids.append(client.pid)
    if client._forked:
        first, second = pids[0], pids[2]
        assert pids == [first, first, second, second, second] and first != second
        assert parked == [first]  # frozen once: before the second game of deal 0, never between others
        assert state(first) == "T"  # frozen while it waits: no thread of it runs
    else:
        assert len(set(pids)) == 5
    assert client.pids == list(dict.fromkeys(pids))
    server = client._server
    client.close()
    assert not any(os.path.exists(f"/proc/{p}") for p in pids)
    assert client.pid is None
    if server is not None:
        assert not os.path.exists(f"/proc/{server.pid}") and not os.path.exists(server.root)


def test_a_process_that_died_between_games_is_replaced_quietly(clients):
    """A bot process gone between games (killed from outside) is replaced; no fault."""
    client = sandboxed(clients, REGISTRY.get("random"))
    others = [InProcessClient(REGISTRY.get(n)) for n in ("heuristic", "low")]
    play_game(RULES, [client] + others, 1)
    pid = client.pid
    os.kill(pid, signal.SIGKILL)
    assert all_gone([pid])
    record = play_game(RULES, [client] + others, 2)
    assert record["faults"][0] == [] and client.processes == 2


def test_a_fresh_process_rebuilds_the_same_view(clients):
    """After a crash mid-game, the next process is fed the whole history: the views match."""
    client = sandboxed(clients, sandbox_bots.CrashOnce)
    seen = []

    class Reference(InProcessClient):
        """Keeps the view an in-process bot would get at each of seat 0's decisions."""

        def decide(self, events, legal, decision):
            self.knowledge.feed_many(events)
            view = self.knowledge.view(legal, decision, None)
            seen.append({"hand": [str(c) for c in view.hand], "history": len(view.history),
                         "sizes": list(view.hand_sizes)})
            return client.decide(events, legal, decision)

        def begin(self, *args, **kw):
            super().begin(*args, **kw)
            return client.begin(*args, **kw)

    ref = Reference(REGISTRY.get("random"))
    others = [InProcessClient(REGISTRY.get(n)) for n in ("heuristic", "low")]
    record = play_game(RULES, [ref] + others, 3)
    assert [f["kind"] for f in record["faults"][0]] == ["crash"]
    plays = [{k: r[k] for k in ("hand", "history", "sizes")} for r in reports(client)
             if r["op"] == "play"]
    assert plays == seen
    assert client.processes == 2


# ---------------------------------------------------------------- the bank
def test_the_bank_pays_for_overruns_then_runs_out(clients):
    """150 ms per decision against 100 ms + a 400 ms bank: the bank pays, shrinks, then runs out."""
    limits = LimitsSpec(decision_ms=100, bank_ms=400, startup_ms=10000, memory_mb=1024)
    client = sandboxed(clients, sandbox_bots.Spender, limits)
    game = Game.deal(RULES, 3, 1)
    seat = game.current
    assert client.begin(seat, 3, RULES, 1, game.seat_events(seat)).status == "ok"
    statuses = []
    while "timeout" not in statuses and len(statuses) < 10:
        statuses.append(client.decide([], game.legal_actions(), "play").status)
    # at least 50 ms over per decision: at most 8 fit in the bank (fewer on a loaded machine)
    assert 2 <= len(statuses) <= 9 and statuses[-1] == "timeout"
    assert set(statuses[:-1]) == {"ok"}
    lefts = [r["time_left"] for r in reports(client)]
    assert lefts[0] == pytest.approx(0.5) and lefts == sorted(lefts, reverse=True)
    assert lefts[-1] < 0.5 - 0.05 * (len(lefts) - 1) + 1e-9


def test_cpu_used_between_decisions_is_charged(clients):
    """A thread that spins between decisions: its CPU time counts against the next one."""
    limits = LimitsSpec(decision_ms=100, bank_ms=0, startup_ms=10000, memory_mb=1024)
    client = sandboxed(clients, sandbox_bots.Background, limits)
    game = Game.deal(RULES, 3, 1)
    seat = game.current
    client.begin(seat, 3, RULES, 1, game.seat_events(seat))
    assert client.decide([], game.legal_actions(), "play").status == "ok"
    spun = cpu_seconds(client.pid) + 0.3  # the thread spins on between decisions: wait for it
    assert wait_for(lambda: cpu_seconds(client.pid) >= spun)
    reply = client.decide([], game.legal_actions(), "play")
    assert reply.status == "timeout" and reply.cpu > 0.1


# ------------------------------------------------------------ other faults
def test_illegal_and_non_data_answers(clients):
    """An illegal card is the referee's 'illegal'; an answer that is not data is 'malformed'."""
    others = [InProcessClient(REGISTRY.get(n)) for n in ("heuristic", "low")]
    illegal = sandboxed(clients, sandbox_bots.Illegal)
    record = play_game(RULES, [illegal] + others, 1)
    assert {f["kind"] for f in record["faults"][0]} == {"illegal"}
    assert illegal.processes == 1  # the stream stays in step: no restart
    not_data = sandboxed(clients, sandbox_bots.NotData)
    record = play_game(RULES, [not_data] + others, 1)
    assert {f["kind"] for f in record["faults"][0]} == {"malformed"}
    assert all("not plain data" in f["detail"] for f in record["faults"][0])


def test_a_bot_that_cannot_import_is_a_crash_each_game(clients):
    """An import error at start-up: a crash naming it, no retry within the game, a retry next game."""
    client = sandboxed(clients, broken.Bot)
    others = [InProcessClient(REGISTRY.get(n)) for n in ("heuristic", "low")]
    record = play_game(RULES, [client] + others, 1)
    start = record["faults"][0][0]
    assert start["at"] == "start" and start["kind"] == "crash"
    assert "cannot load player" in start["detail"] and "on purpose" in start["detail"]
    assert all("not restarted again" in f["detail"] for f in record["faults"][0][1:])
    assert client.starts == 1
    play_game(RULES, [client] + others, 2)
    assert client.starts == 2
    client.close()
    assert "RuntimeError: this bot's import fails" in client.log_text()


def test_a_slow_start_up_is_a_timeout(clients):
    """An import that takes a minute: a start-up timeout, not before the wall-clock cap (3 x 100 ms)."""
    limits = LimitsSpec(decision_ms=200, bank_ms=0, startup_ms=100, memory_mb=1024)
    started = time.monotonic()  # the start-up clock runs from the spawn, in the constructor
    client = sandboxed(clients, slow_import.Bot, limits)
    game = Game.deal(RULES, 3, 1)
    reply = client.begin(0, 3, RULES, 1, game.seat_events(0))
    assert reply.status == "timeout" and "not ready" in reply.detail
    assert time.monotonic() - started >= 0.3


# ------------------------------------------------------------ the process
def test_the_log_keeps_stdout_and_stderr(clients):
    """What the bot prints goes to its log (never the protocol), per process."""
    client = sandboxed(clients, sandbox_bots.Chatty)
    others = [InProcessClient(REGISTRY.get(n)) for n in ("heuristic", "low")]
    record = play_game(RULES, [client] + others, 1)
    assert record["faults"][0] == []
    pid = client.pid
    client.close()  # the log is complete once the process has ended
    log = client.log_text()
    assert log.startswith(f"[bot process {pid}]")
    assert "hello from the bot" in log and "and from its stderr" in log


@pytest.mark.skipif(not LINUX, reason="Linux process details")
def test_the_bot_process_is_clean_and_alone(clients, monkeypatch):
    """A fresh interpreter in its own group and folder, with none of the harness's environment."""
    monkeypatch.setenv("ARENA_TEST_SECRET", "do-not-leak")
    client = sandboxed(clients, sandbox_bots.Environment)
    others = [InProcessClient(REGISTRY.get(n)) for n in ("heuristic", "low")]
    play_game(RULES, [client] + others, 1)
    (r,) = reports(client)
    assert "ARENA_TEST_SECRET" not in r["env"] and r["env"] == sorted(
        ["HOME", "LANG", "LC_ALL", "MKL_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "PATH",
         "PYTHONHASHSEED", "PYTHONPATH", "PYTHONUNBUFFERED", "TMPDIR"])
    if client._forked:  # PID 1 of its own namespace, its parent outside it, its own /tmp
        assert r["pid"] == 1 and r["ppid"] == 0 and r["cwd"] in ("/tmp", "/var/tmp")
        assert r["argv"][0].endswith("server.py")
    else:
        assert r["ppid"] == os.getpid() and r["pgid"] == r["pid"] == client.pids[0]
        assert r["argv"][0].endswith("host.py") and "arena-bot-" in r["cwd"]
    assert client.confinement is not None
    assert all(s["status"] != "failed" for s in client.confinement["steps"])


@pytest.mark.skipif(not (LINUX and os.geteuid() == 0), reason="run_as needs a root harness")
def test_run_as_switches_a_root_harness_bot_to_another_uid(clients):
    """Limits(run_as=nobody) under a root harness: the switch applies and the bot plays clean."""
    from arena.sandbox.limits import Limits

    client = sandboxed(clients, REGISTRY.get("random"),
                       os_limits=Limits(run_as=65534, disable={"forkserver"}))
    others = [InProcessClient(REGISTRY.get(n)) for n in ("heuristic", "low")]
    record = play_game(RULES, [client] + others, 1)
    assert record["faults"][0] == []
    steps = {s["name"]: s["status"] for s in client.confinement["steps"]}
    assert steps["run_as"] == "applied" and "failed" not in steps.values()


@pytest.mark.skipif(not LINUX, reason="PR_SET_PDEATHSIG is Linux's")
def test_the_bot_dies_with_its_harness(tmp_path):
    """A harness killed outright (no close, no atexit) takes its bot process with it."""
    script = textwrap.dedent(f"""
        import os, sys, time
        sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})
        from arena.plugins.registry import load
        from arena.sandbox.client import SandboxClient
        client = SandboxClient(load(autoload=False).get("random"))
        assert client.ping().status == "ok"
        print(client.pid, flush=True)
        time.sleep(60)
    """)
    harness = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    try:
        bot = int(harness.stdout.readline())
        assert os.path.exists(f"/proc/{bot}")
        harness.kill()
        harness.wait()
        assert all_gone([bot])
    finally:
        harness.kill()
        harness.wait()


def test_sandbox_bench_reports_round_trips_and_games_per_second():
    """The benchmark's lines: medians and p99s in µs, then games/s side by side."""
    before = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    lines = sandbox_bench(decisions=50, games=2)
    assert len(lines) == 9
    assert all("median" in line and "p99" in line for line in lines[1:4] + lines[7:])
    assert "games/s sandboxed" in lines[5] and "games/s in-process" in lines[5]
    assert "ms CPU a game sandboxed" in lines[6] and "(every process, by " in lines[6]  # the CPU meter's
    if before is not None:
        assert os.sched_getaffinity(0) == before  # the pinning is undone


def test_a_bot_importing_numpy_loads_and_plays(clients):
    """numpy's BLAS starts threads at import unless told not to; the bot's environment tells it, so a
    learned player's plugin loads without setting anything and passes the one-thread check."""
    client = sandboxed(clients, numpy_bot.Bot, LimitsSpec(decision_ms=2000, bank_ms=0, startup_ms=20000,
                                                         memory_mb=1024))
    record = play_game(RULES, [client, *(InProcessClient(REGISTRY.get("low")) for _ in range(2))], 11)
    assert not record["faults"][0], (record["faults"][0], client.log_text()[-2000:])
