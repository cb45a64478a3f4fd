"""TrueSkill for a free-for-all of one-player teams: ``trueskill.TrueSkill.rate``'s arithmetic, without its objects.

The ratings rate every game as a free-for-all of one-player teams (weights
1). ``trueskill``'s ``rate`` builds a factor graph of Python objects for each
game (about 2 ms for four players); :meth:`FreeForAll.rate` sends the same
messages in the same order with the same floating-point operations on plain
floats in local lists, every factor's update written out in place (no call
per message), and with the environment's own ``cdf`` and ``pdf`` (written
out too when they are ``trueskill``'s pure-Python ones, the same expressions
with its default ``mu`` 0 and ``sigma`` 1) and its ``v_draw``/``w_draw`` and
draw margin, so its ratings are bit for bit those of ``env.rate``
(tests/results/test_trueskill_ffa.py checks it over many random games and
settings), some fifty times faster.

Names follow ``trueskill.factorgraph``: per player ``i`` (in rank order) a
rating variable ``r`` (prior factor, likelihood factor), a performance
variable ``p``, a team performance variable ``t`` (team sum factor, the
difference factors on either side); per adjacent pair ``j`` a difference
variable ``d`` (sum factor, truncation factor). Each variable and message is
a ``pi``/``tau`` pair: ``tp[i]``/``tt[i]`` is ``t[i]``; ``lp``/``lt`` the
message to ``t[i]`` from difference ``i - 1`` (its term 1), ``rp``/``rt`` from
difference ``i`` (its term 0); ``dp``/``dt`` is ``d[j]``, ``sp``/``st`` its
message from its sum factor, ``up``/``ut`` from its truncation factor.
Literal ``0 +``, ``1 *`` and the like are kept where ``trueskill`` has them
(they decide the sign of a zero).
"""

from __future__ import annotations

import math

import trueskill
from trueskill import DELTA, Rating, backends, calc_draw_margin

INF = float("inf")
_SQRT2 = 1 * math.sqrt(2)                      # backends.cdf's ``sigma * math.sqrt(2)``, sigma 1
_PDF = 1 / math.sqrt(2 * math.pi) * abs(1)     # backends.pdf's factor, sigma 1
_exp, _sqrt = math.exp, math.sqrt


class FreeForAll:
    """Rates free-for-alls of one-player teams in one ``trueskill.TrueSkill`` environment."""

    def __init__(self, env: trueskill.TrueSkill, min_delta: float = DELTA) -> None:
        if callable(env.draw_probability):
            raise ValueError("expected a fixed draw_probability, got a function")
        self.env, self.min_delta = env, min_delta
        self.variance = env.beta ** 2
        self.margin = calc_draw_margin(env.draw_probability, 2, env)
        self.cdf, self.pdf = env.cdf, env.pdf
        self.builtin = env.cdf is backends.cdf and env.pdf is backends.pdf

    def rate(self, ratings: list[Rating], ranks: list[int]) -> list[Rating]:
        """``env.rate([(r,) for r in ratings], ranks)``, one rating per player."""
        n = len(ratings)
        if n < 2 or len(ranks) != n:
            raise ValueError(f"expected two or more ratings and a rank for each, got {n} and {len(ranks)}")
        order = sorted(range(n), key=ranks.__getitem__)
        places = [ranks[i] for i in order]
        env, variance, dynamic, min_delta = self.env, self.variance, self.env.tau, self.min_delta
        margin, builtin, cdf_of, pdf_of = self.margin, self.builtin, self.cdf, self.pdf
        r_pi, r_tau, like_pi, like_tau, team_pi, team_tau, tp, tt = [], [], [], [], [], [], [], []
        for k in order:
            rating = ratings[k]
            sigma = _sqrt(rating.sigma ** 2 + dynamic ** 2)          # PriorFactor.down
            if sigma == 0:
                raise ValueError("sigma**2 should be greater than 0")
            pi = sigma ** -2
            rpi, rtau = pi, pi * rating.mu
            m_pi, m_tau = rpi - 0, rtau - 0                            # LikelihoodFactor.down
            a = 1. / (1. + variance * m_pi)
            l_pi, l_tau = a * m_pi, a * m_tau
            p_pi, p_tau = 0 - 0 + l_pi, 0 - 0 + l_tau
            div_pi, div_tau = p_pi - 0, p_tau - 0                      # team SumFactor.down
            mu = 0 + 1 * (div_pi and div_tau / div_pi)
            pi_inv = 0 + 1 / div_pi if div_pi else INF
            pi = 1. / pi_inv
            tau = pi * mu
            r_pi.append(rpi), r_tau.append(rtau), like_pi.append(l_pi), like_tau.append(l_tau)
            team_pi.append(pi), team_tau.append(tau), tp.append(0 - 0 + pi), tt.append(0 - 0 + tau)
        lp, lt, rp, rt = [0] * n, [0] * n, [0] * n, [0] * n
        m = n - 1
        dp, dt, sp, st, up, ut = [0] * m, [0] * m, [0] * m, [0] * m, [0] * m, [0] * m
        last = n - 2
        steps = ([(0, -1)] if last == 0 else [(x, 1) for x in range(last)] + [(x, 0) for x in range(last, 0, -1)])
        for _ in range(10):                                            # run_schedule's loop
            delta = None if last == 0 else 0
            for x, side in steps:
                y = x + 1
                # SumFactor.down of difference x: d[x] from t[x] (coefficient 1) and t[y] (-1)
                a_pi, a_tau, b_pi, b_tau = tp[x] - rp[x], tt[x] - rt[x], tp[y] - lp[y], tt[y] - lt[y]
                mu = 0 + 1 * (a_pi and a_tau / a_pi) + -1 * (b_pi and b_tau / b_pi)   # _sum2, written out
                pi_inv = 0 + 1 / a_pi if a_pi else INF
                if pi_inv != INF:
                    pi_inv = pi_inv + 1 / b_pi if b_pi else INF
                pi = 1. / pi_inv
                tau = pi * mu
                d_pi, d_tau = dp[x] - sp[x] + pi, dt[x] - st[x] + tau
                sp[x], st[x] = pi, tau
                # TruncateFactor.up of d[x]: v_win and w_win (v worked out once), v_draw and w_draw for a tie
                u_pi, u_tau = up[x], ut[x]
                div_pi, div_tau = d_pi - u_pi, d_tau - u_tau
                sqrt_pi = _sqrt(div_pi)
                diff, margin_x = div_tau / sqrt_pi, margin * sqrt_pi
                if places[x] == places[y]:
                    v, w = env.v_draw(diff, margin_x), env.w_draw(diff, margin_x)
                else:
                    z = diff - margin_x
                    if builtin:                                        # backends.cdf and erfc, then pdf
                        q = -(z - 0) / _SQRT2
                        e = abs(q)
                        f = 1. / (1. + e / 2.)
                        g = f * _exp(-e * e - 1.26551223 + f * (1.00002368 + f * (
                            0.37409196 + f * (0.09678418 + f * (-0.18628806 + f * (
                                0.27886807 + f * (-1.13520398 + f * (1.48851587 + f * (
                                    -0.82215223 + f * 0.17087277)))))))))
                        cdf = 0.5 * (2. - g if q < 0 else g)
                        v = (_PDF * _exp(-(((z - 0) / 1) ** 2 / 2)) / cdf) if cdf else -z
                    else:
                        cdf = cdf_of(z)
                        v = (pdf_of(z) / cdf) if cdf else -z
                    w = v * (v + z)
                    if not 0 < w < 1:
                        w = env.w_win(diff, margin_x)                  # raises trueskill's FloatingPointError
                denom = (1. - w)
                pi, tau = div_pi / denom, (div_tau + sqrt_pi * v) / denom
                pi_delta = abs(d_pi - pi)                             # Variable.delta
                if pi_delta == INF:
                    moved = 0.
                else:
                    moved, root = abs(d_tau - tau), _sqrt(pi_delta)
                    moved = root if root > moved else moved
                up[x], ut[x], dp[x], dt[x] = pi + u_pi - d_pi, tau + u_tau - d_tau, pi, tau
                delta = moved if delta is None or moved > delta else delta
                if side == 1:
                    _diff_up1(x, tp, tt, lp, lt, rp, rt, dp, dt, sp, st)
                elif side == 0:
                    _diff_up0(x, tp, tt, lp, lt, rp, rt, dp, dt, sp, st)
            if delta <= min_delta:
                break
        _diff_up0(0, tp, tt, lp, lt, rp, rt, dp, dt, sp, st)
        _diff_up1(last, tp, tt, lp, lt, rp, rt, dp, dt, sp, st)
        out = [None] * n
        for i, k in enumerate(order):
            div_pi, div_tau = tp[i] - team_pi[i], tt[i] - team_tau[i]  # team SumFactor.up(0)
            mu = 0 + 1. * (div_pi and div_tau / div_pi)
            pi_inv = 0 + 1. / div_pi if div_pi else INF
            pi = 1. / pi_inv
            p_pi = 0 - 0 + like_pi[i] - 0 + pi
            p_tau = 0 - 0 + like_tau[i] - 0 + pi * mu
            m_pi, m_tau = p_pi - like_pi[i], p_tau - like_tau[i]      # LikelihoodFactor.up
            a = 1. / (1. + variance * m_pi)
            pi, tau = r_pi[i] - 0 + a * m_pi, r_tau[i] - 0 + a * m_tau
            out[k] = Rating(float(pi and tau / pi), float(_sqrt(1 / pi) if pi else INF))
        return out



def _sum2(a_pi: float, a_tau: float, ca, b_pi: float, b_tau: float, cb) -> tuple[float, float]:
    """``SumFactor.update`` with two terms (value minus message of each, and its coefficient): the new
    message's ``pi`` and ``tau``."""
    mu = 0 + ca * (a_pi and a_tau / a_pi) + cb * (b_pi and b_tau / b_pi)
    pi_inv = 0 + ca ** 2 / a_pi if a_pi else INF
    if pi_inv != INF:
        pi_inv = pi_inv + cb ** 2 / b_pi if b_pi else INF
    pi = 1. / pi_inv
    return pi, pi * mu


def _diff_up0(j: int, tp, tt, lp, lt, rp, rt, dp, dt, sp, st) -> None:
    """``SumFactor.up(0)`` of difference ``j``: t[j] from d[j] (coefficient 1.) and t[j + 1] (1.)."""
    y = j + 1
    pi, tau = _sum2(dp[j] - sp[j], dt[j] - st[j], 1., tp[y] - lp[y], tt[y] - lt[y], 1.)
    tp[j], tt[j], rp[j], rt[j] = tp[j] - rp[j] + pi, tt[j] - rt[j] + tau, pi, tau


def _diff_up1(j: int, tp, tt, lp, lt, rp, rt, dp, dt, sp, st) -> None:
    """``SumFactor.up(1)`` of difference ``j``: t[j + 1] from t[j] (coefficient 1.) and d[j] (-1.)."""
    y = j + 1
    pi, tau = _sum2(tp[j] - rp[j], tt[j] - rt[j], 1., dp[j] - sp[j], dt[j] - st[j], -1.)
    tp[y], tt[y], lp[y], lt[y] = tp[y] - lp[y] + pi, tt[y] - lt[y] + tau, pi, tau
