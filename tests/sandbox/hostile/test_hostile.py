"""Hostile bots: every attack contained, recorded as the right fault, the game complete.

Each test seats one attack (``bots/<attack>.py``) at a table with two honest
bots (see conftest.py: ``play`` also checks that the game completed and
replays, that the honest seats had no fault, and that the honest sandboxed
bot, a sentinel process and this harness are alive, and that every process
the hostile client started is gone after ``close``).
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import resource
import socket

import pytest
from hostile_support import FAST, needs

from arena.sandbox.processes import thread_children

WALL_CAP_MS = 3 * FAST.decision_ms


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_infinite_loop_times_out_on_cpu_and_forfeits(hostile, play):
    """An infinite loop: a CPU-time timeout per decision, a fresh process after each, then forfeit."""
    table = play(hostile("loop"))
    assert table.faults() == ["timeout", "timeout"]
    timings = table.timings()
    for cpu, wall, detail in zip(timings["cpu_ms"], timings["wall_ms"], table.details()):
        # judged on CPU time; on a loaded machine the 3x wall-clock cap may come first
        assert cpu >= FAST.decision_ms or wall >= WALL_CAP_MS, (cpu, wall)
        assert ("CPU time" in detail) == (cpu >= FAST.decision_ms), detail
        assert wall < WALL_CAP_MS + 500
    assert table.record["result"]["loser"] == 0 and table.record["result"]["reason"] == "forfeit"
    assert table.client.processes == 2  # the first, and a fresh one after the first timeout


def test_sleeping_forever_times_out_at_the_wall_clock_cap(hostile, play):
    """Sleeping uses no CPU, so the 3x wall-clock cap ends each decision."""
    table = play(hostile("sleep"))
    assert table.faults() == ["timeout", "timeout"]
    assert all("wall-clock" in d for d in table.details())
    assert all(ms >= WALL_CAP_MS for ms in table.timings()["wall_ms"])
    assert all(ms < FAST.decision_ms / 2 for ms in table.timings()["cpu_ms"])


@needs("rlimit_as")
def test_allocating_10_gib_is_a_crash(hostile, play):
    """A 10 GiB allocation fails under RLIMIT_AS: a crash fault, the harness's memory untouched."""
    before = rss_mb()
    table = play(hostile("alloc"))
    assert table.faults() == ["crash", "crash"]
    assert all("MemoryError" in d for d in table.details())
    assert rss_mb() - before < 100


@needs("seccomp")
def test_fork_bomb_is_refused(hostile, play):
    """A bounded fork bomb: every fork and subprocess refused, the bot's process has no child."""
    children = []
    table = play(hostile("forkbomb"),
                 before_close=lambda c: children.append(thread_children(c.pid)))
    assert table.faults() == []
    (report,) = table.reports()
    assert report["forked"] == 0 and report["refused"] == 20
    assert report["errors"] == ["PermissionError"] and report["subprocess"] == "PermissionError"
    assert children == [[]]


def test_exiting_is_a_crash_with_its_status(hostile, play):
    """os._exit(3) mid-decision: a crash naming the exit status; a fresh process next time."""
    table = play(hostile("exit"))
    assert table.faults() == ["crash", "crash"]
    assert all("exited with status 3" in d for d in table.details())


def test_raising_is_a_crash_with_the_exception(hostile, play):
    """An exception in play(): a crash naming it; each crash's traceback is in the seat's log of the game."""
    table = play(hostile("raises"))
    assert table.faults() == ["crash", "crash"]
    assert all(d == "RuntimeError: hostile bot raised on purpose" for d in table.details())
    log = table.record["logs"][0]
    assert log.count("[arena: crash: RuntimeError: hostile bot raised on purpose]\nTraceback") == 2
    assert log.count("\nRuntimeError: hostile bot raised on purpose\n") == 2  # each traceback ends with it


def test_segfault_is_a_crash(hostile, play):
    """A segfault through ctypes kills only the bot: a crash naming SIGSEGV."""
    table = play(hostile("segfault"))
    assert table.faults() == ["crash", "crash"]
    assert all("SIGSEGV" in d for d in table.details())
    assert "Segmentation fault" in table.log  # faulthandler's report, in the bot's log


def test_garbage_reply_is_malformed(hostile, play):
    """A frame that is not JSON: malformed, and the out-of-step process replaced."""
    table = play(hostile("garbage"))
    assert table.faults() == ["malformed", "malformed"]
    assert all("not JSON" in d for d in table.details())
    assert table.client.processes == 2  # a fresh one after the first; the second forfeits


def test_enormous_reply_is_malformed_unread(hostile, play):
    """A 50 MB answer: malformed from its header alone; the harness never holds the body.

    The bot needs real time to build and encode 100 MB (page faults count as its
    CPU time), so it gets 2 s a decision: the frame cap is under test, not the clock.
    """
    before = rss_mb()
    table = play(hostile("huge"), limits=dataclasses.replace(FAST, decision_ms=2000))
    assert table.faults() == ["malformed", "malformed"]
    assert all("announced" in d for d in table.details())
    assert rss_mb() - before < 40


def test_header_then_silence_times_out(hostile, play):
    """A header and a few body bytes, then nothing: the deadline covers the whole frame."""
    table = play(hostile("header_silence"))
    assert table.faults() == ["timeout", "timeout"]
    assert all("5 of 100 body bytes" in d for d in table.details())
    assert all(ms >= WALL_CAP_MS for ms in table.timings()["wall_ms"])


def test_pickle_reply_is_never_unpickled(hostile, play, tmp_path):
    """A pickle that would make a folder when loaded: malformed, and the folder never made."""
    marker, control = tmp_path / "pickle-ran", tmp_path / "control"
    spec = hostile("pickler", marker=str(marker))
    pickle.loads(hostile.module.payload(str(control)))  # the payload works when unpickled
    assert control.is_dir()
    table = play(spec)
    assert table.faults() == ["malformed", "malformed"]
    assert all("not JSON" in d for d in table.details())
    assert not marker.exists()


def test_megabytes_of_output_are_capped(hostile, play):
    """4 MB on stdout and stderr: no fault; the log keeps its cap and counts what it dropped."""
    table = play(hostile("chatty"))
    assert table.faults() == []
    log = table.log
    assert "spam spam" in log and len(log) < 3 * 64 * 1024
    dropped = int(log.split("[... ")[1].split(" more bytes dropped]")[0])
    assert dropped >= 4 * 2000 * 1001 - 64 * 1024 - 1


@needs("namespaces")
def test_reading_the_parents_memory_and_environ_is_refused(hostile, play):
    """/proc/<harness>/mem and environ: the bot cannot even name its parent, nor open them."""
    table = play(hostile("snoop"))
    assert table.faults() == []
    (report,) = table.reports()
    forked = table.client._forked
    assert report["parent"] == (0 if forked else os.getpid())  # 0: outside its PID namespace
    refused = ("FileNotFoundError", "PermissionError") if forked else ("PermissionError",)
    assert report["mem"].startswith(refused), report
    assert report["environ"].startswith(refused), report


@needs("seccomp")
def test_killing_the_parent_and_others_is_refused(hostile, play, honest, sentinel):
    """kill() of the harness, its group, a sentinel and another bot: all refused, all alive."""
    targets = {"sentinel": sentinel.pid, "honest_bot": honest.pid}
    table = play(hostile("killer", targets=targets))
    assert table.faults() == []
    (report,) = table.reports()
    assert set(report.values()) == {"PermissionError"}, report
    assert len(report) == 2 + 2 * len(targets)


def test_memory_search_finds_no_other_hand(hostile, play):
    """gc over the bot's whole heap at its first decision: its own hand and public cards only."""
    table = play(hostile("memsearch"))
    assert table.faults() == []
    (report,) = table.reports()
    events = table.record["events"]
    hands = events[0]["hands"]
    first = next(i for i, e in enumerate(events) if e["type"] == "play" and e["seat"] == 0)
    public = {c for e in events[:first] for c in _cards_of(e)}
    found, own = set(report["found"]), set(hands[0])
    others = (set(hands[1]) | set(hands[2])) - public
    assert own <= found  # the search works: it finds the bot's own hand
    assert found <= own | public
    assert not found & others


def _cards_of(event: dict) -> list[str]:
    if event["type"] == "play":
        return [event["card"]]
    return list(event.get("cards", []))


@needs("namespaces")
def test_socket_to_localhost_is_refused(hostile, play):
    """A TCP connect to a listener on 127.0.0.1: refused, and the listener sees no one."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        server.settimeout(0.2)
        table = play(hostile("netbot", port=server.getsockname()[1]))
        with pytest.raises(TimeoutError):
            server.accept()
    assert table.faults() == []
    (report,) = table.reports()
    assert report["connect"].startswith("PermissionError"), report


@needs("landlock")
def test_writing_outside_its_folder_is_refused(hostile, play, tmp_path):
    """Writes outside the bot's temporary folder fail; one inside (the control) works."""
    outside, existing = tmp_path / "outside.txt", tmp_path / "existing.txt"
    existing.write_text("original")
    table = play(hostile("writer", outside=str(outside), existing=str(existing)))
    assert table.faults() == []
    (report,) = table.reports()
    assert report["inside"] == "done"
    outside_writes = {report[k] for k in ("outside", "overwrite", "delete")}
    if table.client._forked:  # those paths are not in its file system; its /tmp is its own
        assert outside_writes <= {"FileNotFoundError", "OSError", "PermissionError"}
        assert report["tmp"] in ("done", "OSError")  # read-only when its tmpfs is /var/tmp
    else:
        assert outside_writes | {report["tmp"]} == {"PermissionError"}
    assert not outside.exists() and existing.read_text() == "original"
    assert not os.path.exists("/tmp/arena-hostile-writer-was-here")


def test_the_machine_s_sysctls_cannot_be_opened_for_writing(hostile, play):
    """Not at import (the fork server: no Landlock there, so its /proc/sys is read-only) nor in a game."""
    table = play(hostile("sysctl"))
    assert table.faults() == []
    (report,) = table.reports()
    for when in ("import", "game"):
        assert "opened" not in report[when].values(), report

