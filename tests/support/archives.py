"""Hand-built wheels for the archive tests: a minimal wheel of the bot ``hbot``, and the members that make it hostile.

The wheel is what ``installer`` needs and no more (the package, METADATA,
WHEEL, entry_points.txt, RECORD); each test adds one hostile member, or lies
in the central directory, so that what is refused is only that.
"""

from __future__ import annotations

import stat
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path

NAME = "hbot"
DIST_INFO = f"{NAME}-1.0.dist-info"
WHEEL_NAME = f"{NAME}-1.0-py3-none-any.whl"
_CHUNK = 1 << 20

Data = bytes | int
"""A member's content: bytes, or a number of zero bytes (streamed, so a bomb needs no memory to build)."""


def member(name: str, data: Data = b"", mode: int | None = None) -> tuple[zipfile.ZipInfo, Data]:
    """A member named ``name`` (deflated), its Unix mode (e.g. ``stat.S_IFLNK | 0o777``) in its external attributes."""
    info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (stat.S_IFREG | 0o644 if mode is None else mode) << 16
    return info, data


def hand_wheel(out: Path, extra: list[tuple[zipfile.ZipInfo, Data]] = (), *, scripts: int = 0,
               then: Callable[[zipfile.ZipFile], None] | None = None) -> Path:
    """The wheel ``hbot-1.0-py3-none-any.whl`` in ``out``, with the members ``extra`` added, ``scripts`` console
    scripts declared, and ``then(zip)`` run just before the central directory is written (to make it lie)."""
    out.mkdir(parents=True, exist_ok=True)
    points = f"[arena.plugins]\n{NAME} = {NAME}\n"
    if scripts:
        points += "[console_scripts]\n" + "".join(f"hbot-{i} = {NAME}:main\n" for i in range(scripts))
    members = [member(f"{NAME}/__init__.py", b"def main():\n    return 0\n"), *extra,
               member(f"{DIST_INFO}/METADATA", f"Metadata-Version: 2.1\nName: {NAME}\nVersion: 1.0\n".encode()),
               member(f"{DIST_INFO}/WHEEL", b"Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\n"
                                            b"Tag: py3-none-any\n"),
               member(f"{DIST_INFO}/entry_points.txt", points.encode())]
    record = "".join(f"{info.filename},,\n" for info, _ in members) + f"{DIST_INFO}/RECORD,,\n"
    path = out / WHEEL_NAME
    with warnings.catch_warnings(), zipfile.ZipFile(path, "w") as z:
        warnings.simplefilter("ignore", UserWarning)  # zipfile warns of a duplicate name; some tests want one
        for info, data in [*members, member(f"{DIST_INFO}/RECORD", record.encode())]:
            _write(z, info, data)
        if then is not None:
            then(z)
    return path


def lie(name: str, **fields) -> Callable[[zipfile.ZipFile], None]:
    """A ``then`` for :func:`hand_wheel` that sets ``fields`` (file_size, CRC, flag_bits, ...) of the member
    ``name`` in the central directory only (its local header keeps the truth)."""
    def edit(z: zipfile.ZipFile) -> None:
        info = next(i for i in z.filelist if i.filename == name)
        for key, value in fields.items():
            setattr(info, key, value)
    return edit


def _write(z: zipfile.ZipFile, info: zipfile.ZipInfo, data: Data) -> None:
    if isinstance(data, bytes):
        z.writestr(info, data)
        return
    with z.open(info, "w", force_zip64=data > 0xFFFFFFFF) as f:
        chunk = bytes(_CHUNK)
        for start in range(0, data, _CHUNK):
            f.write(chunk[: min(_CHUNK, data - start)])
