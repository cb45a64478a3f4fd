"""Deal books: deals (and positions) given card by card, one JSON object a line (docs/tournaments.md).

A line is a deal for ``players`` seats::

    {"players": 3, "dealer": 0, "hands": [["AS", "KD", ...], ["2C", ...], ["QH", ...]]}

``hands`` are the seats' cards (lists of card texts, or one text per seat such
as ``"AS KD 10H"``) holding the whole pack; ``dealer`` (default 0) is the seat
that dealt. A line with ``leader`` is a position instead (as
:meth:`arena.Game.from_position` takes it: ``leader``, ``discard``, ``out``,
``trump``, ``first_trick_done``, ``drawn``). ``source`` is free text or data
saying where the deal came from (``arena export --deals`` writes the event, game
number and game id); it is never read. A game from a book records its start
(``"given": true`` for a deal), so its record replays exactly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from arena.game.engine import Game
from arena.game.errors import ArenaError, PositionError
from arena.game.rules import Rules

POSITION_KEYS = ("leader", "discard", "out", "trump", "first_trick_done", "drawn")
KEYS = ("players", "dealer", "hands", *POSITION_KEYS, "source")


@dataclass(frozen=True, slots=True)
class BookDeal:
    """One line of a deal book, checked for shape (its cards are checked against rules by :meth:`game`)."""

    players: int
    hands: tuple[Any, ...]
    dealer: int = 0
    position: dict[str, Any] | None = None
    """The position keys (``leader`` ...) of a position line; None for a deal."""

    @classmethod
    def from_dict(cls, data: Any) -> BookDeal:
        """A line's object; a :class:`PositionError` names the key that is wrong."""
        if not isinstance(data, dict):
            raise PositionError(f"expected a JSON object with hands (got {type(data).__name__})")
        unknown = sorted(set(data) - set(KEYS))
        if unknown:
            raise PositionError(f"unknown key {unknown[0]!r} (known: {', '.join(KEYS)})")
        hands = data.get("hands")
        if not isinstance(hands, list) or not hands:
            raise PositionError(f"key 'hands': expected a list of hands, one per seat (got {hands!r})")
        players = data.get("players", len(hands))
        if type(players) is not int or players != len(hands):
            raise PositionError(f"key 'players': expected the number of hands, {len(hands)} (got {players!r})")
        dealer = data.get("dealer", 0)
        if type(dealer) is not int or not 0 <= dealer < players:
            raise PositionError(f"key 'dealer': expected a seat 0..{players - 1} (got {dealer!r})")
        position = {k: data[k] for k in POSITION_KEYS if k in data} or None
        if position is not None and "leader" not in position:
            raise PositionError(f"a position needs its 'leader' (got {', '.join(position)} without it)")
        return cls(players, tuple(hands), dealer, position)

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "dealer": self.dealer, "hands": list(self.hands), **(self.position or {})}

    def game(self, rules: Rules, seed: int) -> Game:
        """The game this line starts under ``rules`` (``seed``: the game's own draws; not the cards)."""
        if self.position is None:
            return Game.deal(rules, self.players, seed, self.dealer, hands=list(self.hands))
        p = self.position
        return Game.from_position(rules, list(self.hands), p["leader"], discard=p.get("discard"), out=p.get("out"),
                                  first_trick_done=p.get("first_trick_done", True), trump=p.get("trump"),
                                  seed=seed, drawn=p.get("drawn"))


def parse_line(text: str) -> BookDeal:
    """One line of a book; a :class:`PositionError` says what is wrong with it."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise PositionError(f"expected a JSON object (got text that is not JSON: {exc})") from None
    return BookDeal.from_dict(data)


def check_deal(deal: BookDeal, rules: Rules) -> None:
    """Refuse (:class:`PositionError`) a deal that ``rules`` cannot start: cards, pack, seats."""
    try:
        deal.game(rules, 0)
    except ArenaError as exc:
        raise PositionError(str(exc)) from None


def deal_line(record: dict[str, Any], source: Any = None) -> dict[str, Any]:
    """A stored game's deal (or position) as a book line, with ``source`` saying where it came from."""
    start = record["start"]
    line: dict[str, Any] = {"players": record["players"], "dealer": record.get("dealer", 0), "hands": start["hands"]}
    if "leader" in start:
        line.update({k: start[k] for k in POSITION_KEYS if k in start})
        line.pop("dealer")
    if source is not None:
        line["source"] = source
    return line
