"""Opponent models: which reference policy each opponent's public plays are consistent with.

The evidence is certain, not statistical. When a seat played card ``c`` and later
plays a card ``x`` (or is known to hold it now) that it did not acquire in
between (by a public pick-up, a draw or a take), it held ``x`` when it played
``c``. Each reference policy names the
cards it would have played instead of ``c`` had it held them (its *preferred*
cards for that play); holding one of them is a *violation* of that policy:

- ``low`` (players/simple.py): its lowest legal card (ties: lowest card id), its
  highest card when it cuts;
- ``high``: its highest legal card (ties: lowest card id);
- ``heuristic`` (players/heuristic.py): following, its highest card of the suit
  when it stays above the current winner, else the highest card below it (so
  no held card between the two); cutting, its highest rank; leading, the
  lowest or the highest card of the suit it leads; trick 1 under ``free``, its
  highest spade. From the voids everyone knew at the time, too: it ducks under
  the winner when a seat still to play is void in the suit, and it leads from
  a suit with the fewest known voids, its lowest card if anyone is void in it;
- ``random``: anything (no preferred cards).

:func:`infer` gives each opponent the first of ``heuristic``, ``high``, ``low``
with no violation (``heuristic`` when nothing is known yet); a seat that
violates all three is ``random`` if it breaks the heuristic player's rules
often, otherwise it is kept as a fallible ``heuristic`` player (another
strong bot, say). For a seat whose model is deterministic the preferred cards
of all its plays are also cards it cannot hold now (``forbid``), unless it
took cards since: the sampler deals its worlds with that, as with known voids.
"""

from __future__ import annotations

import random
from functools import cmp_to_key

from arena import Game, Rules
from arena.game.cards import PACK, PACK_MASK, PACK_SUIT_MASK, mask_of, parse_card
from arena.game.rulings import rule_flags
from arena.game.solver import supports

from players.heuristic import HeuristicBot
from players.policy import (
    BELOW,
    HEURISTIC,
    HIGH,
    LOW,
    NAMES,
    RANDOM,
    cut_card,
    heuristic_card,
    high_card,
    lead_card,
    low_card,
)
from players.simple import HighBot, LowBot, RandomBot

_ORDER = (HEURISTIC, HIGH, LOW)
_RANKS_BELOW = tuple(sum(((1 << r) - 1) << (13 * s) for s in range(4)) for r in range(13))

LEAD, FOLLOW, CUT = 0, 1, 2

RANDOM_SHARE = 0.2
"""A seat that violates every deterministic policy is ``random`` when at least this share of
its checked plays (and at least two) break the heuristic player's rules."""


class _Probe:
    """A table for asking the heuristic policy about two cards (``pair``): who could cut is given."""

    __slots__ = ("free", "led", "pair", "rank", "risk", "trump", "trumps")

    def __init__(self, pair: int, suit: int, win: int, risk: bool, free: bool = False) -> None:
        self.pair, self.led, self.rank, self.risk, self.free = pair, suit, win, risk, free
        self.trump, self.trumps = -1, False

    def legal_mask(self) -> int:
        return self.pair

    def under_winner(self) -> int:
        return BELOW[self.led][self.rank] if self.risk and not self.free else -1

    def lead_risks(self) -> tuple[int, ...]:
        return (self.risk << 4,) * 4


def _above(cards, pick) -> dict[int, int]:
    """For each of ``cards``: the mask of those ``pick`` (a policy choosing from a pair) prefers to it.

    The cards are sorted by the policy's own choices between two, so each policy is asked
    about 52 log 52 pairs, not every one."""
    def order(a: int, b: int) -> int:
        return 1 if pick(1 << a | 1 << b) == a else -1
    out, better = {}, 0
    for c in sorted(cards, key=cmp_to_key(order), reverse=True):
        out[c] = better
        better |= 1 << c
    return out


def _follows(risks, win: int, free: bool) -> list[int]:
    """``[clubs rank]``: what the heuristic policy follows with instead, whichever of ``risks`` holds."""
    aboves = [_above(range(13), lambda pair, r=r: heuristic_card(_Probe(pair, 0, win, r, free))) for r in risks]
    return [_all(a[c] for a in aboves) for c in range(13)]


def _all(masks) -> int:
    out = PACK_MASK
    for m in masks:
        out &= m
    return out


def _follow_table(risks, free: bool) -> tuple[tuple[int, ...], ...]:
    """``[card][winning rank]`` for :func:`_follows`, moved from clubs to each suit (only ranks matter)."""
    by_win = [_follows(risks, w, free) for w in range(13)]
    return tuple(tuple(by_win[w][c % 13] << (13 * (c // 13)) for w in range(13)) for c in range(PACK))


def _cut_table() -> tuple[int, ...]:
    """What the heuristic policy cuts with instead, whichever of the two suits is the longer (unknown)."""
    long = [_above(range(PACK), lambda pair, s=s: cut_card(pair, pair | PACK_SUIT_MASK[s], False))
            for s in range(4)]
    return tuple(long[c // 13][c] & sum(long[s][c] & PACK_SUIT_MASK[s] for s in range(4)) for c in range(PACK))


def _pair_table(pick) -> tuple[int, ...]:
    above = _above(range(PACK), pick)
    return tuple(above[c] for c in range(PACK))


_LOW, _HIGH = _pair_table(lambda pair: low_card(pair, False)), _pair_table(high_card)
_FOLLOW = {(HEURISTIC, False): _follow_table((False, True), False),
           (HEURISTIC, True): _follow_table((False, True), True),
           **{(k, free): tuple((table[c] & PACK_SUIT_MASK[c // 13],) * 13 for c in range(PACK))
              for k, table in ((LOW, _LOW), (HIGH, _HIGH)) for free in (False, True)}}
_DUCK = _follow_table((True,), False)
_CUT = {HEURISTIC: _cut_table(), LOW: _HIGH, HIGH: _HIGH}
_LEAD = {LOW: _LOW, HIGH: _HIGH}
"""What each policy of :mod:`players.policy` plays instead of a card (``[card]``, following
``[card][winning rank]``), asked of the policies at import (each sorts the cards by its own
choices between two). ``_DUCK``: the heuristic policy following when someone still to play
is known void. ``low`` cuts as ``high`` plays."""


def preferred(kind: int, play: int, c: int, led: int, win: int, first_free: bool) -> int:
    """The cards policy ``kind`` would have played instead of ``c`` (a mask); 0 if none or unknown."""
    if kind == RANDOM:
        return 0
    if play == CUT:
        return _CUT[kind][c]
    if play == FOLLOW:
        return _FOLLOW[kind, first_free][c][win]
    return _LEAD[kind][c] if kind != HEURISTIC else 0   # heuristic: its lowest or highest, see _violates


def _violates(kind: int, play: int, c: int, led: int, win: int, first_free: bool, held: int) -> bool:
    if kind == HEURISTIC and play == LEAD:
        cards = held & PACK_SUIT_MASK[c // 13] | 1 << c           # it leads its lowest or its highest
        return c not in (lead_card(_Probe(cards, -1, 0, True), cards), lead_card(_Probe(cards, -1, 0, False), cards))
    return bool(held & preferred(kind, play, c, led, win, first_free))


def _unlike_heuristic(play: int, c: int, win: int, public, held: int) -> bool:
    """What the heuristic player would not have done, from the voids everyone knew then.

    Following while a seat still to play was known void: it would have played what the
    policy plays when someone may cut. Leading: it leads from a suit with the fewest
    known voids among the others, and its lowest card of a suit someone is void in.
    """
    suit, r = c // 13, c % 13
    if play == FOLLOW:
        return bool(public) and bool(held & _DUCK[c][win])
    if play != LEAD:
        return False
    mine = public[suit]
    if mine and held & _RANKS_BELOW[r] & PACK_SUIT_MASK[suit]:
        return True
    return any(public[u] < mine and held & PACK_SUIT_MASK[u] for u in range(4))


class Models:
    """Per seat: the model (``kinds``), the cards it cannot hold (``forbid``), the evidence."""

    __slots__ = ("checks", "forbid", "kinds", "violations")

    def __init__(self, players: int) -> None:
        self.kinds = [HEURISTIC] * players
        self.forbid = [0] * players
        self.violations = [[0, 0, 0, 0] for _ in range(players)]
        self.checks = [0] * players

    def describe(self) -> list[str]:
        return [NAMES[k] for k in self.kinds]


def _records(history, players: int, first_free_rule: bool, clockwise: bool):
    """A forward pass: each voluntary play as (event index, seat, card, play, led, winning rank,
    first trick under ``free``, public voids): for a follow, whether a seat still to play is known
    void in the led suit; for a lead, how many other seats are known void in each suit."""
    out: list[tuple[int, int, int, int, int, int, bool, tuple[int, ...] | bool]] = []
    trick: list[tuple[int, int]] = []
    first = True
    forced = set()                 # seats that must lead a drawn card
    led, win = -1, -1
    voids = [0] * players
    active = [True] * players
    step = 1 if clockwise else -1
    for i, e in enumerate(history):
        kind = e["type"]
        if kind == "play":
            s, c = e["seat"], int(parse_card(e["card"]))
            if not trick:
                led, win = c // 13, c % 13
                voluntary = not first and s not in forced and "by" not in e
                forced.discard(s)
                if voluntary:
                    counts = tuple(sum(1 for t in range(players) if t != s and active[t] and voids[t] >> u & 1)
                                   for u in range(4))
                    out.append((i, s, c, LEAD, led, win, False, counts))
            else:
                follow = c // 13 == led
                if "by" not in e:
                    void_after = False
                    if follow:
                        leader = trick[0][0]
                        t = (s + step) % players
                        while t != leader:
                            if active[t] and voids[t] >> led & 1:
                                void_after = True
                                break
                            t = (t + step) % players
                    out.append((i, s, c, FOLLOW if follow else CUT, led, win, first and first_free_rule,
                                void_after))
                if follow and c % 13 > win:
                    win = c % 13
                if not follow:
                    voids[s] |= 1 << led
            trick.append((s, c))
        elif kind in ("clean", "pickup"):
            trick = []
            first = False
            if kind == "pickup":
                for t in e["cards"]:
                    voids[e["seat"]] &= ~(1 << int(parse_card(t)) // 13)
        elif kind == "draw":
            forced.add(e["seat"])
            voids[e["seat"]] = 0
        elif kind == "take" and e.get("take"):
            voids[e["seat"]] &= voids[e["from"]]
        elif kind == "out":
            active[e["seat"]] = False
        elif kind == "deal":
            first = not e.get("first_trick_done", False)
            for t in e.get("out", ()):
                active[t] = False
            if e.get("drawn") is not None and e.get("leader") is not None:
                forced.add(e["leader"])
    return out


def infer(view) -> Models:
    """The model of every opponent of ``view.seat`` from the public play history."""
    n, me = view.players, view.seat
    models = Models(n)
    if not supports(view.rules):
        return models
    history = view.history
    flags = rule_flags(view.rules)
    records = _records(history, n, flags.free_first, flags.step == 1)
    # A backward pass: held[s] = cards s plays later (or holds now, known) and did not acquire since.
    held = [view.known_masks[s] if s != me else 0 for s in range(n)]
    next_play = [-1] * n
    tainted = [False] * n          # took cards since: its unknown cards may be new
    forbid = [[0, 0, 0, 0] for _ in range(n)]
    v, checks = models.violations, models.checks
    j = len(records) - 1
    for i in range(len(history) - 1, -1, -1):
        e = history[i]
        kind = e["type"]
        if kind == "play":
            s = e["seat"]
            c = int(parse_card(e["card"]))
            if j >= 0 and records[j][0] == i:
                _, _, _, play, led, win, ff, public = records[j]
                j -= 1
                if s != me:
                    h = held[s]
                    if h:
                        checks[s] += 1
                    for k in (HEURISTIC, LOW, HIGH):
                        if h and (_violates(k, play, c, led, win, ff, h)
                                  or (k == HEURISTIC and _unlike_heuristic(play, c, win, public, h))):
                            v[s][k] += 1
                        if not tainted[s]:
                            forbid[s][k] |= preferred(k, play, c, led, win, ff)
            held[s] |= 1 << c
            next_play[s] = c
        elif kind == "pickup":
            held[e["seat"]] &= ~mask_of(map(parse_card, e["cards"]))
        elif kind == "draw":
            s = e["seat"]
            c = int(parse_card(e["card"])) if e.get("card") else next_play[s]
            if c >= 0:
                held[s] &= ~(1 << c)
        elif kind == "take" and e.get("take"):
            s = e["seat"]
            held[s] = 0
            tainted[s] = True
    for s in range(n):
        if s == me:
            continue
        clean = [k for k in _ORDER if v[s][k] == 0]
        if clean:
            models.kinds[s] = clean[0]
            models.forbid[s] = forbid[s][clean[0]]
        elif v[s][HEURISTIC] >= max(2, RANDOM_SHARE * checks[s]):
            models.kinds[s] = RANDOM
    return models


def reference_games(count: int, seed: int):
    """Getaway games of four reference players drawn at random, for measuring :func:`infer`.

    Game ``g`` draws its players with ``random.Random(seed + g)`` and deals with
    seed ``seed + g``. Yields ``(game, names, view)`` at every decision (``names``:
    each seat's policy); the seat's bot plays when the caller asks for the next one.
    """
    bots_by_name = dict(zip(NAMES, (HeuristicBot, LowBot, HighBot, RandomBot)))
    rules = Rules.preset("getaway")
    for g in range(count):
        rng = random.Random(seed + g)
        names = [rng.choice(sorted(NAMES)) for _ in range(4)]
        bots = [bots_by_name[n](seed + 4 * g + i) for i, n in enumerate(names)]
        game = Game.deal(rules, 4, seed=seed + g)
        while not game.is_over:
            view = game.view(game.current)
            yield game, names, view
            game.apply(bots[view.seat].act(view))
