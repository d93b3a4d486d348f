#!/usr/bin/env python3
"""The counts behind the figures: each statistic's "table" in the JSON of
test, merge and audit (checked against counts made here from decks
written here), the summary of a large table and --full-tables,
--no-timing (the same bytes on one thread or two), and --csv DIR for
test, merge, audit and exact (files, headers, quoting, the directory's
errors).  No statistical assertion: every check is of counts."""
import argparse
import csv
import io
import itertools
import json
import os
import random
import re
import stat
import subprocess
import sys
import tempfile
import unittest
from fractions import Fraction

CLI = None


def run(args, cwd=None, umask=None):
    def pre():
        if umask is not None:
            os.umask(umask)
    p = subprocess.run([CLI] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, cwd=cwd,
                       preexec_fn=pre)
    return p.returncode, p.stdout, p.stderr


def run_json(args, cwd=None):
    code, out, err = run(args + ["--json", "-"], cwd=cwd)
    assert code in (0, 1, 3), (code, err)
    return json.loads(out)


def test_of(report, name):
    return next(t for t in report["tests"] if t["name"] == name)


def load(path):
    with open(path) as f:
        return json.load(f)


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


class Tables(unittest.TestCase):
    """Decks chosen here, fed as a file: the tables must hold exactly the
    counts made here from the same decks."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        rnd = random.Random(5)       # fixed: the same decks every time
        cls.n = 5
        # Not uniform on purpose (every deck from a few orders, some
        # repeated), so that a table that mixed up rows and columns, or
        # orders, would not pass by symmetry.
        orders = [list(p) for p in itertools.permutations(range(cls.n))]
        cls.decks = [rnd.choice(orders[:40]) for _ in range(3000)]
        cls.path = os.path.join(cls.tmp.name, "decks.txt")
        with open(cls.path, "w") as f:
            for d in cls.decks:
                f.write(" ".join(map(str, d)) + "\n")
        cls.report = run_json(["test", "--input", cls.path, "--n",
                               str(cls.n), "--tests",
                               "position,permutation,fixed-points",
                               "--no-diagnosis"])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_position_is_card_by_position(self):
        t = test_of(self.report, "position")["table"]
        n, N = self.n, len(self.decks)
        self.assertEqual((t["rows"], t["cols"]), (n, n))
        self.assertEqual((t["row_label"], t["col_label"]),
                         ("card", "position"))
        self.assertTrue(t["cells_listed"])
        self.assertEqual(t["samples"], N)
        want = [[0] * n for _ in range(n)]
        for d in self.decks:
            for pos, card in enumerate(d):
                want[card][pos] += 1
        self.assertEqual(t["observed"], want)
        for row in t["observed"]:
            self.assertEqual(sum(row), N)
        self.assertTrue(t["expected_constant"])
        self.assertAlmostEqual(t["expected"], N / n)

    def test_permutation_orders_are_decks(self):
        t = test_of(self.report, "permutation")["table"]
        self.assertEqual(t["col_label"], "order")
        self.assertEqual((t["rows"], t["cols"]), (1, 120))
        letters = ["".join("ABCDE"[c] for c in p)
                   for p in itertools.permutations(range(self.n))]
        self.assertEqual(t["labels"], letters)
        want = {s: 0 for s in letters}
        for d in self.decks:
            want["".join("ABCDE"[c] for c in d)] += 1
        self.assertEqual(t["observed"], [[want[s] for s in letters]])

    def test_pooled_labels_match_ranges(self):
        t = test_of(self.report, "fixed-points")["table"]
        self.assertEqual(t["rows"], 1)
        self.assertEqual(len(t["labels"]), t["cols"])
        # Ranges cover 0..n with no gap, each named by its range.
        self.assertEqual(t["lo"][0], 0)
        self.assertEqual(t["hi"][-1], self.n)
        for c in range(t["cols"]):
            lo, hi, label = t["lo"][c], t["hi"][c], t["labels"][c]
            if c:
                self.assertEqual(lo, t["hi"][c - 1] + 1)
            if lo == hi:
                self.assertEqual(label, "%d fixed point%s"
                                 % (lo, "" if lo == 1 else "s"))
            else:
                self.assertEqual(label, "%d-%d fixed points" % (lo, hi))
        fixed = [sum(1 for i, c in enumerate(d) if i == c)
                 for d in self.decks]
        want = [sum(1 for f in fixed if lo <= f <= hi)
                for lo, hi in zip(t["lo"], t["hi"])]
        self.assertEqual(t["observed"], [want])
        self.assertFalse(t["expected_constant"])
        self.assertAlmostEqual(sum(t["expected"][0]), len(self.decks))

    def test_csv_matches_json(self):
        d = os.path.join(self.tmp.name, "csv")
        code, _, err = run(["test", "--input", self.path, "--n",
                            str(self.n), "--tests",
                            "position,permutation,fixed-points",
                            "--no-diagnosis", "--quiet", "--csv", d])
        self.assertIn(code, (0, 1, 3), err)
        self.assertEqual(sorted(os.listdir(d)),
                         ["fixed-points.csv", "permutation.csv",
                          "position.csv", "run.csv", "summary.csv"])
        summary = read_csv(os.path.join(d, "summary.csv"))
        self.assertEqual(summary[0], ["name", "statistic", "df", "p_value",
                                      "p_underflow", "p_adjusted",
                                      "verdict"])
        self.assertEqual([r[0] for r in summary[1:]],
                         [t["name"] for t in self.report["tests"]])
        for row, t in zip(summary[1:], self.report["tests"]):
            self.assertEqual(row[6], t["verdict"])
            # p_underflow: 1 where the JSON gives the p-value as a bound.
            self.assertEqual(row[4], "1" if "p_value_bound" in t else "0")
            self.assertAlmostEqual(float(row[5]), t["p_adjusted"],
                                   delta=1e-9 * max(1.0, t["p_adjusted"]))
        pos = read_csv(os.path.join(d, "position.csv"))
        self.assertEqual(pos[0], ["card", "position", "observed",
                                  "expected", "ratio"])
        obs = test_of(self.report, "position")["table"]["observed"]
        self.assertEqual(len(pos), 1 + self.n * self.n)
        for r, c, o, e, ratio in pos[1:]:
            self.assertEqual(int(o), obs[int(r)][int(c)])
            self.assertAlmostEqual(float(ratio), int(o) / float(e))
        fp = read_csv(os.path.join(d, "fixed-points.csv"))
        t = test_of(self.report, "fixed-points")["table"]
        self.assertEqual(fp[0], ["lo", "hi", "label", "observed",
                                 "expected"])
        self.assertEqual([(int(a), int(b), l, int(o))
                          for a, b, l, o, _ in fp[1:]],
                         list(zip(t["lo"], t["hi"], t["labels"],
                                  t["observed"][0])))
        perm = read_csv(os.path.join(d, "permutation.csv"))
        self.assertEqual([r[2] for r in perm[1:]],
                         test_of(self.report, "permutation")["table"]
                         ["labels"])


class Deals(unittest.TestCase):
    def test_deal_tables_and_quoting(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "deal")
            rep = run_json(["test", "deal-fisher-yates", "--samples", "2000",
                            "--seed", "3", "--tests",
                            "card-hand,suit-lengths,hand-patterns",
                            "--no-diagnosis", "--csv", d])
            ch = test_of(rep, "card-hand")["table"]
            self.assertEqual((ch["rows"], ch["cols"]), (52, 4))
            self.assertEqual((ch["row_label"], ch["col_label"]),
                             ("card", "hand"))
            for row in ch["observed"]:       # every card in some hand
                self.assertEqual(sum(row), 2000)
            sl = test_of(rep, "suit-lengths")["table"]
            self.assertEqual(len(sl["row_names"]), sl["rows"])
            self.assertIn("hand 0, clubs", sl["row_names"])
            for row in sl["observed"]:
                self.assertEqual(sum(row), 2000)
            hp = test_of(rep, "hand-patterns")["table"]
            self.assertIn("4-4-3-2", hp["labels"])
            # Row names hold commas: quoted, and read back whole.
            rows = read_csv(os.path.join(d, "suit-lengths.csv"))
            self.assertEqual(rows[0], ["row", "lo", "hi", "label",
                                       "observed", "expected"])
            self.assertIn(b'"hand 0, clubs",',
                          read_bytes(os.path.join(d, "suit-lengths.csv")))
            names = [r[0] for r in rows[1:]]
            self.assertEqual(names[::sl["cols"]], sl["row_names"])
            obs = [int(r[4]) for r in rows[1:]]
            self.assertEqual(obs, [o for row in sl["observed"] for o in row])
            pat = read_csv(os.path.join(d, "hand-patterns.csv"))
            self.assertEqual(pat[0][:4], ["row", "lo", "hi", "label"])
            self.assertEqual([r[3] for r in pat[1:hp["cols"] + 1]],
                             hp["labels"])


class Large(unittest.TestCase):
    """A 300-card matrix (90,000 cells) is summarized unless asked."""

    @classmethod
    def setUpClass(cls):
        args = ["test", "fisher-yates", "--n", "300", "--samples", "3000",
                "--seed", "11", "--tests", "position", "--no-diagnosis"]
        cls.summary = test_of(run_json(args), "position")["table"]
        cls.full = test_of(run_json(args + ["--full-tables"]),
                           "position")["table"]

    def test_summary(self):
        t = self.summary
        self.assertFalse(t["cells_listed"])
        self.assertEqual((t["rows"], t["cols"]), (300, 300))
        self.assertNotIn("observed", t)
        self.assertEqual(t["observed_total"], 300 * 3000)
        self.assertTrue(t["expected_constant"])
        self.assertAlmostEqual(t["expected"], 10.0)
        dev = t["largest_deviations"]
        self.assertEqual(len(dev), 10)
        z = [abs(c["residual"]) for c in dev]
        self.assertEqual(z, sorted(z, reverse=True))
        self.assertGreaterEqual(t["ratio_max"]["ratio"],
                                max(c["ratio"] for c in dev))

    def test_summary_agrees_with_the_full_table(self):
        t, full = self.summary, self.full
        self.assertTrue(full["cells_listed"])
        obs = full["observed"]
        self.assertEqual(len(obs), 300)
        for row in obs:
            self.assertEqual(sum(row), 3000)
        cells = [(o, r, c) for r, row in enumerate(obs)
                 for c, o in enumerate(row)]
        for key, pick in (("ratio_max", max), ("ratio_min", min),
                          ("residual_max", max), ("residual_min", min)):
            with self.subTest(cell=key):
                cell = t[key]
                self.assertEqual(obs[cell["row"]][cell["col"]],
                                 cell["observed"])
                self.assertEqual(cell["observed"],
                                 pick(o for o, _, _ in cells))
        for cell in t["largest_deviations"]:
            self.assertEqual(obs[cell["row"]][cell["col"]], cell["observed"])
        # The tenth deviation is as large as any cell not listed.
        listed = {(c["row"], c["col"]) for c in t["largest_deviations"]}
        tenth = abs(t["largest_deviations"][-1]["observed"] - 10)
        for o, r, c in cells:
            if (r, c) not in listed:
                self.assertLessEqual(abs(o - 10), tenth)


class BeyondAThousandCards(unittest.TestCase):
    """Above 1024 cards the card x position matrix is kept too (its memory
    counted in the budget): the JSON summarizes its 4 million cells,
    --full-tables lists them, the CSV has every one and the page draws it
    in blocks."""
    N, SAMPLES = 2048, 3000

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        args = ["test", "fisher-yates", "--n", str(cls.N), "--samples",
                str(cls.SAMPLES), "--seed", "11", "--tests", "position",
                "--no-diagnosis", "--quiet"]
        code, _, err = run(args + ["--json", "s.json", "--html", "p.html",
                                   "--csv", "c"], cwd=d)
        assert code in (0, 1, 3), err
        code, _, err = run(args + ["--full-tables", "--json", "f.json"],
                           cwd=d)
        assert code in (0, 1, 3), err
        cls.report = load(os.path.join(d, "s.json"))
        cls.summary = test_of(cls.report, "position")["table"]
        cls.full = test_of(load(os.path.join(d, "f.json")),
                           "position")["table"]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_summary(self):
        t, n = self.summary, self.N
        self.assertIsNotNone(t)
        self.assertFalse(t["cells_listed"])
        self.assertEqual((t["rows"], t["cols"]), (n, n))
        self.assertEqual(t["observed_total"], n * self.SAMPLES)
        self.assertAlmostEqual(t["expected"], self.SAMPLES / n)
        self.assertEqual(len(t["largest_deviations"]), 10)
        self.assertNotIn("not kept",
                         test_of(self.report, "position")["note"])
        # The budget counted the table beside the counts: two doubles and
        # a 64-bit count a cell.
        self.assertGreaterEqual(self.report["memory"]["estimate"],
                                3 * 8 * n * n)

    def test_full_tables_list_it(self):
        full, n = self.full, self.N
        self.assertTrue(full["cells_listed"])
        obs = full["observed"]
        self.assertEqual(len(obs), n)
        for row in obs:
            self.assertEqual(len(row), n)
            self.assertEqual(sum(row), self.SAMPLES)
        self.assertEqual([sum(c) for c in zip(*obs)], [self.SAMPLES] * n)
        for cell in self.summary["largest_deviations"]:
            self.assertEqual(obs[cell["row"]][cell["col"]], cell["observed"])

    def test_csv_has_every_cell(self):
        n = self.N
        want = {1 + c["row"] * n + c["col"]: c
                for c in self.summary["largest_deviations"]}
        lines = 0
        with open(os.path.join(self.tmp.name, "c", "position.csv")) as f:
            for i, line in enumerate(f):
                if i == 0:
                    self.assertEqual(line,
                                     "card,position,observed,expected,"
                                     "ratio\n")
                elif i in want:
                    r, c, o, _, _ = line.split(",")
                    self.assertEqual((int(r), int(c), int(o)),
                                     (want[i]["row"], want[i]["col"],
                                      want[i]["observed"]))
                lines = i + 1
        self.assertEqual(lines, 1 + n * n)

    def test_an_audit_too_large_for_its_budget_is_refused(self):
        # An audit keeps every run's tables for its reports: at 2048 cards
        # some 4.8 GiB, over the 1 GiB budget of a process limited to
        # 2 GiB (ulimit -v), so it is refused before any run, with its
        # need.  AddressSanitizer reserves terabytes of address space: a
        # sanitized build cannot run under such a limit at all.
        libs = subprocess.run(["ldd", CLI], capture_output=True, text=True)
        if "asan" in libs.stdout:
            self.skipTest("address-space limits do not apply to ASan builds")
        import resource

        def limit():
            resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

        p = subprocess.run([CLI, "audit", "--n", str(self.N), "--samples",
                            "1000", "--quiet"], capture_output=True,
                           text=True, timeout=60, preexec_fn=limit)
        self.assertEqual((p.returncode, p.stdout), (2, ""))
        self.assertRegex(p.stderr, r"^shufflebias: audit: the results of "
                                   r"its [0-9]+ runs at n = 2048, kept whole "
                                   r"for the reports, need [0-9.]+ GiB of "
                                   r"memory, over the budget of 1 GiB")

    def test_page_draws_it_in_blocks(self):
        with open(os.path.join(self.tmp.name, "p.html")) as f:
            page = f.read()
        self.assertIn('<svg class="heatmap" id="hm-run-fisher-yates" '
                      'data-rows="128" data-cols="128"', page)
        self.assertIn("summarized: the 2048 x 2048 table is drawn in blocks "
                      "of 16 x 16 cells", page)
        # The first block sums the first 16 cards in the first 16
        # positions.
        block = sum(sum(row[:16]) for row in self.full["observed"][:16])
        self.assertIn("cards 0-15, positions 0-15: observed %d, expected "
                      "375," % block, page)


class LargePermutations(unittest.TestCase):
    """The whole-permutation law from 7 to 10 cards: listed up to 8 cards
    (40,320 orders), summarized from 9 like any large table and listed
    with --full-tables, in the CSV, and drawn in 64 bars."""

    def report(self, n, *more):
        return test_of(run_json(["test", "naive-swap", "--n", str(n),
                                 "--samples", "20000", "--seed", "3",
                                 "--tests", "permutation", "--no-diagnosis",
                                 *more]), "permutation")["table"]

    def test_listed_up_to_8_cards(self):
        for n in (7, 8):
            with self.subTest(n=n):
                t = self.report(n)
                k = 5040 if n == 7 else 40320
                self.assertTrue(t["cells_listed"])
                self.assertEqual((t["rows"], t["cols"]), (1, k))
                self.assertEqual(len(t["labels"]), k)
                self.assertEqual(t["labels"][0], "ABCDEFGH"[:n])
                self.assertEqual(t["labels"][-1], "HGFEDCBA"[8 - n:])
                self.assertEqual(sum(t["observed"][0]), 20000)
                self.assertEqual(t["lo"][:3], [0, 1, 2])

    def test_summarized_from_9_cards(self):
        t = self.report(9)
        self.assertFalse(t["cells_listed"])
        self.assertEqual(t["cols"], 362880)
        self.assertEqual(t["observed_total"], 20000)
        for key in ("labels", "lo", "hi", "observed"):
            self.assertNotIn(key, t)
        for cell in t["largest_deviations"]:
            self.assertEqual(len(cell["label"]), 9)
        full = self.report(9, "--full-tables")
        self.assertTrue(full["cells_listed"])
        self.assertEqual(len(full["labels"]), 362880)
        self.assertEqual(len(full["observed"][0]), 362880)
        for cell in t["largest_deviations"]:
            self.assertEqual(full["labels"][cell["col"]], cell["label"])
            self.assertEqual(full["observed"][0][cell["col"]],
                             cell["observed"])

    def test_csv_and_page(self):
        with tempfile.TemporaryDirectory() as d:
            for n in (8, 10):
                code, _, err = run(["test", "naive-swap", "--n", str(n),
                                    "--samples", "20000", "--seed", "3",
                                    "--tests", "permutation",
                                    "--no-diagnosis", "--quiet", "--csv",
                                    "c%d" % n, "--html", "p%d.html" % n],
                                   cwd=d)
                self.assertIn(code, (0, 1, 3), err)
            rows = read_csv(os.path.join(d, "c8", "permutation.csv"))
            self.assertEqual(rows[0], ["lo", "hi", "label", "observed",
                                       "expected"])
            self.assertEqual(len(rows), 1 + 40320)
            self.assertEqual(rows[1][:3], ["0", "0", "ABCDEFGH"])
            for n, k in ((8, 40320), (10, 3628800)):
                with open(os.path.join(d, "p%d.html" % n)) as f:
                    page = f.read()
                per = -(-k // 64)
                self.assertIn('<svg class="bars" id="bars-permutation-0" '
                              'data-count="%d"' % -(-k // per), page)
                self.assertIn("%d categories drawn as %d: each bar sums %d "
                              "neighbours" % (k, -(-k // per), per), page)


class NoTiming(unittest.TestCase):
    def test_same_bytes_on_one_thread_or_two(self):
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for threads in ("1", "2"):
                p = os.path.join(tmp, "t%s.json" % threads)
                code, out, err = run(["test", "fisher-yates-mod", "--n", "52",
                                      "--samples", "20000", "--seed", "7",
                                      "--threads", threads, "--no-timing",
                                      "--json", p])
                self.assertIn(code, (0, 1, 3), err)
                self.assertNotIn("\n  time ", out)
                paths.append(p)
            a, b = (read_bytes(p) for p in paths)
            self.assertEqual(a, b)
            rep = json.loads(a)
            self.assertNotIn("timing", rep)
            self.assertNotIn("memory", rep)
            self.assertIsNotNone(test_of(rep, "position")["table"])
            # Without it, the time is there (so the test above can fail).
            code, out, _ = run(["test", "fisher-yates", "--n", "8",
                                "--samples", "2000", "--seed", "7",
                                "--json", os.path.join(tmp, "x.json")])
            self.assertIn("\n  time ", out)
            self.assertIn("timing", load(os.path.join(tmp, "x.json")))

    def test_exact(self):
        code, out, err = run(["exact", "naive-swap", "--n", "3",
                              "--no-timing"])
        self.assertEqual(code, 1, err)
        self.assertNotIn("time:", out)
        code, out, _ = run(["exact", "naive-swap", "--n", "3"])
        self.assertIn("time:", out)
        a = run(["exact", "naive-swap", "--n", "3", "--no-timing", "--json",
                 "-"])[1]
        rep = json.loads(a)
        self.assertNotIn("timing", rep)
        self.assertNotIn("memory", rep)
        self.assertIn("timing", json.loads(run(["exact", "naive-swap", "--n",
                                                "3", "--json", "-"])[1]))


class Merged(unittest.TestCase):
    def test_merge(self):
        with tempfile.TemporaryDirectory() as tmp:
            states = []
            for seed in ("1", "2"):
                s = os.path.join(tmp, seed + ".state")
                code, _, err = run(["test", "fisher-yates", "--n", "6",
                                    "--samples", "1000", "--seed", seed,
                                    "--tests", "position,cycles", "--quiet",
                                    "--state", s])
                self.assertEqual(code, 0, err)
                states.append(s)
            d = os.path.join(tmp, "csv")
            out = os.path.join(tmp, "m.json")
            code, text, err = run(["merge"] + states + [
                "--no-timing", "--json", out, "--csv", d])
            self.assertEqual(code, 0, err)
            rep = load(out)
            self.assertNotIn("timing", rep)
            t = test_of(rep, "position")["table"]
            self.assertEqual(t["samples"], 2000)
            for row in t["observed"]:
                self.assertEqual(sum(row), 2000)
            self.assertEqual(sorted(os.listdir(d)),
                             ["cycles.csv", "position.csv", "run.csv",
                              "summary.csv"])


class Audit(unittest.TestCase):
    def test_audit_json_and_csv(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "csv")
            out = os.path.join(tmp, "audit.json")
            code, _, err = run(["audit", "--n", "4", "--samples", "2000",
                                "--escalate", "0", "--no-timing", "--quiet",
                                "--json", out, "--csv", d])
            self.assertIn(code, (0, 1, 3), err)
            rep = load(out)
            self.assertGreater(len(rep["runs"]), 5)
            overview = read_csv(os.path.join(d, "audit.csv"))
            self.assertEqual(overview[0], ["algorithm", "params",
                                           "literature", "stream_version",
                                           "verdict", "lowest_p_from",
                                           "p_adjusted"])
            # Each run's own stream version (fisher-yates-mod's is newer
            # than the rest's): the audit's run.csv gives none.
            self.assertEqual([(r[0], int(r[3]), r[4]) for r in overview[1:]],
                             [(r["algorithm"], r["stream_version"],
                               r["verdict"]) for r in rep["runs"]])
            self.assertGreater(len({r["stream_version"]
                                    for r in rep["runs"]}), 1)
            facts = dict(read_csv(os.path.join(d, "run.csv"))[1:])
            self.assertNotIn("stream_version", facts)
            for r in rep["runs"]:
                self.assertNotIn("timing", r)
                self.assertNotIn("memory", r)
                self.assertIn("table", r["tests"][0])
                files = os.listdir(os.path.join(d, r["algorithm"]))
                self.assertIn("summary.csv", files)
                summary = read_csv(os.path.join(d, r["algorithm"],
                                                "summary.csv"))
                self.assertEqual([s[0] for s in summary[1:]],
                                 [t["name"] for t in r["tests"]])


class ExactCsv(unittest.TestCase):
    def test_one(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "csv")
            code, out, err = run(["exact", "naive-swap", "--n", "3",
                                  "--quiet", "--csv", d, "--json",
                                  os.path.join(tmp, "e.json")])
            self.assertEqual(code, 1, err)
            rep = load(os.path.join(tmp, "e.json"))
            self.assertEqual(sorted(os.listdir(d)),
                             ["matrix.csv", "outcomes.csv", "run.csv"])
            rows = read_csv(os.path.join(d, "outcomes.csv"))
            self.assertEqual(rows[0], ["perm", "paths", "probability",
                                       "decimal", "ratio"])
            self.assertEqual(len(rows), 7)
            self.assertEqual(sum(Fraction(r[2]) for r in rows[1:]), 1)
            self.assertEqual([(list(map(int, r[0].split())), r[2])
                              for r in rows[1:]],
                             [(o["perm"], o["exact"])
                              for o in rep["permutations"]])
            m = read_csv(os.path.join(d, "matrix.csv"))
            self.assertEqual(m[0], ["card", "position", "probability",
                                    "decimal", "ratio"])
            self.assertEqual(len(m), 10)
            for r, c, p, dec, ratio in m[1:]:
                self.assertEqual(p, rep["position_matrix"][int(r)][int(c)])
                self.assertAlmostEqual(float(dec), float(Fraction(p)))
                self.assertAlmostEqual(float(ratio), 3 * float(Fraction(p)))

    def test_all_one_directory_each(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "csv")
            code, _, err = run(["exact", "--all", "--n", "3", "--kind",
                                "permutation", "--quiet", "--csv", d])
            self.assertIn(code, (0, 1, 3), err)
            names = sorted(os.listdir(d))
            # One directory per algorithm, and the summary grid beside.
            self.assertIn("grid-permutation.csv", names)
            subdirs = [s for s in names if s != "grid-permutation.csv"]
            self.assertIn("fisher-yates", subdirs)
            self.assertIn("naive-swap", subdirs)
            for s in subdirs:
                self.assertIn("outcomes.csv", os.listdir(os.path.join(d, s)))


class CsvDirectory(unittest.TestCase):
    ARGS = ["test", "fisher-yates", "--n", "4", "--samples", "200",
            "--seed", "1", "--tests", "position", "--quiet"]

    def test_made_with_the_umask(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "new")
            code, _, err = run(self.ARGS + ["--csv", d], umask=0o027)
            self.assertEqual(code, 0, err)
            self.assertEqual(stat.S_IMODE(os.stat(d).st_mode), 0o750)
            # An existing directory is written into again.
            code, _, err = run(self.ARGS + ["--csv", d])
            self.assertEqual(code, 0, err)

    def test_a_file_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            f = os.path.join(tmp, "file")
            open(f, "w").close()
            for cmd in (self.ARGS, ["exact", "naive-swap", "--n", "3",
                                    "--quiet"],
                        ["audit", "--n", "4", "--samples", "200",
                         "--quiet"]):
                with self.subTest(command=cmd[0]):
                    code, out, err = run(cmd + ["--csv", f])
                    self.assertEqual(code, 2)
                    self.assertIn("'%s' is not a directory" % f, err)
                    self.assertEqual(os.path.getsize(f), 0)

    def test_nothing_made_on_a_usage_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "new")
            code, _, err = run(["test", "fisher-yates", "--n", "7",
                                "--tests", "poker7", "--csv", d])
            self.assertEqual(code, 2)
            self.assertIn("poker7", err)
            self.assertFalse(os.path.exists(d))

    def test_one_level_only(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "a", "b")
            code, _, err = run(self.ARGS + ["--csv", d])
            self.assertEqual(code, 2)
            self.assertIn(d, err)
            self.assertFalse(os.path.exists(os.path.join(tmp, "a")))


def main():
    global CLI
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
