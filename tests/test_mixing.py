#!/usr/bin/env python3
"""'shufflebias mixing ALG': how far a pass-based shuffle is from uniform
after each number of passes, and what the battery sees of it.

Each check compares the command with something it does not compute
itself: Bayer and Diaconis's Table 1 for 52 cards, the exact walk over
every path of draws ('exact --walk paths'), a closed form for the
overhand shuffle at 3 cards, New Age Solitaire dealt literally in Python,
and 'shufflebias test' at the same seed and decks.  Then the default list
of passes and its answer, the usage errors, the reports (byte for byte
across threads with --no-timing, the page and the Markdown table).

Every measured run has a fixed seed, so every verdict here is the same on
every run.  The whole file takes a few seconds.

    test_mixing.py --cli PATH/shufflebias
"""
import argparse
import itertools
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest
from collections import deque
from fractions import Fraction

CLI = None

# Bayer and Diaconis (1992), Table 1: the total-variation distance from
# uniform of a 52-card deck after 1 to 10 GSR riffles, to 3 decimals.
TABLE_1 = [1.000, 1.000, 1.000, 1.000, 0.924, 0.614, 0.334, 0.167, 0.085,
           0.043]


def run(*args, cwd=None):
    p = subprocess.run([CLI, *args], capture_output=True, text=True,
                       timeout=300, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def run_json(*args):
    """The JSON report a run writes on standard output (exit 0 asked for
    by the caller's own check)."""
    code, out, err = run(*args, "--json", "-")
    try:
        return code, json.loads(out)
    except ValueError:
        raise AssertionError(f"{args}: exit {code}, no JSON: {err}")


def mixing(*args):
    code, rep = run_json("mixing", *args)
    if code != 0:
        raise AssertionError(f"mixing {args}: exit {code}")
    return rep


def path_walk(alg, n, passes, *more):
    """The law over decks after 'passes' passes, from the walk over every
    path of draws: the JSON of 'exact --walk paths'."""
    code, rep = run_json("exact", alg, "--n", str(n), "--param",
                         f"passes={passes}", *more, "--walk", "paths",
                         "--no-timing")
    if code not in (0, 1):
        raise AssertionError(f"exact {alg} passes={passes}: exit {code}")
    return rep


def alice_wins(deck):
    """New Age Solitaire dealt literally (stats/new_age_solitaire.c): the
    deck is dealt from its top, deck[0]; with h = n/2 Alice collects cards
    0, 1, ..., h-1 in that order and Bob n-1, n-2, ..., n-h; a card that
    is neither player's next goes to the bottom; whoever completes a pile
    first wins."""
    n = len(deck)
    h = n // 2
    alice = list(range(h))
    bob = list(range(n - 1, n - h - 1, -1))
    a = b = 0
    d = deque(deck)
    while True:
        c = d.popleft()
        if c == alice[a]:
            a += 1
            if a == h:
                return True
        elif c == bob[b]:
            b += 1
            if b == h:
                return False
        else:
            d.append(c)


class Exact(unittest.TestCase):
    def test_riffle_52_is_bayer_and_diaconis_table_1(self):
        rep = mixing("riffle", "--n", "52", "--passes", "1-10",
                     "--samples", "0")
        self.assertEqual(rep["exact"], "rising-sequences")
        self.assertEqual(rep["samples"], 0)
        self.assertEqual([r["passes"] for r in rep["rows"]],
                         list(range(1, 11)))
        for r, want in zip(rep["rows"], TABLE_1):
            with self.subTest(passes=r["passes"]):
                self.assertEqual(round(r["tv"], 3), want)
                self.assertFalse(r["measured"])
                self.assertIsNone(r["verdict"])
                # A reduced fraction, whose value is the decimal beside.
                p, q = (int(x) for x in r["tv_exact"].split("/"))
                self.assertEqual(math.gcd(p, q), 1)
                # (The decimal is GMP's, truncated: within an ulp.)
                self.assertTrue(math.isclose(p / q, r["tv"],
                                             rel_tol=1e-15))
                sep = Fraction(r["separation_exact"])
                self.assertTrue(math.isclose(float(sep), r["separation"],
                                             rel_tol=1e-15))
                self.assertGreaterEqual(sep, Fraction(r["tv_exact"]))
        # Nothing measured: no answer.
        self.assertIsNone(rep["answer"]["caught_up_to"])
        self.assertIsNone(rep["answer"]["first_missed"])

    def test_riffle_agrees_with_the_walk_over_paths(self):
        # The rising-sequence law against every path of draws.
        for n in (4, 5):
            rep = mixing("riffle", "--n", str(n), "--passes", "1-3",
                         "--samples", "0")
            self.assertEqual(rep["exact"], "rising-sequences")
            for r in rep["rows"]:
                with self.subTest(n=n, passes=r["passes"]):
                    walk = path_walk("riffle", n, r["passes"])
                    self.assertEqual(Fraction(r["tv_exact"]),
                                     Fraction(walk["tv_distance_exact"]))

    def test_overhand_agrees_with_the_walk_over_paths(self):
        # The walk over states read after every pass, against a walk over
        # every path for each pass count; New Age Solitaire's exact odds
        # against the game dealt literally on each deck of the path walk.
        rep = mixing("overhand", "--n", "4", "--passes", "1-3",
                     "--samples", "0")
        self.assertEqual(rep["exact"], "states")
        self.assertEqual(rep["params"], {"cut-bits": 2})
        for r in rep["rows"]:
            with self.subTest(passes=r["passes"]):
                walk = path_walk("overhand", 4, r["passes"])
                self.assertEqual(Fraction(r["tv_exact"]),
                                 Fraction(walk["tv_distance_exact"]))
                probs = [Fraction(o["exact"]) for o in walk["permutations"]]
                self.assertEqual(sum(probs), 1)
                wins = sum(Fraction(o["exact"])
                           for o in walk["permutations"]
                           if alice_wins(o["perm"]))
                solitaire = r["new_age_solitaire"]
                self.assertEqual(Fraction(solitaire["exact"]), wins)
                self.assertTrue(math.isclose(solitaire["alice_wins"],
                                             float(wins), rel_tol=1e-15))
                # A flawed shuffle from the sorted deck favours Alice.
                self.assertGreater(wins, Fraction(1, 2))

    def test_literal_game_is_fair_on_a_fair_deck(self):
        # The referee above: on all 24 decks of 4 cards Alice wins half.
        decks = list(itertools.permutations(range(4)))
        self.assertEqual(sum(alice_wins(list(d)) for d in decks), 12)
        self.assertTrue(alice_wins([0, 1, 2, 3]))
        self.assertFalse(alice_wins([3, 2, 1, 0]))

    def test_overhand_three_cards_closed_form(self):
        # At 3 cards with cut-bits=2 (its default), one pass leaves the
        # distance to uniform times 7/8, from 1/2 at the start.
        rep = mixing("overhand", "--n", "3", "--passes", "1-6",
                     "--samples", "0")
        self.assertEqual(rep["exact"], "states")
        self.assertEqual([r["passes"] for r in rep["rows"]],
                         list(range(1, 7)))
        for r in rep["rows"]:
            with self.subTest(passes=r["passes"]):
                want = Fraction(7, 8) ** r["passes"] / 2
                self.assertEqual(Fraction(r["tv_exact"]), want)
                self.assertEqual(r["tv_exact"],
                                 f"{want.numerator}/{want.denominator}")
                # Below 4 cards the game is not played.
                self.assertIsNone(r["new_age_solitaire"]["exact"])


class Measured(unittest.TestCase):
    def test_row_is_the_run_of_test(self):
        # At 20,000 decks the battery catches 7 riffles of 52 cards (the
        # rising sequences, at a p-value that underflows) and not 16
        # (0.00067 from uniform in total variation).
        rep = mixing("riffle", "--n", "52", "--passes", "7,16",
                     "--samples", "20000", "--seed", "1")
        self.assertEqual(rep["samples"], 20000)
        self.assertEqual(rep["seed"], 1)
        seven, sixteen = rep["rows"]
        self.assertEqual((seven["passes"], sixteen["passes"]), (7, 16))
        self.assertTrue(seven["measured"])
        self.assertEqual(seven["verdict"], "fail")
        self.assertIsInstance(seven["decks_needed"], int)
        self.assertGreater(seven["decks_needed"], 0)
        self.assertLess(seven["decks_needed"], 20000)
        self.assertIn(seven["decks_needed_by"],
                      [s["name"] for s in seven["statistics"]])
        self.assertEqual(sixteen["verdict"], "pass")
        self.assertIsNone(sixteen["decks_needed"])
        self.assertIsNone(sixteen["decks_needed_by"])
        self.assertEqual(rep["answer"], {"samples": 20000,
                                         "caught_up_to": 7,
                                         "first_missed": 16})
        # The row's decks needed: the fewest any statistic needs, each
        # planned only where the statistic did not pass.
        planned = {s["name"]: s["decks_needed"] for s in seven["statistics"]
                   if s["decks_needed"] is not None}
        self.assertEqual(min(planned.values()), seven["decks_needed"])
        self.assertEqual(planned[seven["decks_needed_by"]],
                         seven["decks_needed"])
        for s in seven["statistics"] + sixteen["statistics"]:
            if s["verdict"] == "pass":
                self.assertIsNone(s["decks_needed"], s["name"])
        # A 52-card deck is dealt to 4 hands too.
        self.assertIn(seven["bridge"]["verdict"],
                      ("pass", "suspect", "fail"))

        # The row of 7 passes is 'test riffle --param passes=7' at the
        # same seed and decks: the same statistics, the same p-values.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            code, _, err = run("test", "riffle", "--n", "52", "--param",
                               "passes=7", "--samples", "20000", "--seed",
                               "1", "--no-diagnosis", "--json", path,
                               "--quiet")
            self.assertEqual(code, 1, err)
            with open(path) as f:
                test = json.load(f)
        self.assertEqual(test["verdict"], "fail")
        self.assertEqual(len(test["stages"]), 1)
        self.assertEqual([(t["name"], t["p_adjusted"], t["verdict"])
                          for t in test["tests"]],
                         [(s["name"], s["p"], s["verdict"])
                          for s in seven["statistics"]])
        self.assertEqual([t["effect"] for t in test["tests"]],
                         [s["effect"] for s in seven["statistics"]])
        solitaire = next(t for t in test["tests"]
                         if t["name"] == "new-age-solitaire")
        won, lost = solitaire["table"]["observed"][0]
        self.assertEqual(seven["new_age_solitaire"]["alice_wins"],
                         won / (won + lost))
        self.assertIsNone(seven["new_age_solitaire"]["exact"])

    def test_default_list_stops_after_two_passes(self):
        # 1, 2, 3, ... until the battery has passed twice in a row.
        rep = mixing("riffle", "--n", "16", "--samples", "2000",
                     "--seed", "3")
        rows = rep["rows"]
        passes = [r["passes"] for r in rows]
        self.assertEqual(passes, list(range(1, len(rows) + 1)))
        self.assertGreaterEqual(len(rows), 3)
        verdicts = [r["verdict"] for r in rows]
        self.assertEqual(verdicts[-2:], ["pass", "pass"])
        # Never two passes in a row before the end.
        for i in range(len(verdicts) - 2):
            self.assertFalse(verdicts[i] == verdicts[i + 1] == "pass", i)
        # The answer: the most passes that failed, and the fewest above
        # them that passed.
        caught = max(r["passes"] for r in rows if r["verdict"] == "fail")
        missed = min(r["passes"] for r in rows
                     if r["passes"] > caught and r["verdict"] == "pass")
        self.assertEqual(rep["answer"]["caught_up_to"], caught)
        self.assertEqual(rep["answer"]["first_missed"], missed)
        self.assertTrue(all(r["measured"] for r in rows))

    def test_default_list_past_ten(self):
        # After 10, a quarter more each time: 13, 17, 22, ...  With no deck
        # measured the list ends at the first pass count whose exact
        # distance is below 1e-4 (22 riffles of 52 cards: 1.1e-5; 17:
        # 3.4e-4), and --max-passes ends it sooner.
        rep = mixing("riffle", "--n", "52", "--samples", "0")
        rows = rep["rows"]
        self.assertEqual([r["passes"] for r in rows],
                         list(range(1, 11)) + [13, 17, 22])
        self.assertLess(rows[-1]["tv"], 1e-4)
        self.assertTrue(all(r["tv"] >= 1e-4 for r in rows[:-1]))
        rep = mixing("riffle", "--n", "52", "--samples", "0",
                     "--max-passes", "15")
        self.assertEqual([r["passes"] for r in rep["rows"]],
                         list(range(1, 11)) + [13])


class Plugin(unittest.TestCase):
    def test_a_plugin_with_passes(self):
        # A test plug-in that declares its passes (SB_PLUGIN_MARKOV): its
        # exact columns come from the walk over states and equal the path
        # walk's, and its rows are measured like a built-in's.
        lib = os.path.join(os.path.dirname(CLI),
                           "libsb_test_plugin_markov_steps.so")
        rep = mixing("--plugin", lib, "top-swap", "--n", "4", "--passes",
                     "1-3", "--samples", "2000", "--seed", "1")
        self.assertEqual(rep["exact"], "states")
        self.assertEqual([r["passes"] for r in rep["rows"]], [1, 2, 3])
        for row in rep["rows"]:
            self.assertTrue(row["measured"])
            self.assertIsNone(row["bridge"])
            code, walk = run_json("exact", "--plugin", lib, "top-swap",
                                  "--n", "4", "--param",
                                  "passes=%d" % row["passes"], "--walk",
                                  "paths")
            self.assertIn(code, (0, 1))
            self.assertEqual(row["tv_exact"], walk["tv_distance_exact"])


class Usage(unittest.TestCase):
    def test_errors(self):
        cases = [
            (["mixing", "fisher-yates"],
             "mixing: 'fisher-yates' has no 'passes' parameter"),
            (["mixing", "riffle", "--passes", "3-1"],
             "invalid --passes '3-1'"),
            (["mixing", "riffle", "--passes", "2,2"],
             "invalid --passes '2,2'"),
            (["mixing", "riffle", "--param", "passes=3"],
             "mixing: the passes are --passes LIST, not --param"),
            (["mixing", "riffle", "--samples", "-1"],
             "invalid --samples '-1'"),
        ]
        for args, msg in cases:
            with self.subTest(args=args):
                code, out, err = run(*args)
                self.assertEqual(code, 2)
                self.assertEqual(out, "")
                self.assertTrue(err.startswith("shufflebias: " + msg), err)
                self.assertEqual(err.count("\n"), 1, err)

    def test_no_timing_is_the_same_bytes_on_any_threads(self):
        args = ["mixing", "riffle", "--n", "16", "--passes", "4-6",
                "--samples", "3000", "--seed", "2", "--no-timing",
                "--json", "-"]
        one = run(*args, "--threads", "1")
        two = run(*args, "--threads", "2")
        self.assertEqual(one[0], 0, one[2])
        self.assertEqual(one[1], two[1])
        rep = json.loads(one[1])
        self.assertNotIn("timing", rep)
        self.assertNotIn("threads", rep)
        # Without it, the threads and the time are there.
        code, rep = run_json(*args[:-3], "--threads", "2")
        self.assertEqual((code, rep["threads"]), (0, 2))
        self.assertIn("seconds", rep["timing"])


class Reports(unittest.TestCase):
    def test_page_and_markdown(self):
        with tempfile.TemporaryDirectory() as d:
            page = os.path.join(d, "m.html")
            md = os.path.join(d, "m.md")
            code, out, err = run("mixing", "riffle", "--n", "16",
                                 "--passes", "4-8", "--samples", "2000",
                                 "--seed", "3", "--html", page,
                                 "--markdown", md, "--quiet")
            self.assertEqual((code, out, err), (0, "", ""))
            with open(page) as f:
                html = f.read()
            with open(md) as f:
                text = f.read()
        self.assertEqual(html.count("<svg class=\"plot\""), 2)
        self.assertIn('id="mixing-distance"', html)
        self.assertIn('id="mixing-decks"', html)
        self.assertNotIn("<script", html.lower())
        self.assertEqual(html.count("<tr data-passes="), 5)
        lines = text.splitlines()
        head = next(i for i, l in enumerate(lines)
                    if l.startswith("| passes |"))
        self.assertTrue(lines[head + 1].startswith("|---:|"))
        rows = lines[head + 2:head + 7]
        self.assertEqual([r.split("|")[1].strip() for r in rows],
                         ["4", "5", "6", "7", "8"])
        self.assertIn("**FAIL**", rows[0])
        self.assertIn(" PASS ", rows[4])
        self.assertIn("**At 2,000 decks the battery tells apart up to 6 "
                      "passes (8 passes pass).**", text)


def main():
    global CLI
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    unittest.main(argv=[sys.argv[0], *rest])


if __name__ == "__main__":
    main()
