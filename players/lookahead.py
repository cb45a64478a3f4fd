"""The sampler looking one own decision further: a slower player (not measured stronger), and a teacher.

The sampler (:class:`players.sampler.SamplerBot`) plays each legal card out with the heuristic policy in its
own seat. :class:`LookaheadSampler`, in each of its worlds, after the card plays the others (and its own
forced cards) up to its own next decision with a choice, and then either

- ``policies`` (the default): plays the next card by each of three policies (heuristic, high, low) and keeps,
  for every world, the score of the one policy whose total over *all* worlds is lowest: a choice made without
  looking at any one world; or
- ``per-world``: plays out every legal card there and keeps the lowest score *of that world*, so each world
  chooses its own second card, seeing that world's hands and the ``random`` player's draws (strategy fusion:
  measured worse than the sampler, docs/training.md).

Otherwise it is the sampler (its worlds, models, gate and its solver with two left), with a safety cap of
20 s instead of 500 ms so that the worlds are never cut short. Measured in docs/training.md ("Looking one own
decision further"); not registered as a player. :meth:`LookaheadSampler.values` gives its mean score of every
legal card, the targets :mod:`players.learned.train` distils with ``--teacher lookahead``.
"""

from __future__ import annotations

from arena.game.solver import supports
from arena.game.state import TAKE

from players.errors import PlayerOptionError
from players.playout import SeededLater, play_out, plain_card, plain_rules
from players.policy import HEURISTIC, HIGH, LOW, heuristic_card, model_card
from players.sampler import SamplerBot, Worlds, _cards, _first, seat_score

MODES = ("policies", "per-world")
NEXT_POLICIES = (HEURISTIC, HIGH, LOW)
"""The policies the next own decision is played by, in ``policies`` mode."""


def to_my_choice(state, kinds, me: int, steps: int = 3000) -> bool:
    """Play the others by their models, and ``me``'s forced cards, up to ``me``'s next decision with a choice;
    False when the game ends or ``me`` is out first."""
    heuristic = plain_card if plain_rules(state) else heuristic_card
    for _ in range(steps):
        if state.cur is None or not state.active[me]:
            return False
        if state.decision is TAKE:
            state.take_answer(False)
            continue
        cur = state.cur
        if cur == me:
            legal = state.legal_mask()
            if legal & (legal - 1):
                return True
            state.play(legal.bit_length() - 1)
            continue
        kind = kinds[cur]
        state.play(heuristic(state) if kind == HEURISTIC else model_card(state, kind, state.rng))
    return False


class LookaheadSampler(SamplerBot):
    """The sampler with its next own decision with a choice searched too (``mode``, one of :data:`MODES`)."""

    name = "sampler-lookahead"

    def __init__(self, seed: int = 0, mode: str = "policies", **options) -> None:
        if mode not in MODES:
            raise PlayerOptionError(f"lookahead mode must be one of {', '.join(MODES)} (got {mode!r})")
        super().__init__(seed, cap_ms=20000.0, **options)
        self.mode = mode

    def values(self, view) -> list[float]:
        """Its mean score of each card of ``view.legal`` (a play decision with a choice, under rules the
        sampler models), in that order: lower is better, 1 for the Bhabhi."""
        if not supports(view.rules) or view.decision != "play" or len(view.legal) < 2:
            raise PlayerOptionError("lookahead values need a play decision with a choice under rules the "
                                    f"sampler models (got {view.decision} with {len(view.legal)} legal)")
        self.sampled_card(view)
        return [t / self.max_worlds for t in self.last["totals"]]

    def _second(self, state, kinds, me: int, n: int, seed: float) -> list[float]:
        """The scores in one world after the first card: one per next card (per-world) or per policy."""
        there = to_my_choice(state, kinds, me)
        if self.mode == "per-world":
            rows, legal = [], state.legal_mask() if there else 0
            for c in _cards(legal) or [-1]:
                branch = state.copy()
                branch.rng = SeededLater(seed)
                if c >= 0:
                    branch.play(c)
                play_out(branch, kinds, seat=me)
                rows.append(seat_score(branch, me, n))
            return [min(rows)]
        rows = []
        for policy in NEXT_POLICIES:
            branch = state.copy()
            branch.rng = SeededLater(seed)
            if there and policy != HEURISTIC:
                branch.play(model_card(branch, policy, None))
            play_out(branch, kinds, seat=me)
            rows.append(seat_score(branch, me, n))
        return rows

    def _sample(self, view, worlds: Worlds, moves: list[int], deadline: float) -> int:
        me, n = worlds.seat, worlds.players
        kinds, forbid = self._playout_models(n)
        rows: list[list[list[float]]] = [[] for _ in moves]
        for _ in range(self.max_worlds):
            base, seed = self._world(view, worlds, forbid)
            for i, m in enumerate(moves):
                rows[i].append(self._second(_first(base, seed, m), kinds, me, n, seed + 0.5))
        scores = []
        for card_rows in rows:   # for each card, the one column (policy) lowest over all worlds
            k = min(range(len(card_rows[0])), key=lambda p: sum(r[p] for r in card_rows))
            scores.append([r[k] for r in card_rows])
        self.last["worlds"] = self.max_worlds
        return self._pick(view, moves, scores)
