#!/usr/bin/env python3
"""Sample-size planning from the command line: 'test --effect E' plans the
run, prints the plan on stderr and keeps it in the JSON, and the report of
the run at the planned size says it would catch E; 'test --effect E
--plan' prints the plan and an estimate of its time, and runs nothing
else.  The runs have fixed seeds; the plans are arithmetic, not chance.

    test_plan.py --cli PATH/shufflebias
"""
import argparse
import json
import re
import subprocess
import sys
import unittest

CLI = None


def run(args):
    p = subprocess.run([CLI] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def percent(words):
    """The relative deviation a detectable line states, as a fraction."""
    m = re.search(r": ([0-9.]+)% more or less often than its rate", words)
    assert m, words
    return float(m.group(1)) / 100


class Effect(unittest.TestCase):
    def run_planned(self, effect, extra):
        code, out, err = run(["test", "fisher-yates", "--n", "16", "--seed",
                              "7", "--effect", effect, "--json", "-",
                              "--threads", "2"] + extra)
        self.assertEqual(code, 0, err)
        return json.loads(out), err

    def test_relative_effect_is_caught_by_the_report(self):
        # The plan, read back through the report of the run it sized: the
        # statistic that decides states E (up to the report's rounding)
        # and every planned one at most E.
        rep, err = self.run_planned("0.1", ["--tests",
                                            "position,fixed-points,cycles"])
        plan = rep["plan"]
        self.assertEqual(plan["effect"], {"unit": "relative", "value": 0.1})
        self.assertEqual(plan["power"], 0.9)
        self.assertAlmostEqual(plan["alpha"], 1e-6 / 3)
        self.assertEqual(rep["samples_requested"], plan["samples"])
        self.assertEqual(rep["samples"], plan["samples"])
        self.assertEqual(plan["decided_by"], "position")
        self.assertEqual(plan["samples"],
                         max(t["samples"] for t in plan["tests"]))
        tests = {t["name"]: t for t in rep["tests"]}
        for row in plan["tests"]:
            self.assertTrue(row["planned"])
            got = tests[row["name"]]
            self.assertLessEqual(got["detectable"], row["distance"])
            self.assertLessEqual(percent(got["detectable_description"]),
                                 0.1)
        # Position's detectable effect is lambda*/N exactly: at the
        # planned N it is E to the report's three digits.
        self.assertAlmostEqual(
            percent(tests["position"]["detectable_description"]), 0.1)
        # The plan came first, on stderr.
        self.assertTrue(err.startswith("plan: one cell 10.0% more or less "
                                       "often than its rate, caught with "
                                       "power 0.9"), err)
        self.assertIn("samples: %d, as 'position' needs" % plan["samples"],
                      err)

    def test_distance_effect_and_power(self):
        rep, _ = self.run_planned("distance=2e-3",
                                  ["--power", "0.99", "--tests",
                                   "fixed-points,successions"])
        plan = rep["plan"]
        self.assertEqual(plan["effect"],
                         {"unit": "distance", "value": 2e-3})
        self.assertEqual(plan["power"], 0.99)
        self.assertEqual(rep["samples"], plan["samples"])
        # The report's figures are at power 0.9, so below the plan's.
        for t in rep["tests"]:
            self.assertLess(t["detectable"], 2e-3)
        # More power, more samples.
        rep9, _ = self.run_planned("distance=2e-3",
                                   ["--tests", "fixed-points,successions"])
        self.assertLess(rep9["plan"]["samples"], plan["samples"])

    def test_every_kind(self):
        # Permutations (with the sparse permutation test), deals and
        # draws: every planned statistic's report, read back from the run
        # at the planned size, states at most the effect; what is not
        # planned says why.
        cases = [
            (["fisher-yates", "--n", "9"], "distance=2e-3"),
            (["deal-fisher-yates", "--n", "52"], "0.2"),
            (["deal-fisher-yates", "--n", "52"], "distance=5e-3"),
            (["partial-deal", "--n", "52"], "0.2"),
        ]
        for args, effect in cases:
            with self.subTest(args=args, effect=effect):
                code, out, err = run(["test"] + args + [
                    "--effect", effect, "--seed", "5", "--escalate", "0",
                    "--json", "-", "--threads", "2"])
                self.assertEqual(code, 0, err)
                rep = json.loads(out)
                plan = rep["plan"]
                self.assertEqual(rep["samples"], plan["samples"])
                tests = {t["name"]: t for t in rep["tests"]}
                planned = 0
                for row in plan["tests"]:
                    if not row["planned"]:
                        self.assertTrue(row["reason"])
                        continue
                    planned += 1
                    self.assertLessEqual(
                        tests[row["name"]]["detectable"],
                        row["distance"] * (1 + 1e-12), row["name"])
                self.assertGreater(planned, 0)
                decider = tests[plan["decided_by"]]
                # The statistic that decides is at its limit: within the
                # step of one sample (a relative 1e-4 here) of the effect.
                row = [r for r in plan["tests"]
                       if r["name"] == plan["decided_by"]][0]
                self.assertGreater(decider["detectable"],
                                   row["distance"] * (1 - 1e-4))

    def test_quiet_prints_no_plan(self):
        code, out, err = run(["test", "fisher-yates", "--n", "8", "--seed",
                              "1", "--effect", "20%", "--tests",
                              "fixed-points", "--quiet"])
        self.assertEqual((code, out, err), (0, "", ""))

    def test_plan_alone(self):
        code, out, err = run(["test", "fisher-yates", "--n", "16",
                              "--effect", "0.1", "--plan", "--threads", "1"])
        self.assertEqual((code, err), (0, ""))
        lines = out.splitlines()
        self.assertTrue(lines[0].startswith("plan: one cell 10.0%"))
        self.assertRegex(lines[-1], r"^  time: about [0-9.]+ (s|min|h|days)"
                         r" on this machine with 1 thread \(an estimate: "
                         r"[0-9]+ samples took [0-9.]+ s")
        self.assertIn("not planned: its detectable effect is not a "
                      "chi-square distance", out)
        self.assertNotIn("verdict", out)
        # The same plan as the run would print on stderr.
        code, _, err = run(["test", "fisher-yates", "--n", "16", "--seed",
                            "3", "--effect", "0.1", "--json", "/dev/null"])
        self.assertEqual(err.splitlines(), lines[:-1])

    def test_lopsided_plan_is_said(self):
        # At 8 cards the permutation test's cell is one order of 8!: it
        # asks for about 10^5 times the samples of any other statistic,
        # in days, and the plan says so; without it there is no note.
        code, out, err = run(["test", "fisher-yates", "--n", "8",
                              "--effect", "5%", "--plan"])
        self.assertEqual((code, err), (0, ""))
        self.assertRegex(out, r"\n  note: 'permutation' needs [0-9]+ times "
                         r"the samples of any other statistic; leave it out "
                         r"with --tests")
        self.assertNotRegex(out, r"[0-9]e\+[0-9]")
        code, out, _ = run(["test", "fisher-yates", "--n", "8", "--tests",
                            "position,cycles", "--effect", "5%", "--plan"])
        self.assertEqual(code, 0)
        self.assertNotIn("note:", out)

    def test_rand_bits(self):
        # rand-bits=B is planned by the Fisher-Yates codes alone, and the
        # run at the planned size reports that it catches B bits: the
        # same function computes the plan and the report's line.  A fair
        # Fisher-Yates at 5 cards (the statistics' nulls hold exactly; a
        # fixed seed).
        code, out, err = run(["test", "fisher-yates", "--n", "5", "--seed",
                              "4", "--effect", "rand-bits=8", "--tests",
                              "position,fy-code,fy-code-forward", "--json",
                              "-", "--threads", "2"])
        self.assertEqual(code, 0, err)
        rep = json.loads(out)
        plan = rep["plan"]
        self.assertEqual(plan["effect"], {"unit": "rand-bits", "value": 8})
        self.assertEqual(rep["samples"], plan["samples"])
        self.assertEqual(plan["decided_by"], "fy-code")
        rows = {r["name"]: r for r in plan["tests"]}
        self.assertFalse(rows["position"]["planned"])
        self.assertIn("only the Fisher-Yates codes", rows["position"]["reason"])
        self.assertEqual(rows["fy-code"]["samples"],
                         rows["fy-code-forward"]["samples"])
        # The noncentrality of 8 bits at 5 cards: sum over m of
        # r (m - r) / 4^8, r = 256 mod m: m = 3 and 5 have r = 1.
        self.assertAlmostEqual(rows["fy-code"]["distance"],
                               (1 * 2 + 1 * 4) / 4 ** 8, places=15)
        tests = {t["name"]: t for t in rep["tests"]}
        for name in ("fy-code", "fy-code-forward"):
            m = re.search(r"generator of ([0-9]+) bits or fewer",
                          tests[name]["detectable_description"])
            self.assertTrue(m, tests[name]["detectable_description"])
            self.assertGreaterEqual(int(m.group(1)), 8)
        self.assertTrue(err.startswith("plan: Fisher-Yates drawing rand() % "
                                       "m from a generator of 8 bits"), err)
        # --plan alone, at 52 cards: the codes planned, the rest not.
        code, out, err = run(["test", "fisher-yates-mod", "--n", "52",
                              "--effect", "rand-bits=15", "--plan",
                              "--threads", "1"])
        self.assertEqual((code, err), (0, ""))
        self.assertRegex(out, r"\n  fy-code +[0-9]+ samples  \(the report "
                         r"will say: rand\(\) % m from a generator of "
                         r"(1[5-9]|2[0-9]|3[0-2]) bits or fewer")
        self.assertIn("samples: ", out)
        self.assertIn("as 'fy-code' needs", out)
        self.assertRegex(out, r"\n  position +not planned: only the "
                         r"Fisher-Yates codes state rand-bits=B")
        # Nothing but the codes can plan it.
        code, _, err = run(["test", "fisher-yates", "--effect",
                            "rand-bits=15", "--tests", "position", "--plan"])
        self.assertEqual(code, 2)
        self.assertIn("no statistic of the run can be planned", err)

    def test_refusals(self):
        cases = [
            (["--power", "0.9"], "--power goes with --effect"),
            (["--plan"], "--plan goes with --effect"),
            (["--effect", "0.1", "--samples", "1000"], "drop '--samples'"),
            (["--effect", "0"], "invalid --effect '0'"),
            # A cell cannot come out more than 100% less often.
            (["--effect", "1.5"], "invalid --effect '1.5'"),
            (["--effect", "150%"], "invalid --effect '150%'"),
            (["--effect", "distance=x"], "invalid --effect 'distance=x'"),
            (["--effect", "rand-bits=7"], "rand-bits=B takes a whole "
             "number of bits from 8 to 32"),
            (["--effect", "rand-bits=33"], "invalid --effect 'rand-bits=33'"),
            (["--effect", "rand-bits=15.5"], "from 8 to 32"),
            (["--effect", "rand-bits="], "from 8 to 32"),
            (["--effect", "rand-bits=+15"], "from 8 to 32"),
            (["--effect", "rand-bits=15%"], "from 8 to 32"),
            (["--effect", "0.1", "--power", "1"], "invalid --power '1'"),
            (["--effect", "0.1", "--plan", "--json", "-"], "drop '--json'"),
        ]
        for extra, want in cases:
            with self.subTest(args=extra):
                code, out, err = run(["test", "fisher-yates"] + extra)
                self.assertEqual((code, out), (2, ""))
                self.assertIn(want, err)
        # Nothing in the run can be planned for a relative effect.
        code, _, err = run(["test", "fisher-yates", "--effect", "0.1",
                            "--tests", "collisions", "--plan"])
        self.assertEqual(code, 2)
        self.assertIn("no statistic of the run can be planned", err)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    args, rest = ap.parse_known_args()
    CLI = args.cli
    unittest.main(argv=[sys.argv[0]] + rest)
