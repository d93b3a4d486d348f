#!/usr/bin/env python3
"""The diagnosis as the command line gives it: skipped on request and
above its deck limit with the reason said, an interrupt-free fail
diagnosed, the reachable decks of a source that repeats most of its
decks estimated near the truth, and the exact walk a pass suggests one
that runs.  Every run has a fixed seed or a fixed input: nothing here
depends on chance.

    test_diagnosis_cli.py --cli PATH/shufflebias
"""
import argparse
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import unittest

CLI = None


def run(args):
    p = subprocess.run([CLI] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


class Diagnosis(unittest.TestCase):
    def test_no_diagnosis(self):
        code, out, err = run(["test", "sattolo", "--n", "52", "--samples",
                              "2000", "--seed", "1", "--no-diagnosis",
                              "--json", "-"])
        self.assertEqual(code, 1, err)
        self.assertIsNone(json.loads(out)["diagnosis"])
        self.assertNotIn("diagnosis", err)

    def test_above_the_limit(self):
        # 65 cards: one past the limit; the fail stands, the reason is said.
        code, out, err = run(["test", "sattolo", "--n", "65", "--samples",
                              "2000", "--seed", "1", "--json", "-"])
        self.assertEqual(code, 1, err)
        self.assertIsNone(json.loads(out)["diagnosis"])
        self.assertIn("no diagnosis: not made above 64 cards", err)

    def test_at_the_limit(self):
        code, out, err = run(["test", "sattolo", "--n", "64", "--samples",
                              "2000", "--seed", "1", "--json", "-"])
        self.assertEqual(code, 1, err)
        self.assertEqual(json.loads(out)["diagnosis"]["name"], "sattolo")

    def test_most_decks_repeated(self):
        # 3,000 decks drawn from 300: the birthday estimate N^2 / (2R)
        # would say 2^10.7; the distinct-value law says about 300 = 2^8.2.
        rng = random.Random(3)
        pool = []
        for _ in range(300):
            deck = list(range(52))
            rng.shuffle(deck)
            pool.append(deck)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "decks.txt")
            with open(path, "w") as f:
                for _ in range(3000):
                    f.write(" ".join(map(str, rng.choice(pool))) + "\n")
            code, out, err = run(["test", "--input", path, "--n", "52",
                                  "--json", "-"])
        self.assertEqual(code, 1, err)
        g = json.loads(out)["diagnosis"]
        self.assertEqual(g["name"], "repeated-decks")
        bits = float(re.match(r"about 2\^([0-9.]+)", g["estimate"]).group(1))
        # 300 distinct decks seen out of about 300: within a fifth of a bit.
        self.assertLess(abs(bits - 8.23), 0.2, g["estimate"])

    def test_suggested_exact_runs(self):
        # A pass names an exact walk; for a deal of 52 cards it must fit
        # the hands to the small deck, and the walk must run.
        code, out, err = run(["test", "deal-fisher-yates", "--samples",
                              "2000", "--seed", "1", "--json", "-"])
        self.assertEqual(code, 0, err)
        missed = json.loads(out)["missed"]
        m = re.search(r"'(shufflebias exact [^']*)'", missed)
        self.assertIsNotNone(m, missed)
        argv = shlex.split(m.group(1))[1:]
        code, out, err = run(argv)
        self.assertEqual(code, 0, " ".join(argv) + ": " + err)

    def test_no_exact_walk_too_long(self):
        # 30 packet passes cannot be walked within the path budget at any
        # small deck: no exact walk is offered.
        code, out, err = run(["test", "human-packet", "--param",
                              "passes=30", "--n", "52", "--samples", "2000",
                              "--seed", "1", "--json", "-"])
        self.assertEqual(code, 0, err)
        self.assertNotIn("shufflebias exact", json.loads(out)["missed"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    args, rest = parser.parse_known_args()
    CLI = os.path.abspath(args.cli)
    unittest.main(argv=[sys.argv[0]] + rest)
