"""A submission's body, taken in only once its sender is known and only up to the cap.

The token comes from the ``Authorization: Bearer TOKEN`` header, read before
any of the body is; a request without a known token is answered at once with
``Connection: close``, so the server reads no more of it (uvicorn would
otherwise read and drop the rest of the body to keep the connection). The body
is the wheel itself, or a program bot's zip (``Content-Type:
application/octet-stream``, no multipart form to parse): it is streamed to a
file of the ladder's ``uploads/`` folder and counted as it comes, chunked or
not; past the cap the request is answered 413 and the connection closed, and
the partial file removed. The file is named after the wheel's own
``.dist-info`` folder (a program's zip: ``program.zip``), never after anything
the sender said.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import zipfile
from pathlib import Path

from starlette.requests import Request

from arena.ladder.archive import check_wheel
from arena.ladder.errors import SubmissionError, UploadTooLarge
from arena.ladder.program_install import BOT_TOML, zip_root

UPLOADS = "uploads"
"""The ladder's folder for bodies being received (each in a folder of its own, removed after its check)."""
MAX_AUTHORIZATION = 512
"""The longest Authorization header read (a token is 43 characters)."""
_DIST_INFO = re.compile(r"^([A-Za-z0-9_.]+)-([A-Za-z0-9_.!+]+)\.dist-info/")


def bearer(request: Request) -> str:
    """The token of an ``Authorization: Bearer TOKEN`` header; '' if there is none (or it is malformed)."""
    value = request.headers.get("authorization", "")
    scheme, _, token = value[:MAX_AUTHORIZATION + 1].partition(" ")
    if len(value) > MAX_AUTHORIZATION or scheme.lower() != "bearer":
        return ""
    return token.strip()


def declared_size(request: Request) -> int | None:
    """The Content-Length the request declared (None: none, as a chunked body has); -1 if it is not a number."""
    value = request.headers.get("content-length")
    if value is None:
        return None
    return int(value) if value.isdigit() and len(value) < 20 else -1


def new_spool(folder: Path) -> Path:
    """A fresh private folder under ``folder/uploads/`` for one body."""
    spool = folder / UPLOADS / secrets.token_hex(8)
    spool.mkdir(parents=True, mode=0o700)
    return spool


async def receive(request: Request, spool: Path, cap: int) -> Path:
    """Stream the body into ``spool/upload``, at most ``cap`` bytes (:class:`UploadTooLarge` past it); the file."""
    path = spool / "upload"
    written = 0
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        async for chunk in request.stream():
            written += len(chunk)
            if written > cap:
                raise UploadTooLarge(f"refused: the upload is over {cap >> 20} MiB, the most this ladder takes "
                               f"(stopped reading at {written >> 10} KiB)")
            out.write(chunk)
    if written == 0:
        raise SubmissionError("refused: the request has no body: send the wheel (or the program's zip) itself as "
                              "the body")
    return path


def name_upload(path: Path) -> Path:
    """Rename the received wheel after its ``NAME-VERSION.dist-info`` folder (as installers expect), or a zip
    holding a program bot's bot.toml ``program.zip``; the new path. A SubmissionError if it is neither, or if
    its end record already breaks the archive limits (checked before zipfile reads the central directory)."""
    if not zipfile.is_zipfile(path):  # reads the end record only
        raise SubmissionError("refused: the upload is not a wheel (not a zip archive)")
    check_wheel(path)
    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
    except (zipfile.BadZipFile, OSError, ValueError):
        raise SubmissionError("refused: the upload is not a wheel (not a zip archive)") from None
    found = {m.group(1, 2) for n in names if (m := _DIST_INFO.match(n))}
    if not found and zip_root(names) is not None:
        target = path.with_name("program.zip")
        path.rename(target)
        return target
    if len(found) != 1:
        raise SubmissionError(f"refused: a wheel has exactly one NAME-VERSION.dist-info folder (this upload has "
                              f"{len(found)}; a program bot's zip holds its {BOT_TOML})")
    name, version = found.pop()
    target = path.with_name(f"{name}-{version}-py3-none-any.whl")
    path.rename(target)
    return target


def remove(spool: Path) -> None:
    shutil.rmtree(spool, ignore_errors=True)
