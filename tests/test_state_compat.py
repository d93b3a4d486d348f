#!/usr/bin/env python3
"""State files written by an earlier build are still read the same way.

tests/data/state-v1/ holds the last part (--part 2/2) of five runs, saved
by an earlier build of the program (its README says how): a permutation
run with every statistic whose saved words differ (position's counts,
the histograms of fixed-points ... successions, serial's pairs and
collisions' fingerprints), a riffle whose parts repeat each other's
decks (so that collisions counts repeats across the files), a deal and a
draw with their default statistics.  Today's program makes the other
part, merges the old one with it, and must give the report it gives for
the same run made in one go, and for the same merge of two parts it made
itself; resuming the old file must give the report of today's part.
The fifth, of fisher-yates-mod, whose decks have changed since (stream
version 3), must be refused by both, saying why.  A change to what a statistic
saves, or to how its words are keyed, reads the old file differently or
refuses it, and fails here: the suite's other tests only read state files
written by the same build.

Every comparison is of counts and what is computed from them, which do not
depend on chance; no assertion here is statistical, and nothing is timed.

    test_state_compat.py --cli PATH/shufflebias
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

CLI = None
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                    "state-v1")

# Keys that depend on the machine a report was made on.
MACHINE = {"timing", "memory"}
# Keys that say how a report was made (a merge or a run in one go).
HOW = MACHINE | {"stages", "tables", "samples_total", "merged"}

# One chunk (65536 samples) and a short one: the old files hold the short
# last chunk, so that collisions' fingerprints stay a few thousand.
SAMPLES = str(65536 + 2048)

# The runs the old files were made of, as given to 'shufflebias test'.
RUNS = {
    "fisher-yates.state": [
        "fisher-yates", "--n", "15", "--seed", "7", "--samples", SAMPLES,
        "--tests", "position,fixed-points,cycles,rising,descents,"
                   "inversions,successions,serial,collisions"],
    # One riffle of 15 cards reaches about 2^15 decks: its parts share
    # many, so a fingerprint read back wrong changes collisions' count.
    "riffle.state": ["riffle", "--n", "15", "--param", "passes=1", "--seed",
                     "7", "--samples", SAMPLES, "--tests",
                     "collisions,rising"],
    # Made with the default deal battery of its day, which had no
    # 'serial': today's runs name those six statistics, in that order.
    "deal.state": ["deal-fisher-yates", "--n", "52", "--seed", "7",
                   "--samples", SAMPLES, "--tests",
                   "card-hand,hand-patterns,suit-lengths,hcp,"
                   "same-hand-pairs,collisions"],
    "draw.state": ["partial-deal", "--n", "52", "--seed", "7",
                   "--samples", SAMPLES],
}


def without(rep, keys):
    return {k: v for k, v in rep.items() if k not in keys}


class OldStateFiles(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def run_cli(self, *args):
        p = subprocess.run([CLI, *args], capture_output=True, text=True,
                           timeout=600)
        # 0 or 1: a report with a verdict (pass or fail), not an error.
        if p.returncode not in (0, 1):
            raise AssertionError(f"{args}: exit {p.returncode}: {p.stderr}")
        return p

    def report(self, *args):
        return json.loads(self.run_cli(*args, "--json", "-").stdout)

    def old(self, name):
        """A copy of the old file, so that nothing here can change it."""
        copy = self.path("old-" + name)
        shutil.copyfile(os.path.join(DATA, name), copy)
        return copy

    def check_run(self, name):
        run = RUNS[name]
        old = self.old(name)
        new1, new2 = self.path("new1.state"), self.path("new2.state")
        self.run_cli("test", *run, "--part", "1/2", "--state", new1,
                     "--quiet")
        self.run_cli("test", *run, "--part", "2/2", "--state", new2,
                     "--quiet")

        # The old part read on its own: the report of today's part.
        alone = self.report("merge", old)
        self.assertEqual(without(alone, MACHINE),
                         without(self.report("merge", new2), MACHINE))
        self.assertEqual(alone["samples"], 2048)

        # Merged with today's part 1, in either order: the merge of
        # today's two parts, and the run made in one go.
        mine = without(self.report("merge", new1, new2), MACHINE)
        whole = self.report("test", *run)
        self.assertEqual(whole["samples"], int(SAMPLES))
        for files in ((new1, old), (old, new1)):
            merged = self.report("merge", *files)
            self.assertFalse(merged["partial"])
            self.assertEqual(without(merged, MACHINE), mine)
            self.assertEqual(without(merged, HOW), without(whole, HOW))

        # Resumed: the old part is complete, so it is only reported, as
        # today's part 2/2 made in one go.
        resumed = self.report("test", "--resume", old)
        self.assertEqual(without(resumed, MACHINE),
                         without(self.report("test", *run, "--part", "2/2"),
                                 MACHINE))
        # Merged into a state of its own and resumed: the missing part is
        # made, and the report is the whole run's.
        joined = self.path("joined.state")
        self.run_cli("merge", old, "--state", joined, "--quiet")
        done = self.report("test", "--resume", joined)
        self.assertEqual(without(done, MACHINE), without(whole, MACHINE))

    def test_permutation_statistics(self):
        self.check_run("fisher-yates.state")

    def test_collisions_across_files(self):
        self.check_run("riffle.state")

    def test_deal(self):
        self.check_run("deal.state")

    def test_draw(self):
        self.check_run("draw.state")

    def test_changed_stream_is_refused(self):
        # fisher-yates-mod's decks changed in stream version 3 (its index is
        # the rand() value reduced, no longer a weighted draw): the old
        # part, of version 2, is neither resumed nor merged with today's
        # parts, and each refusal says why.  Read alone it is still the
        # old run it was, under its own version.
        old = self.old("fisher-yates-mod.state")
        run = ["fisher-yates-mod", "--n", "15", "--seed", "7", "--samples",
               SAMPLES, "--tests", "position,fixed-points"]
        p = subprocess.run([CLI, "test", "--resume", old], capture_output=True,
                           text=True, timeout=600)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stdout, "")
        self.assertIn("was made with stream version 2", p.stderr)
        self.assertIn("this program makes version 3 (65536, 64) for "
                      "'fisher-yates-mod' on 'xoshiro256'", p.stderr)
        new1 = self.path("new1.state")
        self.run_cli("test", *run, "--part", "1/2", "--state", new1,
                     "--quiet")
        self.assertEqual(self.report("merge", new1)["stream_version"], 3)
        for files in ((new1, old), (old, new1)):
            p = subprocess.run([CLI, "merge", *files], capture_output=True,
                               text=True, timeout=600)
            self.assertEqual(p.returncode, 2)
            self.assertEqual(p.stdout, "")
            self.assertIn("stream version", p.stderr)
            self.assertIn("made by programs whose samples for this run "
                          "differ", p.stderr)
        alone = self.report("merge", old)
        self.assertEqual(alone["stream_version"], 2)
        self.assertEqual(alone["samples"], 2048)
        # Merged into a state of its own, it still cannot be resumed.
        joined = self.path("joined.state")
        self.run_cli("merge", old, "--state", joined, "--quiet")
        p = subprocess.run([CLI, "test", "--resume", joined],
                           capture_output=True, text=True, timeout=600)
        self.assertEqual(p.returncode, 2)
        self.assertIn("was made with stream version 2", p.stderr)

    def test_unchanged_streams_keep_their_version(self):
        # The old files of the other runs were made with version 2, and
        # today's program still makes their decks under version 2.
        for name in ("fisher-yates.state", "riffle.state", "deal.state",
                     "draw.state"):
            with self.subTest(file=name):
                self.assertEqual(self.report("merge", self.old(name))
                                 ["stream_version"], 2)
                self.assertEqual(self.report("test", *RUNS[name], "--samples",
                                             "1000")["stream_version"], 2)


def main():
    global CLI
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    unittest.main(argv=[sys.argv[0], *rest])


if __name__ == "__main__":
    main()
