"""Playouts for the sampler: a rules state in a sampled world, played to the end by the reference policies."""

from __future__ import annotations

import random

from arena.game.cards import SUIT_MASK
from arena.game.state import SUIT, TAKE, State

from players.policy import BELOW, HEURISTIC, heuristic_card, model_card


class PlayoutRandom(random.Random):
    """The playouts' generator: ``randrange(n)`` is ``int(random() * n)`` (one C call, not a rejection loop)."""

    def randrange(self, n: int) -> int:  # type: ignore[override]
        return int(self.random() * n)


class World(State):
    """A rules state in which every hand is known (a sampled world), read as a policy's table.

    The table protocol of :mod:`players.policy`: who could cut is who holds
    none of the suit (in Donkey, once trumps are fixed, none of it and no trump).
    """

    __slots__ = ()

    @property
    def trumps(self) -> bool:
        """The table protocol's ``trumps``: the Donkey rule."""
        return self.flags.trumps

    @classmethod
    def of(cls, state: State) -> World:
        """A world in the position of ``state`` (a copy: same rng, no log)."""
        world = state.copy()
        world.__class__ = cls               # the same slots: only the table methods are added
        return world  # type: ignore[return-value]  # a World now: its class set on the line above

    def under_winner(self) -> int:
        """When a seat still to play could cut this trick, the cards ranked under the winning one in
        its suit (a mask); -1 when nobody could (always in trick 1 under "free")."""
        if self.first and self.flags.free_first:
            return -1
        m = SUIT_MASK[self.led]
        if self.flags.trumps:
            if self.trump < 0:
                return -1
            m |= SUIT_MASK[self.trump]
        nxt, active, hands, leader = self.nxt, self.active, self.hands, self.leader
        s = nxt[self.cur]  # type: ignore[index]  # a trick under way has a seat to play (cur None: game over)
        while s != leader:
            if active[s] and not hands[s] & m:
                return BELOW[SUIT[self.best]][self.best % 13]
            s = nxt[s]
        return -1

    def lead_risks(self) -> tuple[int, ...]:
        """For each suit ``risky << 4 | voids``: could another active seat cut a trick led in it (0 or 1),
        and how many of them hold none of it."""
        cur, active, hands = self.cur, self.active, self.hands
        m0, m1, m2, m3 = SUIT_MASK
        v0 = v1 = v2 = v3 = 0
        for s in range(self.n):
            if active[s] and s != cur:
                h = hands[s]
                if not h & m0:
                    v0 += 1
                if not h & m1:
                    v1 += 1
                if not h & m2:
                    v2 += 1
                if not h & m3:
                    v3 += 1
        if self.flags.trumps:
            others = [h for s, h in enumerate(hands) if active[s] and s != cur]
            return tuple(self._could_cut(suit, others) << 4 | v for suit, v in enumerate((v0, v1, v2, v3)))
        return (v0 > 0) << 4 | v0, (v1 > 0) << 4 | v1, (v2 > 0) << 4 | v2, (v3 > 0) << 4 | v3

    def _could_cut(self, suit: int, others: list[int]) -> bool:
        """Donkey: only once trumps are fixed, by a hand void in the suit and in trumps."""
        if self.trump < 0:
            return False
        m = SUIT_MASK[suit] | SUIT_MASK[self.trump]
        return any(not h & m for h in others)


def playout_state(rules, players: int, hands: list[int], out: list[int], pile: list[int], leader: int,
                  trick: list[tuple[int, int]], first: bool, drawn_lead: bool, rng, must: int = -1,
                  trump: int = -1) -> World:
    """A :class:`World` for a sampled deal: ``hands`` now, the current ``trick`` under way from ``leader``
    (``trump``: the trump suit when it began, Donkey)."""
    state = World(rules, players, rng, 0, hands, pile, out, trump)
    state.resume(leader, trick, first, drawn_lead, must)
    return state


PLAYOUT_STEPS = 3000
"""Steps after which a playout stops unfinished. Deterministic policies can cycle (cards picked up
come back round: a run of CI once spun in one playout for minutes); an unfinished playout scores as
one in which the seat is still in."""


def play_out(state: World, kinds, steps: int = PLAYOUT_STEPS) -> bool:
    """Play to the end: each seat its model's policy (``kinds``, :data:`players.policy.NAMES`); nobody
    takes. False when the game did not end within ``steps`` plays and take answers."""
    play, heuristic = state.play, heuristic_card
    if not state.flags.take and kinds.count(HEURISTIC) == len(kinds):
        for _ in range(steps):                  # the common case, without the checks below
            if state.cur is None:
                return True
            play(heuristic(state))
        return state.cur is None
    rng = state.rng
    for _ in range(steps):
        if state.cur is None:
            return True
        if state.decision is TAKE:
            state.take_answer(False)
            continue
        kind = kinds[state.cur]
        play(heuristic(state) if kind == HEURISTIC else model_card(state, kind, rng))
    return state.cur is None
