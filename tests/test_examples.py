#!/usr/bin/env python3
"""The shuffles under examples/, run the way their comments say.

Each example is run through shufflebias (--exec for Python and
JavaScript, --plugin for C) at a fixed seed, and the verdict must be the
one the literature gives: the fair ones pass, the flawed ones fail.

False alarms: a fair shuffle fails a run with probability below 1e-6 and
stays suspect after escalation with probability below 1e-9, so a fair
example is wrongly failed here less than once in a million runs.  The
flawed ones are caught by a wide margin at these sizes (docs/power.md:
the naive swap fails from about 400 decks of 52 cards, a random
comparator from under 100).

    test_examples.py --cli PATH/shufflebias --plugin PATH/plugin.so
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import unittest

CLI = PLUGIN = None
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def shufflebias(*args):
    p = subprocess.run([CLI, *args, "--json", "-"], capture_output=True,
                       timeout=600, cwd=ROOT)
    if p.returncode not in (0, 1):
        raise AssertionError(f"{args}: exit {p.returncode}: "
                             f"{p.stderr.decode()}")
    return p.returncode, json.loads(p.stdout)


class Examples(unittest.TestCase):
    def verdict(self, expected, *args):
        code, rep = shufflebias(*args)
        self.assertEqual(rep["verdict"], expected, args)
        self.assertEqual(code, 0 if expected == "pass" else 1)
        self.assertFalse(rep["partial"])
        return rep

    def test_python(self):
        for script, expected in (("fisher_yates.py", "pass"),
                                 ("naive_swap.py", "fail")):
            with self.subTest(script=script):
                rep = self.verdict(expected, "test", "--exec",
                                   f"python3 examples/python/{script}",
                                   "--n", "52", "--samples", "20000",
                                   "--seed", "1")
                self.assertEqual(rep["samples"], 20000)

    def test_python_deal_in_card_names(self):
        self.verdict("pass", "test", "--exec",
                     "python3 examples/python/bridge_deal.py", "--kind",
                     "deal", "--hands", "4", "--format", "cards",
                     "--samples", "5000", "--seed", "1")

    @unittest.skipUnless(shutil.which("node"), "node is not installed")
    def test_node(self):
        for script, expected, samples in (("fisher_yates.js", "pass",
                                           "200000"),
                                          ("sort_comparator.js", "fail",
                                           "20000")):
            with self.subTest(script=script):
                self.verdict(expected, "test", "--exec",
                             f"node examples/node/{script}", "--n", "52",
                             "--samples", samples, "--seed", "1")

    def test_c_plugin(self):
        self.verdict("pass", "test", "--plugin", PLUGIN,
                     "example-fisher-yates", "--n", "52", "--samples",
                     "200000", "--seed", "1")
        self.verdict("fail", "test", "--plugin", PLUGIN,
                     "example-off-by-one", "--n", "52", "--samples",
                     "20000", "--seed", "1")
        # The plug-in draws from our sources: a GSL generator by name.
        rep = self.verdict("pass", "test", "--plugin", PLUGIN,
                           "example-fisher-yates", "--n", "52",
                           "--samples", "100000", "--seed", "1", "--rng",
                           "mt19937")
        self.assertEqual(rep["rng"], "mt19937")
        self.assertEqual(rep["source"], "plugin")

    def test_c_plugin_saved_and_resumed(self):
        # A plug-in's state file names the plug-in but never loads it:
        # resuming needs --plugin again, and then reports the same run.
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            state = os.path.join(d, "plugin.state")
            run = ["example-fisher-yates", "--n", "10", "--samples",
                   "70000", "--seed", "2", "--tests", "position"]
            _, whole = shufflebias("test", "--plugin", PLUGIN, *run,
                                   "--state", state)
            p = subprocess.run([CLI, "test", "--resume", state],
                               capture_output=True, text=True, timeout=600)
            self.assertEqual(p.returncode, 2)
            self.assertIn("give --plugin SO", p.stderr)
            _, again = shufflebias("test", "--resume", state, "--plugin",
                                   PLUGIN)
            for rep in (whole, again):
                rep.pop("timing")
                rep.pop("memory")   # a resumed run also holds the counts resumed
            self.assertEqual(whole, again)

    def test_c_plugin_exact(self):
        code, rep = shufflebias("exact", "--plugin", PLUGIN,
                                "example-fisher-yates", "--n", "3")
        self.assertEqual(code, 0)
        self.assertEqual(rep["paths"], 6)
        code, rep = shufflebias("exact", "--plugin", PLUGIN,
                                "example-off-by-one", "--n", "3")
        self.assertEqual(code, 1)
        # 27 paths onto 6 orders: 4, 5, 5, 5, 4, 4 in lexicographic order
        # of the final deck (counted by hand in examples/plugin).
        self.assertEqual(rep["paths"], 27)
        by_perm = {tuple(p["perm"]): p["count"] for p in rep["permutations"]}
        self.assertEqual([by_perm[k] for k in sorted(by_perm)],
                         [4, 5, 5, 5, 4, 4])

    def test_c_plugin_rand_mod_exact(self):
        # rand() % (i + 1) on a 15-bit rand(), through sb_rand_mod: 6 paths
        # at 3 cards, with the probabilities worked out in the example's
        # comment (lexicographic order of the final deck).
        code, rep = shufflebias("exact", "--plugin", PLUGIN,
                                "example-rand-mod", "--n", "3")
        self.assertEqual(code, 1)
        self.assertEqual(rep["paths"], 6)
        by_perm = {tuple(p["perm"]): p["exact"] for p in rep["permutations"]}
        self.assertEqual([by_perm[k] for k in sorted(by_perm)],
                         ["5461/32768", "10923/65536", "5461/32768",
                          "10923/65536", "10923/65536", "10923/65536"])


def main():
    global CLI, PLUGIN
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--plugin", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    PLUGIN = os.path.abspath(args.plugin)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
