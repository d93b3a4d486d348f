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
NEAR_WHITE = 24
NOT_WHITE = 40

# The 52-card audit page's budget.
AUDIT_BUDGET = 2 * 1024 * 1024

# The DOM of the page's heatmaps: for each full one (not a thumbnail) its
# data-* and its cells, with the fill Chromium computed for each.
HEATMAPS_JS = r"""
Array.from(document.querySelectorAll('svg.heatmap:not(.thumb)')).map(svg => ({
  rows: svg.getAttribute('data-rows'),
  cols: svg.getAttribute('data-cols'),
  rowLabel: svg.getAttribute('data-row-label'),
  colLabel: svg.getAttribute('data-col-label'),
  run: (svg.closest('section.run') || {}).id || null,
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
