#!/usr/bin/env python3
"""The bash completion (src/cli/shufflebias.bash), driven in bash as
bash drives it: COMP_WORDS and COMP_CWORD set, the function called, the
words it offers read from COMPREPLY.  What it should offer is asked of
the program, as the script asks it, so the two cannot disagree."""
import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import unittest

CLI = None
SCRIPT = None


def complete(words, cwd=None):
    """COMPREPLY for the command line 'words', the last one being the word
    under the cursor (possibly '')."""
    line = "COMP_WORDS=(%s); COMP_CWORD=%d" % (
        " ".join(shlex.quote(w) for w in words), len(words) - 1)
    script = ("source %s\n%s\n_shufflebias\n"
              "printf '%%s\\n' \"${COMPREPLY[@]}\"\n"
              % (shlex.quote(SCRIPT), line))
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(CLI) + os.pathsep + env.get("PATH", "")
    p = subprocess.run(["bash", "--norc", "--noprofile", "-c", script],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, cwd=cwd, env=env)
    assert p.returncode == 0, p.stderr
    return sorted(w for w in p.stdout.split("\n") if w)


def names(what):
    p = subprocess.run([CLI, "list", "--names", what],
                       stdout=subprocess.PIPE, text=True, check=True)
    return p.stdout.split()


class Completion(unittest.TestCase):
    def test_commands(self):
        want = sorted(names("commands"))
        self.assertIn("test", want)
        self.assertEqual(complete(["shufflebias", ""]), want)
        self.assertEqual(complete(["shufflebias", "te"]), ["test"])
        self.assertEqual(complete(["shufflebias", "--v"]), ["--version"])
        self.assertEqual(complete(["shufflebias", "help", "ex"]), ["exact"])

    def test_options_per_command(self):
        self.assertEqual(complete(["shufflebias", "test", "--sam"]),
                         ["--samples"])
        self.assertEqual(complete(["shufflebias", "exact", "--ma"]),
                         ["--markdown", "--max-depth", "--max-paths"])
        # merge has no --samples; bench has --rounds, test has not.
        self.assertEqual(complete(["shufflebias", "merge", "--sa"]), [])
        self.assertEqual(complete(["shufflebias", "bench", "--ro"]),
                         ["--rounds"])
        self.assertEqual(complete(["shufflebias", "test", "--ro"]), [])
        # mixing's own: the passes, what to leave out.
        self.assertEqual(complete(["shufflebias", "mixing", "--pa"]),
                         ["--param", "--passes"])
        self.assertEqual(complete(["shufflebias", "mixing", "riffle",
                                   "--no-"]),
                         ["--no-bridge", "--no-exact", "--no-timing"])

    def test_algorithms(self):
        want = sorted(n for n in names("algorithms")
                      if n.startswith("fisher-"))
        self.assertGreater(len(want), 1)
        self.assertEqual(complete(["shufflebias", "test", "fisher-"]), want)
        self.assertEqual(complete(["shufflebias", "exact", "--n", "3",
                                   "naive-s"]), ["naive-swap"])
        self.assertEqual(complete(["shufflebias", "mixing", "--n", "52",
                                   "overh"]), ["overhand"])

    def test_statistics_after_tests(self):
        self.assertEqual(complete(["shufflebias", "test", "fisher-yates",
                                   "--tests", "posi"]), ["position"])
        # The names before the last comma are kept.
        self.assertEqual(complete(["shufflebias", "test", "--tests",
                                   "position,cyc"]), ["position,cycles"])
        # --tests=NAME: bash breaks the word at '='.
        self.assertEqual(complete(["shufflebias", "test", "--tests", "=",
                                   "inv"]), ["inversions"])

    def test_sources_after_rng(self):
        want = sorted(n for n in names("rngs") if n.startswith("mt19"))
        self.assertIn("mt19937", want)
        self.assertEqual(complete(["shufflebias", "test", "--rng", "mt19"]),
                         want)
        self.assertEqual(complete(["shufflebias", "audit", "--rng", "xo"]),
                         ["xoshiro256"])

    def test_values_of_other_options(self):
        self.assertEqual(complete(["shufflebias", "test", "--kind", "d"]),
                         ["deal", "draw"])
        self.assertEqual(complete(["shufflebias", "test", "--format", "u"]),
                         ["u16", "u8"])
        # A number: nothing to offer, and no algorithm either.
        self.assertEqual(complete(["shufflebias", "test", "--n", ""]), [])

    def test_verdicts_after_expect(self):
        # The script writes these verdicts itself: each must be one the
        # command takes (exit 0 or 1, not the usage error 2).
        cases = {"test": ["fisher-yates", "--n", "3", "--samples", "1000",
                          "--seed", "1"],
                 "exact": ["fisher-yates", "--n", "3"]}
        want = {"test": ["fail", "pass"], "exact": ["biased", "uniform"]}
        for cmd, args in cases.items():
            with self.subTest(command=cmd):
                got = complete(["shufflebias", cmd, "--expect", ""])
                self.assertEqual(got, want[cmd])
                for v in got:
                    p = subprocess.run([CLI, cmd, *args, "--expect", v,
                                        "--quiet"], capture_output=True,
                                       text=True)
                    self.assertIn(p.returncode, (0, 1), p.stderr)
        self.assertEqual(complete(["shufflebias", "test", "--expect", "f"]),
                         ["fail"])

    def test_files(self):
        with tempfile.TemporaryDirectory() as d:
            for f in ("decks.txt", "deal.py", "run.state"):
                open(os.path.join(d, f), "w").close()
            for opt in ("--input", "--json", "--state", "--resume",
                        "--plugin"):
                with self.subTest(option=opt):
                    self.assertEqual(
                        complete(["shufflebias", "test", opt, "de"], cwd=d),
                        ["deal.py", "decks.txt"])
            self.assertEqual(complete(["shufflebias", "merge", "r"], cwd=d),
                             ["run.state"])
            self.assertEqual(complete(["shufflebias", "exact", "--html",
                                       "de"], cwd=d),
                             ["deal.py", "decks.txt"])

    def test_csv_offers_directories(self):
        # --csv DIR: directories only, never the files beside them.
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "tables"))
            open(os.path.join(d, "tally.txt"), "w").close()
            for cmd in ("test", "merge", "audit", "exact"):
                with self.subTest(command=cmd):
                    self.assertEqual(
                        complete(["shufflebias", cmd, "--csv", "ta"], cwd=d),
                        ["tables"])


def main():
    global CLI, SCRIPT
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--script", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    SCRIPT = os.path.abspath(args.script)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
