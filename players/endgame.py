"""With two players left: a search of one's own cards against the other player's model.

With one pack and two players in, each knows the other's hand (every card not
played and not its own). :mod:`arena.game.solver` solves that ending against
a perfect opponent, but under ``getaway``'s draws it rarely finishes in time
(docs/solver.md: seconds at six cards each), and against a fallible opponent a
position lost to perfect play may still be won. This search plays the other
seat as its model says (:func:`players.opponents.infer`: ``heuristic``,
``high`` and ``low`` are deterministic, ``random`` is the mean over its legal
cards) and looks for the line of one's own cards that loses least:

- at each of one's own decisions with a choice, the least expected loss of its
  cards (1 for the Bhabhi, 0 for getting out, 0.5 for a drawn game);
- a draw from the pile is a chance node: every card when the pile holds at
  most :data:`DRAWS` of them, else :data:`DRAWS` cards spread evenly over it;
- positions met again are looked up (a memo keyed on the whole position);
- within ``visits`` positions a root card (the budget is split evenly between
  the root's cards); past that, a position is scored by one playout with the
  heuristic policy for one's own seat (:func:`players.playout.play_out`).

Deterministic: the budget counts positions, not time, and the playouts' seeds
come from the caller. Refused (None) where the two hands are not both known:
trumps, two packs, or a view whose counts do not add up.
"""

from __future__ import annotations

from arena.game.cards import PACK_MASK, bit_list, mask_of
from arena.game.solver import supports
from arena.game.state import TAKE

from players.errors import DrawAsked
from players.opponents import infer
from players.playout import PlayoutRandom, World, plain_rules, play_out, plain_card, playout_state
from players.policy import HEURISTIC, RANDOM, model_card
from players.sampler import Worlds

DRAWS = 6
"""Cards a draw's chance node looks at (all of them when the pile holds no more)."""
VISITS = 3000
"""Positions searched a decision by default (the learned player with it: a mean of 1.21 ms a decision with
a choice in the ladder's field, ``python benchmarks/learned_field.py run NAME 200 0``)."""


class _Chance:
    """The search's stand-in for a state's generator: it answers the one draw it was set for."""

    __slots__ = ("pick",)

    def __init__(self, pick: int | None = None) -> None:
        self.pick = pick

    def randrange(self, n: int) -> int:
        if self.pick is None:
            raise DrawAsked(n)
        pick, self.pick = self.pick, None
        return pick

    def random(self) -> float:
        raise DrawAsked(0)


def _key(w: World) -> tuple:
    return (tuple(w.hands), mask_of(w.pile), w.cur, w.leader, tuple(w.tcards), w.must, w.first,
            w.drawn_lead, w.decision, w.emptied, w.n_active)


class EndgameSearch:
    """One decision's search: ``me`` against seats playing ``kinds`` (:data:`players.policy.NAMES`)."""

    def __init__(self, me: int, kinds: list[int], seed: float, visits: int = VISITS) -> None:
        self.me, self.kinds, self.seed = me, kinds, seed
        self.cap, self.visits, self.playouts = visits, 0, 0
        self.memo: dict[tuple, float] = {}
        self.plain = True

    def values(self, world: World, moves: list[int]) -> dict[int, float]:
        """Each of ``moves`` (cards of the seat to act, ``me``): its expected loss."""
        cap, self.cap = self.cap, max(1, self.cap // len(moves))
        self.plain = plain_rules(world)     # (the rules of one search do not change: asked once, not at each node)
        out = {}
        for m in moves:
            self.visits = 0
            out[m] = self._after(world, m)
        self.cap = cap
        return out

    def _score(self, w: World) -> float:
        """A finished game: 1 if ``me`` is the Bhabhi, 0.5 for a drawn game, else 0."""
        if w.loser is None:
            return 0.5
        return 1.0 if w.loser == self.me else 0.0

    def _leaf(self, w: World) -> float:
        """A position past the budget: one playout (a playout stopped unfinished scores as a drawn game)."""
        self.playouts += 1
        w.rng = PlayoutRandom(self.seed)
        play_out(w, self.kinds, seat=self.me)
        if w.cur is None:
            return self._score(w)
        return 0.0 if not w.active[self.me] else 0.5

    def _value(self, w: World) -> float:
        me, kinds = self.me, self.kinds
        self.visits += 1
        if self.visits > self.cap:
            return self._leaf(w)
        while True:
            cur = w.cur
            if cur is None:
                return self._score(w)
            if not w.active[me]:
                return 0.0
            if w.decision is TAKE:
                w.take_answer(False)
                continue
            legal = w.legal_mask()
            if not legal & (legal - 1):
                return self._after(w, legal.bit_length() - 1)
            kind = kinds[cur]
            if cur != me and kind != RANDOM:
                pick = plain_card(w) if kind == HEURISTIC and self.plain else model_card(w, kind, None)
                return self._after(w, pick)
            key = _key(w)
            known = self.memo.get(key)
            if known is not None:
                return known
            if cur == me:
                value = min(self._after(w, c) for c in bit_list(legal))
            else:
                cards = bit_list(legal)
                value = sum(self._after(w, c) for c in cards) / len(cards)
            self.memo[key] = value
            return value

    def _after(self, w: World, c: int) -> float:
        """The value once card ``c`` is played at ``w`` (a chance node if the play draws)."""
        x = w.copy()
        x.rng = _Chance()  # type: ignore[assignment]  # (what State calls of a Random: randrange)
        try:
            x.play(c)
        except DrawAsked as draw:
            n = draw.n
            picks = range(n) if n <= DRAWS else [(2 * i + 1) * n // (2 * DRAWS) for i in range(DRAWS)]
            total = 0.0
            for i in picks:
                y = w.copy()
                y.rng = _Chance(i)  # type: ignore[assignment]
                y.play(c)
                total += self._value(y)
            return total / len(picks)
        return self._value(x)


def endgame_values(view, seed: float, visits: int = VISITS) -> dict[int, float] | None:
    """With two players in, each legal card's expected loss against the other's model (card id -> value);
    None when the view is not such an ending or the hands cannot be told from it."""
    if sum(view.active) != 2 or view.decision != "play" or not supports(view.rules):
        return None
    worlds = Worlds(view)
    me = view.seat
    known = worlds.other_hand()
    if known is None:
        return None
    other, other_hand = known
    hands = [0] * worlds.players
    hands[me], hands[other] = worlds.hand, other_hand
    pile = bit_list(PACK_MASK & ~(worlds.trick_mask | worlds.hand | other_hand))
    world = playout_state(view.rules, worlds.players, hands, list(view.out), pile, worlds.leader, worlds.trick,
                          worlds.first_trick, worlds.drawn_lead, PlayoutRandom(seed))
    search = EndgameSearch(me, list(infer(view).kinds), seed, visits)
    return search.values(world, [int(c) for c in view.legal])
