"""A game record told as a person follows it: one narration of its events, and its text.

:func:`moments` walks a record's events once and says what each is in the
game: a play is a lead, a follow, a ruff, a free discard on the first trick or
a cut; a trick ends clean or in a pick-up by the highest of the led suit after
a cut. It keeps the trick on the table, its number, the trump and whether the
first trick is still on. :func:`describe` tells those moments trick by trick as
text lines (``arena play``, ``arena replay``); the report's game browser
(:mod:`arena.results.report.games`) turns the same moments into its steps.
Nothing here prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from arena.game.cards import SUIT_OF_TEXT, SUIT_SYMBOLS, Card, card, sort_hand
from arena.game.rules import Rules
from arena.game.rulings import rule_flags

PLACES = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")
PLAY_KINDS = ("lead", "follow", "ruff", "free", "cut")
"""What a play can be: the first card of a trick, a card of the led suit, a trump
from one who cannot follow (Donkey), another suit on the free first trick, a cut
(thulla)."""


def pretty(text: str) -> str:
    """``'TH'`` -> ``'10♥'``."""
    return card(text).pretty


def hand_text(texts: Iterable[Card | int | str]) -> str:
    """A hand grouped by suit, high cards first: ``♠ A K 4  ♥ 10 3``."""
    cards = sort_hand(card(t) for t in texts)
    groups: dict[int, list[str]] = {}
    for c in cards:
        groups.setdefault(c.suit, []).append(c.pretty[:-1])
    return "  ".join(SUIT_SYMBOLS[s] + " " + " ".join(groups[s]) for s in sorted(groups, reverse=True)) or "-"


@dataclass(frozen=True, slots=True)
class Moment:
    """One recorded event and what it is in the game.

    ``kind``: one of :data:`PLAY_KINDS` for a play, else the event's type
    (``deal``, ``trump``, ``clean``, ``pickup``, ``draw``, ``take``, ``out``,
    ``fault``, ``forfeit``, ``end``). ``number``: the trick's number, from 1
    (0 before the first lead). ``trick``: the (seat, card) pairs on the table
    after the event; for ``clean`` and ``pickup``, the trick just finished.
    ``first``: the event belongs to the game's first trick (or comes before
    it); ``free``: that first trick is free (``first_trick = "free"``).
    ``trump``: the trump suit's index after the event, -1 while there is none.
    ``cutter``: on a pick-up after a cut, the seat that cut.
    """

    kind: str
    event: dict[str, Any]
    number: int
    trick: tuple[tuple[int, str], ...]
    first: bool
    free: bool
    trump: int
    cutter: int | None = None


class _Walk:
    """The narration's working state over one record: the trick, its number, the trump, the first trick."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.rules = Rules.from_dict(record["rules"])
        start = record["start"]
        self.trump = SUIT_OF_TEXT[start["trump"]] if start.get("trump") else -1
        self.first = not start.get("first_trick_done", False)
        self.trick: tuple[tuple[int, str], ...] = ()
        self.number = 0

    def moment(self, e: dict[str, Any]) -> Moment:
        kind, first, cutter = e["type"], self.first, None
        if kind == "play":
            kind = self._play_kind(card(e["card"]).suit)
            self.number += kind == "lead"
            self.trick += ((e["seat"], e["card"]),)
        elif kind == "trump":
            self.trump = SUIT_OF_TEXT[e["suit"]]
        elif kind in ("clean", "pickup"):
            if kind == "pickup" and e.get("by") != "fault" and self.trick:
                cutter = self.trick[-1][0]
            finished, self.trick, self.first = self.trick, (), False
            return Moment(kind, e, self.number, finished, first, self._free(first), self.trump, cutter)
        return Moment(kind, e, self.number, self.trick, first, self._free(first), self.trump)

    def _free(self, first: bool) -> bool:
        return first and rule_flags(self.rules).free_first

    def _play_kind(self, suit: int) -> str:
        if not self.trick:
            return "lead"
        if suit == card(self.trick[0][1]).suit:
            return "follow"
        if self.rules.trumps and (self.trump < 0 or suit == self.trump):
            return "ruff"
        if self._free(self.first):
            return "free"
        return "cut"


def moments(record: dict[str, Any]) -> Iterator[Moment]:
    """The record's events in order, each as a :class:`Moment`."""
    walk = _Walk(record)
    for e in record["events"]:
        yield walk.moment(e)


class _Teller:
    """Builds the text lines from the moments (working state: the current trick's words)."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.names = record["names"]
        self.lines: list[str] = []
        self.trick: list[str] = []
        self.forfeited: set[int] = set()
        self.forfeited_out = 0  # forfeited seats that emptied their hands: they still finish last

    def who(self, seat: int) -> str:
        return f"{self.names[seat]}[{seat}]"

    def tell(self) -> list[str]:
        r = self.record
        rules = r["rules"]
        seed = r.get("play_seed", r["seed"])  # a single game (arena play) shows the seed it was given
        self.lines.append(f"{rules['name']} rules, {r['players']} players, seed {seed}, dealer {self.who(r['dealer'])}")
        for seat, hand in enumerate(r["start"]["hands"]):
            self.lines.append(f"  {self.who(seat):>16}: {hand_text(hand)}")
        for m in moments(r):
            kind = "play" if m.kind in PLAY_KINDS else m.kind
            getattr(self, "_" + kind, lambda m: None)(m)
        return self.lines

    def _flush(self, m: Moment, ending: str) -> None:
        self.lines.append(f"Trick {m.number:>2}: {', '.join(self.trick)}  -> {ending}")
        self.trick = []

    def _play(self, m: Moment) -> None:
        e = m.event
        note = {"fault": " (replacing a fault)", "auto": " (forfeited seat)"}.get(e.get("by", ""), "")
        self.trick.append(f"{self.who(e['seat'])} {pretty(e['card'])}{note}")

    def _trump(self, m: Moment) -> None:
        self.trick.append(f"[{SUIT_SYMBOLS[SUIT_OF_TEXT[m.event['suit']]]} are trumps now]")

    def _clean(self, m: Moment) -> None:
        self._flush(m, f"clean, discarded; {self.who(m.event['seat'])} has the power")

    def _pickup(self, m: Moment) -> None:
        e = m.event
        if e.get("by") == "fault":
            self._flush(m, f"{self.who(e['seat'])} faulted and picks up {len(e['cards'])} card(s) as a penalty")
            return
        cutter = "?" if m.cutter is None else self.who(m.cutter)
        self._flush(m, f"{cutter} cuts (thulla)! {self.who(e['seat'])} picks up "
                    f"{' '.join(pretty(c) for c in e['cards'])}")

    def _draw(self, m: Moment) -> None:
        e = m.event
        source = "the discard pile" if e["from"] == "pile" else f"{self.who(e['from'])}'s hand"
        shown = pretty(e["card"]) if e.get("card") else "a card"
        self.lines.append(f"          {self.who(e['seat'])} has the power but no cards: draws {shown} from {source}")

    def _take(self, m: Moment) -> None:
        e = m.event
        if e["take"]:
            self.lines.append(f"          {self.who(e['seat'])} takes {e['count']} card(s) from {self.who(e['from'])}")

    def _out(self, m: Moment) -> None:
        """A seat out, with the place it finishes in: a forfeited seat's empty hand does not get it away
        (it is placed last), so the seats out after it finish one place higher than the event counts."""
        seat = m.event["seat"]
        if seat in self.forfeited:
            self.forfeited_out += 1
            self.lines.append(f"          {self.who(seat)} has played its last card, but it forfeited: "
                              f"it finishes last all the same")
            return
        place = PLACES[m.event["place"] - self.forfeited_out]
        self.lines.append(f"          {self.who(seat)} is out ({place})")

    def _fault(self, m: Moment) -> None:
        self.lines.append(f"          {self.who(m.event['seat'])} FAULT: {m.event['kind']}")

    def _forfeit(self, m: Moment) -> None:
        self.forfeited.add(m.event["seat"])
        self.lines.append(f"          {self.who(m.event['seat'])} forfeits (too many faults)")

    def _end(self, m: Moment) -> None:
        e = m.event
        if self.trick:
            self._flush(m, "game over")
        if e.get("draw"):
            self.lines.append("Draw: " + ", ".join(self.who(s) for s in e["tied"]) + " share the last place")
            return
        loser = e["loser"]
        reason = {"shootout": " (shootout: no suit in common)", "drawn_cut": " (cut on a drawn lead)",
                  "simultaneous": " (highest card of the last trick)",
                  "forfeit": " (forfeit: too many faults)"}.get(e["reason"], "")
        cards = e.get("loser_cards", [])
        held = f"holding {len(cards)} card(s): {hand_text(cards)}" if cards else "holding no cards"
        self.lines.append(f"Bhabhi: {self.who(loser)}{reason}, {held}")
        self.lines.append("Finishing order: " + ", ".join(self.who(s) for s in e["order"]))


def describe(record: dict[str, Any]) -> list[str]:
    """The lines of a game told trick by trick."""
    return _Teller(record).tell()
