#!/usr/bin/env python3
"""The command line's surface: -h/--help on every command and 'help
COMMAND' (the usage, made from the command's option table, on stdout,
exit 0), the list of commands, --version/-V, the names 'list --names'
and 'list --options' give scripts, "did you mean" for --tests and --rng
names, and the messages for a bad option."""
import argparse
import json
import os
import re
import subprocess
import sys
import unittest

CLI = None
VERSION_HEADER = None


def run(args):
    p = subprocess.run([CLI] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def lines(args):
    code, out, err = run(args)
    assert code == 0, err
    return out.split("\n")[:-1]


def commands():
    return [c for c in lines(["list", "--names", "commands"]) if c != "help"]


class Help(unittest.TestCase):
    def test_help_of_every_command(self):
        cmds = commands()
        self.assertEqual(sorted(cmds), ["audit", "bench", "exact", "gate",
                                        "list", "merge", "mixing", "test"])
        for c in cmds:
            with self.subTest(command=c):
                code, usage, err = run([c, "--help"])
                self.assertEqual((code, err), (0, ""))
                self.assertTrue(usage.startswith("usage: shufflebias " + c),
                                usage)
                self.assertEqual(run([c, "-h"]), (0, usage, ""))
                self.assertEqual(run(["help", c]), (0, usage, ""))
                # --help after other options still prints the usage.
                if c != "list":
                    self.assertEqual(run([c, "--quiet", "--help"]),
                                     (0, usage, ""))
                # Every option of the table is in the usage, and nothing
                # in the usage wraps past 80 columns.
                for opt in lines(["list", "--options", c]):
                    self.assertIn(opt.split()[0], usage)
                for line in usage.split("\n"):
                    self.assertLessEqual(len(line), 80, line)

    def test_usage_lines_up(self):
        # Each option's help starts in one column; continuation lines too.
        _, usage, _ = run(["test", "--help"])
        self.assertRegex(usage, r"\n  --samples S       decks to sample")
        self.assertRegex(usage, r"\n  -h, --help        print this help")
        self.assertIn("\ninput options (with --exec and --input):\n"
                      "  --kind K          permutation (default), draw or "
                      "deal\n", usage)

    def test_list_of_commands(self):
        for args in (["--help"], ["-h"], ["help"], ["help", "--help"],
                     ["help", "-h"]):
            with self.subTest(args=args):
                code, out, err = run(args)
                self.assertEqual((code, err), (0, ""))
                self.assertTrue(out.startswith("usage: shufflebias COMMAND"))
                for c in commands():
                    self.assertRegex(out, r"\n  %s +\S" % c)
        code, out, err = run([])
        self.assertEqual((code, out), (2, ""))
        self.assertIn("usage: shufflebias COMMAND", err)

    def test_help_errors(self):
        code, out, err = run(["help", "tset"])
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(err, "shufflebias: unknown command 'tset' (did you "
                              "mean 'test'?); try 'shufflebias --help'\n")
        code, out, err = run(["exatc"])
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(err, "shufflebias: unknown command 'exatc' (did you "
                              "mean 'exact'?); try 'shufflebias --help'\n")
        code, out, err = run(["frobnicate"])
        self.assertEqual(err, "shufflebias: unknown command 'frobnicate'; "
                              "try 'shufflebias --help'\n")
        code, _, err = run(["help", "test", "exact"])
        self.assertEqual(code, 2)
        self.assertIn("one command at a time", err)

    def test_bench_help_names_no_tracker(self):
        _, usage, _ = run(["bench", "--help"])
        self.assertNotRegex(usage.lower(), r"issue|#\d")


class Version(unittest.TestCase):
    def test_version(self):
        with open(VERSION_HEADER) as f:
            want = re.search(r'#define SB_VERSION_STRING "([^"]+)"',
                             f.read()).group(1)
        for flag in ("--version", "-V"):
            with self.subTest(flag=flag):
                self.assertEqual(run([flag]),
                                 (0, "shufflebias %s\n" % want, ""))


class Names(unittest.TestCase):
    def test_names_match_list_json(self):
        code, out, _ = run(["list", "--json"])
        self.assertEqual(code, 0)
        doc = json.loads(out)
        self.assertEqual(lines(["list", "--names", "algorithms"]),
                         [a["name"] for a in doc["algorithms"]])
        self.assertEqual(lines(["list", "--names", "statistics"]),
                         [s["name"] for s in doc["statistics"]])
        self.assertEqual(lines(["list", "--names", "rngs"]),
                         [r["name"] for r in doc["rngs"]])
        self.assertEqual(lines(["list", "--names", "kinds"]),
                         ["permutation", "draw", "deal"])
        self.assertEqual(lines(["list", "--names", "formats"]),
                         ["text", "cards", "u8", "u16", "pbn"])

    def test_options_are_accepted(self):
        # Every option 'list --options' names is one the parser takes
        # (its value may be refused, the option is not), and one that
        # takes an argument is refused without it.
        for c in commands():
            for opt in lines(["list", "--options", c]):
                name, *arg = opt.split()
                if name in ("-h", "--help"):
                    continue
                with self.subTest(command=c, option=name):
                    _, _, err = run([c, name, "1", "2", "3"])
                    self.assertNotIn("unknown or incomplete option", err)
                    if arg:
                        code, _, err = run([c, name])
                        self.assertEqual((code, err), (
                            2, "shufflebias: unknown or incomplete option "
                            "'%s'; try 'shufflebias %s --help'\n"
                            % (name, c)))

    def test_bad_names(self):
        code, out, err = run(["list", "--names", "algos"])
        self.assertEqual((code, out), (2, ""))
        self.assertIn("invalid --names 'algos'", err)
        code, _, err = run(["list", "--options", "tset"])
        self.assertEqual(code, 2)
        self.assertIn("unknown command 'tset'", err)
        code, _, err = run(["list", "--json", "--names", "rngs"])
        self.assertEqual(code, 2)
        code, _, err = run(["list", "stray"])
        self.assertEqual(code, 2)
        self.assertIn("unexpected argument 'stray'", err)


class Suggestions(unittest.TestCase):
    def test_tests(self):
        code, out, err = run(["test", "fisher-yates", "--samples", "1000",
                              "--tests", "position,cycels"])
        self.assertEqual((code, out), (2, ""))
        self.assertTrue(err.startswith(
            "shufflebias: unknown statistic 'cycels' (did you mean "
            "'cycles'?); valid: position, "), err)

    def test_rng(self):
        code, out, err = run(["test", "fisher-yates", "--rng", "mt19973"])
        self.assertEqual((code, out), (2, ""))
        self.assertTrue(err.startswith(
            "shufflebias: unknown randomness source 'mt19973' (did you "
            "mean 'mt19937'?); valid: xoshiro256, "), err)

    def test_no_suggestion_when_nothing_is_close(self):
        _, _, err = run(["test", "fisher-yates", "--tests", "zzzzzzzz"])
        self.assertTrue(err.startswith(
            "shufflebias: unknown statistic 'zzzzzzzz'; valid: "), err)
        _, _, err = run(["test", "fisher-yates", "--rng", "qqqqqqqqq"])
        self.assertTrue(err.startswith(
            "shufflebias: unknown randomness source 'qqqqqqqqq'; valid: "),
            err)
        # Short names: three edits turn 'xyz' into 'mrg' and 'abc' into
        # 'hcp', but a name is no typo of one it shares nothing with.
        _, _, err = run(["test", "fisher-yates", "--rng", "xyz"])
        self.assertTrue(err.startswith(
            "shufflebias: unknown randomness source 'xyz'; valid: "), err)
        _, _, err = run(["test", "fisher-yates", "--tests", "abc"])
        self.assertTrue(err.startswith(
            "shufflebias: unknown statistic 'abc'; valid: "), err)


class BadOptions(unittest.TestCase):
    def test_messages(self):
        cases = [
            (["test", "fisher-yates", "--bogus"],
             "unknown or incomplete option '--bogus'; try 'shufflebias test "
             "--help'"),
            (["test", "fisher-yates", "--n"],
             "unknown or incomplete option '--n'; try 'shufflebias test "
             "--help'"),
            (["exact", "-x"],
             "unknown or incomplete option '-x'; try 'shufflebias exact "
             "--help'"),
            (["list", "--bogus"],
             "unknown or incomplete option '--bogus'; try 'shufflebias list "
             "--help'"),
            # An unambiguous prefix is the option: its value is checked.
            (["test", "fisher-yates", "--sam", "abc"],
             "invalid --samples 'abc': expected a count such as 200000, 1e6 "
             "or 10M"),
            (["merge", "--memory", "3"],
             "invalid --memory '3': expected a size of at least 1M such as "
             "512M, 2G or 1.5GiB (K, M, G and T are powers of 1024)"),
            (["bench", "--rounds", "0"],
             "invalid --rounds '0': expected 1 to 1000"),
            (["exact", "fisher-yates", "--max-depth", "0"],
             "invalid --max-depth '0': expected 1 to 1000000"),
            (["test", "--exec", "true", "--hands", "0"],
             "invalid --hands '0': expected 1 to 65535"),
            (["test", "fisher-yates", "--part", "3/2"],
             "invalid --part '3/2': expected I/K with 1 <= I <= K, such as "
             "1/2"),
            (["audit", "x"], "audit: unexpected argument 'x'"),
        ]
        for args, msg in cases:
            with self.subTest(args=args):
                self.assertEqual(run(args), (2, "", "shufflebias: %s\n" % msg))


def main():
    global CLI, VERSION_HEADER
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--version-header", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    VERSION_HEADER = os.path.abspath(args.version_header)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
