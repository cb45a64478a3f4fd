"""Match records (JSON) and the exact replay of a whole match.

A match record holds the match rules, the game rules, the match's deal seed,
the first dealer, the seat names, the final standings and every hand's own
game record (:mod:`arena.game.record`). :func:`replay_match` replays each hand
with the engine, checks that its seed and dealer are the ones the match gives
that hand, rescores it, and checks that the match ends exactly after the last
recorded hand with the recorded standings.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arena.game.engine import Game
from arena.game.errors import ArenaError, ReplayError
from arena.game.match import MatchRules, MatchState
from arena.game.rules import Rules
from arena.game.seeds import match_hand_seed

MATCH_RECORD_VERSION = 1


def match_record(state: MatchState, rules: Rules, seed: int, names: Iterable[str], hands: list[dict[str, Any]],
                 **extra: Any) -> dict[str, Any]:
    """The JSON-ready record of a finished match (``hands``: each hand's game record, in order)."""
    record = {
        "version": MATCH_RECORD_VERSION, "type": "match", "match": state.rules.to_dict(),
        "rules": rules.to_dict(), "players": state.players, "seed": seed, "first_dealer": state.first_dealer,
        "names": list(names), "result": state.result().to_dict(), "hands": hands,
    }
    record.update(extra)
    return record


def is_match_record(record: Any) -> bool:
    return isinstance(record, dict) and record.get("type") == "match"


def replay_match(record: dict[str, Any]) -> MatchState:
    """Replay every hand of a match record, checking each step; the final :class:`MatchState`.

    Raises :class:`ReplayError` naming the first hand that differs.
    """
    if not is_match_record(record) or record.get("version") != MATCH_RECORD_VERSION:
        got = record.get("version") if isinstance(record, dict) else type(record).__name__
        raise ReplayError(f"a match record must be a dict with type 'match' and version "
                          f"{MATCH_RECORD_VERSION} (got {got!r})")
    try:
        rules = Rules.from_dict(record["rules"])
        state = MatchState.start(MatchRules.from_dict(record["match"]), record["players"],
                                 record["first_dealer"], rules.direction)
        seed, hands, stored = record["seed"], record["hands"], record["result"]
    except KeyError as exc:
        raise ReplayError(f"match record is missing the field {exc.args[0]!r}") from None
    except ArenaError as exc:
        raise ReplayError(f"match record cannot be replayed: {exc}") from None
    for number, hand in enumerate(hands):
        if state.over:
            raise ReplayError(f"the match was over after hand {number - 1}, but the record has "
                              f"{len(hands)} hands")
        want = (match_hand_seed(seed, number), state.dealer)
        got = (hand.get("seed"), hand.get("dealer")) if isinstance(hand, dict) else None
        if got != want:
            raise ReplayError(f"hand {number}: the record has seed and dealer {got}, the match gives {want}")
        try:
            game = Game.from_record(hand)
        except ReplayError as exc:
            raise ReplayError(f"hand {number}: {exc}") from None
        state = state.after(game.result)  # type: ignore[arg-type]  # a replayed hand is over
    if not state.over:
        raise ReplayError(f"the record ends after {len(hands)} hands, but the match is not over "
                          f"(totals {list(state.scores)}, to {state.rules.points})")
    if state.result().to_dict() != stored:
        raise ReplayError(f"replayed standings {state.result().to_dict()} differ from the record's {stored}")
    return state
