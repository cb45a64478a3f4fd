"""Frames between the harness and a bot process: 4-byte big-endian length, JSON.

The harness reads with :func:`read_frame`, which never raises for anything the
bot does: a late, dead, oversized or garbled reply comes back as a
:class:`~arena.bots.reply.Reply` with status ``timeout``, ``crash`` (the
stream ended or failed) or ``malformed``. The
deadline covers the whole frame, header and body. Nothing is ever unpickled.
After any status but ``ok`` the stream is out of step: kill the bot.

JSON goes through orjson when it is importable, else the standard library.
:class:`LogDrain` empties a bot's stdout/stderr pipe into a capped buffer.
"""

from __future__ import annotations

import math
import os
import select
import struct
import threading
import time

from arena.bots.reply import Reply
from arena.game.status import Status

try:
    import orjson as _json

    _dumps, _loads = _json.dumps, _json.loads
except ImportError:  # pragma: no cover - orjson is a dependency
    import json

    _json = json  # type: ignore[misc]  # the stand-in under orjson's name (tests read which)

    def _dumps(obj) -> bytes:  # type: ignore[misc]  # orjson.dumps's role, without its optional arguments
        return json.dumps(obj, separators=(",", ":"), allow_nan=False).encode()

    _loads = json.loads  # type: ignore[assignment]  # only bytes reach it, never a memoryview

HEADER = struct.Struct(">I")
MAX_FRAME = (1 << 32) - 1


def encode(obj) -> bytes:
    """The frame bytes for obj (TypeError/ValueError if it is not JSON data)."""
    body = _dumps(obj)
    if len(body) > MAX_FRAME:
        raise ValueError(f"frame body of {len(body)} bytes exceeds {MAX_FRAME}")
    return HEADER.pack(len(body)) + body


def decode(body: bytes):
    """The data of a frame body (ValueError if it is not JSON)."""
    return _loads(body)


def write_frame(fd: int, obj) -> int:
    """Write obj as one frame to a blocking fd; the bytes written."""
    return write_frame_bytes(fd, encode(obj))


def write_frame_bytes(fd: int, data: bytes) -> int:
    """Write already encoded bytes to a blocking fd; their count."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    return len(data)


def read_frame(fd: int, *, max_bytes: int, deadline: float | None) -> Reply:
    """Read one frame by deadline (a time.monotonic() value; None: no limit).

    A header announcing more than max_bytes is malformed, and its body is
    not read. Works on blocking and non-blocking fds alike.
    """
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    header = _read_exact(fd, poller, HEADER.size, deadline, "header")
    if isinstance(header, Reply):
        return header
    (size,) = HEADER.unpack(header)
    if size > max_bytes:
        return Reply(Status.MALFORMED, detail=f"frame of {size} bytes announced (limit {max_bytes})")
    body = _read_exact(fd, poller, size, deadline, "body")
    if isinstance(body, Reply):
        return body
    status, value, detail = _decoded(body)
    return Reply(status, value, detail=detail)


class FrameBuffer:
    """Bytes read so far from one stream, cut into frames without extra reads.

    For a reader that does its own waiting: pass what ``os.read`` returned to
    :meth:`take`, which gives the next complete frame or None while more
    bytes are needed. One ``os.read`` of a pipe usually holds a whole reply,
    so a round trip costs one read call. Frames come back as ``(status,
    value, detail)`` tuples (a reply's fields: no object to build on the hot
    path); status is ``ok`` or ``malformed``.
    """

    __slots__ = ("buf", "max_bytes")

    def __init__(self, max_bytes: int) -> None:
        self.buf = bytearray()
        self.max_bytes = max_bytes

    def take(self, chunk: bytes) -> tuple[Status, object, str] | None:
        """Add chunk; the next complete frame, or None."""
        if not self.buf and len(chunk) >= HEADER.size:  # the usual case: one whole frame
            size = HEADER.unpack_from(chunk)[0]
            if size == len(chunk) - HEADER.size and size <= self.max_bytes:
                return _decoded(chunk[HEADER.size:])
        self.buf += chunk
        return self.pop()

    def pop(self) -> tuple[Status, object, str] | None:
        """The next complete frame already buffered, or None."""
        buf = self.buf
        if len(buf) < HEADER.size:
            return None
        (size,) = HEADER.unpack_from(buf)
        if size > self.max_bytes:
            return Status.MALFORMED, None, f"frame of {size} bytes announced (limit {self.max_bytes})"
        end = HEADER.size + size
        if len(buf) < end:
            return None
        body = bytes(buf[HEADER.size:end])
        del buf[:end]
        return _decoded(body)

    def progress(self) -> str:
        """What a partial frame has so far, for a timeout's detail."""
        if len(self.buf) < HEADER.size:
            return f"{len(self.buf)} of {HEADER.size} header bytes"
        (size,) = HEADER.unpack_from(self.buf)
        return f"{len(self.buf) - HEADER.size} of {size} body bytes"


def _decoded(body: bytes) -> tuple[Status, object, str]:
    try:
        return Status.OK, _loads(body), ""
    except (ValueError, RecursionError) as e:
        return Status.MALFORMED, None, f"body is not JSON: {_short(e)}"


def _read_exact(fd: int, poller, n: int, deadline: float | None, what: str) -> bytes | Reply:
    """Exactly n bytes, or the failure reply that stopped us (the stream's end is a crash)."""
    chunks, got = [], 0
    ready = poller.poll(0)  # usually the bytes are there: no clock needed
    while got < n:
        if not ready and not poller.poll(_timeout_ms(deadline)):
            return Reply(Status.TIMEOUT, detail=f"deadline passed with {got} of {n} {what} bytes")
        ready = False
        try:
            chunk = os.read(fd, n - got)
        except BlockingIOError:
            continue
        except OSError as e:
            return Reply(Status.CRASH, detail=f"read failed: {e}")
        if not chunk:
            return Reply(Status.CRASH, detail=f"end of stream after {got} of {n} {what} bytes")
        chunks.append(chunk)
        got += len(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _timeout_ms(deadline: float | None) -> int | None:
    """poll() timeout for what is left of deadline: 0 once it has passed."""
    if deadline is None:
        return None
    return max(0, math.ceil((deadline - time.monotonic()) * 1000))


def _short(e: Exception, limit: int = 120) -> str:
    text = str(e)
    return text if len(text) <= limit else text[:limit] + "..."


class LogDrain:
    """Reads a pipe in a daemon thread until EOF, keeping the first cap bytes.

    The bot never blocks on a full pipe: everything is read, the excess only
    counted. ``close=True`` closes fd at EOF.

    Besides the process's whole log (``data``, ``text``: its first ``cap``
    bytes), the drain keeps the output since the last :meth:`take` (its first
    ``take_cap`` bytes): one game's share of a process that plays several.
    Reads happen under the lock, so :meth:`take` answers with everything
    written to the pipe before it was called.
    """

    def __init__(self, fd: int, cap: int = 64 * 1024, *, close: bool = False,
                 take_cap: int | None = None) -> None:
        self.fd, self.cap, self._close = fd, cap, close
        self.take_cap = cap if take_cap is None else take_cap
        self._buf = bytearray()
        self._part = bytearray()
        self._part_total = 0
        self._total = 0
        self._eof = False
        self._lock = threading.Lock()
        os.set_blocking(fd, False)
        self._thread = threading.Thread(target=self._run, name=f"log-drain-{fd}",
                                        daemon=True)

    def start(self) -> LogDrain:
        self._thread.start()
        return self

    def join(self, timeout: float | None = None) -> bool:
        """Wait for EOF; True when the pipe is drained to its end."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    @property
    def data(self) -> bytes:
        """The kept bytes (at most cap)."""
        with self._lock:
            return bytes(self._buf)

    @property
    def total(self) -> int:
        """Every byte read so far, kept or not."""
        return self._total

    @property
    def dropped(self) -> int:
        """Bytes read but not kept."""
        with self._lock:
            return self._total - len(self._buf)

    def text(self) -> str:
        """The kept bytes as text, with a note of how much was dropped."""
        with self._lock:
            text = self._buf.decode("utf-8", errors="replace")
            dropped = self._total - len(self._buf)
        return text + (f"\n[... {dropped} more bytes dropped]" if dropped else "")

    def take(self) -> tuple[bytes, int]:
        """(the output since the last take, at most take_cap bytes; how many more bytes came).

        What the pipe holds now is read first: every byte written before
        this call is in the answer (or counted), none is left for the next.
        """
        with self._lock:
            while chunk := self._read_now():
                self._keep(chunk)
            part, more = bytes(self._part), self._part_total - len(self._part)
            self._part, self._part_total = bytearray(), 0
        return part, more

    def _keep(self, chunk: bytes) -> None:
        """Keep chunk (the lock held)."""
        room = self.cap - len(self._buf)
        if room > 0:
            self._buf += chunk[:room]
        room = self.take_cap - len(self._part)
        if room > 0:
            self._part += chunk[:room]
        self._total += len(chunk)
        self._part_total += len(chunk)

    def _run(self) -> None:
        try:
            while not self._eof:
                _wait_readable(self.fd)
                with self._lock:
                    while chunk := self._read_now():
                        self._keep(chunk)
        finally:
            if self._close:
                with self._lock:
                    self._eof = True
                    os.close(self.fd)

    def _read_now(self) -> bytes | None:
        """The next chunk the pipe holds now (None: nothing yet, b"": end of file; the lock held)."""
        if self._eof:
            return b""
        try:
            chunk = os.read(self.fd, 65536)
        except BlockingIOError:
            return None
        except OSError:
            chunk = b""
        if not chunk:
            self._eof = True
        return chunk


def _wait_readable(fd: int) -> None:
    """Wait until fd can be read, is at end of file or fails."""
    try:
        select.select([fd], [], [])
    except (OSError, ValueError):
        pass
