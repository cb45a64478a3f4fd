"""Playouts for the sampler: a rules state in a sampled world, played to the end by the reference policies."""

from __future__ import annotations

import random

from arena.game.state import TAKE, State

from players.policy import HEURISTIC, heuristic_card, model_card


class PlayoutRandom(random.Random):
    """The playouts' generator: ``randrange(n)`` is ``int(random() * n)`` (one C call, not a rejection loop)."""

    def randrange(self, n: int) -> int:  # type: ignore[override]
        return int(self.random() * n)


def playout_state(rules, players: int, hands: list[int], out: list[int], pile: list[int], leader: int,
                  trick: list[tuple[int, int]], first: bool, drawn_lead: bool, rng, must: int = -1) -> State:
    """A :class:`State` in a sampled world: ``hands`` now, the current ``trick`` under way from ``leader``."""
    state = State(rules, players, rng, 0, hands, pile, out)
    state.resume(leader, trick, first, drawn_lead, must)
    return state


def play_out(state: State, kinds) -> None:
    """Play to the end: each seat its model's policy (``kinds``, :data:`players.policy.NAMES`); nobody takes."""
    play, heuristic = state.play, heuristic_card
    if not state.take and kinds.count(HEURISTIC) == len(kinds):
        while state.cur is not None:            # the common case, without the checks below
            play(heuristic(state))
        return
    rng = state.rng
    while state.cur is not None:
        if state.decision is TAKE:
            state.take_answer(False)
            continue
        kind = kinds[state.cur]
        play(heuristic(state) if kind == HEURISTIC else model_card(state, kind, rng))
