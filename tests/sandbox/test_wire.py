"""Tests for arena.sandbox.wire: frames over pipes, failures as data."""

from __future__ import annotations

import fcntl
import importlib.util
import os
import pickle
import struct
import sys
import termios
import threading
import time

import pytest

from arena.sandbox import wire
from arena.bots.reply import Reply
from arena.sandbox.wire import LogDrain, read_frame, write_frame
from support.processes import wait_for

class Pipe:
    """Both ends of an os.pipe, closed once each (tests may close one early)."""

    def __init__(self) -> None:
        self.r, self.w = os.pipe()
        self.open = {self.r, self.w}

    def __iter__(self):
        return iter((self.r, self.w))

    def __getitem__(self, i: int) -> int:
        return (self.r, self.w)[i]

    def close(self, fd: int) -> None:
        if fd in self.open:
            self.open.discard(fd)
            os.close(fd)

    def forget(self, fd: int) -> None:
        """Someone else closed fd."""
        self.open.discard(fd)


@pytest.fixture
def pipe():
    p = Pipe()
    yield p
    for fd in list(p.open):
        p.close(fd)


def unread(fd: int) -> int:
    """Bytes waiting in the pipe whose read end is ``fd``."""
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


def soon(seconds: float = 1.0) -> float:
    return time.monotonic() + seconds


def test_round_trip(pipe):
    """Plain JSON data comes back equal, one frame per write."""
    r, w = pipe
    values = [{"play": "AS", "seat": 3}, [1, 2.5, None, True], "ह♠", 0, {"a": {"b": []}}]
    for value in values:
        write_frame(w, value)
    for value in values:
        assert read_frame(r, max_bytes=1 << 16, deadline=soon()) == Reply("ok", value)


def test_write_frame_returns_bytes_written(pipe):
    """write_frame reports header plus body length."""
    r, w = pipe
    assert write_frame(w, [1]) == 4 + len(b"[1]")
    assert os.read(r, 100) == struct.pack(">I", 3) + b"[1]"


def test_write_frame_rejects_non_json(pipe):
    """Objects JSON cannot hold are the caller's error, raised at once."""
    with pytest.raises(TypeError):
        write_frame(pipe[1], object())


def test_frame_of_exactly_max_bytes_is_ok(pipe):
    """The cap is inclusive."""
    r, w = pipe
    n = write_frame(w, "x" * 10) - 4
    assert read_frame(r, max_bytes=n, deadline=soon()).value == "x" * 10


def test_oversize_header_refused_without_reading_body(pipe):
    """A header over max_bytes is malformed and its body stays unread."""
    r, w = pipe
    os.write(w, struct.pack(">I", 10_000_000) + b"body bytes")
    frame = read_frame(r, max_bytes=1000, deadline=soon())
    assert frame.status == "malformed"
    assert "10000000" in frame.detail
    assert os.read(r, 100) == b"body bytes"


def test_header_then_silence_times_out_at_the_deadline(pipe):
    """A header and no body: a timeout saying how far the frame got, not given before the deadline."""
    r, w = pipe
    os.write(w, struct.pack(">I", 50))
    deadline = soon(0.2)
    frame = read_frame(r, max_bytes=1000, deadline=deadline)
    assert time.monotonic() >= deadline
    assert frame.status == "timeout"
    assert "0 of 50 body bytes" in frame.detail


def test_no_reply_times_out(pipe):
    """Silence from the start is a timeout too, and with a past deadline read_frame does not wait
    (nothing will ever be written: a wait would never end)."""
    r, _ = pipe
    assert read_frame(r, max_bytes=10, deadline=soon(0.05)).status == "timeout"
    frame = read_frame(r, max_bytes=10, deadline=time.monotonic() - 1)
    assert frame.status == "timeout" and "0 of 4 header bytes" in frame.detail


def test_garbage_body_is_malformed(pipe):
    """A body that is not JSON is malformed, with the reason."""
    r, w = pipe
    os.write(w, struct.pack(">I", 5) + b"\xff{no}")
    frame = read_frame(r, max_bytes=100, deadline=soon())
    assert frame.status == "malformed"
    assert frame.value is None
    assert "not JSON" in frame.detail


def test_empty_body_is_malformed(pipe):
    """A zero length is not a JSON document."""
    r, w = pipe
    os.write(w, struct.pack(">I", 0))
    assert read_frame(r, max_bytes=100, deadline=soon()).status == "malformed"


def test_pickle_is_never_unpickled(pipe):
    """A pickle whose loading would run code is just malformed bytes."""
    r, w = pipe
    ran = []

    class Evil:
        def __reduce__(self):
            return (ran.append, ("pwned",))

    body = pickle.dumps(Evil())
    os.write(w, struct.pack(">I", len(body)) + body)
    assert read_frame(r, max_bytes=1 << 16, deadline=soon()).status == "malformed"
    assert ran == []


def test_eof_is_a_crash(pipe):
    """The writer gone before a byte: a crash (the bot died)."""
    r, w = pipe
    pipe.close(w)
    frame = read_frame(r, max_bytes=100, deadline=soon())
    assert frame.status == "crash"
    assert "0 of 4 header bytes" in frame.detail


def test_eof_mid_frame_is_a_crash(pipe):
    """The writer gone in the middle of a body: a crash."""
    r, w = pipe
    os.write(w, struct.pack(">I", 10) + b"[1,")
    pipe.close(w)
    frame = read_frame(r, max_bytes=100, deadline=soon())
    assert frame.status == "crash"
    assert "3 of 10 body bytes" in frame.detail


def test_bad_fd_is_a_crash():
    """A read end that is already closed is reported, not raised."""
    r, w = os.pipe()
    os.close(r)
    os.close(w)
    assert read_frame(r, max_bytes=100, deadline=soon(0.1)).status in ("crash", "timeout")


def test_slow_dribble_times_out_on_the_whole_frame(pipe):
    """Bytes arriving steadily, but never the whole frame, still time out at the deadline: the
    deadline covers the frame, not each read (a per-read deadline would wait as long as they come)."""
    r, w = pipe
    os.write(w, struct.pack(">I", 1000) + b" ")
    stop = threading.Event()

    def dribble():  # never the 1000th byte: the frame cannot complete, however late the reader
        for _ in range(998):
            if stop.wait(0.01):
                return
            os.write(w, b" ")

    thread = threading.Thread(target=dribble)
    thread.start()
    deadline = soon(0.3)
    try:
        frame = read_frame(r, max_bytes=1000, deadline=deadline)
    finally:
        stop.set()
        thread.join()
    assert time.monotonic() >= deadline
    assert frame.status == "timeout" and frame.detail.endswith(" of 1000 body bytes")
    assert int(frame.detail.split()[3]) >= 1


def test_frame_split_across_writes_is_read_whole(pipe):
    """A frame that arrives in pieces is read whole: each piece is written once the reader has taken
    the one before (the pipe is empty again), so the reader sees every piece on its own."""
    r, w = pipe
    data = struct.pack(">I", 7) + b'"hello"'

    def pieces():
        for i in range(0, len(data), 3):
            wait_for(lambda: unread(r) == 0)  # (in a thread: an assert here would leave the reader waiting)
            os.write(w, data[i:i + 3])

    thread = threading.Thread(target=pieces)
    thread.start()
    frame = read_frame(r, max_bytes=100, deadline=None)
    thread.join()
    assert frame == Reply("ok", "hello")


def test_non_blocking_fd(pipe):
    """A non-blocking read end works the same, waiting by poll."""
    r, w = pipe
    os.set_blocking(r, False)
    writer = threading.Timer(0.05, write_frame, (w, {"ok": 1}))
    writer.start()
    assert read_frame(r, max_bytes=100, deadline=None).value == {"ok": 1}
    writer.join()


def test_large_frame(pipe):
    """A frame bigger than the pipe buffer arrives whole while being written."""
    r, w = pipe
    value = ["x" * 1000] * 500
    thread = threading.Thread(target=write_frame, args=(w, value))
    thread.start()
    frame = read_frame(r, max_bytes=1 << 20, deadline=None)
    thread.join()
    assert frame.value == value


def test_stdlib_json_fallback(pipe, monkeypatch):
    """Without orjson, the standard library encodes and decodes the same frames."""
    monkeypatch.setitem(sys.modules, "orjson", None)
    spec = importlib.util.spec_from_file_location("wire_no_orjson", wire.__file__)
    fallback = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "wire_no_orjson", fallback)
    spec.loader.exec_module(fallback)
    assert fallback._json.__name__ == "json"
    r, w = pipe
    fallback.write_frame(w, {"a": [1, "ह"]})
    assert wire.read_frame(r, max_bytes=100, deadline=soon()).value == {"a": [1, "ह"]}
    wire.write_frame(w, [True])
    assert fallback.read_frame(r, max_bytes=100, deadline=soon()).value == [True]
    os.write(w, struct.pack(">I", 3) + b"{x}")
    assert fallback.read_frame(r, max_bytes=100, deadline=soon()).status == "malformed"


def test_log_drain_keeps_the_first_bytes_and_counts_the_rest(pipe):
    """A flood is read to the end (the writer never blocks); cap bytes are kept."""
    r, w = pipe
    drain = LogDrain(r, cap=1000, close=True).start()
    chunk = b"0123456789" * 10_000
    for _ in range(20):
        os.write(w, chunk)
    pipe.close(w)
    assert drain.join(timeout=10)
    pipe.forget(r)
    assert drain.data == chunk[:1000]
    assert drain.total == 20 * len(chunk)
    assert drain.dropped == 20 * len(chunk) - 1000
    assert drain.text().endswith(f"[... {drain.dropped} more bytes dropped]")


def test_log_drain_small_output_has_no_note(pipe):
    """Output under the cap is kept whole and decoded leniently."""
    r, w = pipe
    drain = LogDrain(r, cap=1000).start()
    os.write(w, b"hello\n\xff")
    pipe.close(w)
    assert drain.join(timeout=5)
    assert drain.text() == "hello\n\ufffd"
    assert drain.dropped == 0


def test_log_drain_take_cuts_the_log_per_game(pipe):
    """take() answers with everything written before it (read from the pipe now, not later), each part
    capped at take_cap with the rest counted, while the process's whole log keeps its own cap."""
    r, w = pipe
    drain = LogDrain(r, cap=1000, take_cap=10).start()
    os.write(w, b"game one\n")
    assert drain.take() == (b"game one\n", 0)  # no waiting for the thread: the pipe is read at once
    os.write(w, b"game two is longer\n")
    assert drain.take() == (b"game two i", 9)
    assert drain.take() == (b"", 0)
    os.write(w, b"last")
    pipe.close(w)
    assert drain.join(timeout=5)
    assert drain.take() == (b"last", 0)
    assert drain.data == b"game one\ngame two is longer\nlast"


def test_log_drain_take_under_a_flood(pipe):
    """take() while the thread drains a flood: no byte is counted twice or lost between the parts."""
    r, w = pipe
    drain = LogDrain(r, cap=1 << 20, take_cap=1 << 20, close=True).start()
    chunk = b"0123456789" * 1000
    got = bytearray()
    for _ in range(50):
        os.write(w, chunk)
        got += drain.take()[0]
    pipe.close(w)
    assert drain.join(timeout=10)
    pipe.forget(r)
    got += drain.take()[0]
    assert bytes(got) == chunk * 50
