"""Game events: the compact tuples the engine keeps, and their JSON form.

The engine appends one small tuple per event while it runs. For a game record
every event is turned into a JSON-ready dict (:func:`to_json`); for a seat's
view it is turned into what that seat may see (:func:`for_seat`): draws show
their card only to the drawer (and to the player it was drawn from), takes show
their cards only to the taker (others see the count), everything else is public.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from arena.game.cards import SUITS, TEXTS

if TYPE_CHECKING:
    from arena.game.engine import Game
    from arena.game.public_knowledge import PublicKnowledge

DEAL, PLAY, TRUMP, CLEAN, PICKUP, DRAW, TAKE, OUT, FAULT, FORFEIT, END = (
    "deal", "play", "trump", "clean", "pickup", "draw", "take", "out", "fault", "forfeit", "end")
BY_FAULT, BY_AUTO = "fault", "auto"

Event: TypeAlias = tuple[Any, ...]
"""One event as the engine keeps it: its kind first, then card ids and seats (a decoded batch's may be a list)."""
EventDict: TypeAlias = dict[str, Any]
"""One event in its JSON form."""


def _texts(cards: Iterable[int]) -> list[str]:
    return [TEXTS[c] for c in cards]


def _play(game: Game, e: Event, seat: int | None) -> EventDict:
    if len(e) > 3:
        return {"type": PLAY, "seat": e[1], "card": TEXTS[e[2]], "by": e[3]}
    return {"type": PLAY, "seat": e[1], "card": TEXTS[e[2]]}


def _clean(game: Game, e: Event, seat: int | None) -> EventDict:
    return {"type": CLEAN, "seat": e[1], "cards": [TEXTS[c] for c in e[2]]}


def _pickup(game: Game, e: Event, seat: int | None) -> EventDict:
    d: EventDict = {"type": PICKUP, "seat": e[1], "cards": [TEXTS[c] for c in e[2]]}
    if len(e) > 3:
        d["by"] = e[3]
    return d


def _out(game: Game, e: Event, seat: int | None) -> EventDict:
    return {"type": OUT, "seat": e[1], "place": e[2]}


def _draw(game: Game, e: Event, seat: int | None) -> EventDict:
    sees = seat is None or seat == e[1] or seat == e[3]
    return {"type": DRAW, "seat": e[1], "card": TEXTS[e[2]] if sees else None,
            "from": "pile" if e[3] < 0 else e[3]}


def _take(game: Game, e: Event, seat: int | None) -> EventDict:
    if not e[2]:
        return {"type": TAKE, "seat": e[1], "take": False}
    d: EventDict = {"type": TAKE, "seat": e[1], "take": True, "from": e[3], "count": len(e[4])}
    if seat is None or seat == e[1]:
        d["cards"] = _texts(e[4])
    return d


def _trump(game: Game, e: Event, seat: int | None) -> EventDict:
    return {"type": TRUMP, "suit": SUITS[e[1]]}


def _fault(game: Game, e: Event, seat: int | None) -> EventDict:
    return {"type": FAULT, "seat": e[1], "kind": e[2]}


def _forfeit(game: Game, e: Event, seat: int | None) -> EventDict:
    return {"type": FORFEIT, "seat": e[1]}


def _end(game: Game, e: Event, seat: int | None) -> EventDict:
    return {"type": END, **game.result.to_dict()} if game.result else {"type": END}


def to_json(game: Game, e: Event, seat: int | None = None) -> EventDict:
    """One event as a dict; ``seat`` filters it for that seat (None: the full record)."""
    return _JSON[e[0]](game, e, seat)


def _deal_json(game: Game, seat: int | None) -> EventDict:
    start = game.start
    d: EventDict = {"type": DEAL, "sizes": [len(h) for h in start["hands"]]}
    if seat is None:
        d["hands"] = start["hands"]
    else:
        d["hand"] = start["hands"][seat]
    for key in ("leader", "out", "discard", "trump", "first_trick_done", "drawn"):
        if key in start and (key != "drawn" or seat in (None, start["leader"])):
            d[key] = start[key]
    return d


_JSON: dict[str, Callable[[Game, Event, int | None], EventDict]] = {
         PLAY: _play, CLEAN: _clean, PICKUP: _pickup, OUT: _out, DRAW: _draw, TAKE: _take,
         TRUMP: _trump, FAULT: _fault, FORFEIT: _forfeit, END: _end,
         DEAL: lambda game, e, seat: _deal_json(game, seat)}


def for_seat(game: Game, seat: int, start: int = 0) -> list[EventDict]:
    """The events from index ``start`` on, as ``seat`` may see them."""
    return [to_json(game, e, seat) for e in game.events[start:]]


AS_TUPLES = frozenset({PLAY, CLEAN, PICKUP, TRUMP, OUT})
"""The events a compact batch (:func:`for_seat_compact`) carries as the engine's own tuples: public,
the same for every seat, and what :func:`arena.game.knowledge.take_in_public` reads."""


def for_seat_compact(game: Game, seat: int, start: int) -> list[Event]:
    """:func:`for_seat` in compact form, for a seat that follows the game through a pipe.

    A play, clean, pick-up, trump or out (nearly every event) is the engine's own
    tuple, in card ids: what its dict says, no more (:func:`to_json` makes the one
    from the other), and the same object for every seat. Every other event is
    ``(kind, its dict as seat may see it)``: the deal, draws and takes show other
    seats' cards to no one but whom :func:`for_seat` shows them to.
    A framed :class:`arena.game.knowledge.SeatKnowledge` takes a batch in, as decoded from JSON.
    """
    kinds, table = AS_TUPLES, _JSON
    return [e if e[0] in kinds else (e[0], table[e[0]](game, e, seat)) for e in game.events[start:]]


def as_compact(events: list[Any]) -> list[Any]:
    """A batch as a compact reader takes it: a compact batch as it is; a batch of event dicts (what a
    client wrapped by another is handed) as ``(None, dict)`` each."""
    if events and type(events[0]) is dict:
        return [(None, e) for e in events]
    return events


def from_compact(e: Event, seat: int) -> EventDict:
    """The dict :func:`for_seat` gives ``seat`` for one event of a compact batch (a tuple or a decoded list;
    ``(None, dict)`` stands for a plain event dict)."""
    # the public events' builders never read the game
    return e[1] if e[0] not in AS_TUPLES else _JSON[e[0]](None, e, seat)  # type: ignore[arg-type]


class SeatEvents(NamedTuple):
    """A game's events ``start`` to ``stop`` for ``seat``, kept as the engine's tuples.

    A sandboxed seat gets them as :func:`for_seat` gives them; an in-process seat
    (:class:`arena.game.knowledge.SeatKnowledge`) reads the tuples and skips the dicts.
    ``public``: the game's :class:`arena.game.public_knowledge.PublicKnowledge`, when
    the seats share one (it takes the public events in once for all of them).
    A NamedTuple: the referee makes one at every decision.
    """

    game: Game
    seat: int
    start: int
    stop: int
    public: PublicKnowledge | None = None


_PLAY_JSON = tuple(tuple({"type": PLAY, "seat": s, "card": t} for t in TEXTS) for s in range(8))
"""A plain play's record dict for each seat and card; :func:`all_json` hands out copies
(copying a small dict costs about two thirds of building one)."""


def all_json(game: Game, result: EventDict | None = None) -> list[EventDict]:
    """Every event, unfiltered, for the game record, in one pass.

    ``result`` is ``game.result.to_dict()`` when the caller has it (the end event
    repeats it). Plain plays, cleans and pickups (nearly all events) are built
    in the comprehension; the rest by their ``_JSON`` function.
    """
    if result is None and game.result is not None:
        result = game.result.to_dict()
    plays, text, table = _PLAY_JSON, TEXTS.__getitem__, _JSON
    return [plays[e[1]][e[2]].copy() if e[0] is PLAY and len(e) == 3
            else {"type": e[0], "seat": e[1], "cards": list(map(text, e[2]))}
            if (e[0] is CLEAN or e[0] is PICKUP) and len(e) == 3
            else table[e[0]](game, e, None) if e[0] is not END
            else {"type": END, **result} if result is not None else {"type": END}
            for e in game.events]
