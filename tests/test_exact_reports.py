#!/usr/bin/env python3
"""The reports of 'shufflebias exact' for people, read back: the summary
grid of the Markdown report and the HTML page (its grid, its sections,
their heatmaps and distributions), each figure compared with what the
same run writes as JSON, and the errors of --html.

Nothing here is statistical: every figure is an exact fraction of a walk
of every path, and nothing is timed.

    test_exact_reports.py --cli PATH/shufflebias
"""
import argparse
import html.parser
import json
import signal
from fractions import Fraction
import os
import subprocess
import sys
import tempfile
import unittest

CLI = None
CARDS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def run(args, cwd=None):
    p = subprocess.run([CLI] + args, capture_output=True, text=True,
                       cwd=cwd, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def handler_in(pid, sig):
    """Whether process 'pid' has a handler for 'sig' installed (Linux
    /proc), or has ended."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
    except OSError:
        return True
    return bool(int(fields["SigCgt"].strip(), 16) >> (sig - 1) & 1)


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children, self.text = [], ""

    def classes(self):
        return self.attrs.get("class", "").split()

    def all(self, tag=None, cls=None):
        """Every element below this one (depth first) of that tag and
        class."""
        out = []
        for c in self.children:
            if (tag is None or c.tag == tag) and (cls is None
                                                  or cls in c.classes()):
                out.append(c)
            out.extend(c.all(tag, cls))
        return out

    def words(self):
        """The text inside, every element's included."""
        return self.text + "".join(c.words() + c.tail for c in self.children)


class Page(html.parser.HTMLParser):
    """A page as a tree: enough of a DOM to find elements by tag and
    class."""
    VOID = {"meta", "br", "wbr", "img", "input", "link", "hr"}

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.root = Node("root", {}, None)
        self.root.tail = ""
        self.cur = self.root
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.cur)
        node.tail = ""
        self.cur.children.append(node)
        if tag not in self.VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        node = Node(tag, attrs, self.cur)
        node.tail = ""
        self.cur.children.append(node)

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        if self.cur.children:
            self.cur.children[-1].tail += data
        else:
            self.cur.text += data


def outcome_name(alg, cards):
    """An outcome as the reports write it: "BCA" (deck top to bottom),
    "AC|BD" (a deal: each hand's cards)."""
    if alg["kind"] != "deal":
        return "".join(CARDS[c] for c in cards)
    hands = max(cards) + 1
    return "|".join("".join(CARDS[c] for c in range(len(cards))
                            if cards[c] == h) for h in range(hands))


def outcomes(alg):
    """{name: exact fraction} of an algorithm in the JSON."""
    key = {"permutation": "permutations", "draw": "draws",
           "deal": "deals"}[alg["kind"]]
    field = {"permutation": "perm", "draw": "cards", "deal": "hands"}[
        alg["kind"]]
    return {outcome_name(alg, o[field]): o["exact"] for o in alg[key]}


def label(alg):
    """The algorithm with its parameters, as the Markdown heads it."""
    params = ",".join("%s=%s" % kv for kv in alg["params"].items())
    return "`%s`%s" % (alg["name"] if "name" in alg else alg["algorithm"],
                       " (%s)" % params if params else "")


def verdict(alg):
    if alg["uniform"]:
        return "uniform"
    if alg["tv_distance_exact"] == "0/1" and alg["unexplored_mass"] != "0/1":
        return "inconclusive"
    return "biased"


def shown(fraction):
    """A fraction as the reports for people write it: "0" for a zero one,
    which the JSON keeps as "0/1" for programs."""
    return "0" if fraction.split("/")[0] == "0" else fraction


def section_id(alg):
    return "run-" + "".join(c if c.isalnum() or c in "-_" else "-"
                            for c in alg["algorithm"])


class ExactReports(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        code, out, err = run(["exact", "--all", "--n", "3", "--quiet",
                              "--markdown", "all.md", "--json", "all.json",
                              "--html", "all.html"], cwd=d)
        assert code == 0, err
        with open(os.path.join(d, "all.md")) as f:
            cls.md = f.read()
        with open(os.path.join(d, "all.json")) as f:
            cls.algs = json.load(f)["algorithms"]
        with open(os.path.join(d, "all.html")) as f:
            cls.html = f.read()
        cls.page = Page(cls.html).root

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def md_grids(self):
        """The Markdown grids: [(header, [row cells])] with '\\|'
        unescaped."""
        top = self.md.split("## Every algorithm at a glance\n", 1)[1]
        top = top.split("\n## `", 1)[0]
        grids = []
        for block in top.split("\n\n"):
            lines = [l for l in block.splitlines() if l.startswith("|")]
            if not lines:
                continue
            split = [[c.strip().replace("\\|", "|")
                      for c in l.strip("|").split(" | ")] for l in lines]
            grids.append((split[0], split[2:]))
        return grids

    def test_markdown_grid_is_the_json(self):
        grids = self.md_grids()
        self.assertEqual(len(grids), 2)   # the orders, and the deals
        by_label = {label(a): a for a in self.algs}
        kinds = []
        for header, rows in grids:
            self.assertEqual(header[0], "algorithm")
            self.assertEqual(header[-1], "distance")
            self.assertEqual(len(header), 8)   # 6 outcomes
            kind = by_label[rows[0][0]]["kind"]
            kinds.append(kind)
            # Every algorithm of the kind, in the report's order.
            self.assertEqual([r[0] for r in rows],
                             [label(a) for a in self.algs
                              if a["kind"] == kind])
            for r in rows:
                alg = by_label[r[0]]
                exact = outcomes(alg)
                for name, cell in zip(header[1:-1], r[1:-1]):
                    self.assertEqual(cell, exact.get(name, "0"),
                                     (r[0], name))
        self.assertEqual(kinds, ["permutation", "deal"])

    def test_naive_swap_row(self):
        # The well-known figure: the naive swap of 3 cards reaches 123,
        # 312 and 321 in 4 of its 27 paths and 132, 213 and 231 in 5 (Jeff
        # Atwood, "The Danger of Naivete", Coding Horror, 2007); A is 1.
        header, rows = self.md_grids()[0]
        self.assertEqual(header[1:-1], ["ABC", "ACB", "BAC", "BCA", "CAB",
                                        "CBA"])
        row = [r for r in rows if r[0] == "`naive-swap`"][0]
        self.assertEqual(row[1:-1], ["4/27", "5/27", "5/27", "5/27", "4/27",
                                     "4/27"])
        self.assertEqual(row[-1], "1/18 (0.05556)")

    def test_markdown_of_one_algorithm(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "one.md")
            code, out, err = run(["exact", "naive-swap", "--n", "3",
                                  "--markdown", path])
            self.assertEqual((code, err), (1, ""))
            self.assertIn("NOT UNIFORM", out)   # the table as ever
            with open(path) as f:
                md = f.read()
        self.assertTrue(md.startswith("# Exact bias of naive-swap at 3 "
                                      "cards\n"))
        self.assertIn("\n## `naive-swap`\n", md)
        self.assertIn("| ACB | 5/27 | 0.185185 | 1.1111 | 5 |", md)
        self.assertIn("| C | 8/27 | 10/27 | 1/3 |", md)
        self.assertNotIn("at a glance", md)   # one row is no grid

    def test_html_grid(self):
        grids = self.page.all("table", "grid")
        self.assertEqual([g.attrs["data-kind"] for g in grids],
                         ["permutation", "deal"])
        ids = {s.attrs["id"] for s in self.page.all("section", "run")}
        header = [th.words().strip() for th in grids[0].all("th")][:8]
        self.assertEqual(header, ["algorithm", "ABC", "ACB", "BAC", "BCA",
                                  "CAB", "CBA", "distance"])
        perms = [a for a in self.algs if a["kind"] == "permutation"]
        rows = grids[0].all("tbody")[0].all("tr")
        self.assertEqual(len(rows), len(perms))
        for tr, alg in zip(rows, perms):
            link = tr.all("a")[0].attrs["href"]
            self.assertEqual(link, "#" + section_id(alg))
            self.assertIn(link[1:], ids)
            cells = [td for td in tr.all("td") if "data-ratio" in td.attrs]
            self.assertEqual(len(cells), 6)
            exact = outcomes(alg)
            for name, td in zip(header[1:7], cells):
                self.assertEqual(td.words().strip(), exact.get(name, "0"))
                ratio = float(td.attrs["data-ratio"])
                if alg["uniform"]:
                    self.assertEqual(ratio, 1.0)
                else:
                    p, q = (exact.get(name, "0") + "/1").split("/")[:2]
                    self.assertAlmostEqual(ratio, 6 * int(p) / int(q),
                                           places=5)
            self.assertIn("background:#", cells[0].attrs["style"])
        # A fair cell is white, naive-swap's 4/27 pale blue, sattolo's
        # never-reached ABC the darkest blue.
        colour = {tr.all("a")[0].words().strip():
                  [td.attrs["style"] for td in tr.all("td")
                   if "data-ratio" in td.attrs] for tr in rows}
        self.assertTrue(colour["fisher-yates"][0].startswith(
            "background:#ffffff"))
        naive = colour["naive-swap"][0]
        self.assertNotIn("#ffffff", naive)
        self.assertGreater(int(naive[16:18], 16), int(naive[12:14], 16))
        self.assertTrue(colour["sattolo"][0].startswith("background:#053061"))

    def test_html_sections(self):
        sections = self.page.all("section", "run")
        self.assertEqual(len(sections), len(self.algs))
        for sec, alg in zip(sections, self.algs):
            with self.subTest(alg=alg["algorithm"]):
                self.assertEqual(sec.attrs["id"], section_id(alg))
                self.assertEqual(sec.attrs["data-verdict"], verdict(alg))
                maps = sec.all("svg", "heatmap")
                self.assertEqual(len(maps), 1)
                m = maps[0]
                matrix = alg.get("position_matrix") or alg["hand_matrix"]
                self.assertEqual(int(m.attrs["data-rows"]), len(matrix))
                self.assertEqual(int(m.attrs["data-cols"]), len(matrix[0]))
                self.assertEqual(m.attrs["data-col-label"],
                                 "hand" if alg["kind"] == "deal"
                                 else "position")
                cells = m.all("rect", "cell")
                self.assertEqual(len(cells), 3 * len(matrix[0]))
                for c in cells:
                    r, j = int(c.attrs["data-r"]), int(c.attrs["data-c"])
                    tip = c.all("title")[0].words()
                    self.assertIn(": %s = " % shown(matrix[r][j]), tip)
                    self.assertIn("card %s," % CARDS[r], tip)
                # The same fractions as a table, for paper.
                table = sec.all("table", "matrix")[0].all("tbody")[0]
                self.assertEqual([[td.words() for td in tr.all("td")]
                                  for tr in table.all("tr")],
                                 [[shown(x) for x in row] for row in matrix])
                # Every one of the 6 outcomes has its bar, the ones never
                # reached at 0.
                bars = sec.all("rect", "bar")
                self.assertEqual(len(bars), 6)
                exact = outcomes(alg)
                never = [b for b in bars if b.parent.attrs.get("class")
                         == "never"]
                self.assertEqual(len(never), 6 - len(exact))
                for b in never:
                    self.assertEqual(float(b.attrs["height"]), 0)
                dist = [tr for tr in sec.all("table", "numbers")[0].all("tr")
                        if tr.all("th")[0].words().startswith(
                            "total-variation")][0]
                self.assertIn(shown(alg["tv_distance_exact"]),
                              dist.words())

    def test_zero_is_written_0_for_people(self):
        # Sattolo's diagonal and a fair shuffle's distance are exactly 0:
        # "0" on the page, in the Markdown and in the text, where the
        # JSON keeps the "p/q" form programs read.
        self.assertNotIn("0/1", self.html)
        self.assertNotIn("0/1", self.md)
        sattolo = [a for a in self.algs if a["algorithm"] == "sattolo"][0]
        self.assertEqual(sattolo["position_matrix"][0][0], "0/1")
        fair = [a for a in self.algs if a["algorithm"] == "fisher-yates"][0]
        self.assertEqual(fair["tv_distance_exact"], "0/1")
        self.assertEqual(fair["unexplored_mass"], "0/1")
        sec = [s for s in self.page.all("section", "run")
               if s.attrs["id"] == "run-sattolo"][0]
        tip = sec.all("rect", "cell")[0].all("title")[0].words()
        self.assertIn("card A, position 0: 0 = 0,", tip)
        self.assertIn("| A | 0 | 1/2 | 1/2 |", self.md)
        self.assertIn("Total-variation distance from uniform: **0**.",
                      self.md)
        code, out, err = run(["exact", "sattolo", "--n", "3"])
        self.assertEqual(code, 1, err)
        self.assertNotIn("0/1", out)
        self.assertIn("\n  A      0  1/2  1/2\n", out)
        code, out, err = run(["exact", "fisher-yates", "--n", "3"])
        self.assertEqual(code, 0, err)
        self.assertIn("total-variation distance from uniform: 0\n", out)
        self.assertNotIn("0/1", out)

    def test_sattolo_never_reached(self):
        sec = [s for s in self.page.all("section", "run")
               if s.attrs["id"] == "run-sattolo"][0]
        text = sec.words()
        self.assertIn("4 of 6 orders: ABC ACB BAC CBA", " ".join(
            text.split()))
        titles = [g.all("title")[0].words() for g in sec.all("g")
                  if g.attrs.get("class") == "never"]
        self.assertEqual(titles, ["ABC: never reached", "ACB: never reached",
                                  "BAC: never reached", "CBA: never reached"])

    def test_html_page_is_self_contained(self):
        self.assertTrue(self.html.startswith("<!DOCTYPE html>"))
        self.assertIn('<meta name="generator" content="shufflebias ',
                      self.html)
        for bad in ("<script", "http:", "https:", "url(", "@import",
                    "<link"):
            self.assertNotIn(bad, self.html)
        facts = self.page.all("dl", "facts")
        self.assertEqual(len(facts), 1)
        words = " ".join(" ".join(e.words().split())
                         for e in facts[0].children)
        self.assertIn("shufflebias exact --all --n 3 --quiet --markdown "
                      "all.md --json all.json --html all.html", words)
        self.assertIn("deck 3 cards", words)
        self.assertIn("path budget 200000000 paths", words)
        self.assertIn("depth limit 4096 draws a path", words)

    def test_unexplored_mass_is_not_white(self):
        # riffle-until-uniform at 3 cards is cut at its depth limit: the
        # matrix holds only the mass walked, so every cell falls short of
        # a uniform shuffle's 1/3 by the same share (767/131072 is left
        # unexplored), and the page must not call it exactly uniform.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "ru.html")
            code, out, err = run(["exact", "riffle-until-uniform", "--n",
                                  "3", "--quiet", "--html", path,
                                  "--json", os.path.join(d, "ru.json")])
            self.assertEqual(code, 3, err)
            with open(path) as f:
                text = f.read()
            with open(os.path.join(d, "ru.json")) as f:
                rep = json.load(f)
        page = Page(text).root
        self.assertEqual(page.all("section", "run")[0].attrs["data-verdict"],
                         "inconclusive")
        explored = 1 - float(Fraction(rep["unexplored_mass"]))
        cells = page.all("svg", "heatmap")[0].all("rect", "cell")
        self.assertEqual(len(cells), 9)
        for c in cells:
            self.assertAlmostEqual(float(c.attrs["data-ratio"]), explored,
                                   places=4)
        self.assertNotIn("all white", text)

    def test_interrupted_walk_still_writes_its_pages(self):
        # A walk of 387,420,489 paths, interrupted once the SIGINT handler
        # is in (SigCgt in /proc): the Markdown and the page still say the
        # totals it counted, as the text and JSON do, and call it
        # inconclusive.  A regression that skips them leaves no file.
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.Popen([CLI, "exact", "naive-swap", "--n", "9",
                                  "--walk", "paths", "--max-paths", "1e9",
                                  "--quiet",
                                  "--html", "x.html", "--markdown", "x.md",
                                  "--json", "x.json"], cwd=d,
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE,
                                 stdin=subprocess.DEVNULL)
            while not handler_in(p.pid, signal.SIGINT):
                pass
            p.send_signal(signal.SIGINT)
            p.communicate(timeout=120)
            self.assertEqual(p.returncode, 130)
            with open(os.path.join(d, "x.json")) as f:
                rep = json.load(f)
            with open(os.path.join(d, "x.md")) as f:
                md = f.read()
            with open(os.path.join(d, "x.html")) as f:
                page = Page(f.read()).root
        self.assertTrue(rep["partial"])
        self.assertIn(f"Interrupted after {rep['paths']} paths", md)
        sec = page.all("section", "run")
        self.assertEqual(len(sec), 1)
        self.assertEqual(sec[0].attrs["data-verdict"], "inconclusive")

    def test_deal_heatmap_is_card_by_hand(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "deal.html")
            code, out, err = run(["exact", "deal-random-hand", "--n", "4",
                                  "--param", "hands=2", "--param",
                                  "hand-size=2", "--quiet", "--html", path])
            self.assertEqual((code, out, err), (1, "", ""))
            with open(path) as f:
                page = Page(f.read()).root
        sec = page.all("section", "run")
        self.assertEqual([s.attrs["id"] for s in sec],
                         ["run-deal-random-hand"])
        self.assertEqual(sec[0].attrs["data-verdict"], "biased")
        m = page.all("svg", "heatmap")[0]
        self.assertEqual((m.attrs["data-rows"], m.attrs["data-cols"],
                          m.attrs["data-col-label"]), ("4", "2", "hand"))
        cells = m.all("rect", "cell")
        self.assertEqual(len(cells), 8)
        for c in cells:
            # Each card is in each hand half the time, as a uniform deal
            # has it: 1/H of the time, H = 2 hands.
            self.assertEqual(c.attrs["data-ratio"], "1")
            self.assertIn(": 1/2 = 0.5, 1 x uniform", c.all("title")[0].words())
        bars = {b.parent.all("title")[0].words().split(":")[0]:
                float(b.attrs["data-ratio"]) for b in page.all("rect", "bar")}
        self.assertEqual(bars, {"AB|CD": 1.5, "AC|BD": 0.75, "AD|BC": 0.75,
                                "BC|AD": 0.75, "BD|AC": 0.75, "CD|AB": 1.5})
        self.assertEqual(page.all("table", "grid"), [])

    def test_order_labels_do_not_overlap(self):
        # 24 bars of 29 px at 4 cards: "ABCD" is some 30 px of 10 px
        # capitals, so the labels turn rather than run into each other;
        # at 3 cards (bars of 30 px, three letters) they stay level.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s4.html")
            code, _, err = run(["exact", "sattolo", "--n", "4", "--quiet",
                                "--html", path])
            self.assertEqual((code, err), (1, ""))
            with open(path) as f:
                page = Page(f.read()).root
        dist = page.all("svg", "distribution")[0]
        ticks = [t for t in dist.all("text", "tick")
                 if len(t.words()) == 4 and t.words().isalpha()]
        self.assertEqual(len(ticks), 24)
        for t in ticks:
            self.assertIn("rotate(-60)", t.attrs.get("transform", ""))
        sec = [s for s in self.page.all("section", "run")
               if s.attrs["id"] == "run-sattolo"][0]
        ticks = [t for t in sec.all("svg", "distribution")[0].all(
                 "text", "tick") if t.words().isalpha()]
        self.assertEqual(len(ticks), 6)
        for t in ticks:
            self.assertNotIn("transform", t.attrs)

    def test_many_orders_have_a_profile(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "seven.html")
            code, _, err = run(["exact", "sattolo", "--n", "7", "--quiet",
                                "--html", path])
            self.assertEqual((code, err), (1, ""))
            with open(path) as f:
                page = Page(f.read()).root
        self.assertEqual(page.all("rect", "bar"), [])
        profile = page.all("svg", "profile")
        self.assertEqual(len(profile), 1)
        # Sattolo reaches the 720 7-cycles, each 1/720, and never the
        # other 4320 of the 5040 orders: two levels.
        levels = profile[0].all("rect", "level")
        self.assertEqual([(l.attrs["data-ratio"], l.all("title")[0].words())
                          for l in levels],
                         [("0", "4320 orders never reached"),
                          ("7", "720 orders at 1/720 (7 x uniform)")])

    def test_profile_reaches_its_most_likely_level(self):
        # naive-swap at 7 cards: 243 levels, the most likely (3.323 x
        # uniform, as the text says) a sliver of the 5040 orders.  It is
        # drawn at least a pixel wide, inside the axis, last, at its
        # height: the picture tops out where the text does.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "n7.html")
            code, out, err = run(["exact", "naive-swap", "--n", "7",
                                  "--html", path])
            self.assertEqual(code, 1, err)
            with open(path) as f:
                page = Page(f.read()).root
        self.assertIn("most likely 3.323 x uniform", out)
        levels = page.all("svg", "profile")[0].all("rect", "level")
        self.assertGreater(len(levels), 200)
        top = levels[-1]
        self.assertAlmostEqual(float(top.attrs["data-ratio"]), 3.323,
                               places=3)
        self.assertEqual(max(float(l.attrs["data-ratio"]) for l in levels),
                         float(top.attrs["data-ratio"]))
        for l in levels:
            self.assertGreaterEqual(float(l.attrs["width"]), 1.0)
            self.assertLessEqual(float(l.attrs["x"])
                                 + float(l.attrs["width"]), 44 + 520 + 1e-6)
        # 160 px for the axis's 3.5: 3.323 is 151.9 px high.
        self.assertAlmostEqual(float(top.attrs["height"]),
                               160 * 3.32311 / 3.5, places=1)

    def test_command_line_is_quoted_and_timing_optional(self):
        pages = []
        for i in range(2):
            with tempfile.TemporaryDirectory() as d:
                code, _, err = run(["exact", "naive-swap", "--n", "3",
                                    "--quiet", "--no-timing", "--html",
                                    "it's here.html"], cwd=d)
                self.assertEqual((code, err), (1, ""))
                with open(os.path.join(d, "it's here.html")) as f:
                    pages.append(f.read())
        self.assertEqual(pages[0], pages[1])
        self.assertNotIn("<dt>time</dt>", pages[0])
        # As typed, quoted for a POSIX shell, then escaped for HTML.
        self.assertIn("shufflebias exact naive-swap --n 3 --quiet "
                      "--no-timing --html &#39;it&#39;\\&#39;&#39;s "
                      "here.html&#39;", pages[0])
        self.assertIn("<dt>time</dt>", self.html)

    def test_html_errors(self):
        with tempfile.TemporaryDirectory() as d:
            cases = [
                (["exact", "naive-swap", "--html",
                  os.path.join(d, "no", "such", "dir", "x.html")],
                 "no/such/dir"),
                (["exact", "naive-swap", "--html", d], d),
                (["exact", "naive-swap", "--html", "-"], "'-'"),
                (["exact", "naive-swap", "--json", os.path.join(d, "x"),
                  "--html", os.path.join(d, "x")], "--html"),
                (["exact", "--all", "--markdown", os.path.join(d, "x"),
                  "--html", os.path.join(d, "x")], "--html"),
            ]
            for args, what in cases:
                with self.subTest(args=args):
                    code, out, err = run(args)
                    self.assertEqual((code, out), (2, ""))
                    self.assertIn(what, err)
                    self.assertEqual(err.count("\n"), 1)
            self.assertEqual(os.listdir(d), [])
        # A page that cannot be written after the walk: exit 2, said once.
        if os.path.exists("/dev/full"):
            for opt in ("--html", "--markdown"):
                code, out, err = run(["exact", "naive-swap", "--quiet", opt,
                                      "/dev/full"])
                self.assertEqual((code, out), (2, ""))
                self.assertEqual(err, "shufflebias: cannot write "
                                 "'/dev/full': No space left on device\n")


def main():
    global CLI
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
