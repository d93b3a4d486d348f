#!/usr/bin/env python3
"""The sessions of the README and of docs/*.md are what the program prints
today, and their links lead somewhere.

Every line of a fenced block that starts with '$ build/shufflebias' is run
(with the program under test in place of build/shufflebias, from the
directory that holds the README, as a reader in a clone would), and what it
prints, standard output then standard error, must be the lines that follow
it, up to the next '$ ' line or the end of the block.  A '$ echo $?' line
is followed by the exit code of the command before it.  Two kinds of line
are compared loosely: a 'time' line of a report (how long the run took
depends on the machine) and a line cut with '...' (compared up to the
cut).  Every run has a fixed seed or none to take, so nothing here depends
on chance.

Every relative link of those pages, [text](path) or [text](path#anchor),
must name a file or directory of the tree, and an anchor a heading of the
page it points to.

    test_readme.py --cli PATH/shufflebias --readme PATH/README.md
                   [--docs DIR]     (default: docs/ beside the README)
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
import unittest

CLI = None
README = None
DOCS = None

def sessions(text):
    """[command, expected lines, exit code or None] from a page."""
    out = []
    fenced = False
    current = None          # the command whose output is being read
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            current = None
            continue
        if not fenced:
            continue
        if line.startswith("$ echo $?"):
            current[2] = "exit"
        elif line.startswith("$ build/shufflebias"):
            current = [line[2:], [], None]
            out.append(current)
        elif line.startswith("$ "):
            raise ValueError("a session line the test cannot run: " + line)
        elif current is not None and current[2] == "exit":
            current[2] = int(line)
        elif current is not None:
            current[1].append(line)
    return out


def same_line(want, got):
    timing = r"^\s*time[:\s]"
    if re.match(timing, want):
        return re.match(timing, got) is not None
    if want.endswith("..."):
        return got.startswith(want[:-3])
    return want == got


def pages():
    return [README] + sorted(glob.glob(os.path.join(DOCS, "*.md")))


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def links(text):
    """The targets of the page's [text](target) links, outside code."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.findall(r"\]\(([^)\s]+)\)", text)


def anchors(text):
    """The anchors of a Markdown page's headings, as GitHub makes them."""
    out = set()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for m in re.finditer(r"^#+\s+(.*)$", text, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower())
        out.add(slug.replace(" ", "-"))
    return out


class Sessions(unittest.TestCase):
    def run_page(self, path):
        runs = sessions(read(path))
        root = os.path.dirname(README)
        for command, want, code in runs:
            with self.subTest(page=os.path.relpath(path, root),
                              command=command):
                args = shlex.split(command)
                self.assertEqual(args[0], "build/shufflebias")
                p = subprocess.run([CLI] + args[1:], capture_output=True,
                                   text=True, timeout=600, cwd=root,
                                   stdin=subprocess.DEVNULL)
                got = (p.stdout + p.stderr).rstrip("\n").split("\n")
                while want and want[-1] == "":
                    want = want[:-1]
                self.assertEqual(len(got), len(want),
                                 "\n".join(got))
                for w, g in zip(want, got):
                    self.assertTrue(same_line(w, g),
                                    f"page: {w!r}\nprinted: {g!r}")
                if code is not None:
                    self.assertEqual(p.returncode, code)
        return len(runs)

    def test_readme_sessions_are_current(self):
        # The README shows a run of the battery, a program's and an error.
        self.assertGreaterEqual(self.run_page(README), 3)

    def test_docs_sessions_are_current(self):
        # statistics.md shows two runs, exact.md one walk.
        count = sum(self.run_page(p) for p in pages()[1:])
        self.assertGreaterEqual(count, 3)


class Links(unittest.TestCase):
    def test_links_lead_somewhere(self):
        root = os.path.dirname(README)
        for page in pages():
            here = os.path.dirname(page)
            for target in links(read(page)):
                if re.match(r"^[a-z]+:", target):
                    continue            # a web address or mailto:
                path, _, anchor = target.partition("#")
                full = os.path.normpath(os.path.join(here, path)) \
                    if path else page
                name = os.path.relpath(full, root)
                with self.subTest(page=os.path.relpath(page, root),
                                  link=target):
                    self.assertTrue(os.path.exists(full), name)
                    if anchor:
                        self.assertTrue(full.endswith(".md"), target)
                        self.assertIn(anchor, anchors(read(full)))


def main():
    global CLI, README, DOCS
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--readme", required=True)
    ap.add_argument("--docs")
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    README = os.path.abspath(args.readme)
    DOCS = os.path.abspath(args.docs) if args.docs else \
        os.path.join(os.path.dirname(README), "docs")
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
