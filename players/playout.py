"""Playouts for the sampler: a rules state in a sampled world, played to the end by the reference policies.

Their cost is the sampler's (issue 39, docs/throughput.md): a playout stops once the sampler's seat is out
(its score is settled), is seeded only if it draws (:class:`SeededLater`), and under one pack without
trumps chooses the heuristic policy's cards with :func:`plain_card` (the same cards, on the masks).
"""

from __future__ import annotations

import random

from arena.game.cards import PACK, SECOND_PACK, SUIT_MASK
from arena.game.state import SUIT, TAKE, State

from players.policy import BELOW, HEURISTIC, heuristic_card, model_card


class PlayoutRandom(random.Random):
    """The playouts' generator: ``randrange(n)`` is ``int(random() * n)`` (one C call, not a rejection loop)."""

    def randrange(self, n: int) -> int:  # type: ignore[override]
        return int(self.random() * n)


class SeededLater:
    """``PlayoutRandom(seed)``, seeded at its first call: seeding costs about 7 us, a tenth of a playout, and
    most playouts draw nothing (a draw from the pile or a ``random`` opponent model is what calls it)."""

    __slots__ = ("rng", "seed")

    def __init__(self, seed: float) -> None:
        self.seed = seed
        self.rng: PlayoutRandom | None = None

    def _seeded(self) -> PlayoutRandom:
        if self.rng is None:
            self.rng = PlayoutRandom(self.seed)
        return self.rng

    def randrange(self, n: int) -> int:
        return self._seeded().randrange(n)

    def random(self) -> float:
        return self._seeded().random()


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


def play_out(state: World, kinds, steps: int = PLAYOUT_STEPS, seat: int = -1) -> bool:
    """Play to the end: each seat its model's policy (``kinds``, :data:`players.policy.NAMES`); nobody
    takes. False when the game did not end within ``steps`` plays and take answers.

    With ``seat``, stop as soon as that seat is out: its finishing place is settled (nobody comes back,
    and the loser is always a seat still in), so what the rest of the game would take is not played.
    """
    play = state.play
    watched, w = (state.active, seat) if seat >= 0 else ((True,), 0)    # (active is changed in place)
    heuristic = plain_card if plain_rules(state) else heuristic_card
    if not state.flags.take and kinds.count(HEURISTIC) == len(kinds):
        for _ in range(steps):                  # the common case, without the checks below
            if state.cur is None or not watched[w]:
                return True
            play(heuristic(state))
        return state.cur is None
    rng = state.rng
    for _ in range(steps):
        if state.cur is None or not watched[w]:
            return True
        if state.decision is TAKE:
            state.take_answer(False)
            continue
        kind = kinds[state.cur]
        play(heuristic(state) if kind == HEURISTIC else model_card(state, kind, rng))
    return state.cur is None


def plain_rules(state: State) -> bool:
    """One pack without trumps (the sampler's rules): :func:`plain_card` plays the heuristic policy there."""
    return (not state.flags.trumps and max(state.hands) < SECOND_PACK and max(state.pile, default=0) < PACK
            and max(state.tcards, default=0) < PACK)


M0, M1, M2, M3 = SUIT_MASK[:4]


def plain_card(t: World) -> int:
    """:func:`players.policy.heuristic_card` of a :class:`World` of one pack without trumps, written out
    on its masks (the playouts spend most of their time choosing cards): the same card, which
    tests/players/test_playout.py checks at every step of playouts under every rule set it serves.

    Leading: the suit fewest others are void in (then the longest, then the lowest), its highest card
    when nobody is, else its lowest; cutting: the highest rank (then the shortest suit); following:
    the highest card, under the winner when a seat still to play holds none of the suit."""
    cur: int = t.cur  # type: ignore[assignment]  # a seat is to play
    hands = t.hands
    hand = hands[cur]
    led = t.led
    if led < 0:
        must = t.must
        if must >= 0:
            return must
        if not hand & (hand - 1):
            return hand.bit_length() - 1
        after = t.after
        v0 = v1 = v2 = v3 = 0                   # how many other seats still in hold none of each suit
        s = after[cur]
        while s != cur:
            h = hands[s]
            v0 += not h & M0
            v1 += not h & M1
            v2 += not h & M2
            v3 += not h & M3
            s = after[s]
        # the least key of policy.lead_card, (risky, voids, -count, suit), over the suits held
        best, key = 0, 1 << 30
        c = hand & M0
        if c:
            best, key = c, (v0 and 16 | v0) << 8 | (63 - c.bit_count()) << 2
        c = hand & M1
        if c:
            k = (v1 and 16 | v1) << 8 | (63 - c.bit_count()) << 2 | 1
            if k < key:
                best, key = c, k
        c = hand & M2
        if c:
            k = (v2 and 16 | v2) << 8 | (63 - c.bit_count()) << 2 | 2
            if k < key:
                best, key = c, k
        c = hand & M3
        if c:
            k = (v3 and 16 | v3) << 8 | (63 - c.bit_count()) << 2 | 3
            if k < key:
                best, key = c, k
        return (best & -best).bit_length() - 1 if key >> 12 else best.bit_length() - 1
    legal = hand & SUIT_MASK[led]
    if not legal:                               # a cut: policy.cut_card, every card legal
        if not hand & (hand - 1):
            return hand.bit_length() - 1
        top, key = -1, -1                       # the greatest key (rank, shortness), the first suit of equals
        for cards in (hand & M0, hand & M1, hand & M2, hand & M3):
            if cards:
                c = cards.bit_length() - 1
                k = c % 13 << 6 | 31 - cards.bit_count()
                if k > key:
                    top, key = c, k
        return top
    if legal & (legal - 1) and not (t.first and t.flags.free_first):
        after, leader, m = t.after, t.leader, SUIT_MASK[led]   # World.under_winner: could a seat to play cut?
        s = after[cur]
        while s != leader:
            if not hands[s] & m:
                under = legal & BELOW[SUIT[t.best]][t.best % 13]
                if under:
                    legal = under
                break
            s = after[s]
    return legal.bit_length() - 1
