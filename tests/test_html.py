#!/usr/bin/env python3
"""The HTML pages of 'test', 'merge' and 'audit' (--html FILE), end to end.

Each page is parsed (the standard library's HTML parser, every element
closed in order) and read as a program would read it through its
documented structure (docs/reports.md): the heatmap's cells with their
ratios and tooltips, each statistic's box and chart, the facts of the
run, the audit's overview and its links.  Nothing in a page may run or
fetch anything.  The errors: a page that cannot be written, or that would
overwrite an input or another output, is refused before the run (exit 2)
and nothing is written.

Statistical assertions use fixed seeds; each states its false-alarm rate.
Nothing is timed.

    test_html.py --cli PATH/shufflebias
"""
import argparse
import html.parser
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import unittest

CLI = None

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "param", "source", "track", "wbr"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children = []      # elements and text, in order

    def classes(self):
        return self.attrs.get("class", "").split()

    def walk(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.walk()

    def find(self, tag=None, cls=None, **attrs):
        return [n for n in self.walk()
                if (tag is None or n.tag == tag)
                and (cls is None or cls in n.classes())
                and all(n.attrs.get(k.replace("_", "-")) == v
                        for k, v in attrs.items())]

    def all_text(self):
        return "".join(c.all_text() if isinstance(c, Node) else c
                       for c in self.children)


class Tree(html.parser.HTMLParser):
    """The page as a tree; an element closed out of order is an error."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [], None)
        self.cur = self.root
        self.errors = []

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.cur.tag != tag:
            self.errors.append(f"</{tag}> closes <{self.cur.tag}> at "
                               f"{self.getpos()}")
            return
        self.cur = self.cur.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    t = Tree()
    t.feed(text)
    t.close()
    return text, t


class Pages(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def read(self, name):
        with open(self.path(name), "rb") as f:
            return f.read()

    def run_cli(self, *args, codes=(0,)):
        p = subprocess.run([CLI, *args], capture_output=True, text=True,
                           timeout=600, cwd=self.dir)
        if p.returncode not in codes:
            raise AssertionError(f"{args}: exit {p.returncode}: {p.stderr}")
        return p

    def page(self, name):
        """The page 'name', checked for what every page must be."""
        text, t = parse(self.path(name))
        self.assertEqual(t.errors, [])
        self.assertIs(t.cur, t.root, "an element is left open")
        self.assertTrue(text.startswith("<!DOCTYPE html>"))
        gen = t.root.find("meta", name="generator")
        self.assertEqual(len(gen), 1)
        self.assertRegex(gen[0].attrs["content"], r"^shufflebias \d+\.\d+")
        self.assertEqual(t.root.find("meta", charset="utf-8")[0].tag, "meta")
        # Nothing runs, nothing is fetched.
        for tag in ("script", "link", "iframe", "img", "object"):
            self.assertEqual(t.root.find(tag), [], tag)
        for bad in ("http:", "https:", "//", "url(", "@import"):
            self.assertNotIn(bad, text)
        for n in t.root.walk():
            for k in n.attrs:
                self.assertFalse(k.startswith("on"), f"{k} on <{n.tag}>")
            href = n.attrs.get("href")
            if href is not None:
                self.assertTrue(href.startswith("#"), href)
        return text, t.root

    def heatmap(self, root, col_label, rows, cols):
        """The heatmap of 'col_label': rows x cols cells, each once with
        its ratio and a tooltip; returns {(r, c): (ratio, class, tip)}."""
        maps = [m for m in root.find("svg", "heatmap")
                if "thumb" not in m.classes()
                and m.attrs.get("data-col-label") == col_label]
        self.assertEqual(len(maps), 1)
        m = maps[0]
        self.assertEqual(m.attrs["data-rows"], str(rows))
        self.assertEqual(m.attrs["data-cols"], str(cols))
        self.assertEqual(m.attrs["data-row-label"], "card")
        cells = {}
        for rect in m.find("rect", "cell"):
            key = (int(rect.attrs["data-r"]), int(rect.attrs["data-c"]))
            self.assertNotIn(key, cells)
            titles = rect.find("title")
            self.assertEqual(len(titles), 1)
            steps = [c for c in rect.classes() if re.fullmatch(r"k\d+", c)]
            self.assertEqual(len(steps), 1)
            cells[key] = (float(rect.attrs["data-ratio"]),
                          int(steps[0][1:]), titles[0].all_text())
        self.assertEqual(set(cells),
                         {(r, c) for r in range(rows) for c in range(cols)})
        return cells

    def facts(self, root):
        dl = root.find("dl", "facts")[0]
        names = [n.all_text() for n in dl.find("dt")]
        values = [n.all_text() for n in dl.find("dd")]
        return dict(zip(names, values))

    def test_test_pages_show_the_bias(self):
        for alg in ("naive-swap", "fisher-yates"):
            self.run_cli("test", alg, "--n", "8", "--samples", "20000",
                         "--seed", "1", "--html", f"{alg}.html", codes=(0, 1))
        _, bad = self.page("naive-swap.html")
        _, fair = self.page("fisher-yates.html")
        bad_cells = self.heatmap(bad, "position", 8, 8)
        fair_cells = self.heatmap(fair, "position", 8, 8)
        # A cell's count is binomial(20000, 1/8): 2500 expected, sd 46.8,
        # so its ratio has sd 1.87%.  A fair run's 64 cells all lie within
        # 11% (5.9 sd) of 1 but once in 10^7 runs; naive-swap's bias at 8
        # cards is far larger: card 1 lands in position 0 about 28% too
        # often, 15 sd.
        worst_fair = max(abs(r - 1) for r, _, _ in fair_cells.values())
        worst_bad = max(abs(r - 1) for r, _, _ in bad_cells.values())
        self.assertLess(worst_fair, 0.11)
        self.assertGreater(worst_bad, 0.2)
        # Colour follows the ratio: a fair cell stays near white (k10),
        # naive-swap's worst cell is near the end of the scale.
        self.assertTrue(all(4 <= k <= 16 for _, k, _ in fair_cells.values()))
        worst = max(bad_cells.values(), key=lambda v: abs(math.log(v[0])))
        self.assertTrue(worst[1] <= 2 or worst[1] >= 18, worst)
        r, k, tip = bad_cells[(1, 0)]
        self.assertGreater(r, 1.15)
        self.assertGreater(k, 10)
        self.assertRegex(tip, r"^card 1, position 0: observed \d+, "
                              r"expected 2500, ratio 1\.\d+$")
        # The run's section, its verdict; a box per statistic.
        runs = bad.find("section", "run")
        self.assertEqual([s.attrs["id"] for s in runs], ["run-naive-swap"])
        self.assertEqual(runs[0].attrs["data-verdict"], "fail")
        self.assertEqual(fair.find("section", "run")[0].attrs["data-verdict"],
                         "pass")
        rows = bad.find("table", "stats")[0].find("tr")[1:]
        names = [r.find("td")[0].all_text() for r in rows]
        boxes = bad.find("section", "stat")
        self.assertEqual([b.attrs["data-stat"] for b in boxes], names)
        for b in boxes:
            self.assertEqual(b.attrs["id"], "stat-" + b.attrs["data-stat"])
            self.assertIn(b.attrs["data-verdict"],
                          ("pass", "suspect", "fail", "n/a"))
        # Each count statistic: a chart, its categories observed against
        # expected, with the p-value beside it.
        fixed = bad.find("section", id="stat-fixed-points")[0]
        self.assertEqual(fixed.attrs["data-verdict"], "fail")
        bars = fixed.find("svg", "bars")
        self.assertEqual(len(bars), 1)
        self.assertGreater(len(bars[0].find("circle", "obs")), 3)
        self.assertRegex(fixed.all_text(), r"FAIL p (= [0-9.e+-]+|< 1e-300), "
                                           r"Holm-adjusted ")
        # The facts to run it again.
        f = self.facts(bad)
        self.assertEqual(f["command line"], "shufflebias test naive-swap "
                         "--n 8 --samples 20000 --seed 1 --html "
                         "naive-swap.html")
        self.assertEqual(f["seed"], "1")
        self.assertEqual(f["source"], "xoshiro256")
        self.assertRegex(f["stream version"], r"^\d+$")
        self.assertIn("1e-06", f["thresholds"])
        self.assertIn("time", f)

    def test_a_deal_page(self):
        self.run_cli("test", "deal-fisher-yates", "--samples", "5000",
                     "--seed", "2", "--no-timing", "--html", "deal.html")
        _, root = self.page("deal.html")
        cells = self.heatmap(root, "hand", 52, 4)
        self.assertRegex(cells[(51, 3)][2], r"^card 51, hand 3: ")
        # Hand patterns against their exact law, one chart per hand.
        box = root.find("section", id="stat-hand-patterns")[0]
        charts = box.find("svg", "bars")
        self.assertEqual(len(charts), 4)
        self.assertIn("4-4-3-2", box.all_text())
        self.assertNotIn("time", self.facts(root))

    def test_large_decks_are_summarized(self):
        # 300 cards: 90,000 cells, drawn as 100 x 100 blocks of 3 x 3,
        # each the ratio of its sums; the page says so.
        self.run_cli("test", "fisher-yates", "--n", "300", "--samples",
                     "3000", "--seed", "4", "--tests", "position,inversions",
                     "--html", "big.html", "--quiet", codes=(0, 1, 3))
        text, root = self.page("big.html")
        cells = self.heatmap(root, "position", 100, 100)
        self.assertRegex(cells[(99, 0)][2],
                         r"^cards 297-299, positions 0-2: observed \d+, "
                         r"expected 90, ratio ")
        self.assertIn("drawn in blocks of 3 x 3 cells", text)
        # 300 x 299 / 2 + 1 inversion counts, pooled, drawn in at most 64
        # bars.
        bars = root.find("section", id="stat-inversions")[0].find(
            "svg", "bars")[0]
        self.assertLessEqual(len(bars.find("rect", "exp")), 64)
        self.assertLess(len(text), 3_000_000)

    def test_every_cell_is_the_json_ratio(self):
        # The page draws only what the JSON carries: every cell of every
        # heatmap, and its colour step, is observed over expected of the
        # same cell of the JSON's table (deal and permutation).
        for alg, extra in (("naive-swap", ["--n", "8"]),
                           ("deal-random-hand", [])):
            with self.subTest(alg=alg):
                self.run_cli("test", alg, *extra, "--samples", "20000",
                             "--seed", "3", "--html", "c.html", "--json",
                             "c.json", "--quiet", codes=(0, 1, 3))
                with open(self.path("c.json")) as f:
                    tables = {t["name"]: t["table"]
                              for t in json.load(f)["tests"]}
                text, root = self.page("c.html")
                maps = root.find("svg", "heatmap")
                self.assertGreater(len(maps), 0)
                for m in maps:
                    sec = m
                    while sec.attrs.get("class") not in ("stat", "run"):
                        sec = sec.parent
                    name = (sec.attrs["id"][len("stat-"):]
                            if sec.attrs["class"] == "stat"
                            else ("position" if alg == "naive-swap"
                                  else "card-hand"))
                    t = tables[name]
                    self.assertEqual((m.attrs["data-rows"],
                                      m.attrs["data-cols"]),
                                     (str(t["rows"]), str(t["cols"])))
                    seen = 0
                    for rect in m.find("rect", "cell"):
                        r = int(rect.attrs["data-r"])
                        c = int(rect.attrs["data-c"])
                        e = (t["expected"] if t["expected_constant"]
                             else t["expected"][r][c])
                        got = rect.attrs["data-ratio"]
                        if e == 0:      # a cell that cannot occur
                            self.assertEqual(got, "nan")
                        else:
                            want = t["observed"][r][c] / e
                            self.assertAlmostEqual(float(got), want,
                                                   delta=1e-3 * want)
                        seen += 1
                    self.assertEqual(seen, t["rows"] * t["cols"])

    def test_page_shares_its_cells(self):
        # The default battery at 300 cards has four matrices of 90,000
        # cells (position, serial, the two Fisher-Yates code tables): they
        # share the page's 16,384 cells, so each is drawn in 64 x 64 at
        # most and the page stays within its bound.
        self.run_cli("test", "fisher-yates", "--n", "300", "--samples",
                     "3000", "--seed", "4", "--html", "all.html", "--quiet",
                     codes=(0, 1, 3))
        text, root = self.page("all.html")
        maps = root.find("svg", "heatmap")
        self.assertEqual(len(maps), 4)
        for m in maps:
            self.assertLessEqual(int(m.attrs["data-rows"])
                                 * int(m.attrs["data-cols"]), 16384 // 4)
        self.assertLess(len(text), 3_000_000)

    def test_merge_page(self):
        states = []
        for i in (1, 2):
            st = f"part{i}.state"
            self.run_cli("test", "fisher-yates", "--n", "10", "--seed", "5",
                         "--samples", "131072", "--part", f"{i}/2", "--state",
                         st, "--quiet")
            states.append(st)
        self.run_cli("merge", *states, "--html", "merged.html", "--quiet")
        _, root = self.page("merged.html")
        self.heatmap(root, "position", 10, 10)
        f = self.facts(root)
        self.assertEqual(f["merged"], "2 state files, seed 5")
        self.assertIn("merge", root.find("h1")[0].all_text())
        # The files merged, each with its seed (docs/reports.md), as they
        # were named; a run of another seed beside the two parts.
        self.run_cli("test", "fisher-yates", "--n", "10", "--seed", "9",
                     "--samples", "65536", "--state", "other run.state",
                     "--quiet")
        self.run_cli("merge", *states, "other run.state", "--html",
                     "three.html", "--quiet")
        _, root = self.page("three.html")
        f = self.facts(root)
        self.assertEqual(f["merged"], "3 state files, seeds 5, 9")
        files = root.find("ul", "merged")[0].find("li")
        self.assertEqual([li.all_text() for li in files],
                         ["part1.state (seed 5)", "part2.state (seed 5)",
                          "other run.state (seed 9)"])
        # An input is never the page.
        before = self.read(states[0])
        p = self.run_cli("merge", *states, "--html", states[0], codes=(2,))
        self.assertIn("--html", p.stderr)
        self.assertEqual(self.read(states[0]), before)

    def test_audit_page(self):
        self.run_cli("audit", "--n", "8", "--samples", "20000", "--html",
                     "audit.html", "--quiet", codes=(0, 1, 3))
        text, root = self.page("audit.html")
        runs = root.find("section", "run")
        self.assertGreater(len(runs), 10)
        ids = [r.attrs["id"] for r in runs]
        self.assertEqual(len(set(ids)), len(ids))
        overview = root.find("table", "overview")[0]
        rows = overview.find("tbody")[0].find("tr")
        self.assertEqual(len(rows), len(runs))
        for row, run in zip(rows, runs):
            links = [a.attrs["href"] for a in row.find("a")]
            self.assertIn("#" + run.attrs["id"], links)
            self.assertEqual(set(links), {"#" + run.attrs["id"]})
            # The verdict's colour is the run's.
            verdict = run.attrs["data-verdict"]
            cls = "v-na" if verdict == "n/a" else "v-" + verdict
            self.assertEqual(len(row.find("td", cls)), 1)
            # The thumbnail shows the section's heatmap cells.
            for use in row.find("use"):
                target = use.attrs["href"][1:]
                self.assertEqual(len(root.find(id=target)), 1)
                self.assertTrue(target.startswith("hm-" + run.attrs["id"]))
        by_id = {r.attrs["id"]: r for r in runs}
        self.assertEqual(by_id["run-naive-swap"].attrs["data-verdict"], "fail")
        # The runs' stream versions differ (each keeps the version in which
        # its decks last changed): the facts give each, as the JSON does.
        self.run_cli("audit", "--n", "8", "--samples", "2000", "--escalate",
                     "0", "--json", "audit.json", "--quiet", codes=(0, 1, 3))
        with open(self.path("audit.json")) as f:
            versions = {r["algorithm"]: r["stream_version"]
                        for r in json.load(f)["runs"]}
        common = max(set(versions.values()),
                     key=list(versions.values()).count)
        others = ", ".join(f"{v}: {a}" for a, v in versions.items()
                           if v != common)
        want = f"{common} ({others})" if others else str(common)
        facts = root.find("dl", "facts")[0]
        dts = [d.all_text() for d in facts.find("dt")]
        dds = [d.all_text() for d in facts.find("dd")]
        self.assertEqual(dds[dts.index("stream version")], want)
        # Every permutation shuffle's section has its 8 x 8 heatmap, in
        # full at this size.
        swap = by_id["run-naive-swap"]
        maps = [m for m in swap.find("svg", "heatmap")]
        self.assertEqual(len(maps), 1)
        self.assertEqual(len(maps[0].find("rect", "cell")), 64)
        self.assertEqual(len(root.find("dl", "facts")), 1)

    def test_errors_write_nothing(self):
        # A directory that does not exist: refused before the run.
        p = self.run_cli("test", "fisher-yates", "--n", "5", "--samples",
                         "1000", "--html", "no/such/dir/page.html",
                         codes=(2,))
        self.assertIn("page.html", p.stderr)
        self.assertFalse(os.path.exists(self.path("no")))
        # The same file as another output.
        p = self.run_cli("test", "fisher-yates", "--n", "5", "--samples",
                         "1000", "--html", "r.out", "--json", "r.out",
                         codes=(2,))
        self.assertFalse(os.path.exists(self.path("r.out")))
        p = self.run_cli("audit", "--n", "5", "--samples", "1000", "--html",
                         "a.out", "--markdown", "a.out", codes=(2,))
        self.assertFalse(os.path.exists(self.path("a.out")))
        # Standard output is not a page's place.
        self.run_cli("test", "fisher-yates", "--n", "5", "--samples",
                     "1000", "--html", "-", codes=(2,))
        # An input file is never overwritten by the page.
        with open(self.path("decks.txt"), "w") as f:
            f.write("0 1 2\n2 1 0\n1 0 2\n" * 10)
        before = self.read("decks.txt")
        self.run_cli("test", "--input", "decks.txt", "--n", "3", "--html",
                     "decks.txt", codes=(2,))
        self.assertEqual(self.read("decks.txt"), before)
        # A run that fails leaves an existing page as it was.
        with open(self.path("old.html"), "w") as f:
            f.write("old")
        self.run_cli("test", "no-such-shuffle", "--html", "old.html",
                     codes=(2,))
        self.assertEqual(self.read("old.html"), b"old")
        self.assertEqual(sorted(os.listdir(self.dir)),
                         ["decks.txt", "old.html"])

    def test_command_line_quoted(self):
        self.run_cli("test", "fisher-yates", "--n", "5", "--samples", "1000",
                     "--seed", "3", "--html", "a page's.html", "--quiet")
        _, root = self.page("a page's.html")
        self.assertEqual(self.facts(root)["command line"],
                         "shufflebias test fisher-yates --n 5 --samples 1000 "
                         "--seed 3 --html 'a page'\\''s.html' --quiet")


def main():
    global CLI
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
