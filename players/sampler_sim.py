"""A fast game state for playouts, with the heuristic policy on it.

:class:`Sim` mirrors the engine's rules (one pack, no trumps; every escape rule,
shootout, drawn_cut_loses, simultaneous, either first trick) on plain ints and
lists, without events, views or checks, so the sampler can play thousands of
games a second. ``tests/players/test_sampler.py`` checks it against :class:`arena.Game`.

The policy is the heuristic player's (players/heuristic.py) on the sampled
world: a player ducks when someone after it is void in the led suit, dumps its
highest card when nobody can cut, leads the suit fewest others are void in
(high when safe, low when not), and cuts with its highest card of its
shortest suit. In a sampled world the voids are the sampled hands' voids.
"""

from __future__ import annotations

from players.opponents import HEURISTIC, LOW, RANDOM

SM = tuple(0x1FFF << (13 * s) for s in range(4))
PASS, DRAW, DRAW_NEXT, PASS3 = 0, 1, 2, 3
_MODES = {"pass": PASS, "draw": DRAW, "draw_next_hand": DRAW_NEXT, "pass_if_3plus": PASS3}


def _top(m: int) -> int:
    return m.bit_length() - 1


def _low(m: int) -> int:
    return (m & -m).bit_length() - 1


class Sim:
    """One game in progress; mutable; copy with :meth:`copy`."""

    __slots__ = (
        "active",
        "best_rank",
        "best_seat",
        "cur",
        "cut_loses",
        "drawn_lead",
        "first",
        "free_first",
        "hands",
        "highest_loses",
    "kinds",
        "leader",
        "led",
        "loser",
        "mode",
        "must",
        "n",
        "n_active",
        "nxt",
        "out",
        "over",
        "pile",
        "rng",
        "shootout",
        "tcards",
        "tseats",
    )

    def copy(self) -> Sim:
        s = Sim.__new__(Sim)
        s.n, s.nxt, s.mode, s.shootout = self.n, self.nxt, self.mode, self.shootout
        s.cut_loses, s.highest_loses, s.free_first, s.rng = self.cut_loses, self.highest_loses, self.free_first, self.rng
        s.kinds = self.kinds
        s.hands, s.active, s.out, s.pile = self.hands[:], self.active[:], self.out[:], self.pile[:]
        s.n_active, s.leader, s.cur = self.n_active, self.leader, self.cur
        s.tseats, s.tcards = self.tseats[:], self.tcards[:]
        s.led, s.best_seat, s.best_rank = self.led, self.best_seat, self.best_rank
        s.first, s.must, s.drawn_lead = self.first, self.must, self.drawn_lead
        s.loser, s.over = self.loser, self.over
        return s

    # ------------------------------------------------------------- legality
    def legal_mask(self) -> int:
        hand = self.hands[self.cur]
        if not self.tcards:
            return 1 << self.must if self.must >= 0 else hand
        return hand & SM[self.led] or hand

    # ---------------------------------------------------------------- play
    def play(self, c: int) -> None:
        s = self.cur
        self.hands[s] ^= 1 << c
        self.tseats.append(s)
        self.tcards.append(c)
        suit, rank = c // 13, c % 13
        if len(self.tcards) == 1:
            self.led, self.best_seat, self.best_rank, self.must = suit, s, rank, -1
        elif suit == self.led:
            if rank > self.best_rank:
                self.best_seat, self.best_rank = s, rank
        elif not (self.first and self.free_first):
            self._pickup(s)
            return
        nxt = self.nxt[s]
        while not self.active[nxt]:
            nxt = self.nxt[nxt]
        if nxt == self.leader:
            self._clean()
        else:
            self.cur = nxt

    def _clear(self) -> None:
        self.tseats, self.tcards = [], []
        self.led = -1
        self.drawn_lead = False
        self.first = False

    def _pickup(self, thrower: int) -> None:
        picker = self.best_seat
        m = 0
        for c in self.tcards:
            m |= 1 << c
        self.hands[picker] |= m
        drawn_cut = self.cut_loses and self.n_active == 2 and self.drawn_lead and thrower != picker
        hands = self.hands
        emptied = [s for s in self.tseats if s != picker and not hands[s]]
        self._clear()
        self._go_out(emptied)
        if drawn_cut:
            if self.active[thrower]:
                self._go_out([thrower])
            self._finish(picker)
        elif not self._maybe_over(picker):
            self._next_trick(picker, False)

    def _clean(self) -> None:
        winner = self.best_seat
        cards = self.tcards
        hands = self.hands
        emptied = [s for s in self.tseats if not hands[s]]
        self._clear()
        if hands[winner]:
            self.pile.extend(cards)
            self._go_out(emptied)
            if not self._maybe_over(winner):
                self._next_trick(winner, False)
            return
        others = [s for s in emptied if s != winner]
        holders = 0
        for s in range(self.n):
            if self.active[s] and hands[s]:
                holders += 1
        mode = self.mode
        if mode == PASS3:
            mode = PASS if holders + 1 >= 3 else DRAW
        if mode == DRAW and not self.pile:
            mode = PASS
        if mode == PASS:
            self.pile.extend(cards)
            if not holders:
                if self.highest_loses:
                    self._go_out(others)
                    self._finish(winner)
                else:
                    self._finish(None)
                return
            self._go_out(emptied)
            if not self._maybe_over(None):
                self._next_trick(self._next_active(winner), False)
            return
        if not holders:
            self.pile.extend(cards)
            self._go_out(others)
            self._finish(winner)
            return
        if mode == DRAW:
            pile = self.pile
            i = int(self.rng.random() * len(pile))
            c = pile[i]
            pile[i] = pile[-1]
            pile.pop()
            hands[winner] |= 1 << c
            self.must = c
            pile.extend(cards)
            self._go_out(others)
        else:
            pile = self.pile
            pile.extend(cards)
            self._go_out(others)
            victim = self._next_active(winner)
            held = hands[victim]
            k = int(self.rng.random() * held.bit_count())
            for _ in range(k):
                held &= held - 1
            low = held & -held
            hands[victim] ^= low
            hands[winner] |= low
            self.must = low.bit_length() - 1
            if not hands[victim]:
                self._go_out([victim])
        if not self._maybe_over(winner):
            self._next_trick(winner, True)

    def _next_active(self, seat: int) -> int:
        s = self.nxt[seat]
        while not self.active[s]:
            s = self.nxt[s]
        return s

    def _go_out(self, seats) -> None:
        for s in seats:
            if self.active[s]:
                self.active[s] = False
                self.n_active -= 1
                self.out.append(s)

    def _maybe_over(self, leader) -> bool:
        if self.n_active > 1:
            return False
        left = [s for s in range(self.n) if self.active[s]]
        self._finish(left[0] if left else leader)
        return True

    def _next_trick(self, leader: int, drawn: bool) -> None:
        self.leader = leader
        self.drawn_lead = drawn
        if not drawn:
            self.must = -1
        if self.shootout and self.n_active == 2:
            other = self._next_active(leader)
            a, b = self.hands[leader], self.hands[other]
            if not (a & SM[0] and b & SM[0] or a & SM[1] and b & SM[1] or a & SM[2] and b & SM[2]
                    or a & SM[3] and b & SM[3]):
                self._go_out([other])
                self._finish(leader)
                return
        self.cur = leader

    def _finish(self, loser) -> None:
        self.loser = loser
        self.over = True
        self.cur = None

    # -------------------------------------------------------------- policy
    def policy(self) -> int:
        """The card of the seat to move: its model's (``kinds``), the heuristic player's by default."""
        s = self.cur
        hand = self.hands[s]
        kind = self.kinds[s]
        if kind:
            return self._simple(kind, hand)
        if not self.tcards:
            if self.must >= 0:
                return self.must
            return self._lead(s, hand)
        follow = hand & SM[self.led]
        if follow:
            if follow & (follow - 1) == 0:
                return _top(follow)
            return self._follow(s, follow)
        return self._cut(hand)

    def _lead(self, s: int, hand: int) -> int:
        hands, active = self.hands, self.active
        others = [o for o in range(self.n) if active[o] and o != s]
        best = None
        for suit in range(4):
            cards = hand & SM[suit]
            if not cards:
                continue
            m = SM[suit]
            voids = 0
            for o in others:
                if not hands[o] & m:
                    voids += 1
            key = (voids > 0, voids, -cards.bit_count(), suit)
            if best is None or key < best[0]:
                best = (key, cards)
        key, cards = best
        return _low(cards) if key[0] else _top(cards)

    def _follow(self, s: int, follow: int) -> int:
        if self.first and self.free_first:
            return _top(follow)
        m = SM[self.led]
        hands, active, nxt, leader = self.hands, self.active, self.nxt, self.leader
        o = nxt[s]
        risky = False
        while o != leader:
            if active[o] and not hands[o] & m:
                risky = True
                break
            o = nxt[o]
        if not risky:
            return _top(follow)
        below = follow & ((1 << (13 * self.led + self.best_rank)) - 1)
        return _top(below) if below else _top(follow)

    def _simple(self, kind: int, hand: int) -> int:
        """``low``, ``high`` (players/simple.py; ties go to the lowest card id) or ``random``."""
        legal = self.legal_mask()
        if kind == RANDOM:
            k = int(self.rng.random() * legal.bit_count())
            for _ in range(k):
                legal &= legal - 1
            return (legal & -legal).bit_length() - 1
        lowest = kind == LOW and not (self.tcards and not hand & SM[self.led])
        best, rank = -1, -1
        for suit in range(4):
            cards = legal >> (13 * suit) & 0x1FFF
            if cards:
                r = (cards & -cards).bit_length() - 1 if lowest else cards.bit_length() - 1
                if best < 0 or (r < rank if lowest else r > rank):
                    best, rank = 13 * suit + r, r
        return best

    @staticmethod
    def _cut(hand: int) -> int:
        best, key = -1, None
        for suit in range(4):
            cards = hand & SM[suit]
            if cards:
                top = _top(cards)
                k = (top % 13, -cards.bit_count())
                if key is None or k > key:
                    best, key = top, k
        return best

    def run(self) -> None:
        """Play to the end with the policy at every seat."""
        while not self.over:
            self.play(self.policy())


class UnsupportedRules(ValueError):
    """Rules the playout state does not implement (it would otherwise play other rules)."""


def check_rules(rules) -> None:
    """Refuse rules :class:`Sim` cannot play: the take options other than their defaults.

    The playouts model no take decisions (nobody takes in them); ``take_from``
    and ``take_order`` other than ``second_trick`` / ``leader`` are refused
    rather than silently played as the defaults.
    """
    if not rules.neighbour_take:
        return
    bad = [f"{o}={getattr(rules, o)!r} (supported: {d!r})"
           for o, d in (("take_from", "second_trick"), ("take_order", "leader")) if getattr(rules, o) != d]
    if bad:
        raise UnsupportedRules(f"the sampler's playouts do not support neighbour_take with {', '.join(bad)}")


def new_sim(rules, players: int, hands: list[int], active: list[bool], out: list[int], pile: list[int],
            leader: int, cur: int, trick: list[tuple[int, int]], first: bool, must: int,
            drawn_lead: bool, rng, kinds=None) -> Sim:
    """A :class:`Sim` in a given position (a trick may be in progress).

    ``kinds`` gives each seat's policy in :meth:`Sim.run` (``players.opponents``: heuristic,
    low, high, random); the heuristic policy at every seat by default.
    """
    check_rules(rules)
    s = Sim.__new__(Sim)
    s.n = players
    s.kinds = tuple(kinds) if kinds is not None else (HEURISTIC,) * players
    step = 1 if rules.direction == "clockwise" else -1
    s.nxt = tuple((i + step) % players for i in range(players))
    s.mode = _MODES[rules.escape]
    s.shootout, s.cut_loses = rules.shootout, rules.drawn_cut_loses
    s.highest_loses = rules.simultaneous == "highest_loses"
    s.free_first = rules.first_trick == "free"
    s.rng = rng
    s.hands, s.active, s.out, s.pile = list(hands), list(active), list(out), list(pile)
    s.n_active = sum(active)
    s.leader, s.cur = leader, cur
    s.tseats, s.tcards = [t[0] for t in trick], [t[1] for t in trick]
    s.first, s.must, s.drawn_lead = first, must, drawn_lead
    s.loser, s.over = None, False
    if trick:
        c = trick[0][1]
        s.led = c // 13
        s.best_seat, s.best_rank = trick[0][0], c % 13
        for seat, c in trick[1:]:
            if c // 13 == s.led and c % 13 > s.best_rank:
                s.best_seat, s.best_rank = seat, c % 13
    else:
        s.led, s.best_seat, s.best_rank = -1, -1, -1
    return s
