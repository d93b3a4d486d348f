#!/usr/bin/env python3
"""
fy_power.py - the power of the Fisher-Yates code statistics against the
modulo bias, computed (docs/power.md, "The Fisher-Yates code against
rand() % m").

A generator of B bits reduced with % m draws j in 0..m-1 with probability
(floor(2^B / m) + [j < r]) / 2^B, r = 2^B mod m.  Backward Fisher-Yates with
such draws ('fisher-yates-mod': B = 15) gives decks whose backward code is
exactly those draws, independent over m = 2..n (stats/fy_draws.c).  Against
the uniform code, per deck:

  - the mean of draw m moves by delta_m = -r (m - r) / 2^(B+1), its variance
    is (m^2 - 1) / 12; a weighted sum of the draws with weights w_m has
    noncentrality (sum w delta)^2 / sum w^2 var: equal weights (what
    'fy-code' uses), the best ones w = delta / var, or 1 / sd;
  - the score test of the low residues (what 'fy-code' uses for each B) has
    noncentrality sum_m r (m - r) / 4^B, the chi-square distance of the
    whole code from uniform: it is the likelihood ratio test against that
    exact alternative, to first order;
  - the per-draw fit sees the same distance spread over n(n-1)/2 df.

Then the decks each needs for power 0.9 at the level one statistic meets
in Holm's worst case (1e-6 over the 13 statistics of the default battery at
52 cards), and inside 'fy-code' at that level over its 27 subtests; and the
power of the whole escalation (a run suspect at 1e-3 is re-run at 2N, 4N,
8N: docs/verdicts.md) at each N that scripts/power tries (100 doubling),
counting the low-residue subtest of B = 15 alone (a lower bound: the other
subtests and statistics can only add).

Usage: scripts/fy_power.py [--n 52] [--bits 15]
Pure Python (the standard library's NormalDist); no input, no output file.
"""

import argparse
import math
from statistics import NormalDist

Z = NormalDist()
FAIL, SUSPECT, POWER = 1e-6, 1e-3, 0.9
STATS_52 = 13          # the default battery at 52 cards, with fy-code and
                       # fy-code-forward
BITS = range(8, 33)    # the B of the low-residue subtests


def residues(n, b):
    return {m: (1 << b) % m for m in range(2, n + 1)}


def subtests(n):
    """2 + the distinct non-zero residue patterns over BITS."""
    seen = set()
    for b in BITS:
        r = tuple(residues(n, b)[m] for m in range(2, n + 1))
        if any(r):
            seen.add(r)
    return 2 + len(seen)


def zq(a):
    """The upper a-quantile of the standard normal."""
    return Z.inv_cdf(1.0 - a)


def decks_needed(lam, alpha, two_sided):
    z = zq(alpha / 2 if two_sided else alpha) + zq(1.0 - POWER)
    return z * z / lam


def chi2_quantile_wh(df, a):
    """Wilson and Hilferty's chi-square quantile (enough at 1326 df)."""
    h = 2.0 / (9.0 * df)
    return df * (1.0 - h + zq(a) * math.sqrt(h)) ** 3


def fit_decks(df, lam, alpha):
    """N at which X^2 over df with noncentrality lam N reaches power 0.9,
    X^2 taken as normal with the noncentral chi-square's mean df + L and
    variance 2 (df + 2 L)."""
    x = chi2_quantile_wh(df, alpha)
    lo, hi = 1.0, 1e15
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        L = lam * mid
        p = 1.0 - Z.cdf((x - df - L) / math.sqrt(2.0 * (df + 2.0 * L)))
        lo, hi = (lo, mid) if p >= POWER else (mid, hi)
    return hi


def escalated_power(lam, n0, t, k=STATS_52, stages=4):
    """P(FAIL) of a run at n0 decks with its escalation, from the one-sided
    low-residue subtest alone: its z is normal(sqrt(lam N), 1); the run
    fails below FAIL/(k t) and is suspect below SUSPECT/(k t)."""
    z_fail, z_susp = zq(FAIL / (k * t)), zq(SUSPECT / (k * t))
    p, go = 0.0, 1.0
    for s in range(stages):
        mu = math.sqrt(lam * n0 * 2 ** s)
        f = 1.0 - Z.cdf(z_fail - mu)
        sus = Z.cdf(z_fail - mu) - Z.cdf(z_susp - mu)
        p += go * f
        go *= sus
    return p


def binom_at_least(p, need=9, runs=10):
    return sum(math.comb(runs, i) * p ** i * (1 - p) ** (runs - i)
               for i in range(need, runs + 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--n", type=int, default=52)
    ap.add_argument("--bits", type=int, default=15)
    a = ap.parse_args()
    n, b = a.n, a.bits
    r = residues(n, b)
    delta = {m: -r[m] * (m - r[m]) / 2 ** (b + 1) for m in r}
    var = {m: (m * m - 1) / 12 for m in r}
    lam_best = sum(delta[m] ** 2 / var[m] for m in r)
    lam_equal = sum(delta.values()) ** 2 / sum(var.values())
    lam_sd = sum(delta[m] / math.sqrt(var[m]) for m in r) ** 2 / len(r)
    lam_lr = sum(r[m] * (m - r[m]) for m in r) / 4 ** b
    # The exact chi-square distance of the code, as a check on lam_lr.
    dist = 0.0
    for m in r:
        q = (1 << b) // m
        for j in range(m):
            pj = (q + (j < r[m])) / 2 ** b
            dist += (pj - 1 / m) ** 2 * m
    df = n * (n - 1) // 2
    t = subtests(n)
    a1 = FAIL / STATS_52
    a2 = a1 / t

    print("n = %d cards, %d-bit rand() %% m; %d statistics at 52 cards, "
          "%d subtests in fy-code" % (n, b, STATS_52, t))
    print()
    print("noncentrality per deck")
    print("  mean, best weights delta/var     %.4g" % lam_best)
    print("  mean, equal weights (fy-code)    %.4g" % lam_equal)
    print("  mean, weights 1/sd               %.4g" % lam_sd)
    print("  low residues of B = %d (score)   %.4g" % (b, lam_lr))
    print("  exact chi-square distance        %.4g" % dist)
    print()
    print("decks for power 0.9, one test at Holm's 1e-6/%d" % STATS_52)
    print("  mean, best weights, two-sided    %.3g" %
          decks_needed(lam_best, a1, True))
    print("  mean, equal weights, two-sided   %.3g" %
          decks_needed(lam_equal, a1, True))
    print("  likelihood ratio, one-sided      %.3g" %
          decks_needed(lam_lr, a1, False))
    print("  likelihood ratio, two-sided      %.3g" %
          decks_needed(lam_lr, a1, True))
    print("decks for power 0.9 inside fy-code, at 1e-6/%d/%d" % (STATS_52, t))
    print("  low residues of B = %d, one-sided %.3g" %
          (b, decks_needed(lam_lr, a2, False)))
    print("  mean, equal weights, two-sided   %.3g" %
          decks_needed(lam_equal, a2, True))
    print("  per-draw fit, %d df             %.3g" %
          (df, fit_decks(df, dist, a2)))
    print()
    print("power of a run with its escalation (low residues of B = %d alone)"
          % b)
    print("  %12s  %10s  %10s  %s" % ("N", "no escal.", "escalated",
                                      "P(9 of 10 runs fail)"))
    n0 = 100
    while n0 <= 2 ** 24:
        if n0 >= 2 ** 18:
            p1 = escalated_power(lam_lr, n0, t, stages=1)
            pe = escalated_power(lam_lr, n0, t)
            print("  %12d  %10.3f  %10.3f  %.3f" % (n0, p1, pe,
                                                    binom_at_least(pe)))
        n0 *= 2


if __name__ == "__main__":
    main()
