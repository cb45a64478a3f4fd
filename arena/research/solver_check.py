"""Seed 002's shootout claim, checked with the exact solver, and a survey beyond it.

Seed 002 says: over every two-player position with four ranks in each suit in
which the two hands share no suit (792,450 positions) the player to lead never
wins. The positions are those of a 16-card pack (four suits, four ranks each):
each suit goes wholly to the leader's side (any non-empty subset of its four
cards: 15 ways), wholly to the other's side (15 ways) or to neither (1 way),
which gives 31^4 = 923,521 ways; less the 16^4 in which the leader holds
nothing, the 16^4 in which the other holds nothing, plus the one counted twice
(both empty): 31^4 - 2 * 16^4 + 1 = 792,450 ordered (leader, other) pairs.
Cards in neither hand are the discard pile (the rest of the 16-card pack).

The check plays each position out with perfect play under the champions rules
with the shootout itself switched off (the claim is what justifies the rule,
so the rule must not be used to prove it).
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Iterator

from arena.game.cards import PACK_SUIT_MASK
from arena.game.rules import Rules
from arena.game.solver import Solver, mask_text
from arena.results.stats.intervals import wilson

ESCAPES = ("pass", "draw", "draw_next_hand", "pass_if_3plus")


def mini_universe(ranks: int = 4) -> int:
    """The mask of a pack with the top ``ranks`` ranks of each suit (4: J Q K A)."""
    return sum(1 << (s * 13 + r) for s in range(4) for r in range(13 - ranks, 13))


def seed002_count(ranks: int = 4) -> int:
    """Ordered pairs of non-empty hands with no common suit: (2(2^r - 1) + 1)^4 - 2 (2^r)^4 + 1."""
    per_suit = 2 * (2 ** ranks - 1) + 1
    return per_suit ** 4 - 2 * (2 ** ranks) ** 4 + 1


def _suit_subsets(ranks: int) -> list[list[int]]:
    """For each suit, the masks of its non-empty subsets of the top ``ranks`` cards."""
    out = []
    for s in range(4):
        cards = [1 << (s * 13 + r) for r in range(13 - ranks, 13)]
        subsets = []
        for k in range(1, ranks + 1):
            for combo in itertools.combinations(cards, k):
                subsets.append(sum(combo))
        out.append(subsets)
    return out


def no_shared_suit_positions(ranks: int = 4) -> Iterator[tuple[int, int]]:
    """Every (leader, other) pair of non-empty hands with no suit in common."""
    per_suit = []
    for subsets in _suit_subsets(ranks):
        options = [(0, 0)] + [(m, 0) for m in subsets] + [(0, m) for m in subsets]
        per_suit.append(options)
    for choice in itertools.product(*per_suit):
        a = choice[0][0] | choice[1][0] | choice[2][0] | choice[3][0]
        b = choice[0][1] | choice[1][1] | choice[2][1] | choice[3][1]
        if a and b:
            yield a, b


def check_seed002(ranks: int = 4, escape: str = "pass", progress: Callable[[int], None] | None = None
                  ) -> tuple[list[str], dict]:
    """Solve every no-common-suit position; lines for the CLI and the counts."""
    rules = Rules.preset("champions", shootout=False, escape=escape)
    solver = Solver(rules, universe=mini_universe(ranks), draw_value=0.5)
    start = time.perf_counter()
    n = lost = won = 0
    example = None
    for a, b in no_shared_suit_positions(ranks):
        v = solver.value(a, b)
        n += 1
        if v == 1.0:
            lost += 1
        else:
            won += 1
            example = example or (a, b, v)
        if progress is not None and n % 50000 == 0:
            progress(n)
    took = time.perf_counter() - start
    stats = {"positions": n, "leader_loses": lost, "leader_wins": won, "states": len(solver.memo),
             "seconds": took, "example": example}
    lines = [
        (f"seed 002 shootout claim: {ranks} ranks per suit, hands with no suit in common, "
         f"rules champions with escape={escape}, shootout off"),
        f"positions: {n} (expected {seed002_count(ranks)} = {2 * (2 ** ranks - 1) + 1}^4 - 2*{2 ** ranks}^4 + 1)",
        f"leader loses with best play: {lost}; leader does not lose: {won}",
        f"claim {'holds' if won == 0 and n == seed002_count(ranks) else 'FAILS'}"
        + (f" (e.g. {_show(example)})" if example else ""),
        f"solved {len(solver.memo)} distinct states in {took:.1f} s",
    ]
    return lines, stats


def _show(example) -> str:
    a, b, v = example
    return f"leader {mask_text(a)} / other {mask_text(b)}: value {v}"


def _random_shared(rng: random.Random, universe_cards: list[int]) -> tuple[int, int]:
    """A uniform position (each card to leader, other or pile) whose hands share a suit."""
    while True:
        a = b = 0
        for c in universe_cards:
            r = rng.random()
            if r < 1 / 3:
                a |= 1 << c
            elif r < 2 / 3:
                b |= 1 << c
        if a and b and any(a & m and b & m for m in PACK_SUIT_MASK):
            return a, b


def shared_suit_survey(samples: int = 2000, seed: int = 2, ranks: int = 4,
                       escapes=ESCAPES, presets=(), max_states: int = 3_000_000) -> list[dict]:
    """Leader's chances with perfect play in random shared-suit positions, per escape rule.

    Each escape rule is taken with the other options at their defaults (no
    shootout, no drawn_cut_loses, highest_loses); ``presets`` adds rows for
    named presets as they are. Each rule gets the same ``samples`` positions
    (uniform over the shared-suit positions of the 16-card pack: each card to
    the leader, the other or the pile, both hands non-empty, sharing a suit).
    Rows: the rule, the mean chance
    the leader gets away (``leader_wins``) with a 95% Wilson interval on the
    share of positions the leader wins outright, and the time taken.
    """
    universe = mini_universe(ranks)
    cards = [c for c in range(52) if universe >> c & 1]
    rng = random.Random(seed)
    positions = [_random_shared(rng, cards) for _ in range(samples)]
    rows = []
    rule_sets = [(e, Rules.preset("getaway", escape=e, drawn_cut_loses=False)) for e in escapes]
    rule_sets += [(p, Rules.preset(p)) for p in presets]
    for label, rules in rule_sets:
        solver = Solver(rules, universe=universe, draw_value=0.5)
        start = time.perf_counter()
        total = certain_win = certain_loss = 0.0
        for a, b in positions:
            if len(solver.memo) > max_states:
                solver.memo.clear()
            v = solver.value(a, b)
            total += 1.0 - v
            certain_win += v <= 1e-12
            certain_loss += v >= 1 - 1e-12
        lo, hi = wilson(certain_win, samples)
        rows.append({"rules": label, "escape": rules.escape, "samples": samples,
                     "leader_wins": total / samples, "certain_win": certain_win / samples,
                     "certain_win_ci": (lo, hi), "certain_loss": certain_loss / samples,
                     "seconds": time.perf_counter() - start})
    return rows


def survey_lines(rows: list[dict], ranks: int = 4) -> list[str]:
    """The survey as text lines (for the CLI and docs)."""
    lines = [(f"two-player positions, {ranks} ranks per suit, hands sharing a suit (uniform sample), "
              "perfect play; chance nodes averaged"),
             (f"{'rules':<16}{'escape':<16}{'samples':>8}{'leader gets away':>18}"
              f"{'certain win (95% CI)':>26}{'certain loss':>14}{'time':>8}")]
    for r in rows:
        lo, hi = r["certain_win_ci"]
        lines.append(f"{r['rules']:<16}{r['escape']:<16}{r['samples']:>8}{100 * r['leader_wins']:>17.1f}%"
                     f"{100 * r['certain_win']:>11.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"
                     f"{100 * r['certain_loss']:>13.1f}%{r['seconds']:>7.0f}s")
    return lines


def shared_suit_space(ranks: int = 4) -> int:
    """Ordered pairs of non-empty disjoint hands that share a suit."""
    n = 4 * ranks
    return 3 ** n - 2 * 2 ** n + 1 - seed002_count(ranks)


__all__ = ["ESCAPES", "check_seed002", "mini_universe", "no_shared_suit_positions", "seed002_count",
           "shared_suit_space", "shared_suit_survey", "survey_lines"]
