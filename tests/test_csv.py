"""--csv DIR: no input or other output is written over (refused before the
run, exit 2, nothing written), run.csv says which run the files are from
(files of other names in DIR are left alone), summary.csv marks a p-value
below the double range, matrices are headed by their axes' names, and an
interrupted exact walk's totals go into run.csv alone.  No statistical
assertion: each check is of files, headers and exit codes."""
import argparse
import csv
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

CLI = None


def run(args, cwd):
    p = subprocess.run([CLI] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def keys(path):
    rows = read_csv(path)
    assert rows[0] == ["key", "value"], rows[0]
    return dict(rows[1:])


class Clashes(unittest.TestCase):
    """Each case: the files made first, the command; the file that must
    survive untouched, and what the error names."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def refused(self, args, victim, option):
        before = read_bytes(os.path.join(self.d, victim))
        dirs = {p: sorted(os.listdir(os.path.join(self.d, p)))
                for p in os.listdir(self.d)
                if os.path.isdir(os.path.join(self.d, p))}
        code, _, err = run(args, self.d)
        self.assertEqual(code, 2, err)
        csv_dir = args[args.index("--csv") + 1]
        self.assertIn("--csv '%s' would write '%s', the same file as %s '%s'"
                      % (csv_dir, victim, option, victim), err)
        self.assertEqual(read_bytes(os.path.join(self.d, victim)), before)
        # Nothing else written either.
        self.assertEqual({p: sorted(os.listdir(os.path.join(self.d, p)))
                          for p in os.listdir(self.d)
                          if os.path.isdir(os.path.join(self.d, p))}, dirs)

    def test_dir_is_another_output(self):
        # DIR named as another output: refused before the run, nothing
        # made; before, the run went on and one of the two was lost.
        for args, option in (
                (["test", "fisher-yates", "--n", "5", "--samples", "100",
                  "--json", "same", "--csv", "same"], "--json"),
                (["exact", "naive-swap", "--n", "3", "--markdown", "same",
                  "--csv", "same/"], "--markdown"),
                (["audit", "--n", "4", "--samples", "300", "--escalate",
                  "0", "--html", "same", "--csv", "same"], "--html")):
            with self.subTest(args=args):
                code, _, err = run(args + ["--quiet"], self.d)
                self.assertEqual(code, 2, err)
                self.assertIn("is the same path as %s 'same'" % option, err)
                self.assertEqual(os.listdir(self.d), [])

    def test_dir_in_the_way(self):
        # A file where a run's subdirectory goes is an error naming it,
        # after the run: the directory was free when it was checked.
        os.makedirs(os.path.join(self.d, "out"))
        self.make("out/naive-swap", "not a directory\n")
        code, _, err = run(["exact", "--all", "--n", "3", "--quiet",
                            "--csv", "out"], self.d)
        self.assertEqual(code, 2, err)
        self.assertIn("cannot make the directory 'out/naive-swap': a file "
                      "of that name is in the way", err)
        self.assertEqual(read_bytes(os.path.join(self.d, "out/naive-swap")),
                         b"not a directory\n")

    def make(self, path, text="keep me\n"):
        full = os.path.join(self.d, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)

    def state(self, path):
        os.makedirs(os.path.join(self.d, os.path.dirname(path)),
                    exist_ok=True)
        code, _, err = run(["test", "fisher-yates", "--n", "5", "--samples",
                            "200", "--seed", "1", "--quiet", "--state",
                            path], self.d)
        self.assertEqual(code, 0, err)

    def test_input(self):
        self.make("cx/position.csv", "0 1 2 3 4\n4 3 2 1 0\n" * 3)
        self.refused(["test", "--n", "5", "--input", "cx/position.csv",
                      "--csv", "cx", "--quiet"],
                     "cx/position.csv", "--input")

    def test_state_saved(self):
        self.make("sd/summary.csv")
        self.refused(["test", "fisher-yates", "--n", "5", "--samples", "100",
                      "--state", "sd/summary.csv", "--force", "--csv", "sd",
                      "--quiet"], "sd/summary.csv", "--state")

    def test_state_merged(self):
        self.state("cw/summary.csv")
        self.refused(["merge", "cw/summary.csv", "--csv", "cw", "--quiet"],
                     "cw/summary.csv", "the input")

    def test_json_and_html(self):
        self.make("cy/summary.csv")
        self.refused(["test", "fisher-yates", "--n", "5", "--samples", "100",
                      "--json", "cy/summary.csv", "--csv", "cy/", "--quiet"],
                     "cy/summary.csv", "--json")
        self.make("cz/position.csv")
        self.refused(["test", "fisher-yates", "--n", "5", "--samples", "100",
                      "--html", "cz/position.csv", "--csv", "cz", "--quiet"],
                     "cz/position.csv", "--html")
        # Beside it, the run's own record.
        self.make("cz/run.csv")
        self.refused(["test", "fisher-yates", "--n", "5", "--samples", "100",
                      "--json", "cz/run.csv", "--csv", "cz", "--quiet"],
                     "cz/run.csv", "--json")

    def test_audit(self):
        self.make("ae/audit.csv")
        self.refused(["audit", "--n", "4", "--samples", "100", "--json",
                      "ae/audit.csv", "--csv", "ae", "--quiet"],
                     "ae/audit.csv", "--json")
        self.make("ae/naive-swap/summary.csv")
        self.refused(["audit", "--n", "4", "--samples", "100", "--markdown",
                      "ae/naive-swap/summary.csv", "--csv", "ae", "--quiet"],
                     "ae/naive-swap/summary.csv", "--markdown")

    def test_exact(self):
        self.make("ex/outcomes.csv")
        for option in ("--markdown", "--html", "--json"):
            with self.subTest(option=option):
                self.refused(["exact", "naive-swap", "--n", "3", option,
                              "ex/outcomes.csv", "--csv", "ex", "--quiet"],
                             "ex/outcomes.csv", option)
        self.make("ex/naive-swap/matrix.csv")
        self.refused(["exact", "--all", "--n", "3", "--json",
                      "ex/naive-swap/matrix.csv", "--csv", "ex", "--quiet"],
                     "ex/naive-swap/matrix.csv", "--json")
        self.make("ex/grid-permutation.csv")
        self.refused(["exact", "--all", "--n", "3", "--markdown",
                      "ex/grid-permutation.csv", "--csv", "ex", "--quiet"],
                     "ex/grid-permutation.csv", "--markdown")

    def test_other_names_are_fine(self):
        self.make("ok/notes.csv")
        code, _, err = run(["test", "fisher-yates", "--n", "5", "--samples",
                            "100", "--tests", "position", "--json",
                            "ok/report.json", "--csv", "ok", "--quiet"],
                           self.d)
        self.assertEqual(code, 0, err)
        self.assertEqual(read_bytes(os.path.join(self.d, "ok/notes.csv")),
                         b"keep me\n")


class RunFile(unittest.TestCase):
    def test_test_then_another_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "csv")
            code, _, err = run(["test", "fisher-yates", "--n", "5",
                                "--samples", "300", "--seed", "11",
                                "--tests", "position,cycles", "--quiet",
                                "--no-diagnosis", "--csv", d], tmp)
            self.assertEqual(code, 0, err)
            k = keys(os.path.join(d, "run.csv"))
            self.assertEqual((k["command"], k["algorithm"], k["kind"],
                              k["n"], k["samples"], k["samples_requested"],
                              k["seed"], k["source"], k["verdict"]),
                             ("test", "fisher-yates", "permutation", "5",
                              "300", "300", "11", "algorithm", "pass"))
            for key in ("rng", "stream_version", "suspect_alpha",
                        "fail_alpha", "params"):
                self.assertIn(key, k)
            self.assertEqual(k["files"].split(),
                             ["summary.csv", "position.csv", "cycles.csv"])
            # A second run of other statistics: the same names replaced,
            # the others left, and run.csv tells them apart.
            code, _, err = run(["test", "naive-swap", "--n", "5",
                                "--samples", "300", "--seed", "12",
                                "--tests", "position", "--quiet",
                                "--no-diagnosis", "--csv", d], tmp)
            self.assertIn(code, (0, 1, 2, 3), err)
            self.assertNotEqual(code, 2, err)
            self.assertEqual(sorted(os.listdir(d)),
                             ["cycles.csv", "position.csv", "run.csv",
                              "summary.csv"])
            k = keys(os.path.join(d, "run.csv"))
            self.assertEqual((k["algorithm"], k["seed"]),
                             ("naive-swap", "12"))
            self.assertEqual(k["files"].split(),
                             ["summary.csv", "position.csv"])

    def test_merge_audit_exact(self):
        with tempfile.TemporaryDirectory() as tmp:
            code, _, err = run(["test", "fisher-yates", "--n", "5",
                                "--samples", "300", "--seed", "3",
                                "--tests", "position", "--quiet",
                                "--state", "a.state"], tmp)
            self.assertEqual(code, 0, err)
            code, _, err = run(["merge", "a.state", "--quiet", "--csv", "m"],
                               tmp)
            self.assertEqual(code, 0, err)
            k = keys(os.path.join(tmp, "m", "run.csv"))
            self.assertEqual((k["command"], k["merged_files"], k["samples"]),
                             ("merge", "1", "300"))
            code, _, err = run(["audit", "--n", "4", "--samples", "300",
                                "--escalate", "0", "--quiet", "--csv", "au"],
                               tmp)
            self.assertIn(code, (0, 1, 3), err)
            k = keys(os.path.join(tmp, "au", "run.csv"))
            self.assertEqual((k["command"], k["n"], k["files"]),
                             ("audit", "4", "audit.csv"))
            runs = read_csv(os.path.join(tmp, "au", "audit.csv"))[1:]
            self.assertEqual(int(k["runs"]), len(runs))
            for r in runs:
                kr = keys(os.path.join(tmp, "au", r[0], "run.csv"))
                self.assertEqual((kr["command"], kr["algorithm"],
                                  kr["stream_version"], kr["verdict"]),
                                 ("audit", r[0], r[3], r[4]))
            code, _, err = run(["exact", "naive-swap", "--n", "3", "--quiet",
                                "--csv", "ex"], tmp)
            self.assertEqual(code, 1, err)
            k = keys(os.path.join(tmp, "ex", "run.csv"))
            self.assertEqual((k["command"], k["algorithm"], k["n"],
                              k["paths"], k["verdict"], k["tv"],
                              k["partial"], k["files"]),
                             ("exact", "naive-swap", "3", "27", "biased",
                              "1/18", "0", "outcomes.csv matrix.csv"))


class Contents(unittest.TestCase):
    def test_p_underflow(self):
        # naive-swap's position bias at 10 cards over 200,000 samples: a
        # chi-square in the tens of thousands on 81 degrees of freedom,
        # whose p-value is far below the double range.
        with tempfile.TemporaryDirectory() as tmp:
            code, _, err = run(["test", "naive-swap", "--n", "10",
                                "--samples", "200000", "--seed", "1",
                                "--tests", "position", "--quiet",
                                "--no-diagnosis", "--csv", "u", "--json",
                                "u.json"], tmp)
            self.assertEqual(code, 1, err)
            import json
            with open(os.path.join(tmp, "u.json")) as f:
                t = json.load(f)["tests"][0]
            self.assertEqual(t["p_value_bound"], "< 1e-300")
            rows = read_csv(os.path.join(tmp, "u", "summary.csv"))
            head = rows[0]
            row = dict(zip(head, rows[1]))
            self.assertEqual((row["p_value"], row["p_underflow"]), ("0", "1"))

    def test_exact_grid(self):
        """exact --all --csv: the 3-card grid as a spreadsheet, each row's
        fractions summing to exactly 1, naive-swap's the 4, 5, 5, 5, 4, 4
        of 27 that its 27 paths give (Atwood, Coding Horror, "The Danger
        of Naivete", 2007), a never-reached order 0/1."""
        from fractions import Fraction
        with tempfile.TemporaryDirectory() as tmp:
            code, _, err = run(["exact", "--all", "--n", "3", "--csv", "g",
                                "--quiet"], tmp)
            self.assertEqual(code, 0, err)
            rows = read_csv(os.path.join(tmp, "g", "grid-permutation.csv"))
            head = rows[0]
            self.assertEqual(head, ["algorithm", "params", "ABC", "ACB",
                                    "BAC", "BCA", "CAB", "CBA",
                                    "tv_distance", "tv_decimal",
                                    "unexplored_mass"])
            grid = {r[0]: r for r in rows[1:]}
            self.assertEqual(grid["naive-swap"][2:8],
                             ["4/27", "5/27", "5/27", "5/27", "4/27",
                              "4/27"])
            self.assertEqual(grid["naive-swap"][8], "1/18")
            # Sattolo: only the two 3-cycles.
            self.assertEqual(grid["sattolo"][2:8],
                             ["0/1", "0/1", "0/1", "1/2", "1/2", "0/1"])
            for name, r in grid.items():
                if r[10] == "0/1":
                    self.assertEqual(sum(Fraction(x) for x in r[2:8]), 1,
                                     name)

    def test_axis_names(self):
        with tempfile.TemporaryDirectory() as tmp:
            code, _, err = run(["test", "partial-deal", "--n", "6",
                                "--param", "k=3", "--samples", "300",
                                "--seed", "1", "--tests", "card-slot",
                                "--quiet", "--no-diagnosis", "--csv", "cs",
                                "--json", "cs.json"], tmp)
            self.assertIn(code, (0, 1, 3), err)
            import json
            with open(os.path.join(tmp, "cs.json")) as f:
                t = json.load(f)["tests"][0]["table"]
            rows = read_csv(os.path.join(tmp, "cs", "card-slot.csv"))
            self.assertEqual(rows[0][:3], [t["row_label"], t["col_label"],
                                           "label"])
            self.assertEqual([r[2] for r in rows[1:1 + t["cols"]]],
                             t["labels"])
            self.assertEqual(rows[t["cols"]][2], "not drawn")
            code, _, err = run(["test", "deal-fisher-yates", "--samples",
                                "300", "--seed", "1", "--tests", "card-hand",
                                "--quiet", "--no-diagnosis", "--csv", "dh"],
                               tmp)
            self.assertIn(code, (0, 1, 3), err)
            self.assertEqual(read_csv(os.path.join(tmp, "dh",
                                                   "card-hand.csv"))[0],
                             ["card", "hand", "observed", "expected",
                              "ratio"])
            code, _, err = run(["exact", "deal-fisher-yates", "--n", "4",
                                "--param", "hands=2", "--param",
                                "hand-size=2", "--quiet", "--csv", "ed"],
                               tmp)
            self.assertIn(code, (0, 1), err)
            self.assertEqual(read_csv(os.path.join(tmp, "ed",
                                                   "matrix.csv"))[0][:2],
                             ["card", "hand"])


class Interrupted(unittest.TestCase):
    def test_totals_only_walk(self):
        # As in the long-run suite: 9^9 paths of the naive swap, walked
        # one by one (--walk paths; by its states it takes seconds), take
        # minutes; once its progress line says the walk is under way,
        # SIGINT.  The totals have no outcome and no matrix: run.csv alone,
        # saying the walk is partial.
        import pty
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "walk")
            master, slave = pty.openpty()
            p = subprocess.Popen([CLI, "exact", "naive-swap", "--n", "9",
                                  "--walk", "paths", "--max-paths", "1e9",
                                  "--csv", d],
                                 stdout=subprocess.DEVNULL, stderr=slave)
            os.close(slave)
            seen = b""
            while b"paths" not in seen:
                seen += os.read(master, 4096)
            p.send_signal(signal.SIGINT)
            p.wait(timeout=600)
            os.close(master)
            self.assertEqual(p.returncode, 130)
            self.assertEqual(os.listdir(d), ["run.csv"])
            k = keys(os.path.join(d, "run.csv"))
            self.assertEqual((k["partial"], k["files"]), ("1", ""))
            self.assertGreater(int(k["paths"]), 0)


def main():
    global CLI
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
