#!/usr/bin/env python3
"""The HTML reports as a reader sees them: each kind of page, written by the
program, opened in a real headless Chromium (tests/browser.py).

Every page must load without a console error or an uncaught exception and
ask for nothing but its own file; its heatmaps have one cell per card and
position (or hand); the colour Chromium gives a biased cell differs from
white and the colour of a fair cell is white or nearly; a 52-card audit
stays under its size budget; and a screenshot of each page is a whole PNG
of a plausible size (kept in --shots for a person to look at).

Which cells are biased is worked out here, not read from the program: the
card x position law of naive-swap (for each i from the front, swap i with
a uniform j in [0, n)) is computed exactly, at 3 cards by walking its 27
paths and at 52 cards by following one card's position through the n
swaps.  The driver itself is tested first on hand-written pages
(tests/data/pages/), one of them with every fault the checks must catch.

A missing Chromium fails this test: the project's scripts install it.

    test_pages.py --cli PATH/shufflebias [--shots DIR]
"""
import argparse
import fractions
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import browser  # noqa: E402  (tests/browser.py, beside this file)

CLI = None
SHOTS = None
FIXTURES = os.path.join(HERE, "data", "pages")

# How far from white (255 minus the smallest of R, G, B) a colour may be and
# still count as white, and how far a biased cell's colour must be at least.
NEAR_WHITE = 16
NOT_WHITE = 30

# The 52-card audit page's budget.
AUDIT_BUDGET = 2 * 1024 * 1024

# The DOM of the page's heatmaps: for each full one (not a thumbnail) its
# data-*, whether it is a statistic's picture, and its cells, with the fill
# Chromium computed for each.
HEATMAPS_JS = r"""
Array.from(document.querySelectorAll('svg.heatmap:not(.thumb)')).map(svg => ({
  rows: svg.getAttribute('data-rows'),
  cols: svg.getAttribute('data-cols'),
  rowLabel: svg.getAttribute('data-row-label'),
  colLabel: svg.getAttribute('data-col-label'),
  run: (svg.closest('section.run') || {}).id || null,
  stat: (svg.closest('section.stat') || {}).id || null,
  cells: Array.from(svg.querySelectorAll('rect.cell')).map(r => [
    Number(r.getAttribute('data-r')), Number(r.getAttribute('data-c')),
    r.getAttribute('data-ratio'), getComputedStyle(r).fill,
    r.querySelector('title') ? r.querySelector('title').textContent : null])
}))
"""

def rgb(colour):
    """(r, g, b) of a computed CSS colour 'rgb(r, g, b)' or 'rgba(...)'."""
    m = re.match(r"rgba?\((\d+), (\d+), (\d+)", colour or "")
    if not m:
        raise AssertionError(f"not a computed colour: {colour!r}")
    return tuple(int(x) for x in m.groups())


def off_white(colour):
    """How far a colour is from white: 255 less its smallest channel."""
    return 255 - min(rgb(colour))


def naive_swap_exact(n):
    """The exact card x position law of naive-swap at n cards, as ratios to
    uniform: [card][position], card c being the one that starts at c.
    Each card's position is a Markov chain: at step i it goes to a uniform
    j if it is at i, and to i if it is the j drawn (1/n) otherwise."""
    out = []
    for card in range(n):
        law = [fractions.Fraction(0)] * n
        law[card] = fractions.Fraction(1)
        for i in range(n):
            new = [fractions.Fraction(0)] * n
            for k in range(n):
                if k == i:
                    for j in range(n):
                        new[j] += law[i] / n
                else:
                    new[k] += law[k] * (n - 1) / n
                    new[i] += law[k] / n
            law = new
        out.append([p * n for p in law])
    return out


def naive_swap_paths(n):
    """The same law by walking all n^n paths (small n)."""
    counts = [[0] * n for _ in range(n)]
    for draws in itertools.product(range(n), repeat=n):
        deck = list(range(n))
        for i, j in enumerate(draws):
            deck[i], deck[j] = deck[j], deck[i]
        for pos, card in enumerate(deck):
            counts[card][pos] += 1
    return [[fractions.Fraction(c * n, n ** n) for c in row] for row in counts]


def run_cli(*args):
    proc = subprocess.run([CLI, *args], capture_output=True, text=True,
                          timeout=600)
    if proc.returncode not in (0, 1):
        raise AssertionError(f"shufflebias {' '.join(args)}: exit "
                             f"{proc.returncode}\n{proc.stderr}")
    return proc


class Driver(unittest.TestCase):
    """tests/browser.py on pages written by hand."""

    def test_clean_page(self):
        with browser.Browser(width=800, height=600) as b:
            page = b.open(os.path.join(FIXTURES, "clean.html"))
            self.assertEqual(page.errors(), [])
            self.assertEqual(page.foreign_requests(), [])
            self.assertEqual(page.requests, [page.url])
            cells = page.evaluate(
                "Array.from(document.querySelectorAll('rect.cell'))"
                ".map(r => getComputedStyle(r).fill)")
            self.assertEqual(len(cells), 4)
            self.assertEqual(rgb(cells[0]), (0xb2, 0x18, 0x2b))
            self.assertEqual(off_white(cells[1]), 0)
            png = page.screenshot()
            width, height = browser.png_size(png)
            # The whole page (over 2000 px tall), not only the window.
            self.assertEqual(width, 800)
            self.assertGreater(height, 2000)
            # One element: the 80 x 80 heatmap and a margin of 8 px.
            self.assertEqual(browser.png_size(page.screenshot(
                selector="svg.heatmap")), (96, 96))
            with self.assertRaisesRegex(browser.BrowserError, "no element"):
                page.screenshot(selector="table.none")

    def test_faults_are_caught(self):
        with browser.Browser() as b:
            page = b.open(os.path.join(FIXTURES, "broken.html"))
            errors = "\n".join(page.errors())
            self.assertIn("deliberate console error", errors)
            self.assertIn("deliberate exception", errors)
            self.assertEqual(page.foreign_requests(),
                             ["https://fonts.example.invalid/sheet.css"])

    def test_evaluate_error(self):
        with browser.Browser() as b:
            page = b.open(os.path.join(FIXTURES, "clean.html"))
            with self.assertRaisesRegex(browser.BrowserError, "no_such_name"):
                page.evaluate("no_such_name.length")

    def test_load_deadline_and_clean_up(self):
        """A page that never loads misses its deadline, and the browser,
        its helpers and its profile are gone afterwards."""
        b = browser.Browser()
        with self.assertRaisesRegex(browser.BrowserError, "in time"):
            with b:
                group, profile = b.proc.pid, b.profile
                b.open(os.path.join(FIXTURES, "hang.html"), timeout=3)
        with self.assertRaises(ProcessLookupError):
            os.killpg(group, 0)
        self.assertFalse(os.path.exists(profile))

    def test_clean_up_after_an_error(self):
        b = browser.Browser()
        with self.assertRaises(KeyError):
            with b:
                group, profile = b.proc.pid, b.profile
                raise KeyError("raised inside the block")
        with self.assertRaises(ProcessLookupError):
            os.killpg(group, 0)
        self.assertFalse(os.path.exists(profile))

    def test_missing_chromium_fails(self):
        old = os.environ.get("SB_CHROMIUM")
        os.environ["SB_CHROMIUM"] = os.path.join(FIXTURES, "no-such-chromium")
        try:
            with self.assertRaises(browser.BrowserMissing):
                with browser.Browser():
                    pass
        finally:
            if old is None:
                del os.environ["SB_CHROMIUM"]
            else:
                os.environ["SB_CHROMIUM"] = old

    def test_png_checks(self):
        with open(os.path.join(FIXTURES, "clean.html"), "rb") as f:
            with self.assertRaises(ValueError):
                browser.png_size(f.read())


class Pages(unittest.TestCase):
    """Every kind of report, written by the program and seen in Chromium."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="sb-pages-")
        cls.browser = browser.Browser()
        cls.browser.__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        shutil.rmtree(cls.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def look(self, name, min_height=300):
        """Open a page written in the temporary directory, check what every
        page must be, keep its screenshot; the Page."""
        html = self.path(name)
        with open(html, encoding="utf-8") as f:
            text = f.read()
        self.assertRegex(text, r'<meta name="generator" content="shufflebias ')
        page = self.browser.open(html)
        self.assertEqual(page.errors(), [], f"{name}: console errors")
        self.assertEqual(page.requests, [page.url],
                         f"{name}: requests other than the page itself")
        png = page.screenshot(os.path.join(SHOTS, name.replace(".html", ".png")))
        width, height = browser.png_size(png)
        self.assertEqual(width, self.browser.width)
        self.assertGreaterEqual(height, min_height)
        # A page of text and pictures in a few colours: more than a blank
        # image compresses to, less than raw pixels.
        self.assertGreater(len(png), 10000)
        self.assertLess(len(png), width * height * 3)
        return page

    def heatmaps(self, page, rows, cols, col_label="position"):
        """The card x position (or hand) heatmaps of the page's runs, each
        checked to be rows x cols (unless None); every heatmap, the
        statistics' too, to have a cell at each (r, c) of its size, each
        with its tooltip."""
        maps = page.evaluate(HEATMAPS_JS)
        main = [m for m in maps if m["stat"] is None]
        self.assertGreater(len(main), 0, "no card heatmap")
        for m in maps:
            r, c = int(m["rows"]), int(m["cols"])
            self.assertEqual(sorted((cr, cc) for cr, cc, *_ in m["cells"]),
                             [(i, j) for i in range(r) for j in range(c)],
                             m["stat"] or m["run"])
            for *_, title in m["cells"]:
                self.assertTrue(title, "a cell without its tooltip")
        for m in main:
            self.assertEqual(m["rowLabel"], "card")
            if rows is not None:
                self.assertEqual((m["rows"], m["cols"]), (str(rows), str(cols)))
                self.assertEqual(m["colLabel"], col_label)
        return main

    @staticmethod
    def cell(heatmap, r, c):
        """(data-ratio as a float, computed fill) of one cell."""
        for cr, cc, ratio, fill, _ in heatmap["cells"]:
            if (cr, cc) == (r, c):
                return float(ratio), fill
        raise AssertionError(f"no cell ({r}, {c})")

    def test_fisher_yates(self):
        run_cli("test", "fisher-yates", "--n", "52", "--samples", "1e5",
                "--seed", "1", "--quiet", "--html", self.path("fisher-yates.html"))
        page = self.look("fisher-yates.html")
        self.heatmaps(page, 52, 52)
        self.assertEqual(page.evaluate(
            "document.querySelectorAll('section.run').length"), 1)
        self.assertGreater(page.evaluate(
            "document.querySelectorAll('section.stat svg.bars').length"), 0)

    def test_naive_swap_52(self):
        """The sampled heatmap of naive-swap: card 1 in position 0 is 35%
        too likely, card 0 is exactly uniform everywhere."""
        samples = 200000
        run_cli("test", "naive-swap", "--n", "52", "--samples", str(samples),
                "--seed", "2", "--quiet", "--html", self.path("naive-swap.html"))
        page = self.look("naive-swap.html")
        heatmap, = self.heatmaps(page, 52, 52)
        exact = naive_swap_exact(52)
        ratios = [(exact[r][c], r, c) for r in range(52) for c in range(52)]
        # Card 1 in position 0 is the most too likely (tied with card 51 in
        # position 50), card 0 in position 0 exactly uniform.
        hot, fair = (exact[1][0], 1, 0), (exact[0][0], 0, 0)
        self.assertEqual(hot[0], max(ratios)[0])
        self.assertEqual(fair[0], 1)
        for want, r, c in (hot, fair):
            seen, _ = self.cell(heatmap, r, c)
            # Binomial count: within 5 standard deviations of the exact
            # ratio (false alarm 6e-7 a cell; the seed is fixed anyway).
            p = float(want) / 52
            sd = (p * (1 - p) / samples) ** 0.5 * 52
            self.assertLess(abs(seen - float(want)), 5 * sd, (r, c))
        self.assertGreater(off_white(self.cell(heatmap, *hot[1:])[1]), NOT_WHITE)
        self.assertLess(off_white(self.cell(heatmap, *fair[1:])[1]), NEAR_WHITE)
        # The most-too-rare cell (card 51 in position 0) is coloured too,
        # and not like the too-likely one.
        cold = min(ratios)
        cold_fill = self.cell(heatmap, *cold[1:])[1]
        self.assertGreater(off_white(cold_fill), NOT_WHITE)
        self.assertNotEqual(rgb(cold_fill), rgb(self.cell(heatmap, *hot[1:])[1]))

    def test_deal(self):
        run_cli("test", "deal-fisher-yates", "--n", "52", "--samples", "1e5",
                "--seed", "3", "--quiet", "--html", self.path("deal.html"))
        page = self.look("deal.html")
        self.heatmaps(page, 52, 4, col_label="hand")

    def test_merge(self):
        state = []
        for part in ("1/2", "2/2"):
            state.append(self.path(f"part{part[0]}.state"))
            run_cli("test", "fisher-yates", "--n", "52", "--samples", "1e5",
                    "--seed", "4", "--part", part, "--quiet",
                    "--state", state[-1])
        run_cli("merge", *state, "--quiet", "--html", self.path("merge.html"))
        page = self.look("merge.html")
        self.heatmaps(page, 52, 52)
        self.assertEqual(page.evaluate(
            "document.querySelectorAll('section.run').length"), 1)

    def test_exact_naive_swap(self):
        """exact naive-swap at 3 cards: the tooltips and ratios are the law
        of its 27 paths, coloured where it is biased, white where not."""
        run_cli("exact", "naive-swap", "--n", "3", "--quiet",
                "--html", self.path("exact-naive-swap.html"))
        page = self.look("exact-naive-swap.html")
        heatmap, = self.heatmaps(page, 3, 3)
        law = naive_swap_paths(3)
        self.assertEqual(law, naive_swap_exact(3))
        for r in range(3):
            for c in range(3):
                ratio, fill = self.cell(heatmap, r, c)
                # The page gives 4 significant digits.
                self.assertAlmostEqual(ratio, float(law[r][c]),
                                       delta=1e-3 * float(law[r][c]))
                if law[r][c] == 1:
                    self.assertLess(off_white(fill), NEAR_WHITE, (r, c))
                elif abs(law[r][c] - 1) > fractions.Fraction(1, 10):
                    self.assertGreater(off_white(fill), NOT_WHITE, (r, c))
        # The exact fraction of each cell is in its tooltip.
        titles = " ".join(t for *_, t in heatmap["cells"])
        for row in law:
            for ratio in row:
                self.assertIn(str(ratio / 3), titles)
        self.assertEqual(page.evaluate(
            "document.querySelector('section.run').dataset.verdict"), "biased")

    def test_exact_all(self):
        """The grid of exact --all at 3 cards: a row per shuffle, a cell per
        order holding its exact ratio to 1/6, white where the shuffle is
        uniform, coloured wherever an order is 10% or more off."""
        run_cli("exact", "--all", "--n", "3", "--quiet",
                "--html", self.path("exact-all.html"),
                "--json", self.path("exact-all.json"))
        with open(self.path("exact-all.json")) as f:
            algorithms = [a for a in json.load(f)["algorithms"]
                          if a["kind"] == "permutation"]
        page = self.look("exact-all.html", min_height=2000)
        grid = page.evaluate(r"""
[Array.from(document.querySelectorAll(
   'table.grid[data-kind="permutation"] thead th')).map(th => th.textContent),
 Array.from(document.querySelectorAll(
   'table.grid[data-kind="permutation"] tbody tr')).map(tr => [
   tr.querySelector('a').getAttribute('href'),
   Array.from(tr.querySelectorAll('td[data-ratio]')).map(td =>
     [td.getAttribute('data-ratio'), getComputedStyle(td).backgroundColor])])]
""")
        head, rows = grid
        orders = ["ABC", "ACB", "BAC", "BCA", "CAB", "CBA"]
        self.assertEqual(head[1:7], orders)
        self.assertEqual(len(rows), len(algorithms))
        coloured = 0
        for (href, cells), alg in zip(rows, algorithms):
            name = alg["algorithm"]
            self.assertTrue(href.startswith(f"#run-{name}"), (href, name))
            self.assertEqual(len(cells), 6, name)
            # The orders never reached are not listed in the JSON: 0.
            want = dict.fromkeys(orders, 0.0)
            for p in alg["permutations"]:
                want["".join("ABC"[i] for i in p["perm"])] = p["ratio"]
            for order, (ratio, colour) in zip(orders, cells):
                self.assertAlmostEqual(float(ratio), want[order],
                                       delta=1e-3 * want[order] + 1e-12,
                                       msg=f"{name} {order}")
                if alg["uniform"]:
                    self.assertLess(off_white(colour), NEAR_WHITE, name)
                elif abs(want[order] - 1) >= 0.1:
                    coloured += 1
                    self.assertGreater(off_white(colour), NOT_WHITE,
                                       f"{name} {order}")
        self.assertGreater(sum(a["uniform"] for a in algorithms), 0)
        self.assertGreater(coloured, 0)
        # Each shuffle's section, the grid's row links to it, has its 3 x 3
        # heatmap.
        self.heatmaps(page, None, None)     # every heatmap whole
        maps = {m["run"]: m for m in page.evaluate(HEATMAPS_JS)}
        for href, _ in rows:
            m = maps[href[1:]]
            self.assertEqual((m["rows"], m["cols"], m["colLabel"]),
                             ("3", "3", "position"), href)
            self.assertEqual(len(m["cells"]), 9, href)

    def test_audit(self):
        """The 52-card audit: an overview linking to a section per run, each
        with its 52-card heatmap and a thumbnail of it, within the size
        budget."""
        run_cli("audit", "--samples", "20000", "--escalate", "0", "--quiet",
                "--html", self.path("audit.html"))
        size = os.path.getsize(self.path("audit.html"))
        self.assertLess(size, AUDIT_BUDGET)
        page = self.look("audit.html", min_height=2000)
        links = page.evaluate(
            "Array.from(document.querySelectorAll("
            "'table.overview a[href^=\"#run-\"]'))"
            ".map(a => a.getAttribute('href').slice(1))")
        runs = page.evaluate(
            "Array.from(document.querySelectorAll('section.run')).map(s => s.id)")
        self.assertGreater(len(runs), 10)
        self.assertEqual(sorted(set(links)), sorted(runs))
        maps = [m for m in page.evaluate(HEATMAPS_JS) if m["stat"] is None]
        self.assertEqual(sorted(m["run"] for m in maps), sorted(runs))
        # A 52 x 52 table may be drawn in blocks of k x k cards, if the
        # page says so under it.
        notes = dict(page.evaluate(
            "Array.from(document.querySelectorAll('section.run')).map(s =>"
            " [s.id, s.querySelector('figure').textContent])"))
        square = 0
        for m in maps:
            rows, cols = int(m["rows"]), int(m["cols"])
            self.assertEqual(len(m["cells"]), rows * cols, m["run"])
            if m["colLabel"] != "position" or cols != rows:
                self.assertEqual(rows, 52, m["run"])
                continue
            square += 1
            block = re.search(r"52 x 52 table is drawn in blocks of "
                              r"(\d+) x \1 cells", notes[m["run"]])
            k = int(block.group(1)) if block else 1
            self.assertEqual(rows, -(-52 // k), m["run"])
        self.assertGreater(square, 10)
        self.assertGreaterEqual(page.evaluate(
            "document.querySelectorAll('table.overview svg.heatmap.thumb')"
            ".length"), len(runs))


def main():
    global CLI, SHOTS
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--shots", help="keep the screenshots here")
    args, rest = parser.parse_known_args()
    CLI = os.path.abspath(args.cli)
    SHOTS = args.shots or tempfile.mkdtemp(prefix="sb-shots-")
    os.makedirs(SHOTS, exist_ok=True)
    # ctest's timeout (SIGTERM) still closes the browser on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)


if __name__ == "__main__":
    main()
