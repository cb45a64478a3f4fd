"""Games out of a results folder: every record as JSON lines, or the deals as a deal book.

Both stream from the store in game order (one record in memory at a time, a
set of deal keys for ``--deals``), so a 100,000-game folder exports in
constant memory. The formats are in docs/tournaments.md ("Exporting games",
"Deal books").
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator

from arena.game.book import deal_line
from arena.game.seeds import sealed_by_check
from arena.results.store.database import Store

EXPORT_VERSION = 1
"""The version of the export's line format (the header says it)."""


def header(store: Store) -> dict:
    """The first line: what the lines are, the event, its spec, players, comparison test and whether its
    games were sealed (keyed with the folder's secret; None: no key kept, an event from before keys)."""
    spec = store.meta("spec") or {}
    return {"type": "header", "export_version": EXPORT_VERSION, "event": spec.get("name"),
            "games": store.count(), "spec": spec, "players": store.roster(), "compare": store.meta("compare"),
            "sealed": sealed_by_check(store.meta("secret_check"))}


def game_lines(store: Store, with_header: bool = True) -> Iterator[str]:
    """The export, a JSON text per line (no newline): the header, then one game per line in game order.

    A game line is its record (``Game.to_record()`` with the harness's faults,
    timings, bot seeds and schedule) plus ``type`` "game", ``event``, ``game``
    (its number in the schedule), ``game_id`` and ``players`` (the seats' names,
    seat 0 first; the record's own ``players``, the seat count, is ``table_size``).
    """
    event = (store.meta("spec") or {}).get("name")
    if with_header:
        yield json.dumps(header(store), separators=(",", ":"))
    for index, record in store.records():
        line = {"type": "game", "event": event, "game": index,
                "game_id": (record.get("schedule") or {}).get("id"), **record}
        line["table_size"], line["players"] = record["players"], record["names"]
        yield json.dumps(line, separators=(",", ":"))


def deal_lines(store: Store) -> Iterator[str]:
    """The folder's distinct deals (and positions) as a deal book, in game order, each once.

    A deal's rotations (and a comparison's two halves) share it, so each is
    written at its first game; ``source`` names the event, that game's number and id.
    """
    event = (store.meta("spec") or {}).get("name")
    seen: set[bytes] = set()
    for index, record in store.records():
        line = deal_line(record)
        key = hashlib.blake2b(json.dumps(line, sort_keys=True).encode(), digest_size=16).digest()
        if key in seen:
            continue
        seen.add(key)
        source = {"event": event, "game": index, "game_id": (record.get("schedule") or {}).get("id")}
        yield json.dumps({**line, "source": source}, separators=(",", ":"))
