#!/usr/bin/env python3
"""The README's sessions are what the program prints today.

Every line of a fenced block that starts with '$ build/shufflebias' is run
(with the program under test in place of build/shufflebias), and what it
prints, standard output then standard error, must be the lines that follow
it in the README, up to the next '$ ' line or the end of the block.  A
'$ echo $?' line is followed by the exit code of the command before it.
Two kinds of line are compared loosely: a 'time' line of a report (how
long the run took depends on the machine) and a line the README cuts with
'...' (compared up to the cut).  Every run has a fixed seed or none to
take, so nothing here depends on chance.

    test_readme.py --cli PATH/shufflebias --readme PATH/README.md
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import unittest

CLI = None
README = None


def sessions(text):
    """[command, expected lines, exit code or None] from the README."""
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


class Readme(unittest.TestCase):
    def test_sessions_are_current(self):
        with open(README) as f:
            runs = sessions(f.read())
        self.assertGreaterEqual(len(runs), 4)
        for command, want, code in runs:
            with self.subTest(command=command):
                args = shlex.split(command)
                self.assertEqual(args[0], "build/shufflebias")
                p = subprocess.run([CLI] + args[1:], capture_output=True,
                                   text=True, timeout=600,
                                   stdin=subprocess.DEVNULL)
                got = (p.stdout + p.stderr).rstrip("\n").split("\n")
                while want and want[-1] == "":
                    want = want[:-1]
                self.assertEqual(len(got), len(want),
                                 "\n".join(got))
                for w, g in zip(want, got):
                    self.assertTrue(same_line(w, g),
                                    f"README: {w!r}\nprinted: {g!r}")
                if code is not None:
                    self.assertEqual(p.returncode, code)


def main():
    global CLI, README
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--readme", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    README = os.path.abspath(args.readme)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
