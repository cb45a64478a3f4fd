"""Playing a whole match: hands with the referee until someone reaches the points total.

Hand ``h`` is dealt from :func:`arena.game.seeds.match_hand_seed` of the
match's deal seed, by the seat :func:`arena.game.match.dealer_of` gives (one
on each hand). Each seat is told the match score before every hand (the
``match`` event, ``view.match``) and ``deal`` is the hand's seed, so a
sandboxed client never lets one process play the same hand twice (a rotated
match replays the same hands with the seats rotated).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from arena.bots.referee import Client, play_game
from arena.game.match import MatchRules, MatchState
from arena.game.match_record import match_record
from arena.game.result import Result
from arena.game.rules import Rules
from arena.game.seeds import match_hand_seed


def play_match(rules: Rules, clients: Sequence[Client], seed: int, match: MatchRules, first_dealer: int = 0,
               names: Sequence[str] | None = None,
               bot_seeds: Callable[[int], Sequence[int]] | None = None,
               on_hand: Callable[[dict[str, Any], MatchState], None] | None = None,
               **extra: Any) -> dict[str, Any]:
    """Play a match to the end and return its record (:mod:`arena.game.match_record`).

    ``bot_seeds(hand_seed)`` gives each seat's bot seed for one hand (None: the
    referee's open default). ``on_hand(record, state)`` is called after each
    hand with its game record and the match state once it is scored. ``extra``
    goes into every hand's record and the match record.
    """
    names = list(names) if names is not None else [c.name for c in clients]
    state = MatchState.start(match, len(clients), first_dealer, rules.direction)
    hands: list[dict[str, Any]] = []
    while not state.over:
        hand_seed = match_hand_seed(seed, state.hand)
        seeds = bot_seeds(hand_seed) if bot_seeds is not None else None
        record = play_game(rules, clients, hand_seed, state.dealer, names=names, bot_seeds=seeds,
                           match=state.view(), **extra)
        state = state.after(Result.from_dict(record["result"]))
        hands.append(record)
        if on_hand is not None:
            on_hand(record, state)
    return match_record(state, rules, seed, names, hands, **extra)
