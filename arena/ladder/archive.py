"""Submissions measured before anything of them is unpacked or copied, and installs held to a disk quota.

A wheel is judged by its zip's central directory alone (:func:`check_wheel`):
the end record's member count and directory size first, then every member's
name, kind, encryption, compression and declared size, so that a zip bomb or
a hostile path is refused before a byte is inflated. A bot folder's package
is walked without following links (:func:`scan_package`) under the same
limits. While the install writes, a :class:`Quota` counts the bytes and files
actually written and stops it past the entry's disk quota: the declared
sizes are a claim, the quota is the fact. (Python's zipfile itself never
inflates a member past the size the central directory gives it, and then
fails its CRC check; the quota also bounds what the installer writes besides
the members, such as console scripts and RECORD, and a folder whose files
grow while they are copied.) Every refusal is one :class:`SubmissionError`
line that names the member (a bounded repr) and the limit.
"""

from __future__ import annotations

import itertools
import os
import shutil
import stat
import struct
import unicodedata
import zipfile
from dataclasses import dataclass, fields
from pathlib import Path
from typing import IO

from arena.ladder.errors import LadderError, SubmissionError
from arena.ladder.names import described, folded

MAX_UPLOAD = 20 << 20
"""The largest wheel a ladder takes, in bytes, as sent (a bot folder is measured by its unpacked size)."""
OWN_FILES = 4
"""Files an install writes besides the submission's members (RECORD, METADATA, entry_points.txt)."""
_CD_RECORD = 1024
"""Bytes of central directory allowed a member (a record is 46 bytes, its name and its extra fields)."""
_END_RECORD = struct.Struct("<4s4H2LH")
_END_SIGNATURE = b"PK\x05\x06"
_KINDS = {stat.S_IFLNK: "a symbolic link", stat.S_IFDIR: "a folder", stat.S_IFIFO: "a named pipe",
          stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device", stat.S_IFSOCK: "a socket"}
_IGNORED_DIRS = {"__pycache__"}
_SHOWN = 60
COPY_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class ArchiveLimits:
    """What one submission may be and hold, checked before it is unpacked and while it is written.

    ``max_upload`` (20 MiB) is the wheel as sent. ``max_unpacked`` (64 MiB) is
    the sum of its members' sizes: a real bot may ship numpy weights of tens
    of MB, which barely compress, so 64 MiB leaves three times the upload cap
    for them and the code; a zip bomb, which inflates about 1000:1, is
    refused from its header. ``max_members`` (2000) is files and folders: a
    scaffolded bot has five, a vendored pure-Python library a few hundred; it
    bounds inodes and the central directory read. ``max_ratio`` (100:1) is
    refused for any member over ``ratio_above`` (1 MiB): source and pickled
    or numpy weights compress 2-20:1, deflated zeros 1000:1; small members
    are bounded by the total. ``max_path`` (200 bytes of UTF-8) and
    ``max_depth`` (16 parts) keep every path well inside the file system's
    limits (255 a part, 4096 a path) under ``DIR/plugins/<entry>/``.
    ``disk_quota`` (80 MiB) is what an install may actually write: the
    unpacked maximum and room for what the installer adds (RECORD, scripts);
    the install is stopped and undone past it, and past ``max_members`` plus
    :data:`OWN_FILES` files. ``free_margin`` (256 MiB): an install does not
    start unless the disk has its quota and this much more free, so that a
    submission never takes the last room the ladder's store needs.
    """

    max_upload: int = MAX_UPLOAD
    max_unpacked: int = 64 << 20
    max_members: int = 2000
    max_ratio: int = 100
    ratio_above: int = 1 << 20
    max_path: int = 200
    max_depth: int = 16
    disk_quota: int = 80 << 20
    free_margin: int = 256 << 20

    def __post_init__(self) -> None:
        wrong = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if type(getattr(self, f.name)) is not int or getattr(self, f.name) < 1]
        if wrong:
            raise LadderError(f"archive limits must be positive whole numbers (got {', '.join(wrong)})")


DEFAULT_LIMITS = ArchiveLimits()


def check_wheel(path: Path, limits: ArchiveLimits = DEFAULT_LIMITS, what: str = "wheel") -> None:
    """Refuse (:class:`SubmissionError`) the wheel (or other zip: ``what``) at ``path`` if its size or central
    directory breaks ``limits``."""
    size = path.stat().st_size
    if size > limits.max_upload:
        raise refused(path.name, f"is {size_text(size)}; the ladder takes at most {size_text(limits.max_upload)} "
                                 f"as sent")
    _check_end_record(path, limits)
    try:
        with zipfile.ZipFile(path) as z:
            check_zip(z, path.name, limits, what)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, UnicodeDecodeError, EOFError, OSError) as exc:
        raise SubmissionError(f"refused: {path.name} is not a readable {what} ({exc})") from None


def check_zip(z: zipfile.ZipFile, label: str, limits: ArchiveLimits = DEFAULT_LIMITS, what: str = "wheel") -> None:
    """Refuse the open zip ``z`` (called ``label`` in messages, a ``what``) if a member or the whole breaks
    ``limits``."""
    members = z.infolist()
    if len(members) > limits.max_members:
        raise refused(label, f"has {len(members)} members; the ladder takes at most {limits.max_members}")
    total = sum(m.file_size for m in members)
    if total > limits.max_unpacked:
        raise refused(label, f"unpacks to {size_text(total)}; the ladder takes at most "
                              f"{size_text(limits.max_unpacked)} unpacked")
    census = Census(label, limits)
    for m in members:
        census.name(m.filename)
        _check_member(label, m, limits, what)


def scan_package(source: Path, root: Path, limits: ArchiveLimits = DEFAULT_LIMITS) -> list[str]:
    """The regular files of a bot folder's package ``source`` (a folder or a module inside the folder ``root``),
    as paths relative to ``source``'s parent; :class:`SubmissionError` for a link, a special file, too many
    files, too much in all or a path over the limits. Links are refused, never followed; ``__pycache__``
    folders and ``.pyc`` files are left out, as the copy leaves them."""
    label = f"{root.name}/"
    here = source
    while here != root and here != here.parent:
        if here.is_symlink():
            raise refused(label, f"{shown(str(here.relative_to(root)))} is a symbolic link; a bot folder's "
                                  f"package must hold only regular files and folders (a link is not followed)")
        here = here.parent
    census, files, total = Census(label, limits), [], 0
    for name, info in walk(source, source.name, label, limits):
        census.name(name)
        if stat.S_ISREG(info.st_mode):
            files.append(name)
            total += info.st_size
    if total > limits.max_unpacked:
        raise refused(label, f"its package holds {size_text(total)}; the ladder takes at most "
                              f"{size_text(limits.max_unpacked)}")
    return files


class Quota:
    """The bytes and files one install has written so far; :class:`SubmissionError` past the limits.

    Call :meth:`file` before each file is made and :meth:`wrote` before each
    chunk is written, so that nothing past the quota reaches the disk.
    """

    __slots__ = ("label", "limits", "written", "files")

    def __init__(self, label: str, limits: ArchiveLimits = DEFAULT_LIMITS) -> None:
        self.label, self.limits, self.written, self.files = label, limits, 0, 0

    def file(self, name: str) -> None:
        self.files += 1
        if self.files > self.limits.max_members + OWN_FILES:
            raise refused(self.label, f"writes more than {self.limits.max_members + OWN_FILES} files "
                                       f"(stopped at {shown(name)}); the install is undone")

    def wrote(self, size: int, name: str) -> None:
        self.written += size
        if self.written > self.limits.disk_quota:
            raise refused(self.label, f"writes more than its disk quota of {size_text(self.limits.disk_quota)} "
                                       f"(stopped at {shown(name)}); the install is undone")


def copy_file(source: Path, target: Path, quota: Quota, name: str) -> None:
    """One regular file copied under the quota (opened without following a link, should one replace it)."""
    quota.file(name)
    fd = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with open(fd, "rb") as src:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise refused(quota.label, f"{shown(name)} is no longer a regular file")
        write_counted(src, target, quota, name)


def write_counted(source: IO[bytes], target: Path, quota: Quota, name: str) -> None:
    """``source`` written into the new file ``target`` (its folders made; an existing name, a link included,
    is refused by the kernel), each chunk counted against the quota before it is written. The caller counts
    the file (:meth:`Quota.file`)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("xb") as out:
        while chunk := source.read(COPY_CHUNK):
            quota.wrote(len(chunk), name)
            out.write(chunk)


def check_free_space(target: Path, limits: ArchiveLimits = DEFAULT_LIMITS) -> None:
    """Refuse to start an install into ``target`` unless its disk has the quota and the margin free."""
    place = next(p for p in (target, *target.parents) if p.exists())
    free = shutil.disk_usage(place).free
    if free < limits.disk_quota + limits.free_margin:
        raise SubmissionError(f"refused for now: the ladder's disk has {size_text(free)} free; an install needs its "
                              f"quota of {size_text(limits.disk_quota)} and {size_text(limits.free_margin)} to spare "
                              f"(the organiser must make room)")


def _check_end_record(path: Path, limits: ArchiveLimits) -> None:
    """The member count and central directory size the zip's end record gives, before zipfile reads them."""
    with path.open("rb") as f:
        f.seek(max(0, path.stat().st_size - _END_RECORD.size - 0xFFFF))
        tail = f.read()
    plain = len(tail) - _END_RECORD.size  # an end record without a comment, as zipfile looks first
    at = plain if tail[plain:plain + 4] == _END_SIGNATURE else tail.rfind(_END_SIGNATURE)
    if at < 0 or len(tail) - at < _END_RECORD.size:
        return  # not a zip: zipfile says so in its own words
    count, directory = _END_RECORD.unpack_from(tail, at)[4:6]
    if count > limits.max_members:
        more = " or more" if count == 0xFFFF else ""
        raise refused(path.name, f"lists {count}{more} members; the ladder takes at most {limits.max_members}")
    if directory > limits.max_members * _CD_RECORD:
        raise refused(path.name, f"has a central directory of {size_text(directory)}; the ladder takes at most "
                                  f"{size_text(limits.max_members * _CD_RECORD)}")


def _check_member(label: str, m: zipfile.ZipInfo, limits: ArchiveLimits, what: str) -> None:
    kind = stat.S_IFMT(m.external_attr >> 16)
    if kind and kind != stat.S_IFREG and not (kind == stat.S_IFDIR and m.is_dir()):
        raise refused(label, f"member {shown(m.filename)} is {_KINDS.get(kind, 'not a regular file')}; "
                              f"a {what} must hold only regular files and folders")
    if m.flag_bits & 0x1:
        raise refused(label, f"member {shown(m.filename)} is encrypted; the ladder takes only plain members")
    if m.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise refused(label, f"member {shown(m.filename)} is compressed with method {m.compress_type}; "
                              f"a {what}'s members are stored or deflated")
    if m.file_size > limits.ratio_above and m.file_size > limits.max_ratio * max(m.compress_size, 1):
        ratio = m.file_size // max(m.compress_size, 1)
        raise refused(label, f"member {shown(m.filename)} expands {ratio}:1 ({size_text(m.file_size)} from "
                              f"{size_text(m.compress_size)}); the ladder takes at most {limits.max_ratio}:1 for a "
                              f"member over {size_text(limits.ratio_above)}")


class Census:
    """The names of one submission's members, each checked alone and against the names before it."""

    __slots__ = ("label", "limits", "seen")

    def __init__(self, label: str, limits: ArchiveLimits) -> None:
        self.label, self.limits = label, limits
        self.seen: dict[str, str] = {}

    def name(self, name: str) -> None:
        quoted, parts = shown(name), name.rstrip("/").split("/")
        odd = next((c for c in name if c == "\\" or unicodedata.category(c).startswith("C")), None)
        if odd is not None:
            raise refused(self.label, f"member {quoted} has {described(odd)} in its name; the ladder takes "
                                       f"no backslash, control or format character in a path")
        if name.startswith("/"):
            raise refused(self.label, f"member {quoted} is an absolute path; the ladder takes only relative paths")
        if ".." in parts:
            raise refused(self.label, f"member {quoted} climbs out with a '..' part; the ladder takes only paths "
                                       f"that stay inside the entry's folder")
        if "." in parts or "" in parts:
            raise refused(self.label, f"member {quoted} has an empty or '.' part; the ladder takes only plain paths")
        if len(name.encode("utf-8", "surrogateescape")) > self.limits.max_path:
            raise refused(self.label, f"member {quoted} is a path of {len(name.encode('utf-8', 'surrogateescape'))}"
                                       f" bytes; the ladder takes at most {self.limits.max_path}")
        if len(parts) > self.limits.max_depth:
            raise refused(self.label, f"member {quoted} is {len(parts)} folders deep; the ladder takes at most "
                                       f"{self.limits.max_depth}")
        bare, key = name.rstrip("/"), folded(name.rstrip("/"))
        if key in self.seen:
            also = "twice" if self.seen[key] == bare else f"and {shown(self.seen[key])}, one name to a case-blind disk"
            raise refused(self.label, f"has the member {quoted} {also}; each member must have a name of its own")
        self.seen[key] = bare


def walk(source: Path, name: str, label: str, limits: ArchiveLimits):
    """``(relative name, lstat)`` of ``source`` and everything under it, links never followed, refused as found."""
    stack, count = [(source, name)], 0
    while stack:
        path, name = stack.pop()
        info = path.lstat()
        count += 1
        if count > limits.max_members:
            raise refused(label, f"its package has more than {limits.max_members} files and folders; the ladder "
                                  f"takes at most {limits.max_members}")
        if stat.S_ISDIR(info.st_mode):
            if path.name not in _IGNORED_DIRS:
                inside = sorted(itertools.islice(path.iterdir(), limits.max_members + 1), reverse=True)
                stack.extend((p, f"{name}/{p.name}") for p in inside)
                yield name + "/", info
        elif stat.S_ISREG(info.st_mode):
            if path.suffix != ".pyc":
                yield name, info
        else:
            raise refused(label, f"{shown(name)} is {_KINDS.get(stat.S_IFMT(info.st_mode), 'a special file')}; "
                                  f"a bot folder's package must hold only regular files and folders (a link is "
                                  f"not followed)")


def refused(label: str, why: str) -> SubmissionError:
    return SubmissionError(f"refused: {label} {why}")


def shown(name: str) -> str:
    """A member's name as a bounded repr (it may be long, or hold characters a terminal would act on)."""
    return repr(name[:_SHOWN]) + ("..." if len(name) > _SHOWN else "")


def size_text(n: int) -> str:
    """``300.0 MiB``, ``64 MiB``, ``12.5 KiB``, ``100 bytes``."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n >> shift} {unit}" if n % (1 << shift) == 0 else f"{n / (1 << shift):.1f} {unit}"
    return f"{n} bytes"
