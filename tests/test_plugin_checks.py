#!/usr/bin/env python3
"""Broken plug-ins, end to end: each is stopped with exit 2 and a message
that says what is wrong, in 'test' and in 'exact', and none crashes the
program.

The plug-ins are built from tests/plugins/ (see each file's comment):
samples that are not of their kind (a card twice, card 65535, hand 9 of
4, every card in hand 0), a sample written past its buffer, randomness
taken from rand() or not taken at all, shapes no sample can have (no
hands, more hands than cards, a sample_len of 0 or 2^40), and a run()
that returns an error.  The good ones (rand15-mod, rand31-mod) show that
the rand() % k idiom through sb_rand_mod is walked in k branches per draw.

No verdict of a fair shuffle is asserted, so no test here can fail by
chance.

    test_plugin_checks.py --cli PATH/shufflebias --plugins DIR
"""
import argparse
import json
import os
import subprocess
import sys
import unittest

CLI = None
PLUGINS = None


def lib(name):
    return os.path.join(PLUGINS, f"libsb_test_plugin_{name}.so")


def run(args):
    """Run shufflebias with 'args'; returns (exit code, stdout, stderr)."""
    p = subprocess.run([CLI] + args, capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def test_run(shuffle, plugin, n, *extra):
    return run(["test", shuffle, "--plugin", lib(plugin), "--n", str(n),
                "--samples", "1000", "--seed", "1", "--threads", "1",
                "--quiet"] + list(extra))


def exact_run(shuffle, plugin, n, *extra):
    return run(["exact", shuffle, "--plugin", lib(plugin), "--n", str(n),
                "--quiet"] + list(extra))


class Checked(unittest.TestCase):
    def refused(self, result, *words):
        code, _, err = result
        self.assertEqual(code, 2, err)    # never a signal (negative)
        for w in words:
            self.assertIn(w, err)
        self.assertTrue(err.startswith("shufflebias: "), err)
        return err

    # ---- samples not of their kind -------------------------------------

    def test_duplicate_card(self):
        err = self.refused(test_run("dup-always", "dup_card", 5),
                           "--plugin " + lib("dup_card"), "sample 1: card ",
                           " appears twice: ")
        # The sample as written: five values after the last ': '.
        self.assertEqual(len(err.strip().split(": ")[-1].split()), 5)
        self.refused(exact_run("dup-always", "dup_card", 3),
                     "'dup-always' cannot be enumerated: the path of draws",
                     "appears twice")

    def test_first_bad_sample_whatever_the_threads(self):
        # 'dup-rarely' writes a bad sample about once in 2^17, chosen by a
        # draw: several threads meet bad samples in their own chunks, in
        # an order that varies.  The report must not: the first bad
        # sample in the run's order, and the counts of the samples before
        # it, the same on 1, 2 and 3 threads.  Seed 3's first bad sample
        # lies in the fourth chunk, seed 10's in the first while a later
        # chunk holds another (both once gave other numbers or counts on
        # two threads).
        # A part of a run (its chunks are not a shorter run's) too.
        for seed, part in (("3", []), ("10", []), ("3", ["--part", "1/2"])):
            reports = []
            for threads in ("1", "2", "3"):
                code, out, err = run(["test", "dup-rarely", "--plugin",
                                      lib("dup_card"), "--n", "8",
                                      "--samples", "3e6", "--seed", seed,
                                      "--threads", threads, "--tests",
                                      "position,cycles", "--json", "-",
                                      "--quiet"] + part)
                self.assertEqual(code, 2, err)
                rep = json.loads(out)
                self.assertEqual(rep["verdict"], "error")
                reports.append((rep["bad_sample"], rep["samples"],
                                [(t["name"], t["statistic"])
                                 for t in rep["tests"]]))
            self.assertEqual(reports[0], reports[1], seed)
            self.assertEqual(reports[0], reports[2], seed)
            self.assertTrue(reports[0][0].startswith(
                "sample %d: " % (reports[0][1] + 1)))

    def test_duplicate_card_at_52_cards_many_threads(self):
        # Every thread meets a bad sample at the start of its chunk; the
        # one told is the run's first, sample 1, with nothing counted.
        code, out, err = run(["test", "dup-always", "--plugin",
                              lib("dup_card"), "--n", "52", "--samples",
                              "200000", "--seed", "1", "--threads", "2",
                              "--quiet", "--json", "-"])
        self.assertEqual(code, 2, err)
        self.assertIn("sample 1: card ", err)
        self.assertIn("appears twice", err)
        self.assertEqual(json.loads(out)["samples"], 0)

    def test_partial_report_before_the_bad_sample(self):
        code, out, err = test_run("dup-from-17", "dup_card", 5, "--json",
                                  "-", "--tests", "position")
        self.assertEqual(code, 2, err)
        self.assertIn("sample 17: card ", err)
        rep = json.loads(out)
        self.assertTrue(rep["partial"])
        # A script reading the verdict alone is never told "pass".
        self.assertEqual(rep["verdict"], "error")
        self.assertTrue(rep["reason"].startswith("sample 17: card "))
        self.assertEqual(rep["samples"], 16)
        self.assertTrue(rep["bad_sample"].startswith("sample 17: card "))
        # The text report: the summary, no table of so few samples.
        code, out, _ = run(["test", "dup-from-17", "--plugin",
                            lib("dup_card"), "--n", "5", "--samples", "1000",
                            "--seed", "1", "--threads", "1"])
        self.assertEqual(code, 2)
        self.assertIn("verdict: ERROR (sample 17: card ", out)
        self.assertNotIn("p (Holm)", out)
        self.assertEqual([t["name"] for t in rep["tests"]], ["position"])

    def test_card_65535(self):
        self.refused(test_run("card-65535", "big_card", 5),
                     "sample 1: card 65535 is out of range 0..4: ")
        self.refused(test_run("card-65535", "big_card", 52),
                     "card 65535 is out of range 0..51")
        self.refused(exact_run("card-65535", "big_card", 3),
                     "card 65535 is out of range 0..2")

    def test_hand_9_of_4(self):
        self.refused(test_run("hand-9-of-4", "bad_deal", 8),
                     "sample 1: hand 9 is out of range 0..3: 9 ")
        self.refused(exact_run("hand-9-of-4", "bad_deal", 4),
                     "hand 9 is out of range 0..3")

    def test_every_card_in_hand_0(self):
        self.refused(test_run("all-in-hand-0", "bad_deal", 8),
                     "hand 0 holds 8 cards, 2 expected: 0 0 0 0 0 0 0 0")
        self.refused(exact_run("all-in-hand-0", "bad_deal", 4),
                     "hand 0 holds 4 cards, 1 expected")

    def test_writes_past_its_buffer(self):
        self.refused(test_run("past-the-end", "past_end", 5),
                     "'past-the-end' wrote past the end of its sample "
                     "buffer")
        self.refused(test_run("past-the-end-from-17", "past_end", 5),
                     "sample 17: wrote past the end of its sample buffer")
        self.refused(exact_run("past-the-end", "past_end", 3),
                     "wrote past the end of its sample buffer")

    # ---- randomness not the program's ----------------------------------

    def test_libc_rand_is_refused(self):
        for result in (test_run("libc-rand", "libc_rand", 5),
                       exact_run("libc-rand", "libc_rand", 3)):
            self.refused(result, "made no draw from the source",
                         "neither be reproduced", "sb_below", "--exec")

    def test_rand_added_to_draws_is_refused(self):
        for result in (test_run("below-plus-rand", "libc_rand", 5),
                       exact_run("below-plus-rand", "libc_rand", 3)):
            self.refused(result, "made a different sample",
                         "from the same seed", "sb_below", "--exec")

    def test_no_draws_is_refused(self):
        for result in (test_run("reverse-only", "no_draws", 5),
                       exact_run("reverse-only", "no_draws", 3)):
            self.refused(result, "made no draw from the source")

    def test_rand_mod_idiom_enumerates(self):
        # rand() % (i + 1) on a 15-bit rand through sb_rand_mod: 6 paths
        # at 3 cards (not the 2^30 of sb_bits(src, 15) % (i + 1)), with
        # exactly the law of the built-in fisher-yates-mod.
        code, out, err = run(["exact", "rand15-mod", "--plugin",
                              lib("rand_mod"), "--n", "3", "--json", "-"])
        self.assertEqual(code, 1, err)      # biased
        mine = json.loads(out)
        code, out, err = run(["exact", "fisher-yates-mod", "--n", "3",
                              "--json", "-"])
        ref = json.loads(out)
        self.assertEqual(mine["paths"], 6)
        self.assertEqual([(p["perm"], p["exact"]) for p in mine["permutations"]],
                         [(p["perm"], p["exact"]) for p in ref["permutations"]])
        code, out, err = run(["exact", "rand31-mod", "--plugin",
                              lib("rand_mod"), "--n", "3", "--json", "-"])
        self.assertEqual(json.loads(out)["paths"], 6)

    def test_rand_mod_idiom_runs(self):
        code, _, err = test_run("rand31-mod", "rand_mod", 52)
        self.assertIn(code, (0, 3), err)    # never refused

    def test_rand_mod_out_of_range_is_refused(self):
        # bits of 64 (a shift past the word), k = 0, k > 2^bits: refused
        # before the run, in 'test' (on the fast source and on a GSL one,
        # which takes the weighted path) and in 'exact'.
        for shuffle in ("rand-mod-64", "rand-mod-0", "rand-mod-over"):
            for result in (test_run(shuffle, "bad_rand_mod", 5),
                           test_run(shuffle, "bad_rand_mod", 5, "--rng",
                                    "mt19937"),
                           exact_run(shuffle, "bad_rand_mod", 3)):
                self.refused(result, "plug-in '" + lib("bad_rand_mod") + "'",
                             f"'{shuffle}'", "made a draw that cannot be "
                             "made", "1 <= bits <= 63", "at sample 1")
        # Only past the samples tried first: the run still ends with
        # exit 2, blaming the plug-in, not the source.
        err = self.refused(test_run("rand-mod-late", "bad_rand_mod", 5),
                           "plug-in '" + lib("bad_rand_mod") + "'",
                           "'rand-mod-late' made a draw that cannot be "
                           "made")
        self.assertNotIn("source", err)

    # ---- shapes no sample can have --------------------------------------

    def test_no_hands(self):
        for result in (test_run("no-hands", "bad_shape", 5),
                       exact_run("no-hands", "bad_shape", 3)):
            self.refused(result, "'no-hands' deals 0 hands (hands())")

    def test_more_hands_than_cards(self):
        for result in (test_run("too-many-hands", "bad_shape", 5),
                       exact_run("too-many-hands", "bad_shape", 3)):
            self.refused(result, "'too-many-hands' deals")

    def test_bad_sample_len(self):
        for shuffle in ("empty-draw", "huge-draw"):
            for result in (test_run(shuffle, "bad_shape", 5),
                           exact_run(shuffle, "bad_shape", 3)):
                err = self.refused(result, "(sample_len)",
                                   "a draw holds 1 to")
                self.assertNotIn("out of memory", err)

    # ---- run() errors -----------------------------------------------------

    def test_run_error_blames_the_plugin(self):
        err = self.refused(test_run("fails-at-20", "run_error", 5),
                           "plug-in '" + lib("run_error") + "'",
                           "'fails-at-20'", "sample 20",
                           "status 1 (invalid argument)")
        self.assertNotIn("source", err)
        self.refused(exact_run("fails-at-20", "run_error", 4),
                     "'fails-at-20' cannot be enumerated: its run() "
                     "returned status 1", "the path of draws")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--plugins", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    PLUGINS = os.path.abspath(args.plugins)
    unittest.main(argv=[sys.argv[0]] + rest)
