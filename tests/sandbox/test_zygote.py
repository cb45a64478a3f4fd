"""The zygote (arena/sandbox/zygote.py, zygoteproc.py): keepers and discovery processes forked from
one clean interpreter, each exactly what an exec'd one was, judged from outside through /proc."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest
from support.processes import all_gone, alive, wait_for

from arena.bots.referee import InProcessClient, play_game
from arena.game.rules import Rules
from arena.plugins.registry import load
from arena.sandbox import zygoteproc
from arena.sandbox.audit import fd_links
from arena.sandbox.client import SandboxClient
from arena.sandbox.limits import detect
from arena.sandbox.processes import children
from arena.tournament.spec import LimitsSpec

REGISTRY = load(autoload=False)
LIMITS = LimitsSpec(decision_ms=200, bank_ms=0, startup_ms=10000, memory_mb=1024)
LINUX = sys.platform.startswith("linux")
pytestmark = pytest.mark.skipif(not LINUX, reason="the zygote is read through Linux's /proc")


def environ(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as f:
        pairs = [entry.decode().split("=", 1) for entry in f.read().split(b"\0") if entry]
    return dict(pairs)


def _ended_discovery() -> zygoteproc.Child:
    """A discovery process forked from this process's zygote and given an empty request, after its end
    (it fails on it: exit code 1)."""
    ends = [fd for _ in range(3) for fd in os.pipe()]
    in_r, in_w, _out_r, out_w, _err_r, err_w = ends
    try:
        child = zygoteproc.spawn("plugin-host", (in_r, out_w, err_w))
        os.close(in_w)
        ends.remove(in_w)
        child.wait(timeout=30)
    finally:
        for fd in ends:
            os.close(fd)
    return child


def test_a_forked_process_holds_its_three_pipes_and_nothing_else():
    """A discovery process waiting for its request: its stdin, stdout and stderr are the pipes it
    was given and it holds no other descriptor (not the zygote's socket); its own session, in /,
    the environment asked for; it fails on a request that is not JSON, and its exit code comes back."""
    ends = [fd for _ in range(3) for fd in os.pipe()]
    in_r, in_w, out_r, out_w, err_r, err_w = ends
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "MARK": "asked-for"}
    child = zygoteproc.spawn("plugin-host", (in_r, out_w, err_w), env=env)
    try:
        mine = {fd: os.readlink(f"/proc/self/fd/{fd}") for fd in (in_r, out_w, err_w)}
        assert wait_for(lambda: fd_links(child.pid) == {0: mine[in_r], 1: mine[out_w], 2: mine[err_w]}), \
            fd_links(child.pid)
        assert child.pid in children(child.zygote.proc.pid)
        assert (os.getpgid(child.pid), os.getsid(child.pid)) == (child.pid, child.pid)
        assert os.readlink(f"/proc/{child.pid}/cwd") == "/"
        assert child.poll() is None
        os.close(in_w)  # an empty request: its JSON fails to parse
        assert child.wait(timeout=30) == 1
        assert b"JSONDecodeError" in os.read(err_r, 65536)
        assert not alive(child.pid)  # reaped by the zygote when asked, not before
    finally:
        for fd in (in_r, out_w, err_w, out_r, err_r):
            os.close(fd)
        if child.returncode is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()


def test_the_zygote_holds_only_its_socket_and_a_keepers_environment():
    """What a bot's keeper inherits: the zygote's environment is the scrubbed one, not this
    process's (which sets ZYGOTE_TEST_SECRET), and it holds /dev/null and its socket only."""
    os.environ["ZYGOTE_TEST_SECRET"] = "seeds"
    try:
        client = SandboxClient(REGISTRY.get("random"), LIMITS)
        try:
            assert client.ping().status == "ok"
            keeper = client._server.proc
            assert isinstance(keeper, zygoteproc.Child)
            zygote = keeper.zygote.proc.pid
            assert environ(zygote) == zygoteproc.environment()
            assert "ZYGOTE_TEST_SECRET" not in environ(keeper.pid)
            held = fd_links(zygote)
            assert sorted(held.values())[:3] == ["/dev/null"] * 3
            assert [link for fd, link in held.items() if fd > 2 and not link.startswith("socket:")] == []
        finally:
            client.close()
    finally:
        del os.environ["ZYGOTE_TEST_SECRET"]


@pytest.mark.skipif(not detect().available("forkserver"), reason="no fork server on this machine")
def test_a_killed_zygote_takes_its_keepers_and_the_next_bot_gets_a_new_one():
    first = SandboxClient(REGISTRY.get("random"), LIMITS)
    try:
        assert first.ping().status == "ok"
        keeper = first._server.proc
        server = first._server.server_pid
        old = keeper.zygote.proc.pid
        os.kill(old, signal.SIGKILL)
        assert all_gone([old, keeper.pid, server])  # the keepers' parent-death signal
        assert keeper.wait(timeout=10) == -signal.SIGKILL
        second = SandboxClient(REGISTRY.get("random"), LIMITS)
        try:
            record = play_game(Rules.preset("getaway"), [second, InProcessClient(REGISTRY.get("low")),
                                                         InProcessClient(REGISTRY.get("high"))], 3)
            assert record["faults"][0] == []
            assert second._server.proc.zygote.proc.pid not in (old, None)
        finally:
            second.close()
    finally:
        first.close()


def test_the_zygote_and_its_keepers_end_with_a_killed_harness():
    """kill -9 a harness that plays a sandboxed bot: its zygote and the bot's keeper go too."""
    script = textwrap.dedent("""
        import json, sys, time
        from arena.plugins.registry import load
        from arena.sandbox.client import SandboxClient
        from arena.tournament.spec import LimitsSpec
        client = SandboxClient(load(autoload=False).get("random"), LimitsSpec())
        assert client.ping().status == "ok"
        keeper = client._server.proc
        print(json.dumps([keeper.zygote.proc.pid, keeper.pid]), flush=True)
        time.sleep(60)
    """)
    harness = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    try:
        pids = json.loads(harness.stdout.readline())
        assert all(alive(p) for p in pids)
        harness.kill()
        harness.wait()
        assert all_gone(pids), [p for p in pids if alive(p)]
    finally:
        harness.kill()
        harness.wait()
        harness.stdout.close()


def test_a_request_the_zygote_refuses_is_an_error_and_leaves_it_working():
    """A spawn with the wrong descriptors is refused with a message naming them; the zygote serves on."""
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        with pytest.raises(OSError, match=r"expected 5 descriptors \(stdin, stdout, stderr and 2 more\), got 3"):
            zygoteproc.spawn("keeper", (null, null, null))
        assert _ended_discovery().returncode == 1
    finally:
        os.close(null)


def test_a_fork_of_the_harness_drops_its_zygotes():
    """A process forked from a harness with a zygote neither uses that zygote nor keeps its socket
    (the zygote must see its harness's end close when the harness ends)."""
    child = _ended_discovery()
    assert child.returncode == 1
    ours = os.readlink(f"/proc/self/fd/{child.zygote.sock.fileno()}")
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the fork: report, then leave at once
        try:
            held = [os.readlink(f"/proc/self/fd/{fd}") for fd in range(3, 256) if os.path.exists(f"/proc/self/fd/{fd}")]
            os.write(w, json.dumps({"zygotes": len(zygoteproc.running()), "held": held}).encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        seen = json.loads(f.read())
    os.waitpid(pid, 0)
    assert seen["zygotes"] == 0 and ours not in seen["held"], (ours, seen)
    assert child.zygote.broken == "" and zygoteproc.running()  # the parent's is untouched
