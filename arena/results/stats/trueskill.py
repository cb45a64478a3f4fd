"""TrueSkill for a free-for-all of one-player teams: ``trueskill.TrueSkill.rate``'s arithmetic, without its objects.

The ratings rate every game as a free-for-all of one-player teams (weights
1). ``trueskill``'s ``rate`` builds a factor graph of Python objects for each
game (about 2 ms for four players); :meth:`FreeForAll.rate` sends the same
messages in the same order with the same floating-point operations on plain
floats, with the environment's own ``cdf`` and ``pdf`` (written out when they
are ``trueskill``'s pure-Python ones, the same expressions with its default
``mu`` 0 and ``sigma`` 1) and its ``v_draw``/``w_draw`` and draw margin, so
its ratings are bit for bit those of ``env.rate``
(tests/results/test_trueskill_ffa.py checks it over many random games and
settings). Each shape of game (players, ties) gets its own straight-line
function, every message a local variable (:mod:`arena.results.stats.trueskill_program`).

Names follow ``trueskill.factorgraph``: per player ``i`` (in rank order) a
rating variable ``r`` (prior factor, likelihood factor), a performance
variable ``p``, a team performance variable ``t`` (team sum factor, the
difference factors on either side); per adjacent pair ``j`` a difference
variable ``d`` (sum factor, truncation factor). Each variable and message is
a ``pi``/``tau`` pair: ``tp{i}``/``tt{i}`` is ``t[i]``; ``lp``/``lt`` the
message to ``t[i]`` from difference ``i - 1`` (its term 1), ``rp``/``rt`` from
difference ``i`` (its term 0); ``dp``/``dt`` is ``d[j]``, ``sp``/``st`` its
message from its sum factor, ``up``/``ut`` from its truncation factor.
Literal ``0 +``, ``1 *`` and the like are kept where ``trueskill`` has them
(they decide the sign of a zero).
"""

from __future__ import annotations

from operator import eq

import trueskill
from trueskill import DELTA, Rating, backends, calc_draw_margin

from arena.results.stats.trueskill_program import program


class FreeForAll:
    """Rates free-for-alls of one-player teams in one ``trueskill.TrueSkill`` environment."""

    def __init__(self, env: trueskill.TrueSkill, min_delta: float = DELTA) -> None:
        if callable(env.draw_probability):
            raise ValueError("expected a fixed draw_probability, got a function")
        self.env, self.min_delta = env, min_delta
        self.builtin = env.cdf is backends.cdf and env.pdf is backends.pdf
        self._constants = (env.beta ** 2, env.tau ** 2, min_delta, calc_draw_margin(env.draw_probability, 2, env),
                           env.cdf, env.pdf, env.v_draw, env.w_draw, env.w_win)
        self._made: dict[tuple, object] = {}

    @property
    def start(self) -> tuple[float, float]:
        """A new player's rating as :meth:`rate_args` takes it: ``env.create_rating()``'s arguments."""
        return self.env.mu, self.env.sigma

    def rate(self, ratings: list[Rating], ranks: list[int]) -> list[Rating]:
        """``env.rate([(r,) for r in ratings], ranks)``, one rating per player."""
        new = self._update([(r.mu, r.sigma) for r in ratings], ranks, False)
        return [Rating(mu, sigma) for mu, sigma in new]

    def rate_args(self, ratings: list[tuple[float, float]], ranks: list[int] | tuple[int, ...]
                  ) -> list[tuple[float, float]]:
        """:meth:`rate` with each rating given and returned as the ``(mu, sigma)`` a ``Rating`` is made of
        (``Rating(*pair)`` is the rating), without making the objects: for a long chain of games."""
        return self._update(ratings, ranks, True)

    def _update(self, ratings: list, ranks, from_args: bool) -> list[tuple[float, float]]:
        n = len(ratings)
        if n < 2 or len(ranks) != n:
            raise ValueError(f"expected two or more ratings and a rank for each, got {n} and {len(ranks)}")
        order = sorted(range(n), key=ranks.__getitem__)
        places = [ranks[i] for i in order]
        shape = (tuple(map(eq, places, places[1:])), from_args)
        made = self._made.get(shape)
        if made is None:
            made = self._made[shape] = program(shape[0], self.builtin, from_args)(*self._constants)
        return made(ratings, order)
