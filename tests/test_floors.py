#!/usr/bin/env python3
"""The floors of docs/architecture.md hold: nothing includes upward.

Two checks, both from what the build itself uses:

1. For every pair of floors F and G, a one-line file that includes a header
   of G is compiled with F's include path (the contracts and F's view,
   floors/F/ of the build).  It must compile when F may see G and must not
   when G stands above or beside F: the build refuses a wrong-way include,
   not only this test.
2. Every #include "..." in the sources of a floor names a floor it may see
   or a header of the contracts (shufflebias/...), or a file beside it;
   no include, "..." or <...>, climbs out with "..", and none names a
   floor in <...>.  This catches what the views cannot: a path relative to
   the including file, or one that leaves a view through "..".

    test_floors.py --cc CC --include DIR --views DIR \
        --floor NAME=DIR:SEEN,SEEN... [--floor ...]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import unittest

ARGS = None
# Both forms: a view is a link to a whole folder, so "<base/../engine/x.h>"
# would climb out of it as well as "../engine/x.h" does.
INCLUDE = re.compile(r'^\s*#\s*include\s*(["<])([^">]+)[">]', re.M)


def floors():
    """{name: (folder, [floors it may see])} in the order given."""
    out = {}
    for spec in ARGS.floor:
        name, rest = spec.split("=", 1)
        folder, seen = rest.split(":", 1)
        out[name] = (folder, seen.split(","))
    return out


def a_header(folder):
    """One header of a floor, the first by name."""
    names = sorted(f for f in os.listdir(folder) if f.endswith(".h"))
    return names[0] if names else None


class Floors(unittest.TestCase):
    def compiles(self, floor, text):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "probe.c")
            with open(src, "w") as f:
                f.write(text)
            r = subprocess.run(
                [ARGS.cc, "-std=c11", "-fsyntax-only", "-DSB_INLINE_DRAWS",
                 "-I", ARGS.include, "-I", os.path.join(ARGS.views, floor),
                 src], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True)
            return r.returncode == 0, r.stderr

    def test_views_let_down_and_stop_up(self):
        fl = floors()
        checked = 0
        for f, (_, sees) in fl.items():
            for g, (folder, _) in fl.items():
                header = a_header(folder)
                if header is None:
                    continue
                ok, err = self.compiles(
                    f, '#include "%s/%s"\nint sb_probe;\n' % (g, header))
                if g in sees:
                    self.assertTrue(ok, "floor %s cannot include %s/%s:\n%s"
                                    % (f, g, header, err))
                else:
                    self.assertFalse(ok, "floor %s includes %s/%s, a floor "
                                     "it must not see" % (f, g, header))
                checked += 1
        # Every pair of floors, none skipped.
        self.assertEqual(checked, len(fl) * len(fl))

    def test_sources_name_only_what_they_see(self):
        fl = floors()
        bad = []
        read = 0
        for f, (folder, sees) in fl.items():
            for name in sorted(os.listdir(folder)):
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(folder, name)
                with open(path) as fh:
                    text = fh.read()
                read += 1
                for quote, inc in INCLUDE.findall(text):
                    top = inc.split("/", 1)[0]
                    if ".." in inc.split("/"):
                        bad.append("%s: climbs out: %s" % (path, inc))
                    elif quote == "<":
                        # A system header, unless it names a floor.
                        if top in fl or top == "shufflebias":
                            bad.append("%s: a floor's header in <>: %s"
                                       % (path, inc))
                    elif "/" not in inc:
                        if not os.path.exists(os.path.join(folder, inc)):
                            bad.append("%s: not beside it: %s" % (path, inc))
                    elif top != "shufflebias" and top not in sees:
                        bad.append("%s: floor %s includes %s" % (path, f,
                                                                 inc))
        self.assertGreater(read, 50)
        self.assertEqual(bad, [])

    def test_a_wrong_way_include_is_seen(self):
        """The check above is not blind: an include of the engine from
        the statistics, which the views exist to refuse, is refused."""
        ok, _ = self.compiles("stats", '#include "engine/runner.h"\n')
        self.assertFalse(ok)
        ok, err = self.compiles("engine", '#include "engine/runner.h"\n'
                                'int sb_probe;\n')
        self.assertTrue(ok, err)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--cc", required=True)
    p.add_argument("--include", required=True)
    p.add_argument("--views", required=True)
    p.add_argument("--floor", action="append", required=True)
    ARGS, rest = p.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest)
