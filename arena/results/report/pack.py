"""The game browser's data as it goes into the page: a plain index and gzip chunks of steps.

A report may embed thousands of games, and a game's display steps
(:func:`arena.results.report.games.replay_steps`) repeat every hand at every
step: about 20 KB of JSON a game. So the page holds two things:

- the **index**: one small entry per embedded game (number, id, title, rules,
  table size, seat names, the Bhabhi's seat, draw, fault count and the seats
  that faulted, seed, step count, and which chunk holds its steps), read at
  once to list, search and filter the games;
- the **chunks**: the steps of :data:`CHUNK_GAMES` games at a time, as JSON,
  gzip-compressed (``mtime=0``: the same games give the same bytes) and
  base64-encoded; the page's script decodes a chunk with the browser's
  ``DecompressionStream`` only when one of its games is opened.

Integers JavaScript cannot hold exactly (beyond 2**53 - 1, e.g. every deal
seed) reach the page as text (:func:`text_big_ints`): ``JSON.parse`` would
round them.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.results.errors import ReportError

MAX_GAMES = 200
"""Games embedded in the report's browser by default (each adds roughly 2-3 KB, compressed)."""
CHUNK_GAMES = 32
"""Games per compressed chunk: opening one game decodes its chunk (a few hundred KB of JSON at most)."""
JS_SAFE = 2**53 - 1
"""The largest integer a JavaScript number holds exactly (``Number.MAX_SAFE_INTEGER``)."""

__all__ = ["CHUNK_GAMES", "JS_SAFE", "MAX_GAMES", "Packed", "pack_games", "text_big_ints", "unpack_chunk"]


@dataclass(frozen=True, slots=True)
class Packed:
    """The browser's data: ``index`` (plain JSON-able entries) and ``chunks`` (base64 gzip JSON texts)."""

    index: tuple[dict, ...]
    chunks: tuple[str, ...]


def text_big_ints(value: Any) -> Any:
    """``value`` with every integer beyond JavaScript's exact range (±2**53 - 1) turned into its decimal text."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value) if abs(value) > JS_SAFE else value
    if isinstance(value, dict):
        return {k: text_big_ints(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [text_big_ints(v) for v in value]
    return value


def _json(value: Any) -> bytes:
    return json.dumps(text_big_ints(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def pack_games(games: Sequence[dict], chunk_games: int = CHUNK_GAMES) -> Packed:
    """Split browser games (:func:`arena.results.report.games.browser_game`) into an index and chunks."""
    if chunk_games < 1:
        raise ReportError(f"chunk_games must be 1 or more (got {chunk_games})")
    index: list[Any] = []   # each game's entry, as text_big_ints makes it
    chunks: list[str] = []
    for start in range(0, len(games), chunk_games):
        part = games[start:start + chunk_games]
        for g in part:
            entry = {k: v for k, v in g.items() if k != "steps"}
            entry.update(c=len(chunks), n=len(g["steps"]))
            index.append(text_big_ints(entry))
        data = gzip.compress(_json([g["steps"] for g in part]), compresslevel=9, mtime=0)
        chunks.append(base64.b64encode(data).decode("ascii"))
    return Packed(tuple(index), tuple(chunks))


def unpack_chunk(text: str) -> list[list[dict]]:
    """The steps of each game of one chunk (what the page's script decodes; for tests and tools)."""
    return json.loads(gzip.decompress(base64.b64decode(text)))
