"""A game record told trick by trick, as a person would read it (returns text, prints nothing)."""

from __future__ import annotations

from arena.game.cards import SUIT_SYMBOLS, SUITS, card, sort_hand

_PLACE = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")


def pretty(text: str) -> str:
    """``'TH'`` -> ``'10♥'``."""
    return card(text).pretty


def hand_text(texts) -> str:
    """A hand grouped by suit, high cards first: ``♠ A K 4  ♥ 10 3``."""
    cards = sort_hand(card(t) for t in texts)
    groups: dict[int, list[str]] = {}
    for c in cards:
        groups.setdefault(c.suit, []).append(c.pretty[:-1])
    return "  ".join(SUIT_SYMBOLS[s] + " " + " ".join(groups[s]) for s in sorted(groups, reverse=True)) or "-"


class _Teller:
    """Walks the events of a record and builds the lines."""

    def __init__(self, record: dict) -> None:
        self.record = record
        self.names = record["names"]
        self.lines: list[str] = []
        self.trick: list[str] = []
        self.number = 0

    def who(self, seat: int) -> str:
        return f"{self.names[seat]}[{seat}]"

    def tell(self) -> list[str]:
        r = self.record
        rules = r["rules"]
        seed = r.get("play_seed", r["seed"])  # a single game (arena play) shows the seed it was given
        self.lines.append(f"{rules['name']} rules, {r['players']} players, seed {seed}, dealer {self.who(r['dealer'])}")
        for seat, hand in enumerate(r["start"]["hands"]):
            self.lines.append(f"  {self.who(seat):>16}: {hand_text(hand)}")
        for e in r["events"]:
            getattr(self, "_" + e["type"], lambda e: None)(e)
        return self.lines

    def _flush(self, ending: str) -> None:
        self.number += 1
        self.lines.append(f"Trick {self.number:>2}: {', '.join(self.trick)}  -> {ending}")
        self.trick = []

    def _play(self, e) -> None:
        note = {"fault": " (replacing a fault)", "auto": " (forfeited seat)"}.get(e.get("by"), "")
        self.trick.append(f"{self.who(e['seat'])} {pretty(e['card'])}{note}")

    def _trump(self, e) -> None:
        self.trick.append(f"[{SUIT_SYMBOLS[SUITS.index(e['suit'])]} are trumps now]")

    def _clean(self, e) -> None:
        self._flush(f"clean, discarded; {self.who(e['seat'])} has the power")

    def _pickup(self, e) -> None:
        if e.get("by") == "fault":
            self._flush(f"{self.who(e['seat'])} faulted and picks up {len(e['cards'])} card(s) as a penalty")
            return
        cutter = self.trick[-1].split(" ")[0] if self.trick else "?"
        self._flush(f"{cutter} cuts (thulla)! {self.who(e['seat'])} picks up "
                    f"{' '.join(pretty(c) for c in e['cards'])}")

    def _draw(self, e) -> None:
        source = "the discard pile" if e["from"] == "pile" else f"{self.who(e['from'])}'s hand"
        shown = pretty(e["card"]) if e.get("card") else "a card"
        self.lines.append(f"          {self.who(e['seat'])} has the power but no cards: draws {shown} from {source}")

    def _take(self, e) -> None:
        if e["take"]:
            self.lines.append(f"          {self.who(e['seat'])} takes {e['count']} card(s) from {self.who(e['from'])}")

    def _out(self, e) -> None:
        self.lines.append(f"          {self.who(e['seat'])} is out ({_PLACE[e['place']]})")

    def _fault(self, e) -> None:
        self.lines.append(f"          {self.who(e['seat'])} FAULT: {e['kind']}")

    def _forfeit(self, e) -> None:
        self.lines.append(f"          {self.who(e['seat'])} forfeits (too many faults)")

    def _end(self, e) -> None:
        if self.trick:
            self._flush("game over")
        if e.get("draw"):
            self.lines.append("Draw: " + ", ".join(self.who(s) for s in e["tied"]) + " share the last place")
            return
        loser = e["loser"]
        reason = {"shootout": " (shootout: no suit in common)", "drawn_cut": " (cut on a drawn lead)",
                  "simultaneous": " (highest card of the last trick)", "forfeit": " (forfeit)"}.get(e["reason"], "")
        cards = e.get("loser_cards", [])
        self.lines.append(f"Bhabhi: {self.who(loser)}{reason}, holding {len(cards)} card(s): {hand_text(cards)}")
        self.lines.append("Finishing order: " + ", ".join(self.who(s) for s in e["order"]))


def describe(record: dict) -> list[str]:
    """The lines of a game told trick by trick."""
    return _Teller(record).tell()
