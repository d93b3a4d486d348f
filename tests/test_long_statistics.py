"""
test_long_statistics.py - the long statistical runs (ctest label 'long':
'scripts/test' leaves them out, 'scripts/test --long' and 'ctest -L long'
run them): the battery on many seeds,
through the command line, as scripts/calibrate and scripts/power measure
it, reduced to what can be asserted.

  - Calibration: the five shuffles that are exactly uniform
    (scripts/calibrate.py's FAIR), 200 seeds each at 52 cards, 5,000 decks,
    no escalation.  No run may fail; at most 5 of the 1,000 may be suspect
    or fail; every statistic's p-values (randomized when discrete, as
    calibrate does) must pass a Kolmogorov-Smirnov test of uniformity at
    1e-4 - one-sided, no excess of small p-values, for the pooled 1-D
    laws, whose exact tests are valid and conservative (calibrate.pooled).
  - Power: settings that docs/power.md finds in 9 of 10 runs at a few
    hundred decks must fail in every one of 5 seeds at 8 times that.

The seeds are fixed, so the outcome is the same at every run; the rates
below say how likely the chosen seeds were to give a false alarm had the
code been right.  Calibration: Holm bounds a fail by 1e-6 and a suspect or
fail by 1e-3 per run, so "no fail in 1,000" fails by chance with
probability at most 1e-3 and "more than 5 suspect or fail" (Binomial(1000,
1e-3), mean 1) with probability about 6e-4; the KS tests, 14 statistics
at 1e-4 each, at most 1.4e-3 together (the three that combine sub-tests
by Bonferroni are held to their tail alone, as calibrate does).  Power:
at 8 times the decks at which docs/power.md saw 9 of 9 runs fail (9 of
10 for sort-random-keys), a run that misses is far rarer than 1 in 10.
"""

import argparse
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "scripts"))

import battery_runs as br  # noqa: E402
import calibrate  # noqa: E402

ARGS = None

SEEDS = 200
SAMPLES = 5000
SUSPECT_MAX = 5
KS_ALPHA = 1e-4

# (algorithm, parameters, decks): 8 times the N of docs/power.md.
FLAWED = [
    ("naive-swap", (), 8 * 400),
    ("sattolo", (), 8 * 100),
    ("riffle", ("passes=7",), 8 * 100),
    ("sort-random-keys", ("key-bits=8",), 8 * 200),
]


def run(specs, what):
    cli = br.Cli(ARGS.cli)
    with br.Pool(cli, ARGS.jobs) as pool:
        return br.run_all(pool, specs, br.Progress(what, len(specs)))


class Calibration(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        specs = [br.RunSpec(alg, calibrate.N, SAMPLES,
                            calibrate.seed_of(j, i), rng=rng, escalate=0)
                 for j, (alg, rng) in enumerate(calibrate.FAIR)
                 for i in range(SEEDS)]
        runs, cls.errors = calibrate.collect(run(specs, "calibration"))
        cls.per_stat, _, cls.battery = calibrate.analyse(runs)

    def test_every_run_ended(self):
        self.assertEqual(self.errors, [])
        self.assertEqual(self.battery["all"]["runs"],
                         SEEDS * len(calibrate.FAIR))

    def test_verdicts_within_holm_bounds(self):
        b = self.battery["all"]
        self.assertEqual(b["fail"], 0)
        self.assertLessEqual(b["suspect_or_fail"], SUSPECT_MAX)

    def test_p_values_uniform(self):
        checked = 0
        for name, s in sorted(self.per_stat.items()):
            p = s["ks"]["p_value"]
            if s["subtests"] > 1:
                # Bonferroni combinations sit below the uniform by
                # construction: only their tails are held to the rates.
                self.assertLessEqual(s["tails"]["0.001"]["count"],
                                     SUSPECT_MAX, name)
                continue
            self.assertFalse(math.isnan(p), name)
            self.assertGreater(p, KS_ALPHA, "%s: KS p = %g" % (name, p))
            checked += 1
        # The default batteries of permutations, deals and draws: 14
        # statistics with a KS test (docs/calibration.md).
        self.assertGreaterEqual(checked, 14)


class Power(unittest.TestCase):
    def test_flawed_settings_fail(self):
        specs = [br.RunSpec(alg, 52, samples, seed, params=params)
                 for alg, params, samples in FLAWED
                 for seed in range(1, 6)]
        for res in run(specs, "power"):
            self.assertEqual(res.code, br.EXIT_FAIL,
                             "%s %s seed %d: exit %s %s"
                             % (res.spec.alg, " ".join(res.spec.params),
                                res.spec.seed, res.code, res.error[-300:]))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest)
