#!/usr/bin/env python3
"""The man pages (docs/man/) render without a warning and cannot drift
from the program: every command has a page, every page is a command's,
every option in a command's table (shufflebias list --options) is on its
page, and each page carries the program's version."""
import argparse
import os
import re
import subprocess
import sys
import unittest

CLI = None
MAN = None


def run(args):
    p = subprocess.run([CLI] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def render(page, width=None):
    """The page as plain text: groff's man macros, every warning on.  A
    wide line and no hyphenation keep each option whole."""
    args = ["groff", "-man", "-ww", "-Tascii", "-P-cbou"]
    if width:
        args += ["-rLL=%dn" % width, "-rHY=0"]
    p = subprocess.run(args + [page], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def commands():
    code, out, err = run(["list", "--names", "commands"])
    assert code == 0, err
    # 'help' is the program's own word, described in shufflebias(1).
    return [c for c in out.split() if c != "help"]


def options(command):
    code, out, err = run(["list", "--options", command])
    assert code == 0, err
    return [line.split()[0] for line in out.splitlines()]


def page(name):
    return os.path.join(MAN, name + ".1")


class ManPages(unittest.TestCase):
    def test_every_page_renders_without_warnings(self):
        pages = sorted(f for f in os.listdir(MAN) if f.endswith(".1"))
        self.assertGreater(len(pages), 1)
        for f in pages:
            with self.subTest(page=f):
                code, out, err = render(os.path.join(MAN, f))
                self.assertEqual(code, 0, err)
                self.assertEqual(err, "")
                self.assertIn("NAME", out)
                self.assertIn("SYNOPSIS", out)

    def test_pages_and_commands_match(self):
        want = {"shufflebias"} | {"shufflebias-" + c for c in commands()}
        have = {f[:-2] for f in os.listdir(MAN) if f.endswith(".1")}
        self.assertEqual(have, want)

    def test_main_page_names_every_command_page(self):
        _, out, _ = render(page("shufflebias"), 400)
        for c in commands():
            with self.subTest(command=c):
                self.assertIn("shufflebias-%s(1)" % c, out)
        for opt in ("-h", "--help", "-V", "--version"):
            self.assertRegex(out, r"(?<![\w-])%s(?![\w-])" % re.escape(opt))

    def test_every_option_is_on_its_page(self):
        for c in commands():
            opts = options(c)
            self.assertIn("--help", opts)
            self.assertIn("-h", opts)
            _, out, _ = render(page("shufflebias-" + c), 400)
            for opt in opts:
                with self.subTest(command=c, option=opt):
                    self.assertTrue(
                        re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(opt),
                                  out),
                        "%s is not on the page of '%s'" % (opt, c))

    def test_pages_carry_the_version(self):
        code, out, _ = run(["--version"])
        self.assertEqual(code, 0)
        version = out.split()[1]
        for f in os.listdir(MAN):
            if not f.endswith(".1"):
                continue
            with self.subTest(page=f):
                with open(os.path.join(MAN, f)) as fh:
                    th = next(l for l in fh if l.startswith(".TH "))
                self.assertIn('"shufflebias %s"' % version, th)


def main():
    global CLI, MAN
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--man", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    MAN = os.path.abspath(args.man)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
