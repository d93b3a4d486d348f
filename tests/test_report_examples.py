#!/usr/bin/env python3
"""The example reports of reports/examples/ are what the program writes
today: scripts/examples regenerates them into a temporary directory, and
every Markdown, JSON and HTML file must equal the checked-in one byte for
byte.  Nothing is left out either way: every file the script writes is
checked in, every checked-in report is one it writes, and every page has
its screenshot beside it (the PNGs themselves are not compared: their
pixels depend on the fonts of the machine).

With --exact-only, the exact reports alone (seconds); without, the
52-card audit too (the long part: docs/speed.md).

    test_report_examples.py --cli PATH/shufflebias --source DIR [--exact-only]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

CLI = None
SOURCE = None
EXACT_ONLY = False


class Examples(unittest.TestCase):

    def test_regenerated_examples_match(self):
        kept = os.path.join(SOURCE, "reports", "examples")
        out = tempfile.mkdtemp(prefix="sb-examples-")
        try:
            args = [os.path.join(SOURCE, "scripts", "examples"), "--cli", CLI,
                    "--out", out, "--no-png"]
            if EXACT_ONLY:
                args.append("--exact-only")
            proc = subprocess.run(args, capture_output=True, text=True,
                                  timeout=1800)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            made = sorted(os.listdir(out))
            self.assertTrue(made)
            for name in made:
                with open(os.path.join(out, name), "rb") as f:
                    new = f.read()
                path = os.path.join(kept, name)
                self.assertTrue(os.path.exists(path),
                                f"reports/examples/{name} is written by "
                                "scripts/examples but not checked in")
                with open(path, "rb") as f:
                    old = f.read()
                self.assertTrue(new == old,
                                f"reports/examples/{name} is not what the "
                                "program writes today: run scripts/examples")
                if name.endswith(".html"):
                    self.assertTrue(os.path.exists(path[:-5] + ".png"),
                                    f"{name} has no screenshot")
            for name in os.listdir(kept):
                base, ext = os.path.splitext(name)
                if ext == ".png":
                    # NAME.png or NAME-PART.png, of NAME.html
                    pages = [p[:-5] for p in os.listdir(kept)
                             if p.endswith(".html")]
                    self.assertTrue([p for p in pages if base == p
                                     or base.startswith(p + "-")], name)
                elif EXACT_ONLY and base.startswith("audit"):
                    continue
                else:
                    self.assertIn(name, made, f"reports/examples/{name} is "
                                  "not written by scripts/examples")
        finally:
            shutil.rmtree(out, ignore_errors=True)


def main():
    global CLI, SOURCE, EXACT_ONLY
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--exact-only", action="store_true")
    args, rest = parser.parse_known_args()
    CLI = os.path.abspath(args.cli)
    SOURCE = os.path.abspath(args.source)
    EXACT_ONLY = args.exact_only
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)


if __name__ == "__main__":
    main()
