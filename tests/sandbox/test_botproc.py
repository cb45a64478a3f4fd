"""BotProcess.request against a scripted peer (the usual whole reply, and replies that go the general way);
alive() of a process not our child."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from arena.game.status import Status
from arena.sandbox import wire
from arena.sandbox.botproc import BotProcess


class Peer:
    """The far end of a BotProcess's pipes, played by a thread of this process: it reads each command
    frame and answers with what ``script`` returns for it, a list of byte chunks written with a
    pause between them (an empty list: no answer)."""

    def __init__(self, script) -> None:
        cmd_r, cmd_w = os.pipe()
        rep_r, rep_w = os.pipe()
        log_r, self._log_w = os.pipe()
        self._cmd, self._reply, self.script = cmd_r, rep_w, script
        self.proc = BotProcess.adopt(os.getpid(), cmd_w, rep_r, log_r, killer=lambda: 0)
        self.proc._clock = None   # no CPU clock of its own: its CPU time is taken to be the wall time
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        frames = wire.FrameBuffer(1 << 20)
        while True:
            chunk = os.read(self._cmd, 65536)
            if not chunk:
                return
            frame = frames.take(chunk)
            while frame is not None:
                for i, part in enumerate(self.script(frame[1])):
                    if i:
                        time.sleep(0.02)
                    os.write(self._reply, part)
                frame = frames.pop()

    def close(self) -> None:
        self.proc.kill(wait=False)   # its command pipe closed: the peer reads its end and leaves
        self._thread.join(5)
        for fd in (self._cmd, self._reply, self._log_w):
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.fixture
def peer():
    made = []

    def make(script):
        made.append(Peer(script))
        return made[-1].proc

    yield make
    for p in made:
        p.close()


def test_a_whole_reply_comes_back_with_its_times(peer):
    proc = peer(lambda m: [wire.encode({"echo": m["n"]})])
    for n in range(3):
        reply = proc.request({"n": n}, 5.0, 15.0)
        assert reply.status == Status.OK and reply.value == {"echo": n} and reply.detail == ""
        assert reply.cpu >= 0 and 0 < reply.wall < 15.0


def test_a_reply_in_parts_is_read_whole(peer):
    def in_parts(m):
        data = wire.encode({"echo": m["n"], "pad": "x" * 100})
        return [data[:2], data[2:30], data[30:]]   # the header itself split

    proc = peer(in_parts)
    for n in range(3):
        reply = proc.request({"n": n}, 5.0, 15.0)
        assert reply.status == Status.OK and reply.value["echo"] == n
        assert reply.wall >= 0.04   # two pauses: the general way waited for the rest


def test_two_replies_in_one_read_are_two_answers(peer):
    proc = peer(lambda m: [wire.encode({"first": m["n"]}) + wire.encode({"second": m["n"]})] if m["n"] == 0 else [])
    first = proc.request({"n": 0}, 5.0, 15.0)
    assert first.status == Status.OK and first.value == {"first": 0}
    second = proc.request({"n": 1}, 5.0, 15.0)   # already buffered: the peer sends nothing for n=1
    assert second.status == Status.OK and second.value == {"second": 0}


def test_garbage_and_silence_are_faults(peer):
    proc = peer(lambda m: [b"\x00\x00\x00\x05nope!"] if m["n"] == 0 else [])
    bad = proc.request({"n": 0}, 5.0, 15.0)
    assert bad.status == Status.MALFORMED and "not JSON" in bad.detail
    late = proc.request({"n": 1}, None, 0.1)
    assert late.status == Status.TIMEOUT and "wall-clock cap" in late.detail


def test_a_process_not_our_child_is_alive_while_it_runs_or_is_frozen_and_gone_once_it_dies():
    """An adopted process (a fork server's) is judged by its reply pipe's far end: alive while it runs
    and while it is stopped; gone as soon as it dies, before anyone reaps it; a closed one is gone."""
    cmd_r, cmd_w = os.pipe()
    rep_r, rep_w = os.pipe()
    log_r, log_w = os.pipe()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                             pass_fds=(cmd_r, rep_w, log_w), stdout=log_w, stderr=log_w)
    for fd in (cmd_r, rep_w, log_w):
        os.close(fd)
    proc = BotProcess.adopt(child.pid, cmd_w, rep_r, log_r, killer=lambda: child.kill())
    try:
        assert proc.alive()
        os.kill(child.pid, signal.SIGSTOP)
        assert proc.alive(), "a frozen process is alive"
        os.kill(child.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while proc.alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not proc.alive()
        with open(f"/proc/{child.pid}/stat") as f:   # not reaped yet: a zombie
            assert f.read().rsplit(")", 1)[1].split()[0] == "Z"
    finally:
        child.kill()
        child.wait()
        proc.kill(wait=False)
    assert not proc.alive()
