"""A :class:`~arena.game.views.PlayerView` as JSON and back: the one serialisation a program bot reads.

A program bot (docs/protocol.md) is sent the very view a Python bot is handed,
turned into plain JSON here and nowhere else, so the two can never drift
(tests/bots/test_wire_view.py checks every field over every preset and
variant). Every field of the view keeps its name; values are written as:

- cards as their texts (``"AS"``, ``"TH"``, ``"AS*"`` for a second-pack copy);
  the trick as ``[seat, card]`` pairs; a take decision's legal answers as
  ``[false, true]``;
- suits (``led_suit``, ``trump``) as numbers, 0 clubs .. 3 spades, as the
  Python view has them;
- card masks (``seen_mask``, ``known_masks``, ``pile_mask``) as two numbers
  ``[first pack, second pack]``, bit ``suit * 13 + rank`` of each: every one is
  below 2**52, exact in any JSON parser (a whole mask is ``first | second << 52``);
- ``rules`` as :meth:`~arena.game.rules.Rules.to_dict`, ``match`` as
  :meth:`~arena.game.match.MatchView.to_dict` (or null);
- ``history`` as its event dicts, from event ``since`` on (a program keeps what
  it was sent before: ``history_start`` says where these begin).
"""

from __future__ import annotations

from typing import Any

from arena.game.cards import PACK, PACK_MASK, TEXTS, card
from arena.game.match import MatchView
from arena.game.rules import Rules
from arena.game.views import Action, PlayerView

PROTOCOL = 1
"""The program-bot protocol's version (docs/protocol.md): the harness's ``hello`` says it, the program's echoes it."""

VIEW_FIELDS = ("seat", "players", "rules", "hand", "legal", "decision", "trick", "led_suit", "trump",
               "hand_sizes", "out", "history", "time_left", "first_trick", "active", "seen_mask",
               "known_masks", "void_masks", "pile_mask", "hidden_draws", "next_leader", "match")
"""Every field of a PlayerView, in its order: what a view's JSON holds (and ``history_start``)."""


def mask_json(mask: int) -> list[int]:
    """A card mask as ``[first pack, second pack]`` (each below 2**52)."""
    return [mask & PACK_MASK, mask >> PACK]


def mask_of_json(pair: list[int]) -> int:
    """The inverse of :func:`mask_json`."""
    return pair[0] | pair[1] << PACK


def legal_json(legal: tuple[Action, ...], decision: str | None) -> list[str] | list[bool]:
    """The legal answers: card texts for a play, ``[false, true]`` for a take."""
    if decision == "take":
        return [bool(x) for x in legal]
    return [TEXTS[c] for c in legal]


def view_to_json(view: PlayerView, since: int = 0) -> dict[str, Any]:
    """Every field of ``view`` as plain JSON data; ``history`` from event ``since`` on."""
    history = view.history
    return {
        "seat": view.seat, "players": view.players, "rules": view.rules.to_dict(),
        "hand": [TEXTS[c] for c in view.hand], "legal": legal_json(view.legal, view.decision),
        "decision": view.decision, "trick": [[s, TEXTS[c]] for s, c in view.trick],
        "led_suit": view.led_suit, "trump": view.trump, "hand_sizes": list(view.hand_sizes),
        "out": list(view.out), "history_start": since, "history": list(history[since:]),
        "time_left": view.time_left, "first_trick": view.first_trick, "active": list(view.active),
        "seen_mask": mask_json(view.seen_mask), "known_masks": [mask_json(m) for m in view.known_masks],
        "void_masks": list(view.void_masks), "pile_mask": mask_json(view.pile_mask),
        "hidden_draws": list(view.hidden_draws), "next_leader": view.next_leader,
        "match": None if view.match is None else view.match.to_dict(),
    }


def view_from_json(data: dict[str, Any], earlier: tuple[dict[str, Any], ...] = ()) -> PlayerView:
    """The PlayerView a :func:`view_to_json` dict stands for; ``earlier``: the history events before
    its ``history_start`` (what the program was sent before)."""
    decision = data["decision"]
    legal = tuple(bool(x) for x in data["legal"]) if decision == "take" else tuple(map(card, data["legal"]))
    history = tuple(earlier[:data.get("history_start", 0)]) + tuple(data["history"])
    return PlayerView(
        seat=data["seat"], players=data["players"], rules=Rules.from_dict(data["rules"]),
        hand=tuple(map(card, data["hand"])), legal=legal, decision=decision,
        trick=tuple((s, card(c)) for s, c in data["trick"]), led_suit=data["led_suit"], trump=data["trump"],
        hand_sizes=tuple(data["hand_sizes"]), out=tuple(data["out"]), history=history,
        time_left=data["time_left"], first_trick=data["first_trick"], active=tuple(data["active"]),
        seen_mask=mask_of_json(data["seen_mask"]), known_masks=tuple(map(mask_of_json, data["known_masks"])),
        void_masks=tuple(data["void_masks"]), pile_mask=mask_of_json(data["pile_mask"]),
        hidden_draws=tuple(data["hidden_draws"]), next_leader=data["next_leader"],
        match=None if data["match"] is None else MatchView.from_event(data["match"]),
    )

