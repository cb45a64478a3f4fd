"""Each seat's output kept per game: sandboxed (fork server and exec'd processes) and in-process alike.

The bots are in tests/sandbox_bots/chatty.py: one prints at every step, one
prints and raises on its second decision of a game, one floods its output.
"""

from __future__ import annotations

import sys
import threading

import pytest
from sandbox_bots import chatty

from arena import PlayerSpec, Rules
from arena.bots.output_log import OUTPUT_CAP
from arena.bots.referee import InProcessClient, play_game
from arena.sandbox.botproc import BotProcess
from arena.sandbox.client import SandboxClient
from arena.sandbox.host import ends
from arena.sandbox.limits import Limits
from arena.tournament.spec import LimitsSpec

FAST = LimitsSpec(decision_ms=500, bank_ms=0, startup_ms=10000, memory_mb=1024)
RULES = Rules.preset("getaway")
PRINTER, RAISER, FLOOD = (PlayerSpec("printer", chatty.Printer), PlayerSpec("raiser", chatty.Raiser),
                          PlayerSpec("flood", chatty.Flood))
MODES = {"forked": None, "exec": Limits(memory_mb=1024, disable={"forkserver"})}


def sandboxed(clients, specs, mode="forked"):
    os_limits = MODES[mode]
    made = [SandboxClient(s, FAST, **({"os_limits": os_limits} if os_limits else {})) for s in specs]
    clients.extend(made)
    return made


def printer_lines(record: dict, seat: int = 0) -> list[str]:
    return record["logs"][seat].splitlines()


def expected_printer(record: dict, seat: int = 0) -> list[str]:
    """What Printer prints in a game where it made ``n`` decisions."""
    n = record["timings"][seat]["decisions"]
    lines = [f"printer: new game, seat {seat}"]
    for k in range(1, n + 1):
        lines.append(f"printer: decision {k}")
        if k % 3 == 0:
            lines.append(f"printer: to stderr {k}")
    return lines + [f"printer: game over after {n} decisions"]


@pytest.mark.parametrize("mode", list(MODES))
def test_each_game_gets_its_own_output(clients, mode):
    """One client (its process living across games) plays three games: each record's log holds exactly
    that game's lines, stdout and stderr in order, end_game's line included."""
    seats = sandboxed(clients, [PRINTER, PlayerSpec("random", chatty.Quiet), PlayerSpec("random2", chatty.Quiet)],
                      mode)
    for seed in (1, 2, 3):
        record = play_game(RULES, seats, seed=seed)
        assert record["faults"] == [[], [], []]
        assert printer_lines(record) == expected_printer(record)
        assert record["logs"][1:] == ["", ""]


@pytest.mark.parametrize("mode", list(MODES))
def test_a_bot_without_end_game_is_sent_no_finish_and_its_output_stays_per_game(clients, mode, monkeypatch):
    """The harness sends finish (end_game, the output's flush) only to a bot with an end_game of its own;
    the other's log still holds exactly each game's lines (stdout and stderr are unbuffered)."""
    sent, send = [], BotProcess.send
    monkeypatch.setattr(BotProcess, "send",
                        lambda self, message, *a: sent.append(message["op"]) or send(self, message, *a))
    seats = sandboxed(clients, [PlayerSpec("printer", chatty.PrinterWithoutEnd), PRINTER,
                                PlayerSpec("random", chatty.Quiet)], mode)
    for seed in (1, 2, 3):
        record = play_game(RULES, seats, seed=seed)
        assert record["faults"] == [[], [], []]
        assert printer_lines(record, 0) == expected_printer(record, 0)[:-1]   # all but end_game's line
        assert printer_lines(record, 1) == expected_printer(record, 1)
    assert sent == ["finish"] * 3   # the Printer's, one a game


def test_ends_is_whether_a_bot_has_an_end_game_of_its_own():
    class Duck:   # a plugin's bot need not subclass arena.Bot
        def act(self, view):
            return view.legal[0]

    duck = Duck()
    assert not ends(chatty.Quiet()) and not ends(duck) and not ends(chatty.PrinterWithoutEnd())
    assert ends(chatty.Printer()) and ends(chatty.BadEnding(seed=1))
    duck.end_game = lambda result: None
    assert ends(duck)


@pytest.mark.parametrize("mode", list(MODES))
def test_a_crash_keeps_its_traceback_after_the_output_before_it(clients, mode):
    """The raiser's log: its prints, then the fault's line and the bot's traceback (its own frames, not the
    host's), and again after each restart; the record's fault detail stays one line."""
    seats = sandboxed(clients, [RAISER, PlayerSpec("q1", chatty.Quiet), PlayerSpec("q2", chatty.Quiet)], mode)
    record = play_game(RULES, seats, seed=4)
    faults = record["faults"][0]
    assert faults and all(f == {**f, "kind": "crash", "detail": "ValueError: raiser gives up at decision 2"}
                          for f in faults)
    log = record["logs"][0]
    first = log.split("[arena: crash: ValueError: raiser gives up at decision 2]\n")
    assert len(first) == len(faults) + 1
    assert first[0] == "raiser: decision 1\nraiser: decision 2\n"
    trace = first[1]
    assert trace.startswith("Traceback (most recent call last):\n")
    assert 'chatty.py", line' in trace and "in helper" in trace
    assert "ValueError: raiser gives up at decision 2\n" in trace
    assert "arena/sandbox/host.py" not in log


def test_a_flood_is_capped_with_a_note(clients):
    """A megabyte of output: the first OUTPUT_CAP bytes kept, the rest counted; the next game starts afresh."""
    seats = sandboxed(clients, [FLOOD, PlayerSpec("q1", chatty.Quiet), PlayerSpec("q2", chatty.Quiet)])
    for seed in (1, 2):
        log = play_game(RULES, seats, seed=seed)["logs"][0]
        head, note = log[:OUTPUT_CAP], log[OUTPUT_CAP:]
        assert head == "x" * OUTPUT_CAP
        more = (1 << 20) + 1 - OUTPUT_CAP
        assert note == (f"\n[arena: {more} more bytes of output not kept: the log keeps the first {OUTPUT_CAP} "
                        f"bytes of a seat's output per game]\n")


def test_in_process_output_matches_sandboxed(clients):
    """The same game in-process: the printer's log is the same text; the harness's own stdout is untouched."""
    specs = [PRINTER, PlayerSpec("q1", chatty.Quiet), PlayerSpec("q2", chatty.Quiet)]
    boxed = play_game(RULES, sandboxed(clients, specs), seed=9)
    out, err = sys.stdout, sys.stderr
    local = play_game(RULES, [InProcessClient(s) for s in specs], seed=9)
    assert (sys.stdout, sys.stderr) == (out, err)
    assert local["logs"] == boxed["logs"]
    assert printer_lines(local) == expected_printer(local)


def test_in_process_crash_has_its_traceback():
    """An in-process bot's exception: the fault's line and its traceback, without the referee's frames."""
    record = play_game(RULES, [InProcessClient(s) for s in
                               (RAISER, PlayerSpec("q1", chatty.Quiet), PlayerSpec("q2", chatty.Quiet))], seed=4)
    log = record["logs"][0]
    assert log.startswith("raiser: decision 1\nraiser: decision 2\n[arena: crash: ValueError: raiser gives up at "
                          "decision 2]\nTraceback (most recent call last):\n")
    assert "in helper" in log and "referee.py" not in log


def test_quiet_games_have_no_logs(clients):
    """Nobody printed, nothing failed: the record has no logs key (records stay as they were)."""
    seats = sandboxed(clients, [PlayerSpec(f"q{n}", chatty.Quiet) for n in range(3)])
    assert "logs" not in play_game(RULES, seats, seed=1)


def test_end_game_faults_are_logged_and_a_hung_one_is_ended(clients):
    """end_game raising: its traceback in the log. end_game spinning: stopped after its CPU allowance, the
    process restarted, and the next game played and logged as usual."""
    seats = sandboxed(clients, [PlayerSpec("bad", chatty.BadEnding), PlayerSpec("q1", chatty.Quiet),
                                PlayerSpec("q2", chatty.Quiet)])
    logs = []
    for seed in range(3):
        record = play_game(RULES, seats, seed=seed, bot_seeds=[seed, 1, 2])
        assert record["faults"] == [[], [], []]
        logs.append(record["logs"][0])
    assert logs[0].startswith("bad ending: end_game called\n[arena: end_game crash: RuntimeError: no ending]\n"
                              "Traceback (most recent call last):\n")
    assert logs[1].startswith("bad ending: end_game called\n[arena: end_game timeout: stopped waiting (")
    assert logs[2] == logs[0]


def test_in_process_end_game_fault_reads_as_sandboxed():
    """An in-process bot raising in end_game: the same line as sandboxed, then its traceback."""
    specs = [PlayerSpec("bad", chatty.BadEnding), PlayerSpec("q1", chatty.Quiet), PlayerSpec("q2", chatty.Quiet)]
    log = play_game(RULES, [InProcessClient(s) for s in specs], seed=0, bot_seeds=[0, 1, 2])["logs"][0]
    assert log.startswith("bad ending: end_game called\n[arena: end_game crash: RuntimeError: no ending]\n"
                          "Traceback (most recent call last):\n")
    assert log.endswith("RuntimeError: no ending\n") and log.count("[arena:") == 1


def test_in_process_in_another_thread_keeps_tracebacks_not_prints(capfd):
    """A game in a thread other than the main one (a Dask worker's) leaves sys.stdout alone: the prints
    go where they always went, the traceback is still kept."""
    specs = [RAISER, PlayerSpec("q1", chatty.Quiet), PlayerSpec("q2", chatty.Quiet)]
    got = {}
    thread = threading.Thread(target=lambda: got.update(r=play_game(RULES, [InProcessClient(s) for s in specs],
                                                                      seed=4)))
    thread.start()
    thread.join()
    log = got["r"]["logs"][0]
    assert log.startswith("[arena: crash: ValueError: raiser gives up at decision 2]\nTraceback")
    assert "raiser: decision 1\nraiser: decision 2\n" in capfd.readouterr().out
