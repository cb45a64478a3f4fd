"""Writing an output file (a report, a plot) whole or not at all.

The data goes to a temporary file beside the target, which then replaces it,
so a full disk or a read-only folder leaves no half-written file and any older
file there unchanged; the failure is an :class:`OutputError` naming the file
and the cause.
"""

from __future__ import annotations

import os
from pathlib import Path

from arena.results.errors import OutputError


def write_whole(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` (creating its folder); ``path``, or an :class:`OutputError`."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as exc:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise OutputError(f"cannot write {path} ({exc.strerror or exc}): expected room for "
                          f"{len(data) / 1e6:.1f} MB in a writable folder; nothing there was changed") from None
    return path
