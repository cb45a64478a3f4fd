"""A public event's engine tuple made from its dict alone: a compact frame's tuple says no more than the dict."""

from __future__ import annotations

from arena.game.cards import SUITS, parse_card


def from_dict(d: dict) -> tuple:
    """The engine's tuple of a play, clean, pick-up, out or trump, from its dict (card ids for texts)."""
    kind, ids = d["type"], lambda texts: tuple(parse_card(t) for t in texts)
    if kind == "trump":
        return kind, SUITS.index(d["suit"])
    if kind == "out":
        return kind, d["seat"], d["place"]
    main = (kind, d["seat"], parse_card(d["card"]) if kind == "play" else ids(d["cards"]))
    return main + ((d["by"],) if "by" in d else ())
