"""A program bot's stream, seen from the harness: JSON lines, cut and judged; its folder's read-only copy.

A program bot (docs/protocol.md) answers on its stdout with one JSON object a
line. :class:`LineBuffer` is the :class:`~arena.sandbox.wire.FrameBuffer` of
that stream: the same ``take``/``pop``/``progress`` a
:class:`~arena.sandbox.botproc.BotProcess` reads frames with, so the timing,
the deadlines and the faults are the Python bots' own. Every line is bounded
(:data:`MAX_LINE`) before it is decoded and counted, so a fault names it
(``line 3 is not JSON``); a reply's ``type`` is turned into the key the
client's judges read (``{"type": "done"}`` is ``{"done": true}``, an error
reply ``{"error": message}``, a crash of that seat).

:func:`copy_folder` makes the copy a program runs from: bounded in size and
files, symbolic links kept as links and only when they stay inside.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile

from arena.game.status import Status
from arena.sandbox.errors import ProgramError
from arena.sandbox.wire import _dumps, _loads, encode

MAX_LINE = 64 * 1024
"""The longest line a program may write (its answers are a few bytes)."""
MAX_COPY_BYTES = 256 << 20
MAX_COPY_FILES = 10_000
EXEC = encode({"op": "exec"})
"""The frame that has a program's game process, confined and checked from outside, exec the program."""
_KINDS = {"done": {"done": True}, "ready": {"ok": True}}


class LineBuffer:
    """Bytes of a program's stdout cut into JSON lines, as ``(status, value, detail)`` tuples."""

    __slots__ = ("buf", "max_bytes", "lines")

    def __init__(self, max_bytes: int = MAX_LINE) -> None:
        self.buf = bytearray()
        self.max_bytes = max_bytes
        self.lines = 0
        """Lines taken so far (the number of the last one)."""

    def take(self, chunk: bytes) -> tuple[str, object, str] | None:
        self.buf += chunk
        return self.pop()

    def pop(self) -> tuple[str, object, str] | None:
        buf = self.buf
        end = buf.find(b"\n", 0, self.max_bytes + 1)
        if end < 0:
            if len(buf) > self.max_bytes:
                return Status.MALFORMED, None, f"line {self.lines + 1} is longer than {self.max_bytes // 1024} KiB"
            return None
        line = bytes(buf[:end])
        del buf[:end + 1]
        self.lines += 1
        try:
            value = _loads(line)
        except ValueError:
            return Status.MALFORMED, None, f"line {self.lines} is not JSON: {shown(line)}"
        return Status.OK, reply_of(value), ""

    def progress(self) -> str:
        return f"{len(self.buf)} bytes of line {self.lines + 1}, no newline yet"


def reply_of(value):
    """A program's reply as the client's judges read one (a Python host's keys)."""
    if type(value) is not dict or "type" not in value:
        return value
    kind = value.get("type")
    if kind == "error":
        return {"error": f"the program reported an error: {str(value.get('message'))[:300]}"}
    if kind == "hello":
        return {"hello": value}
    return _KINDS.get(kind, value)


def shown(data: bytes, limit: int = 60) -> str:
    """Some bytes of a bot's line, quoted, printable (never a terminal escape)."""
    text = data[:limit].decode("utf-8", "replace")
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return repr(text) + ("..." if len(data) > limit else "")


def line(message: dict) -> bytes:
    """One message as a program reads it: a JSON line."""
    return _dumps(message) + b"\n"


def copy_folder(folder: str) -> str:
    """A private copy of ``folder`` (a new folder of the harness's temporary folder), or ProgramError."""
    folder = os.path.realpath(folder)
    total, files = 0, 0
    for here, dirs, names in os.walk(folder):
        for name in dirs + names:
            path = os.path.join(here, name)
            info = os.lstat(path)
            files += 1
            if stat.S_ISLNK(info.st_mode):
                target = os.path.realpath(path)
                if target != folder and not target.startswith(folder + os.sep):
                    raise ProgramError(f"program folder {folder}: the link {path} must stay inside the folder "
                                       f"(it points to {target})")
            elif stat.S_ISREG(info.st_mode):
                total += info.st_size
            elif not stat.S_ISDIR(info.st_mode):
                raise ProgramError(f"program folder {folder}: expected files, folders and links (got {path})")
        if files > MAX_COPY_FILES or total > MAX_COPY_BYTES:
            raise ProgramError(f"program folder {folder}: expected at most {MAX_COPY_FILES} files and "
                               f"{MAX_COPY_BYTES >> 20} MiB (got more)")
    base = tempfile.mkdtemp(prefix=f"arena-program-{os.getpid()}-")
    copy = os.path.join(base, "bot")
    try:
        shutil.copytree(folder, copy, symlinks=True)
    except OSError as e:
        remove_copy(copy)
        raise ProgramError(f"program folder {folder}: could not copy it ({e})") from None
    for here, _dirs, names in os.walk(copy):
        for name in names:
            path = os.path.join(here, name)
            if not os.path.islink(path):
                os.chmod(path, os.stat(path).st_mode & ~0o222)
    return copy


def remove_copy(copy: str) -> None:
    """Remove a :func:`copy_folder` copy (its files were made read-only: the folder's own rights suffice)."""
    shutil.rmtree(os.path.dirname(copy), ignore_errors=True)
