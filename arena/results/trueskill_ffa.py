"""TrueSkill for a free-for-all of one-player teams: ``trueskill.TrueSkill.rate``'s arithmetic, without its objects.

The ratings rate every game as a free-for-all of one-player teams (weights
1). ``trueskill``'s ``rate`` builds a factor graph of Python objects for each
game (about 2 ms for four players); :func:`rate_ffa` sends the same messages
in the same order with the same floating-point operations on plain floats,
and takes ``cdf``, ``pdf``, ``v``/``w`` and the draw margin from the
environment itself, so its ratings are bit for bit those of ``env.rate``
(tests/results/test_trueskill_ffa.py checks it over many random games and
settings), some twenty times faster.

Names follow ``trueskill.factorgraph``: per player ``i`` (in rank order) a
rating variable ``r`` (prior factor ``P``, likelihood factor ``L``), a
performance variable ``p`` (``L``, team sum factor ``T``), a team performance
variable ``t`` (``T``, the difference factors on either side); per adjacent
pair ``j`` a difference variable ``d`` (sum factor ``D``, truncation factor
``U``). A variable and each message to it are ``[pi, tau]`` lists.
"""

from __future__ import annotations

import math

import trueskill
from trueskill import DELTA, Rating, calc_draw_margin

INF = float("inf")


def _delta(var: list, pi: float, tau: float) -> float:
    """``Variable.delta``: how far a variable moves to (pi, tau)."""
    pi_delta = abs(var[0] - pi)
    return 0. if pi_delta == INF else max(abs(var[1] - tau), math.sqrt(pi_delta))


def _update_message(var: list, msg: list, pi: float, tau: float) -> None:
    """``Variable.update_message``: value / old message * new message."""
    var[0] = var[0] - msg[0] + pi
    var[1] = var[1] - msg[1] + tau
    msg[0], msg[1] = pi, tau


def _update_value(var: list, msg: list, pi: float, tau: float) -> None:
    """``Variable.update_value``: the message becomes new value * old message / value."""
    msg[0] = pi + msg[0] - var[0]
    msg[1] = tau + msg[1] - var[1]
    var[0], var[1] = pi, tau


def _sum1(var: list, msg: list, val: list, val_msg: list, coeff) -> None:
    """``SumFactor.update`` with one term (a one-player team)."""
    div_pi, div_tau = val[0] - val_msg[0], val[1] - val_msg[1]
    mu = 0 + coeff * (div_pi and div_tau / div_pi)
    try:
        pi_inv = 0 + coeff ** 2 / float(div_pi)
    except ZeroDivisionError:
        pi_inv = INF
    pi = 1. / pi_inv
    _update_message(var, msg, pi, pi * mu)


def _sum2(var: list, msg: list, a: list, a_msg: list, ca, b: list, b_msg: list, cb) -> None:
    """``SumFactor.update`` with two terms (a team difference)."""
    a_pi, a_tau = a[0] - a_msg[0], a[1] - a_msg[1]
    b_pi, b_tau = b[0] - b_msg[0], b[1] - b_msg[1]
    mu = 0 + ca * (a_pi and a_tau / a_pi) + cb * (b_pi and b_tau / b_pi)
    try:
        pi_inv = 0 + ca ** 2 / float(a_pi)
    except ZeroDivisionError:
        pi_inv = INF
    if pi_inv != INF:
        try:
            pi_inv += cb ** 2 / float(b_pi)
        except ZeroDivisionError:
            pi_inv = INF
    pi = 1. / pi_inv
    tau = pi * mu
    var[0] = var[0] - msg[0] + pi                       # _update_message, inlined
    var[1] = var[1] - msg[1] + tau
    msg[0], msg[1] = pi, tau


def _likelihood(src: list, src_msg: list, dst: list, dst_msg: list, variance: float) -> None:
    """``LikelihoodFactor.down`` (src = rating, dst = performance) or ``up`` (the other way)."""
    msg_pi, msg_tau = src[0] - src_msg[0], src[1] - src_msg[1]
    a = 1. / (1. + variance * msg_pi)
    _update_message(dst, dst_msg, a * msg_pi, a * msg_tau)


def _cells(n: int) -> list[list]:
    return [[0, 0] for _ in range(n)]


class FreeForAll:
    """Rates free-for-alls of one-player teams in one ``trueskill.TrueSkill`` environment."""

    def __init__(self, env: trueskill.TrueSkill, min_delta: float = DELTA) -> None:
        if callable(env.draw_probability):
            raise ValueError("expected a fixed draw_probability, got a function")
        self.env, self.min_delta = env, min_delta
        self.variance = env.beta ** 2
        self.margin = calc_draw_margin(env.draw_probability, 2, env)
        self.cdf, self.pdf = env.cdf, env.pdf

    def rate(self, ratings: list[Rating], ranks: list[int]) -> list[Rating]:
        """``env.rate([(r,) for r in ratings], ranks)``, one rating per player."""
        n = len(ratings)
        if n < 2 or len(ranks) != n:
            raise ValueError(f"expected two or more ratings and a rank for each, got {n} and {len(ranks)}")
        order = sorted(range(n), key=ranks.__getitem__)
        places = [ranks[i] for i in order]
        r, p, t, d = _cells(n), _cells(n), _cells(n), _cells(n - 1)         # the variables
        r_prior, r_like, p_like, p_team, t_team = _cells(n), _cells(n), _cells(n), _cells(n), _cells(n)
        t_left, t_right, d_sum, d_trunc = _cells(n), _cells(n), _cells(n - 1), _cells(n - 1)
        # t_left[i]: t[i]'s message from difference i - 1 (its term 1); t_right[i]: from difference i (term 0)
        dynamic, variance = self.env.tau, self.variance
        for i, k in enumerate(order):                    # PriorFactor.down
            rating = ratings[k]
            sigma = math.sqrt(rating.sigma ** 2 + dynamic ** 2)
            if sigma == 0:
                raise ValueError("sigma**2 should be greater than 0")
            pi = sigma ** -2
            _update_value(r[i], r_prior[i], pi, pi * rating.mu)
        for i in range(n):                               # LikelihoodFactor.down
            _likelihood(r[i], r_like[i], p[i], p_like[i], variance)
        for i in range(n):                               # team SumFactor.down
            _sum1(t[i], t_team[i], p[i], p_team[i], 1)
        cells = (t, d, t_left, t_right, d_sum, d_trunc)
        last = n - 2
        for _ in range(10):                              # run_schedule's loop
            if last == 0:
                _diff_down(0, cells)
                delta = self._truncate(0, d, d_trunc, places)
            else:
                delta = 0
                for x in range(last):
                    _diff_down(x, cells)
                    delta = max(delta, self._truncate(x, d, d_trunc, places))
                    _diff_up(x, 1, cells)
                for x in range(last, 0, -1):
                    _diff_down(x, cells)
                    delta = max(delta, self._truncate(x, d, d_trunc, places))
                    _diff_up(x, 0, cells)
            if delta <= self.min_delta:
                break
        _diff_up(0, 0, cells)
        _diff_up(last, 1, cells)
        for i in range(n):                               # team SumFactor.up(0)
            _sum1(p[i], p_team[i], t[i], t_team[i], 1.)
        for i in range(n):                               # LikelihoodFactor.up
            _likelihood(p[i], p_like[i], r[i], r_like[i], variance)
        out = [None] * n
        for k, (pi, tau) in zip(order, r):
            out[k] = Rating(float(pi and tau / pi), float(math.sqrt(1 / pi) if pi else INF))
        return out

    def _truncate(self, j: int, d: list, d_trunc: list, places: list) -> float:
        """``TruncateFactor.up``, with ``v_win``/``w_win`` (``v_draw``/``w_draw`` for a tie)."""
        env, var, msg = self.env, d[j], d_trunc[j]
        div_pi, div_tau = var[0] - msg[0], var[1] - msg[1]
        sqrt_pi = math.sqrt(div_pi)
        diff, margin = div_tau / sqrt_pi, self.margin * sqrt_pi
        if places[j] == places[j + 1]:
            v, w = env.v_draw(diff, margin), env.w_draw(diff, margin)
        else:                                           # v_win and w_win, v worked out once
            x = diff - margin
            cdf = self.cdf(x)
            v = (self.pdf(x) / cdf) if cdf else -x
            w = v * (v + x)
            if not 0 < w < 1:
                w = env.w_win(diff, margin)             # raises trueskill's FloatingPointError
        denom = (1. - w)
        pi, tau = div_pi / denom, (div_tau + sqrt_pi * v) / denom
        delta = _delta(var, pi, tau)
        _update_value(var, msg, pi, tau)
        return delta


def _diff_down(j: int, cells) -> None:
    """``SumFactor.down`` of difference ``j`` = t[j] - t[j + 1]."""
    t, d, t_left, t_right, d_sum, _ = cells
    _sum2(d[j], d_sum[j], t[j], t_right[j], 1, t[j + 1], t_left[j + 1], -1)


def _diff_up(j: int, index: int, cells) -> None:
    """``SumFactor.up(index)`` of difference ``j`` (coefficients +1, -1)."""
    t, d, t_left, t_right, d_sum, _ = cells
    if index == 0:
        _sum2(t[j], t_right[j], d[j], d_sum[j], 1., t[j + 1], t_left[j + 1], 1.)
    else:
        _sum2(t[j + 1], t_left[j + 1], t[j], t_right[j], 1., d[j], d_sum[j], -1.)
