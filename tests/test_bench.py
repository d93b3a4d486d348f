#!/usr/bin/env python3
"""'shufflebias bench' end to end: what it reports, never how fast.

No figure is asserted against a threshold: a timed assertion on a shared
machine is a flaky test.  What is checked is the shape and the arithmetic
of the report: every row and target of docs/speed.md is there,
each row's median, minimum and maximum are those of its own per-round
timings (recomputed here), each ratio is the row's median over the median
of GSL's row at the same n, each target's verdict follows from its figure
and its limit, the exact row walked n^n paths, and the usage errors exit
with code 2.  All runs use --quick (tiny runs, well under a second).

    test_bench.py --cli PATH/shufflebias
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import unittest

CLI = None

# The deck sizes of the sampling rows, and exact mode's under --quick.
SIZES = (3, 52, 1000)
EXACT_N_QUICK = 6


def run(args):
    """Run shufflebias with 'args'; returns (exit code, stdout, stderr)."""
    p = subprocess.run([CLI] + args, capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def bench_json(*extra):
    code, out, err = run(["bench", "--quick", "--json", "-"] + list(extra))
    if code != 0:
        raise AssertionError(f"bench exited {code}: {err}")
    return json.loads(out)


def find(rows, kind, n, algorithm=None, threads=1):
    found = [r for r in rows if r["kind"] == kind and r["n"] == n
             and r["threads"] == threads
             and (algorithm is None or r["algorithm"] == algorithm)]
    if len(found) != 1:
        raise AssertionError(f"expected one {kind} row at n={n}, "
                             f"threads={threads}; got {len(found)}")
    return found[0]


class Bench(unittest.TestCase):
    def check_arithmetic(self, rep):
        """Each row's figures follow from its own timings."""
        rows = rep["rows"]
        for r in rows:
            with self.subTest(row=r["name"], n=r["n"]):
                ns = r["ns"]
                self.assertEqual(len(ns), rep["rounds"])
                self.assertEqual(r["rounds"], rep["rounds"])
                self.assertTrue(all(v > 0 for v in ns))
                self.assertAlmostEqual(r["median_ns"], statistics.median(ns),
                                       delta=1e-9 * r["median_ns"])
                self.assertEqual(r["min_ns"], min(ns))
                self.assertEqual(r["max_ns"], max(ns))
                gsl = find(rows, "gsl", r["n"])
                self.assertGreater(r["ratio_to_gsl"], 0)
                self.assertAlmostEqual(
                    r["ratio_to_gsl"], r["median_ns"] / gsl["median_ns"],
                    delta=1e-12 * r["ratio_to_gsl"])
                self.assertGreaterEqual(r["per_measurement"], 1)

    def test_quick_json_has_every_row_and_target(self):
        rep = bench_json()
        self.assertEqual(rep["command"], "bench")
        self.assertEqual(rep["rounds"], 1)
        self.assertTrue(rep["quick"])
        self.assertFalse(rep["partial"])
        rows = rep["rows"]
        for n in SIZES:
            self.assertEqual(find(rows, "gsl", n)["ratio_to_gsl"], 1.0)
            find(rows, "bare", n, "fisher-yates")
            self.assertEqual(find(rows, "position", n, "fisher-yates")
                             ["statistics"], ["position"])
        # Exact mode against GSL at its own deck size: naive-swap draws n
        # times from n cards, so its tree has n^n paths, all walked.
        find(rows, "gsl", EXACT_N_QUICK)
        exact = find(rows, "exact", EXACT_N_QUICK, "naive-swap")
        self.assertEqual(exact["unit"], "path")
        self.assertEqual(exact["per_measurement"], EXACT_N_QUICK ** EXACT_N_QUICK)
        # The same law by the walk over states, per path it stands for.
        states = find(rows, "states", EXACT_N_QUICK, "naive-swap")
        self.assertEqual(states["unit"], "path")
        self.assertEqual(states["per_measurement"],
                         EXACT_N_QUICK ** EXACT_N_QUICK)
        # The battery on one thread and on two, the same decks and
        # statistics, and the figures the targets read derived from them.
        one = find(rows, "battery", 52, "fisher-yates", threads=1)
        two = find(rows, "battery", 52, "fisher-yates", threads=2)
        self.assertEqual(one["per_measurement"], two["per_measurement"])
        self.assertEqual(one["statistics"], two["statistics"])
        self.assertIn("position", one["statistics"])
        bat = rep["battery"]
        rate1, rate2 = 1e9 / one["median_ns"], 1e9 / two["median_ns"]
        self.assertAlmostEqual(bat["decks_per_second_1_thread"], rate1,
                               delta=1e-9 * rate1)
        self.assertAlmostEqual(bat["speedup_2_threads"], rate2 / rate1,
                               delta=1e-9 * rate2 / rate1)
        self.assertAlmostEqual(bat["decks_per_second_per_core"],
                               min(rate1, rate2 / 2), delta=1e-9 * rate1)
        self.check_arithmetic(rep)

        # Beside it, fisher-yates-mod at 52 cards alone: bare, and with
        # the same battery on two threads, and at no
        # other size, with no other row.
        find(rows, "bare", 52, "fisher-yates-mod")
        mod = find(rows, "battery", 52, "fisher-yates-mod", threads=2)
        self.assertEqual(mod["statistics"], one["statistics"])
        self.assertEqual(sorted((r["kind"], r["n"], r["threads"])
                                for r in rows
                                if r["algorithm"] == "fisher-yates-mod"),
                         [("bare", 52, 1), ("battery", 52, 2)])

        # Every sample checked, as a plug-in's are: its own row at 52 cards.
        checked = find(rows, "checked", 52, "fisher-yates")
        self.assertEqual(checked["statistics"], ["position"])
        position = find(rows, "position", 52, "fisher-yates")

        targets = {t["name"]: t for t in rep["targets"]}
        self.assertEqual(len(targets), 5)
        expect = {
            "fisher-yates n=52 bare: time / GSL's":
                ("at most", 1 / 12,
                 find(rows, "bare", 52, "fisher-yates")["ratio_to_gsl"]),
            "fisher-yates n=52 + position: time / GSL's":
                ("at most", 1 / 6,
                 find(rows, "position", 52, "fisher-yates")["ratio_to_gsl"]),
            "fisher-yates n=52: cost of checking samples":
                ("at most", 0.05,
                 checked["median_ns"] / position["median_ns"] - 1),
            "battery n=52: 2-thread speed-up":
                ("at least", 1.8, rate2 / rate1),
            "battery n=52: decks/s per core":
                ("at least", 1e6, min(rate1, rate2 / 2)),
        }
        for name, (compare, limit, measured) in expect.items():
            with self.subTest(target=name):
                t = targets[name]
                self.assertEqual(t["compare"], compare)
                self.assertAlmostEqual(t["limit"], limit, delta=1e-12)
                self.assertAlmostEqual(t["measured"], measured,
                                       delta=1e-9 * abs(measured) + 1e-12)
                met = (t["measured"] <= t["limit"] if compare == "at most"
                       else t["measured"] >= t["limit"])
                self.assertIs(t["met"], met)

    def test_rounds_median_min_max(self):
        # Three rounds: the median is the middle one of each row's own
        # timings, recomputed here.
        rep = bench_json("--rounds", "3")
        self.assertEqual(rep["rounds"], 3)
        self.check_arithmetic(rep)

    def test_text_table(self):
        code, out, err = run(["bench", "--quick"])
        self.assertEqual(code, 0, err)
        for needle in ("gsl_ran_shuffle mt19937", "fisher-yates + position",
                       "fisher-yates + battery", "exact naive-swap",
                       "targets:", "speed-up"):
            self.assertIn(needle, out)

    def test_text_columns_line_up(self):
        # The longest label of a named algorithm ("fisher-yates-mod +
        # position, checked") is wider than the default column: every row's
        # figures still start where the header's do.
        code, out, err = run(["bench", "--quick", "fisher-yates-mod"])
        self.assertEqual(code, 0, err)
        lines = out.splitlines()
        head = next(i for i, l in enumerate(lines) if l.startswith("row "))
        # The column of n is right-aligned: its last character is the
        # header's "n".
        end = lines[head].index(" n ") + 1
        rows = []
        for line in lines[head + 1:]:
            if line.startswith(("battery on", "not run", "targets")):
                break
            if line.strip():
                rows.append(line)
        self.assertIn("fisher-yates-mod + position, checked",
                      "\n".join(rows))
        for line in rows:
            with self.subTest(line=line):
                self.assertTrue(line[end].isdigit())
                self.assertEqual(line[end + 1], " ")
                # The label and the n field between them leave a space.
                label, n = line[:end + 1].rsplit(None, 1)
                self.assertTrue(n.isdigit())
                self.assertTrue(line[:end + 1].startswith(label))

    def test_json_file_and_quiet(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bench.json")
            code, out, err = run(["bench", "--quick", "--quiet", "--json",
                                  path])
            self.assertEqual(code, 0, err)
            self.assertEqual(out, "")
            with open(path) as f:
                rep = json.load(f)
            self.assertEqual(rep["command"], "bench")
            self.assertTrue(rep["rows"])

    def test_other_algorithms(self):
        # A draw has no position row (the statistic is refused for it, and
        # said so); no fisher-yates row, so no target is read off.
        rep = bench_json("partial-deal", "sattolo")
        rows = rep["rows"]
        for n in SIZES:
            find(rows, "bare", n, "partial-deal")
            find(rows, "position", n, "sattolo")
        self.assertFalse([r for r in rows if r["kind"] == "position"
                          and r["algorithm"] == "partial-deal"])
        self.assertTrue(any(s.startswith("partial-deal + position")
                            for s in rep["not_run"]))
        self.assertEqual(rep["targets"], [])
        self.check_arithmetic(rep)

    def test_unknown_algorithm_lists_valid_names(self):
        code, out, err = run(["bench", "--quick", "fisher-yate"])
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertIn("unknown algorithm 'fisher-yate'", err)
        self.assertIn("did you mean 'fisher-yates'", err)
        self.assertIn("naive-swap", err)   # the list of valid names

    def test_usage_errors(self):
        for args in (["--rounds", "0"], ["--rounds", "x"], ["--bogus"],
                     ["fisher-yates", "fisher-yates"]):
            with self.subTest(args=args):
                code, out, err = run(["bench", "--quick"] + args)
                self.assertEqual(code, 2)
                self.assertEqual(out, "")
                self.assertTrue(err.startswith("shufflebias: "), err)

    def test_help(self):
        code, out, err = run(["bench", "--help"])
        self.assertEqual(code, 0)
        self.assertTrue(out.startswith("usage: shufflebias bench"))
        self.assertIn("--quick", out)
        code, out, _ = run(["--help"])
        self.assertEqual(code, 0)
        self.assertIn("bench", out)


def main():
    global CLI
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
