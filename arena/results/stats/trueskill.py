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
settings).

Each shape of game (the number of players and which neighbours in rank order
tie) gets its own function, written out as straight-line Python by
:func:`program`. Knowing the shape, every message of the factor graph is a
local variable (``tp1``, not ``tp[1]``), the schedule's steps are unrolled (no
index, no call per factor) and each truncation step is the win or the draw
update, without a test. The floating-point operations are those of
``trueskill``'s factor graph, in the same order, but for three rewritings
that give the same double in every case, a zero's sign included: an integer
literal written as a float (``0.`` for ``0``: the same number, and Python's
float-only fast paths), ``x - 0`` and ``1 * x`` written ``x``, and
``a + -1 * b`` written ``a - b``. ``0. + x`` stays (it turns ``-0.0`` into
``0.0``).

A made function takes the players' ratings in seat order and the seats in
rank order and returns ``(mu, sigma)`` per seat, the arguments
``trueskill.Rating`` is made of. With ``from_args`` the ratings it takes are
such pairs too (what a previous game returned), read the way ``Rating``
reads them back (``sigma ** -2`` to a precision and back); otherwise they are
a rating's ``mu`` and ``sigma`` as they are.

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

import math
from collections.abc import Callable
from functools import lru_cache
from operator import eq
from typing import Any

import trueskill
from trueskill import DELTA, Rating, backends, calc_draw_margin


class FreeForAll:
    """Rates free-for-alls of one-player teams in one ``trueskill.TrueSkill`` environment."""

    def __init__(self, env: trueskill.TrueSkill, min_delta: float = DELTA) -> None:
        if callable(env.draw_probability):
            raise ValueError("expected a fixed draw_probability, got a function")
        self.env, self.min_delta = env, min_delta
        self.builtin = env.cdf is backends.cdf and env.pdf is backends.pdf
        self._constants = (env.beta ** 2, env.tau ** 2, min_delta, calc_draw_margin(env.draw_probability, 2, env),
                           env.cdf, env.pdf, env.v_draw, env.w_draw, env.w_win)
        self._made: dict[tuple, Callable[[list, list[int]], list[tuple[float, float]]]] = {}

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


# ------------------------------------------------------------ one shape's update written out
_SQRT2 = 1 * math.sqrt(2)                      # backends.cdf's ``sigma * math.sqrt(2)``, sigma 1
_PDF = 1 / math.sqrt(2 * math.pi) * abs(1)     # backends.pdf's factor, sigma 1
_CONSTANTS = ("variance", "dynamic2", "min_delta", "margin", "cdf_of", "pdf_of", "v_draw", "w_draw", "w_win")
"""What a made function needs from its environment, in the order :func:`program` takes them."""

Program = Callable[..., Callable[[list, list[int]], list[tuple[float, float]]]]


@lru_cache(maxsize=None)
def program(ties: tuple[bool, ...], builtin: bool, from_args: bool) -> Program:
    """A maker of the update for a game of ``len(ties) + 1`` players where ``ties[x]`` says whether the
    players at rank positions ``x`` and ``x + 1`` tie; called with the environment's constants
    (:data:`_CONSTANTS`). ``builtin``: write out ``trueskill``'s own pure-Python ``cdf`` and ``pdf``
    (else the constants' ``cdf_of`` and ``pdf_of`` are called)."""
    namespace: dict[str, Any] = {"_sqrt": math.sqrt, "_exp": math.exp, "INF": float("inf"), "_SQRT2": _SQRT2, "_PDF": _PDF}
    exec(compile(source(ties, builtin, from_args), f"<trueskill program {len(ties) + 1}>", "exec"), namespace)
    return namespace["make"]


def source(ties: tuple[bool, ...], builtin: bool, from_args: bool) -> str:
    """The Python source of :func:`program`'s maker."""
    n = len(ties) + 1
    last = n - 2
    steps = [(0, -1)] if last == 0 else [(x, 1) for x in range(last)] + [(x, 0) for x in range(last, 0, -1)]
    lines = [f"def make({', '.join(_CONSTANTS)}):", "    def rate(ratings, order):",
             f"        {', '.join(f'o{i}' for i in range(n))}, = order"]
    for i in range(n):
        lines += _prior(i, from_args)
    lines.append(f"        {' = '.join(f'{v}{i}' for v in ('lp', 'lt', 'rp', 'rt') for i in range(n))} = 0.")
    lines.append(f"        {' = '.join(f'{v}{x}' for v in ('dp', 'dt', 'sp', 'st', 'up', 'ut') for x in range(n - 1))}"
                 " = 0.")
    lines.append("        for _ in range(10):                                   # run_schedule's loop")
    if n > 2:
        lines.append("            delta = 0.")
    for x, side in steps:
        lines += _step(x, ties[x], builtin, "delta = moved" if n == 2 else
                       "delta = moved if moved > delta else delta")
        if side == 1:
            lines += _diff_up1(x, "            ", after_step=True)
        elif side == 0:
            lines += _diff_up0(x, "            ", after_step=True)
    lines += ["            if delta <= min_delta:", "                break"]
    lines += _diff_up0(0, "        ") + _diff_up1(last, "        ")
    lines.append("        out = [None] * " + str(n))
    for i in range(n):
        lines += _posterior(i)
    lines += ["        return out", "    return rate", ""]
    return "\n".join(lines)


def _prior(i: int, from_args: bool) -> list[str]:
    """Player ``i`` (in rank order) down to its team performance ``t[i]``: PriorFactor, LikelihoodFactor
    and the team SumFactor's down."""
    read = [f"        mu, sigma = ratings[o{i}]"]
    if from_args:                                   # Rating(mu, sigma), then its mu and sigma properties
        read += ["        pi = sigma ** -2",
                 "        tau = pi * mu",
                 "        mu, sigma = pi and tau / pi, _sqrt(1. / pi) if pi else INF"]
    return read + [
        "        sigma = _sqrt(sigma ** 2 + dynamic2)                    # PriorFactor.down (dynamic2: tau ** 2)",
        "        if sigma == 0.:",
        "            raise ValueError('sigma**2 should be greater than 0')",
        "        pi = sigma ** -2",
        f"        rpi{i}, rtau{i} = pi, pi * mu",
        f"        a = 1. / (1. + variance * rpi{i})                     # LikelihoodFactor.down",
        f"        lpi{i}, ltau{i} = a * rpi{i}, a * rtau{i}",
        f"        div_pi, div_tau = 0. + lpi{i}, 0. + ltau{i}                  # team SumFactor.down",
        "        mu = 0. + (div_pi and div_tau / div_pi)",
        "        pi_inv = 0. + 1. / div_pi if div_pi else INF",
        "        pi = 1. / pi_inv",
        "        tau = pi * mu",
        f"        tpi{i} = pi",
        f"        ttau{i} = tau",
        f"        tp{i} = 0. + pi",
        f"        tt{i} = 0. + tau",
    ]


def _step(x: int, tie: bool, builtin: bool, keep_delta: str) -> list[str]:
    """Difference ``x``'s SumFactor.down, then its TruncateFactor.up and Variable.delta."""
    y, s = x + 1, "            "
    lines = [
        f"a_pi = tp{x} - rp{x}",
        f"a_tau = tt{x} - rt{x}",
        f"b_pi = tp{y} - lp{y}",
        f"b_tau = tt{y} - lt{y}",
        "mean_a = a_pi and a_tau / a_pi",
        "mean_b = b_pi and b_tau / b_pi",
        "mu = 0. + mean_a - mean_b",
        "inv_a = 0. + 1. / a_pi if a_pi else INF",
        "pi_inv = inv_a",
        "if pi_inv != INF:",
        "    pi_inv = pi_inv + 1. / b_pi if b_pi else INF",
        "pi = 1. / pi_inv",
        "tau = pi * mu",
        f"d_pi, d_tau = dp{x} - sp{x} + pi, dt{x} - st{x} + tau",
        f"sp{x}, st{x} = pi, tau",
        f"u_pi, u_tau = up{x}, ut{x}                              # TruncateFactor.up",
        "div_pi, div_tau = d_pi - u_pi, d_tau - u_tau",
        "sqrt_pi = _sqrt(div_pi)",
        "diff, margin_x = div_tau / sqrt_pi, margin * sqrt_pi",
    ]
    if tie:
        lines.append("v, w = v_draw(diff, margin_x), w_draw(diff, margin_x)")
    else:
        lines.append("z = diff - margin_x")
        if builtin:                                  # backends.cdf and erfc, then backends.pdf
            lines += [
                "q = -z / _SQRT2",
                "e = -q if q < 0. else q                             # abs(q): its zero's sign never counts",
                "f = 1. / (1. + e / 2.)",
                "g = f * _exp(-e * e - 1.26551223 + f * (1.00002368 + f * (0.37409196 + f * (0.09678418 + f * ("
                "-0.18628806 + f * (0.27886807 + f * (-1.13520398 + f * (1.48851587 + f * (-0.82215223 + "
                "f * 0.17087277)))))))))",
                "cdf = 0.5 * (2. - g if q < 0. else g)",
                "v = (_PDF * _exp(-(z ** 2 / 2.)) / cdf) if cdf else -z",
            ]
        else:
            lines += ["cdf = cdf_of(z)", "v = (pdf_of(z) / cdf) if cdf else -z"]
        lines += ["w = v * (v + z)",
                  "if not 0. < w < 1.:",
                  "    w = w_win(diff, margin_x)                         # raises trueskill's FloatingPointError"]
    lines += [
        "denom = (1. - w)",
        "pi, tau = div_pi / denom, (div_tau + sqrt_pi * v) / denom",
        "pi_delta = abs(d_pi - pi)                                # Variable.delta",
        "if pi_delta == INF:",
        "    moved = 0.",
        "else:",
        "    moved, root = abs(d_tau - tau), _sqrt(pi_delta)",
        "    moved = root if root > moved else moved",
        f"up{x} = pi + u_pi - d_pi",
        f"ut{x} = tau + u_tau - d_tau",
        f"dp{x} = pi",
        f"dt{x} = tau",
        keep_delta,
    ]
    return [s + line for line in lines]


def _sum2(a: tuple[str, str] | None, b: tuple[str, str] | None, cb: str, s: str) -> list[str]:
    """``SumFactor.update`` with two terms, the first of coefficient ``1.`` (``a`` and ``b``: each term's
    value minus its message, ``pi`` and ``tau``; ``cb`` the second's coefficient, ``1.`` or ``-1.``, whose
    square is ``1.``). A term given as None is the one the difference's own step just worked out, from
    the same variables, unchanged since (the step's ``mean_a`` and ``inv_a`` for ``a``, ``mean_b`` and
    ``b_pi`` for ``b``): the same floats, not computed twice."""
    lines = []
    if a is not None:
        lines += [f"a_pi = {a[0]}", f"a_tau = {a[1]}", "mean_a = a_pi and a_tau / a_pi",
                  "inv_a = 0. + 1. / a_pi if a_pi else INF"]
    if b is not None:
        lines += [f"b_pi = {b[0]}", f"b_tau = {b[1]}", "mean_b = b_pi and b_tau / b_pi"]
    lines += [
        f"mu = 0. + mean_a {cb} mean_b",
        "pi_inv = inv_a",
        "if pi_inv != INF:",
        "    pi_inv = pi_inv + 1. / b_pi if b_pi else INF",
        "pi = 1. / pi_inv",
        "tau = pi * mu",
    ]
    return [s + line for line in lines]


def _diff_up0(j: int, s: str, after_step: bool = False) -> list[str]:
    """``SumFactor.up(0)`` of difference ``j``: t[j] from d[j] (coefficient 1.) and t[j + 1] (1.);
    ``after_step``: right after difference ``j``'s step (its t[j + 1] term reused)."""
    y = j + 1
    b = None if after_step else (f"tp{y} - lp{y}", f"tt{y} - lt{y}")
    return _sum2((f"dp{j} - sp{j}", f"dt{j} - st{j}"), b, "+", s) + [
        f"{s}tp{j} = tp{j} - rp{j} + pi", f"{s}tt{j} = tt{j} - rt{j} + tau", f"{s}rp{j} = pi", f"{s}rt{j} = tau"]


def _diff_up1(j: int, s: str, after_step: bool = False) -> list[str]:
    """``SumFactor.up(1)`` of difference ``j``: t[j + 1] from t[j] (coefficient 1.) and d[j] (-1.);
    ``after_step``: right after difference ``j``'s step (its t[j] term reused)."""
    y = j + 1
    a = None if after_step else (f"tp{j} - rp{j}", f"tt{j} - rt{j}")
    return _sum2(a, (f"dp{j} - sp{j}", f"dt{j} - st{j}"), "-", s) + [
        f"{s}tp{y} = tp{y} - lp{y} + pi", f"{s}tt{y} = tt{y} - lt{y} + tau", f"{s}lp{y} = pi", f"{s}lt{y} = tau"]


def _posterior(i: int) -> list[str]:
    """Player ``i``'s new rating: the team SumFactor's up, LikelihoodFactor.up, and ``Rating``'s check."""
    return [
        f"        div_pi, div_tau = tp{i} - tpi{i}, tt{i} - ttau{i}          # team SumFactor.up(0)",
        "        mu = 0. + (div_pi and div_tau / div_pi)",
        "        pi_inv = 0. + 1. / div_pi if div_pi else INF",
        "        pi = 1. / pi_inv",
        f"        p_pi = 0. + lpi{i} + pi",
        f"        p_tau = 0. + ltau{i} + pi * mu",
        f"        m_pi, m_tau = p_pi - lpi{i}, p_tau - ltau{i}            # LikelihoodFactor.up",
        "        a = 1. / (1. + variance * m_pi)",
        f"        pi, tau = rpi{i} + a * m_pi, rtau{i} + a * m_tau",
        "        sigma = float(_sqrt(1. / pi) if pi else INF)",
        "        if sigma == 0.:                                        # as Rating(mu, sigma) refuses it",
        "            raise ValueError('sigma**2 should be greater than 0')",
        f"        out[o{i}] = (float(pi and tau / pi), sigma)",
    ]
