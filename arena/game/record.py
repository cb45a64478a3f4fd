"""Game records (JSON) and exact replay.

A record holds the rules, the seed, the dealer, the seat names, the deal (or
the hand-made starting position), every event in order, the result, and
whatever the caller adds (timings, faults summaries). :func:`from_record`
replays the actions and checks that every event the engine produces again is
exactly the recorded one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from arena.game import events as ev
from arena.game.errors import ReplayError
from arena.game.rules import Rules

if TYPE_CHECKING:
    from arena.game.engine import Game

RECORD_VERSION = 1
_SEAT_NAMES = [f"seat{s}" for s in range(8)]
"""The names of a record made without names (a slice is a new list each time)."""


def to_record(game: Game, names: Iterable[str] | None = None, **extra: Any) -> dict[str, Any]:
    """The JSON-ready record of ``game`` (finished or not)."""
    result = game.result.to_dict() if game.result else None
    record = {
        "version": RECORD_VERSION,
        "rules": game.rules.to_dict(),
        "players": game.players,
        "seed": game.seed,
        "dealer": game.dealer,
        "names": list(names) if names is not None else _SEAT_NAMES[:game.players],
        "start": game.start,
        "events": ev.all_json(game, result),
        "result": result,
    }
    record.update(extra)
    return record


def from_record(cls: type[Game], record: dict[str, Any]) -> Game:
    """Replay ``record`` with the engine, checking every step."""
    if not isinstance(record, dict) or record.get("version") != RECORD_VERSION:
        got = record.get("version") if isinstance(record, dict) else type(record).__name__
        raise ReplayError(f"a game record must be a dict with version {RECORD_VERSION} (got {got!r})")
    try:
        game = start_game(cls, record)
        recorded = record["events"]
    except KeyError as exc:
        raise ReplayError(f"game record is missing the field {exc.args[0]!r}") from None
    _replay(game, recorded)
    replayed = game.result.to_dict() if game.result is not None else None
    if record.get("result") is not None and replayed != record["result"]:
        raise ReplayError(f"replayed result {replayed} differs from the record's {record['result']}")
    return game


def start_game(cls: type[Game], record: dict[str, Any]) -> Game:
    """A fresh game at the record's start (its deal, checked, or its hand-made position)."""
    rules = Rules.from_dict(record["rules"])
    start = record["start"]
    if "leader" in start:
        return cls.from_position(
            rules, start["hands"], start["leader"], discard=start["discard"], out=start["out"],
            first_trick_done=start["first_trick_done"], trump=start["trump"], seed=record["seed"],
            drawn=start.get("drawn"))
    if start.get("given"):  # a deal book's hands, dealt as given
        return cls.deal(rules, record["players"], record["seed"], record["dealer"], hands=start["hands"])
    game = cls.deal(rules, record["players"], record["seed"], record["dealer"])
    if game.start["hands"] != start["hands"]:
        mine, theirs = game.start["hands"], start["hands"]
        seats = range(max(len(mine), len(theirs) if isinstance(theirs, list) else 0))
        seat = next((s for s in seats if _hand(mine, s) != _hand(theirs, s)), 0)
        raise ReplayError(f"the recorded deal is not what this seed deals (seat {seat}: the record has "
                          f"{_hand(theirs, seat)}, the seed deals {_hand(mine, seat)})")
    return game


def _hand(hands: object, seat: int) -> str:
    """One seat's hand of a deal as text, for an error message ("no hand" past the last seat)."""
    if not isinstance(hands, list) or seat >= len(hands):
        return "no hand"
    hand = hands[seat]
    return " ".join(hand) if isinstance(hand, list) and all(isinstance(c, str) for c in hand) else repr(hand)


def _replay(game: Game, recorded: list[ev.EventDict]) -> None:
    """Apply each recorded decision and compare every event the engine emits."""
    i = 0
    while True:
        _check_upto(game, recorded, len(game.events), i)
        i = len(game.events)
        if i >= len(recorded):
            break
        e = recorded[i]
        kind, by = e.get("type"), e.get("by")
        try:
            if kind == ev.FAULT:
                game.apply_fault(e["kind"])
            elif kind == ev.PLAY and by is None:
                game.apply(e["card"])
            elif kind == ev.TAKE:
                game.apply(bool(e["take"]))
            else:
                raise ReplayError(f"event {i} ({e}) is not a decision, but the engine expected one "
                                  f"from seat {game.current}")
        except ReplayError:
            raise
        except Exception as exc:  # noqa: BLE001 - an IllegalAction or a malformed event
            raise ReplayError(f"event {i} ({e}) cannot be replayed: {exc}") from None
    if len(game.events) != len(recorded):
        raise ReplayError(f"the record has {len(recorded)} events but the replay made {len(game.events)}")


def _check_upto(game: Game, recorded: list[ev.EventDict], end: int, start: int) -> None:
    for j in range(start, end):
        mine = ev.to_json(game, game.events[j])
        if j >= len(recorded):
            raise ReplayError(f"the record ends at event {j}, but the game goes on with {mine}")
        if mine != recorded[j]:
            raise ReplayError(f"event {j} differs: the record has {recorded[j]}, the replay gives {mine}")
