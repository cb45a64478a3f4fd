"""The bots' output in the report: which seats printed, and their logs as one gzip blob.

The game browser shows a game's logs under its table (one fold per seat that
printed or faulted with a traceback), and each row of the fault list links to
its seat's log (``#game-N-log-S``). The logs of every embedded game travel as
one JSON object ``{game: {seat: text}}``, gzip-compressed and base64-encoded
like the steps' chunks (:mod:`arena.results.report.pack`), decoded by the
page only when a game with logs is opened. Each log is cut to
:data:`REPORT_LOG_CAP` characters in the page; ``arena logs`` prints it whole.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Callable, Iterable

from arena.results.store.database import Store

REPORT_LOG_CAP = 16 * 1024
"""Characters of one seat's log of one game embedded in the report (the first ones)."""


def logged_seats(store: Store) -> dict[int, list[int]]:
    """``{game: [seats with a log]}`` for every stored game that has one."""
    out: dict[int, list[int]] = {}
    for game, seat in sorted(store.logged_seats()):
        out.setdefault(game, []).append(seat)
    return out


def pack_logs(store: Store, games: Iterable[int], folder_hint: str,
              redact: Callable[[str], str] | None = None) -> str:
    """The logs of ``games`` (those that have any) as base64 gzip JSON; '' when there are none.
    ``redact``: applied to each log first (a served page hides the host's paths with it)."""
    data = {}
    for game in games:
        logs = store.logs(game)
        if logs:
            data[str(game)] = {str(seat): cut_log(redact(text) if redact else text, folder_hint, game, seat)
                               for seat, (_, text) in logs.items()}
    if not data:
        return ""
    body = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    return base64.b64encode(gzip.compress(body, compresslevel=9, mtime=0)).decode("ascii")


def unpack_logs(text: str) -> dict:
    """What the page's script decodes from :func:`pack_logs` (for tests and tools)."""
    return json.loads(gzip.decompress(base64.b64decode(text)))


def cut_log(text: str, folder_hint: str, game: int, seat: int) -> str:
    """One seat's log of one game as a page shows it: its first :data:`REPORT_LOG_CAP` characters, and a
    note of what `arena logs` prints whole."""
    if len(text) <= REPORT_LOG_CAP:
        return text
    return (text[:REPORT_LOG_CAP] + f"\n[report: {len(text) - REPORT_LOG_CAP} more characters; "
            f"arena logs {folder_hint} {game} {seat} prints all of it]\n")
