"""
test_battery_runs.py - the analysis code of scripts/calibrate and
scripts/power, on constructed inputs whose answers are known: the
Clopper-Pearson interval, the Kolmogorov-Smirnov statistic and p-value, the
randomized p-value, and the power search's decisions.  Nothing here runs
shufflebias; every check is deterministic (no random draws), so none can
fail by chance.
"""

import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "scripts"))

import battery_runs as br  # noqa: E402
import power  # noqa: E402


def binom_pmf(k, n, p):
    """Written out here apart from the module's log-space version."""
    return math.comb(n, k) * p ** k * (1 - p) ** (n - k)


class BinomialInterval(unittest.TestCase):
    def test_zero_events(self):
        # k = 0: the upper end solves P(X <= 0) = (1 - p)^n = 0.025, so
        # p = 1 - 0.025^(1/n); the lower end is 0.
        for n in (1, 10, 1000):
            lo, hi = br.binomial_interval(0, n)
            self.assertEqual(lo, 0.0)
            self.assertAlmostEqual(hi, 1 - 0.025 ** (1 / n), places=10)

    def test_all_events(self):
        # k = n: the lower end solves P(X >= n) = p^n = 0.025.
        lo, hi = br.binomial_interval(10, 10)
        self.assertAlmostEqual(lo, 0.025 ** 0.1, places=10)
        self.assertEqual(hi, 1.0)

    def test_one_of_two(self):
        # k = 1, n = 2: P(X >= 1) = 1 - (1 - p)^2 = 0.025 gives
        # p = 1 - sqrt(0.975); P(X <= 1) = 1 - p^2 = 0.025 gives sqrt(0.975).
        lo, hi = br.binomial_interval(1, 2)
        self.assertAlmostEqual(lo, 1 - math.sqrt(0.975), places=10)
        self.assertAlmostEqual(hi, math.sqrt(0.975), places=10)

    def test_one_of_ten(self):
        # The textbook example 1 of 10: [0.0025, 0.4450] (e.g. Brown, Cai &
        # DasGupta, Statist. Sci. 16(2), 2001).  The lower end is
        # 1 - 0.975^(1/10) in closed form; the upper end is checked against
        # its defining equation with the pmf written out above.
        lo, hi = br.binomial_interval(1, 10)
        self.assertAlmostEqual(lo, 1 - 0.975 ** 0.1, places=10)
        self.assertAlmostEqual(hi, 0.4450, places=4)
        self.assertAlmostEqual(binom_pmf(0, 10, hi) + binom_pmf(1, 10, hi),
                               0.025, places=9)

    def test_defining_equations_and_symmetry(self):
        # For a rate near the calibration's: 12 events in 3000 runs.  Each
        # end solves its tail equation (the upper tail summed to k + 120,
        # past which the terms are below 1e-100), and swapping events and
        # non-events mirrors the interval.
        k, n = 12, 3000
        lo, hi = br.binomial_interval(k, n)
        upper_tail = math.fsum(binom_pmf(i, n, lo) for i in range(k, k + 120))
        lower_tail = math.fsum(binom_pmf(i, n, hi) for i in range(k + 1))
        self.assertAlmostEqual(upper_tail, 0.025, places=8)
        self.assertAlmostEqual(lower_tail, 0.025, places=8)
        lo2, hi2 = br.binomial_interval(n - k, n)
        self.assertAlmostEqual(lo, 1 - hi2, places=9)
        self.assertAlmostEqual(hi, 1 - lo2, places=9)


class KolmogorovSmirnov(unittest.TestCase):
    def test_statistic(self):
        # One point at 1/2: the empirical cdf is 0 then 1, D = 1/2.
        self.assertAlmostEqual(br.ks_statistic([0.5]), 0.5)
        # Points at the cell midpoints (i + 1/2)/n: the smallest D there is,
        # 1/(2n).
        n = 40
        self.assertAlmostEqual(
            br.ks_statistic([(i + 0.5) / n for i in reversed(range(n))]),
            0.5 / n)
        # 0.1 .. 0.4: the empirical cdf reaches 1 at 0.4, where the uniform
        # cdf is 0.4, so D = 0.6.
        self.assertAlmostEqual(br.ks_statistic([0.3, 0.1, 0.4, 0.2]), 0.6)

    def test_limit_law_published_values(self):
        # Kolmogorov's distribution: K(1) = 0.7300 (Smirnov, Ann. Math.
        # Statist. 19(2), 1948, table), and the critical values
        # 1.3581, 1.6276, 1.9495 of 5%, 1% and 0.1% (Marsaglia, Tsang &
        # Wang, J. Stat. Softw. 8(18), 2003).
        self.assertAlmostEqual(br.kolmogorov_q(1.0), 0.2700, places=4)
        self.assertAlmostEqual(br.kolmogorov_q(1.3581) / 0.05, 1, places=3)
        self.assertAlmostEqual(br.kolmogorov_q(1.6276) / 0.01, 1, places=3)
        self.assertAlmostEqual(br.kolmogorov_q(1.9495) / 0.001, 1, places=3)

    def test_both_series_agree(self):
        # Below 1.18 the module uses the theta-function series; the
        # alternating series is the same function (Jacobi's identity) and
        # converges well enough from 0.6 with many terms.
        for i in range(13):
            lam = 0.6 + 0.05 * i
            alt = 2 * math.fsum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam)
                                for k in range(1, 400))
            self.assertAlmostEqual(br.kolmogorov_q(lam), alt, places=9)

    def test_finite_n_against_exact_one_sided(self):
        # The exact law of the one-sided D+ (Birnbaum & Tingey, Ann. Math.
        # Statist. 22(4), 1951):
        #   P(D+ >= d) = d sum_{j=0}^{floor(n(1-d))} C(n,j) (1-d-j/n)^(n-j)
        #                (d+j/n)^(j-1),
        # and P(D >= d) = 2 P(D+ >= d) minus the chance that both sides
        # exceed d, negligible at these tails.  Stephens' approximation is
        # held to 3% of the p-value where calibration reads it.
        def one_sided(d, n):
            return d * math.fsum(
                math.comb(n, j) * (1 - d - j / n) ** (n - j)
                * (d + j / n) ** (j - 1)
                for j in range(int(math.floor(n * (1 - d))) + 1))
        for n in (50, 100, 400):
            for c in (1.36, 1.52, 1.63, 1.8):
                d = c / math.sqrt(n)
                exact = 2 * one_sided(d, n)
                self.assertLess(abs(br.ks_pvalue(d, n) / exact - 1), 0.03,
                                msg="n=%d d=%g" % (n, d))


class RandomizedP(unittest.TestCase):
    def test_inside_interval_and_fixed(self):
        a = br.randomized_p(0.25, 0.75, "alg", 7, "stat")
        self.assertGreaterEqual(a, 0.25)
        self.assertLess(a, 0.75)
        self.assertEqual(a, br.randomized_p(0.25, 0.75, "alg", 7, "stat"))
        self.assertNotEqual(a, br.randomized_p(0.25, 0.75, "alg", 8, "stat"))
        self.assertEqual(br.randomized_p(0.3, 0.3, "x"), 0.3)

    def test_uniform_draws(self):
        # The draws are a fixed function of their keys, so this outcome is
        # fixed too: 20000 of them pass KS at 1e-3 and put about 1% below
        # 0.01 (200, binomial sd 14; 150..250 is 3.5 sd).
        us = [br.uniform_from("k", i) for i in range(20000)]
        self.assertGreater(br.ks_uniform(us)[1], 1e-3)
        self.assertTrue(150 <= sum(1 for u in us if u < 0.01) <= 250)

    def test_discrete_null_becomes_uniform(self):
        # T ~ Binomial(4, 1/2): the intervals [P(T > t), P(T >= t)] tile
        # [0, 1], so the randomized p falls below 0.3 with probability
        # exactly 0.3.  Weighted by P(T = t), each interval contributes the
        # part of its length below 0.3.
        pmf = [binom_pmf(t, 4, 0.5) for t in range(5)]
        total = 0.0
        for t in range(5):
            lo, hi = sum(pmf[t + 1:]), sum(pmf[t:])
            total += max(0.0, min(hi, 0.3) - lo)
            self.assertAlmostEqual(hi - lo, pmf[t])
        self.assertAlmostEqual(total, 0.3)


class Contract(unittest.TestCase):
    """What the scripts read from a run, on reports written by hand in the
    shape README and DESIGN.md give the JSON."""

    def cli_with(self, options):
        cli = br.Cli.__new__(br.Cli)
        cli.path, cli.test_options = "/bin/shufflebias", set(options)
        return cli

    def test_optional_options_only_when_listed(self):
        spec = br.RunSpec("riffle", 52, 1000, 9, rng="mt19937",
                          params=("passes=3",), escalate=0)
        old = self.cli_with({"--seed"}).argv(spec, "f.json")
        new = self.cli_with({"--escalate", "--threads"}).argv(spec, "f.json")
        self.assertNotIn("--escalate", old)
        self.assertNotIn("--threads", old)
        self.assertEqual(new[new.index("--escalate") + 1], "0")
        self.assertEqual(new[new.index("--threads") + 1], "1")
        self.assertEqual(new[new.index("--param") + 1], "passes=3")
        self.assertEqual(new[new.index("--rng") + 1], "mt19937")

    def test_samples_over_stages(self):
        spec = br.RunSpec("x", 52, 1000, 1)
        plain = br.RunResult(spec, 0, {"samples": 1000}, 0.1)
        staged = br.RunResult(spec, 1, {"samples": 4000, "stages": [
            {"seed": 1, "samples": 1000, "verdict": "suspect"},
            {"seed": 2, "samples": 4000, "verdict": "fail"}]}, 0.1)
        self.assertEqual(plain.samples_total, 1000)
        self.assertEqual(staged.samples_total, 5000)
        self.assertTrue(staged.failed)

    def test_calibration_reads_discrete_and_skips_the_rest(self):
        import calibrate
        spec = br.RunSpec("fisher-yates", 52, 1000, 5)
        rep = {"verdict": "pass", "tests": [
            {"name": "cont", "verdict": "pass", "p_value": 0.42,
             "p_adjusted": 0.84},
            {"name": "disc", "verdict": "pass", "p_value": 0.3,
             "p_adjusted": 0.6, "p_interval": [0.2, 0.4]},
            {"name": "na", "verdict": "not applicable", "p_value": None,
             "p_adjusted": None}]}
        runs, errors = calibrate.collect([
            br.RunResult(spec, 0, rep, 0.1),
            br.RunResult(br.RunSpec("x", 52, 1000, 6), 2, None, 0.1,
                         "unknown algorithm 'x'")])
        self.assertEqual(len(runs), 1)
        self.assertEqual(errors[0]["exit"], 2)
        t = runs[0]["tests"]
        self.assertEqual(t["cont"]["u"], 0.42)
        self.assertEqual(t["disc"]["u"],
                         br.randomized_p(0.2, 0.4, "fisher-yates", 5, "disc"))
        self.assertEqual(runs[0]["not_applicable"], ["na"])
        per_stat, _, battery = calibrate.analyse(runs)
        self.assertTrue(per_stat["disc"]["discrete"])
        self.assertFalse(per_stat["cont"]["discrete"])
        self.assertEqual(battery["all"]["runs"], 1)

    def test_calibration_one_sided_for_pooled_laws(self):
        import calibrate
        # D+ is the largest excess of F_n(a) over a: none for p-values
        # that sit high (a conservative test), 1 - 1/n short of full for
        # p-values all near 0 (a broken one).
        self.assertEqual(calibrate.ks_above([0.9, 0.95, 1.0])[0], 0.0)
        d, p = calibrate.ks_above([1e-9] * 100)
        self.assertAlmostEqual(d, 1.0 - 1e-9)
        self.assertLess(p, 1e-80)
        d, _ = calibrate.ks_above([0.1, 0.5, 0.5, 0.9])
        self.assertAlmostEqual(d, 0.25)
        # Pooled laws, and serial on draws alone, are held to D+.
        self.assertTrue(calibrate.pooled("successions", ["fisher-yates"]))
        self.assertTrue(calibrate.pooled("serial", ["partial-deal"]))
        self.assertFalse(calibrate.pooled("serial", ["fisher-yates"]))
        self.assertFalse(calibrate.pooled("position", ["fisher-yates"]))
        s = calibrate.summarize([0.9, 0.99], False, 1, True)
        self.assertTrue(s["ks"]["one_sided"])
        self.assertEqual(calibrate.ks_cells(s)[0], "D+ 0.0100")


class PowerSearch(unittest.TestCase):
    def test_settle(self):
        F, P = True, False
        self.assertEqual(power.settle([F] * 9 + [None]), ("found", 9))
        self.assertEqual(power.settle([F, P, F, P]), ("below", 4))
        self.assertEqual(power.settle([F] * 8 + [P, F]), ("found", 10))
        self.assertEqual(power.settle([F] * 8 + [P, P]), ("below", 10))
        # A run not back yet stops the count, whatever came after it.
        self.assertEqual(power.settle([None, P, P]), (None, 0))
        self.assertEqual(power.settle([F, None, P, P]), (None, 1))

    def test_catchers(self):
        rep = {"tests": [
            {"name": "position", "verdict": "fail", "p_adjusted": 0.0},
            {"name": "cycles", "verdict": "fail", "p_adjusted": 0.0},
            {"name": "fixed-points", "verdict": "fail", "p_adjusted": 1e-9},
            {"name": "other", "verdict": "pass", "p_adjusted": 0.5},
            {"name": "n/a", "verdict": "not applicable", "p_adjusted": None}]}
        self.assertEqual(power.catchers(rep), ["cycles", "position"])
        self.assertEqual(power.catchers({"tests": []}), [])

    def feed(self, search, outcomes_by_n):
        """Run a Search on made-up results: outcomes_by_n[N] lists exit
        codes in seed order."""
        while search.want():
            key, spec = search.take()
            n, r = key
            code = outcomes_by_n[n][r]
            rep = {"verdict": "fail" if code == 1 else "pass", "samples": n,
                   "tests": [{"name": "position", "verdict":
                              "fail" if code == 1 else "pass",
                              "p_adjusted": 1e-9 if code == 1 else 0.5}]}
            search.record(key, br.RunResult(spec, code, rep, 0.5))

    def test_doubling_until_found(self):
        s = power.Search(0, power.Setting("naive-swap"), cap=10 ** 6)
        self.feed(s, {100: [0, 0], 200: [1, 3, 0], 400: [1] * 10})
        sm = s.summary()
        self.assertEqual(sm["outcome"], "found")
        self.assertEqual((sm["n_below"], sm["n_found"]), (200, 400))
        self.assertEqual(sm["fails_at_found"], [9, 9])
        self.assertEqual(sm["caught_first_by"], ["position"])
        # 2 + 3 + 9 runs of half a second each.
        self.assertAlmostEqual(sm["seconds"], 7.0)
        self.assertEqual([lv["n"] for lv in sm["levels"]], [100, 200, 400])
        self.assertEqual(sm["levels"][0]["runs"][1]["seed"],
                         power.seed_of(100, 1))

    def test_cap(self):
        s = power.Search(0, power.Setting("deal-random-hand"), cap=300)
        self.feed(s, {100: [0, 0], 200: [0, 0]})
        sm = s.summary()
        self.assertEqual(sm["outcome"], "capped")
        self.assertEqual(sm["n_below"], 200)
        self.assertIsNone(sm["n_found"])

    def test_error_stops_the_search(self):
        s = power.Search(0, power.Setting("x"), cap=10 ** 6)
        self.feed(s, {100: [2]})
        self.assertEqual(s.summary()["outcome"], "error")
        self.assertFalse(s.want())


if __name__ == "__main__":
    unittest.main()
