"""Hostile bots, second pass: what a bot must never learn, keep, outlive or starve.

Each test seats one attack (``bots/<attack>.py``) and judges it from outside,
as in test_hostile.py (the ``play`` fixture also checks the honest seats and
bystanders). These are the attacks that got through the first sandbox: one
bot process remembering a deal across its seat rotations, reading other
processes' clocks and priorities, outliving a killed harness, starving the
machine of threads or disk, reading results and the checkout, and, against
the fork server, leaving shared memory or threads behind at import.
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hostile_support import CAPS, FAST, REGISTRY, RULES, needs

import arena
from arena.bots.referee import InProcessClient, play_game
from arena.sandbox.client import SandboxClient
from arena.sandbox import pool, zygoteproc
from arena.sandbox.audit import fd_links
from arena.sandbox.processes import state
from arena.sandbox.limits import Limits
from support.processes import alive, all_gone, cpu_seconds

CHECKOUT = Path(arena.__file__).resolve().parents[1]
EXEC = Limits(disable={"forkserver"})


def test_a_bot_remembers_nothing_across_the_rotations_of_a_deal(hostile, honest):
    """Three rotations of one deal, one client: each game's process knows no earlier game."""
    client = SandboxClient(hostile("memory"), FAST)
    heuristic = InProcessClient(REGISTRY.get("heuristic"))
    hands = []
    try:
        for rotation in range(3):
            seats = [client, honest, heuristic]
            seats = seats[-rotation:] + seats[:-rotation] if rotation else seats
            record = play_game(RULES, seats, 77)  # the same deal every time
            me = seats.index(client)
            assert record["faults"][me] == []
            hands.append(sorted(record["events"][0]["hands"][me]))
    finally:
        client.close()  # every process's log is complete once it has ended
    reports = _reports(client)
    assert sorted(r["hand"] for r in reports) == sorted(hands) and len({tuple(h) for h in hands}) == 3
    assert [r["remembered"] for r in reports] == [0, 0, 0]
    assert client.processes == 3


def _reports(client) -> list[dict]:
    import json
    return [json.loads(line[len("REPORT "):]) for line in client.log_text().splitlines()
            if line.startswith("REPORT ")]


@needs("forkserver")
@pytest.mark.parametrize("layers", ["all", "no seccomp"])
def test_other_processes_cannot_be_named(hostile, play, honest, sentinel, layers):
    """CPU clocks, priorities, I/O priorities, affinity, signal 0 of others: all refused,
    by the PID namespace alone too (seccomp off)."""
    targets = {"harness": os.getpid(), "sentinel": sentinel.pid, "honest": honest.pid}
    limits = Limits(disable={"seccomp"}) if layers == "no seccomp" else None
    table = play(hostile("sibling", targets=targets), os_limits=limits)
    assert table.faults() == []
    (report,) = table.reports()
    assert report.pop("own_clock") == "got True"  # its own clock works
    assert len(report) == 5 * len(targets)
    assert not any(v.startswith("got") for v in report.values()), report


@needs("seccomp")
def test_other_processes_cannot_be_named_without_a_pid_namespace(hostile, play, honest, sentinel):
    """The same reads from an exec'd bot (no PID namespace): seccomp refuses each one."""
    targets = {"harness": os.getpid(), "sentinel": sentinel.pid}
    table = play(hostile("sibling", targets=targets), limits=FAST, os_limits=EXEC)
    assert table.faults() == []
    (report,) = table.reports()
    assert report.pop("own_clock") == "got True"
    assert not any(v.startswith("got") for v in report.values()), report


@needs("forkserver")
@pytest.mark.parametrize("cap", ["cgroup", "rlimit"])
def test_three_thousand_threads_stop_at_the_bots_cap(hostile, play, cap):
    """A thread bomb gets a few dozen threads; the harness and honest bots go on.

    No address-space limit here, so only the task cap can stop it: the cgroup's
    pids.max, or without cgroups RLIMIT_NPROC (a root harness then runs the bot
    as an unprivileged uid, since the kernel never enforces it for uid 0)."""
    import threading

    if cap == "cgroup" and not CAPS.available("cgroups"):
        pytest.skip("no writable pids and memory controllers here")
    disable = {"cgroups"} if cap == "rlimit" else set()
    table = play(hostile("threads"), os_limits=Limits(memory_mb=None, disable=disable))
    (report,) = table.reports()
    assert report["started"] < Limits().processes + pool.SIZE, report
    assert "can't start new thread" in report["error"]
    if cap == "rlimit" and os.geteuid() == 0:
        steps = {s["name"]: s for s in table.client.confinement["steps"]}
        assert steps["server:run_as"]["detail"] == "uid 65534 outside its user namespace"
    t = threading.Thread(target=lambda: None)
    t.start()  # the harness can still start threads
    t.join()


@needs("forkserver")
def test_filling_the_disk_stops_at_the_private_tmp(hostile, play):
    """1 MiB files until full, then empty files: ENOSPC at 64 MiB and 4,096 files, in RAM. (Writing them
    took more than the usual 200 ms of CPU once, a timeout, with the other test worker busy: a roomy
    clock, as time is not what this test is about.)"""
    roomy = dataclasses.replace(FAST, decision_ms=20_000)
    table = play(hostile("diskfill"), limits=roomy)
    assert table.faults() == [], table.details()
    (report,) = table.reports()
    assert report["stop_bytes"] == "ENOSPC" and 60 <= report["mib"] <= 64, report
    assert report["stop_files"] == "ENOSPC" and report["files"] <= 4096, report


@pytest.mark.parametrize("mode", ["forkserver", "exec"])
def test_a_1500_deep_folder_is_cleaned_up(hostile, play, mode):
    """A 1,500-deep folder: no fault, and the harness cleans up without raising. (Its 1,500 mkdirs
    took 0.3 s of CPU and 3.8 s of wall time on a loaded machine: a roomy clock, as time is not what
    this test is about.)"""
    roomy = dataclasses.replace(FAST, decision_ms=20_000)
    table = play(hostile("deepdir"), limits=roomy, os_limits=EXEC if mode == "exec" else None)
    assert table.faults() == [], table.details()
    (report,) = table.reports()
    assert report["depth"] == 1500


@pytest.mark.parametrize("mode", ["forkserver", "exec"])
def test_harness_data_is_out_of_reach(hostile, play, tmp_path, mode):
    """Results databases, the checkout, tournament files, the harness's /proc: none readable
    (in its own file system, or under Landlock in an exec'd process)."""
    results = tmp_path / "results" / "event"
    results.mkdir(parents=True)
    with sqlite3.connect(results / "results.sqlite") as db:
        db.execute("create table games (deal text)")
        db.execute("insert into games values ('AS KS QS')")
    paths = {"results": str(results / "results.sqlite"), "results_dir": str(results),
             "readme": str(CHECKOUT / "README.md"), "tournament": str(CHECKOUT / "tournaments"),
             "tests": str(CHECKOUT / "tests"), "checkout": str(CHECKOUT / ".git"),
             "environ": f"/proc/{os.getpid()}/environ", "etc": "/etc/hostname",
             "pyproject": str(CHECKOUT / "pyproject.toml")}
    table = play(hostile("reader", paths=paths), os_limits=EXEC if mode == "exec" else None)
    assert table.faults() == [], table.details()
    (report,) = table.reports()
    assert report.pop("own_package").startswith("read")
    assert "ARENA" not in " ".join(report.pop("environ"))
    readable = {k: v for k, v in report.items() if not v.endswith(("Error", "NotFoundError"))}
    if table.client._forked:
        assert readable == {}, readable
    else:  # Landlock: the import folders' names may be listed (for Python's imports), no file read
        assert all(v.startswith("listed") for v in readable.values()), readable
        assert not {"results", "readme", "pyproject", "environ", "etc"} & set(readable), readable


@needs("forkserver")
def test_shared_memory_from_the_import_is_refused(hostile, play):
    """A shared mapping made at import would carry hands between games: the game never starts."""
    table = play(hostile("shm"))
    assert table.faults() and set(table.faults()) == {"crash"}
    assert "shared memory mapping" in table.details()[0]
    assert table.reports() == []


@needs("forkserver")
def test_a_thread_left_in_the_fork_server_is_refused(hostile, play):
    """A thread started at import would outlive it in the server: the game never starts."""
    table = play(hostile("lurker"))
    assert set(table.faults()) == {"crash"}
    assert "threads" in table.details()[0]


def test_every_bot_process_dies_with_a_killed_harness(hostile, tmp_path):
    """A bot that clears its parent-death signal: kill -9 the harness, and all of the bot is gone."""
    spec = hostile("orphan")
    module = spec.factory.__module__
    script = textwrap.dedent(f"""
        import json, os, sys, time
        sys.path.insert(0, {str(tmp_path)!r})
        from arena import PlayerSpec, Rules
        from arena.tournament.spec import LimitsSpec
        from arena.plugins.registry import load
        from arena.bots.referee import InProcessClient, play_game
        from arena.sandbox.client import SandboxClient
        from arena.sandbox.processes import descendants
        import {module} as hostile
        reg = load(autoload=False)
        client = SandboxClient(PlayerSpec("orphan", hostile.Bot), LimitsSpec())
        record = play_game(Rules.preset("getaway"), [client, InProcessClient(reg.get("low")),
                           InProcessClient(reg.get("high"))], 3)
        keeper = (client._server or client._proc).pid
        print(json.dumps({{"pids": [keeper] + descendants(keeper),
                          "faults": record["faults"][0]}}), flush=True)
        time.sleep(60)
    """)
    harness = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    try:
        import json
        found = json.loads(harness.stdout.readline())
        assert found["faults"] == [] and len(found["pids"]) >= 2 - (not _forked())
        assert all(alive(p) for p in found["pids"])
        harness.kill()
        harness.wait()
        assert all_gone(found["pids"]), [p for p in found["pids"] if alive(p)]
    finally:
        harness.kill()
        harness.wait()


def _forked() -> bool:
    from arena.sandbox.limits import detect
    return detect().available("forkserver")


@needs("seccomp")
@pytest.mark.parametrize("mode", ["forkserver", "exec"])
def test_shared_kernel_state_is_refused(hostile, play, mode):
    """File locks and inotify on a shared file, SysV IPC, the host name, mincore: all refused
    (channels two bots at one table could pass cards through)."""
    table = play(hostile("channels"), os_limits=EXEC if mode == "exec" else None)
    assert table.faults() == [], table.details()
    (report,) = table.reports()
    assert len(report) == 7 and set(report.values()) == {"PermissionError"}, report


@needs("forkserver")
def test_across_different_deals_a_process_may_remember(hostile, honest):
    """Opponent modelling across deals is legitimate: deals 5 then 6, one process, it recalls
    game one in game two; then deal 5 again goes to a fresh process, which recalls nothing."""
    client = SandboxClient(hostile("memory"), FAST)
    heuristic = InProcessClient(REGISTRY.get("heuristic"))
    try:
        for seed in (5, 6, 5):
            record = play_game(RULES, [client, honest, heuristic], seed)
            assert record["faults"][0] == []
    finally:
        client.close()
    remembered = sorted(r["remembered"] for r in _reports(client))  # (module list and files)
    assert remembered[:2] == [0, 0] and remembered[2] > 0
    assert client.processes == 2


@needs("forkserver")
def test_the_fork_server_is_stopped_while_games_are_played(hostile, play):
    """A timer with a CPU-burning handler armed at import: the server, stopped between game
    starts, spends no CPU while its games are played."""
    seen = []

    def sample(client) -> None:
        server = client._server.server_pid
        first = cpu_seconds(server)
        # a window, not an event: the claim is that nothing happens (the stopped server's timer burns
        # no CPU) while a game starts, so the test watches it for a while; there is nothing to await
        time.sleep(0.3)
        seen.append((state(server), first, cpu_seconds(server)))

    table = play(hostile("timer"), before_close=sample)
    assert table.faults() == [], table.details()
    ((status, before, after),) = seen
    assert status == "T" and after == before


@needs("forkserver")
def test_no_descriptor_leads_a_bot_to_the_zygote(hostile, play):
    """The bot's keeper was forked from the harness's zygote: neither its fork server (at import)
    nor its game process holds a socket of the zygote's (whose requests fork processes) or any
    descriptor the zygote held."""
    table = play(hostile("descriptors"))
    assert table.faults() == [], table.details()
    (report,) = table.reports()
    zygotes = zygoteproc.running()
    assert zygotes, "the keeper was not forked from a zygote"
    held = [*fd_links(zygotes[0].proc.pid).values(), os.readlink(f"/proc/self/fd/{zygotes[0].sock.fileno()}")]
    theirs = {link for link in held if link.startswith(("socket:", "pipe:"))}  # not /dev/null
    assert len([t for t in theirs if t.startswith("socket:")]) == 2
    for stage in ("import", "game"):
        assert report[stage] and not set(report[stage].values()) & theirs, (stage, report[stage])


@needs("forkserver")
def test_the_zygote_s_memory_names_no_other_bot(hostile, play, honest):
    """The bot's keeper is a fork of the zygote taken mid-request: the zygote's frames are still on the
    fork's stack. What the bot finds there names no other bot's keeper (the honest bot's, forked from
    the same zygote earlier)."""
    table = play(hostile("frames"))
    assert table.faults() == [], table.details()
    (report,) = table.reports()
    assert report.get("main", {}).get("children") == "set()", report  # the frames were found and read
    other = str(honest._server.proc.pid)
    assert all(other not in text for frame in report.values() for text in frame.values()), report
