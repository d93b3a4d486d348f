#!/usr/bin/env python3
"""shufflebias gate: a manifest of cases, each judged against what it
expects, with the exit codes, reports and baselines a CI job relies on.

- The issue's own manifest (a fair shuffle passes, too few riffles fail,
  a program's deal passes, naive swap is exactly biased at 3 cards) holds:
  exit 0; its JUnit validates against tests/data/junit.xsd with xmllint
  and carries what Jenkins' and GitLab's readers need.
- An expectation that does not hold exits 1 with a JUnit failure naming
  the verdict and the diagnosis; a case that cannot be judged (a bad
  sample, a timeout) is an error, exit 2, never a pass; an exact walk
  with unexplored mass is inconclusive, exit 3; an interrupt exits 130
  with the cases run reported.
- A wrong manifest exits 2 before anything runs, naming the file, line,
  column and key with the valid choices; so do samples too few for the
  effect a case claims to catch.
- Seeds are pinned (from the case's name when it gives none): two gates
  write the same JSON byte for byte.
- A baseline marks each case unchanged, newly failing, fixed, drifted or
  new, and lists the cases gone.

False alarms: every statistical verdict asserted here comes from a pinned
seed, so it is the same on every run of the same code; a fair shuffle's
verdict fails at random at most once in a million runs (the fail
threshold, 1e-6 after Holm's correction) should the code change its
stream, and the drift check marks a fair statistic drifted about once in
1.7 million comparisons (5 standard deviations, docs/ci.md).  Nothing is
timed.

    test_gate.py --cli PATH/shufflebias [--catalogue]
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402  (tests/browser.py: a headless Chromium)

CLI = None
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
XSD = os.path.join(ROOT, "tests", "data", "junit.xsd")
CATALOGUE = False

DEALER = os.path.join(ROOT, "examples", "python", "bridge_deal.py")

ISSUE_MANIFEST = """\
defaults: {n: 16, samples: 20000}
cases:
  - name: fisher-yates is fair
    algorithm: fisher-yates
    expect: pass
  - name: three riffles are not enough
    algorithm: riffle
    params: {passes: 3}
    expect: fail
  - name: our dealer
    exec: "python3 %s"
    kind: deal
    hands: 4
    n: 52
    format: cards
    samples: 2000
    expect: pass
  - name: three cards, exactly
    algorithm: naive-swap
    exact: {n: 3}
    expect: exact-biased
""" % DEALER


def gate(d, text, *args, name="m.yaml", timeout=900):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return subprocess.run([CLI, "gate", path, *args], capture_output=True,
                          text=True, timeout=timeout, cwd=d)


def read(path):
    with open(path) as f:
        return f.read()


def xmllint(path):
    return subprocess.run(["xmllint", "--noout", "--schema", XSD, path],
                          capture_output=True, text=True)


def fnv1a53(name):
    h = 0xcbf29ce484222325
    for b in name.encode():
        h ^= b
        h = (h * 0x100000001b3) % (1 << 64)
    return h & ((1 << 53) - 1)


class JUnitChecks:
    def check_junit(self, path, cases, failures, errors):
        p = xmllint(path)
        self.assertEqual(p.returncode, 0, p.stderr)
        root = ET.parse(path).getroot()
        self.assertEqual(root.tag, "testsuites")
        suites = root.findall("testsuite")
        self.assertEqual(len(suites), 1)
        s = suites[0]
        # Jenkins' and GitLab's readers: the suite's name and counts, each
        # testcase's name, classname and time, a failure's or error's
        # message and type.
        for key in ("name", "tests", "failures", "errors", "time"):
            self.assertIn(key, s.attrib)
        self.assertEqual(int(s.get("tests")), cases)
        self.assertEqual(int(s.get("failures")), failures)
        self.assertEqual(int(s.get("errors")), errors)
        tcs = s.findall("testcase")
        self.assertEqual(len(tcs), cases)
        seen_f = seen_e = 0
        for tc in tcs:
            for key in ("name", "classname", "time"):
                self.assertTrue(tc.get(key), key)
            float(tc.get("time"))
            for tag in ("failure", "error"):
                for el in tc.findall(tag):
                    self.assertTrue(el.get("message"))
                    self.assertTrue(el.get("type"))
                    seen_f += tag == "failure"
                    seen_e += tag == "error"
            self.assertIsNotNone(tc.find("system-out"))
        self.assertEqual((seen_f, seen_e), (failures, errors))
        return tcs


class Gate(unittest.TestCase, JUnitChecks):
    def setUp(self):
        self.d = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.d)

    def out(self, name):
        return os.path.join(self.d, name)

    def test_the_issues_manifest_holds(self):
        p = gate(self.d, ISSUE_MANIFEST, "--junit", self.out("j.xml"),
                 "--json", self.out("g.json"), "--markdown",
                 self.out("s.md"), "--html", self.out("g.html"))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("4 cases: 4 held, 0 not held", p.stdout)
        self.check_junit(self.out("j.xml"), 4, 0, 0)
        g = json.loads(read(self.out("g.json")))
        self.assertEqual(g["command"], "gate")
        self.assertEqual(g["exit_code"], 0)
        self.assertEqual([c["outcome"] for c in g["cases"]], ["held"] * 4)
        riffle = g["cases"][1]
        self.assertEqual(riffle["verdict"], "fail")
        self.assertEqual(riffle["params"], {"passes": "3"})
        self.assertIn("--param passes=3", riffle["command"])
        self.assertEqual(g["cases"][3]["tv_exact"], "1/18")
        dealer = g["cases"][2]
        self.assertEqual(dealer["source"], "exec")
        self.assertIn("--kind deal", dealer["command"])
        self.assertIn("--hands 4", dealer["command"])
        md = read(self.out("s.md"))
        self.assertIn("| three riffles are not enough | fail | held |", md)
        page = read(self.out("g.html"))
        self.assertIn('<span class="verdict v-pass">held</span>', page)
        self.assertNotIn("<script", page)

    def test_the_page_in_a_browser(self):
        """The gate's HTML page in Chromium: no console error, nothing
        fetched, one row per case with its outcome coloured, and a case
        name with markup shown as text."""
        text = ISSUE_MANIFEST.replace("name: fisher-yates is fair",
                                      "name: \"<b>fair</b> & 'quoted'\"")
        p = gate(self.d, text, "--html", self.out("g.html"))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with browser.Browser() as b:
            page = b.open(self.out("g.html"))
            self.assertEqual(page.errors(), [])
            self.assertEqual(page.requests, [page.url])
            rows = page.evaluate(
                "[...document.querySelectorAll('table.overview tbody tr')]"
                ".map(r => [r.cells[0].textContent,"
                " r.querySelector('.verdict').className])")
        self.assertEqual(len(rows), 4)
        self.assertEqual(rows[0][0], "<b>fair</b> & 'quoted'")
        self.assertEqual({r[1] for r in rows}, {"verdict v-pass"})

    def test_a_broken_expectation_fails_with_the_diagnosis(self):
        text = ("cases:\n"
                "  - {name: ours, algorithm: naive-swap, n: 16, "
                "samples: 20000, expect: pass}\n"
                "  - {name: fair, algorithm: fisher-yates, n: 16, "
                "samples: 20000, expect: fail}\n")
        p = gate(self.d, text, "--junit", self.out("j.xml"), "--json",
                 self.out("g.json"))
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        tcs = self.check_junit(self.out("j.xml"), 2, 2, 0)
        msg = tcs[0].find("failure").get("message")
        self.assertIn("expected pass, got fail", msg)
        # The diagnosis is made for a fail nobody expected.
        self.assertIn("resembles naive-swap", msg)
        self.assertIn("Fisher-Yates", msg)
        self.assertIn("expected fail, got pass",
                      tcs[1].find("failure").get("message"))
        self.assertIn("ours: expected pass, got fail", p.stdout)
        self.assertIn("run it alone: (cd %s/ && shufflebias test naive-swap "
                      "--n 16" % self.d, p.stdout)

    def test_a_case_that_cannot_be_judged_is_an_error(self):
        with open(self.out("decks.txt"), "w") as f:
            f.write("0 1 2\n2 1 0\n0 0 1\n")
        text = ("cases:\n"
                "  - {name: recorded, input: decks.txt, n: 3, "
                "expect: pass}\n"
                "  - {name: hangs, exec: 'sleep 60', n: 3, samples: 10,"
                " timeout: 1, expect: pass}\n")
        p = gate(self.d, text, "--junit", self.out("j.xml"), "--json",
                 self.out("g.json"))
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        tcs = self.check_junit(self.out("j.xml"), 2, 0, 2)
        g = json.loads(read(self.out("g.json")))
        self.assertEqual([c["outcome"] for c in g["cases"]],
                         ["error", "error"])
        # The recorded file's own error: its line and what is wrong.
        self.assertRegex(g["cases"][0]["message"], r"decks\.txt:3")
        self.assertIn("timed out after 1 s", g["cases"][1]["message"])
        self.assertEqual(tcs[1].find("error").get("type"), "error")

    def test_a_fail_caught_only_just_is_flagged(self):
        # naive-swap's cycles at 300 decks, seed 1: p = 2.9e-10, below the
        # 1e-6 threshold but near enough that another stream would miss
        # it about one time in 14 (Phi(6.19 - 4.75) = 0.93).
        text = ("cases:\n  - {name: weak, algorithm: naive-swap, n: 52, "
                "samples: 300, seed: 1, statistics: [cycles], "
                "expect: fail}\n"
                "  - {name: strong, algorithm: naive-swap, n: 52, "
                "samples: 3000, seed: 1, statistics: [cycles], "
                "expect: fail}\n")
        p = gate(self.d, text, "--json", self.out("g.json"), "--junit",
                 self.out("j.xml"))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        weak, strong = json.loads(read(self.out("g.json")))["cases"]
        self.assertAlmostEqual(weak["refail_chance"], 0.926, places=2)
        self.assertIn("only just caught", weak["warning"])
        self.assertIn("weak: held, but the bias was only just caught",
                      p.stdout)
        self.assertEqual(strong["refail_chance"], 1.0)
        self.assertNotIn("warning", strong)
        self.assertIn("warning: the bias was only just caught",
                      read(self.out("j.xml")))

    def test_nothing_tested_is_an_error(self):
        # One card: no statistic has anything to judge.
        text = ("cases:\n  - {name: one card, algorithm: fisher-yates, "
                "n: 1, samples: 10, expect: pass}\n")
        p = gate(self.d, text, "--junit", self.out("j.xml"), "--json",
                 self.out("g.json"))
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        case, = json.loads(read(self.out("g.json")))["cases"]
        self.assertEqual(case["outcome"], "error")
        self.assertIn("nothing was tested", case["message"])
        self.check_junit(self.out("j.xml"), 1, 0, 1)

    def test_the_programs_own_error_is_the_message(self):
        """A program that writes to standard error as it dies does not
        hide why the run could not be judged."""
        with open(self.out("noisy.py"), "w") as f:
            f.write("import sys\nprint('0 1 2')\nprint('0 0 0')\n"
                    "sys.stderr.write('Traceback: noise\\n')\n")
        text = ("cases:\n  - {name: noisy, exec: 'python3 noisy.py', n: 3,"
                " samples: 10, expect: pass}\n")
        p = gate(self.d, text, "--json", self.out("g.json"))
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        case, = json.loads(read(self.out("g.json")))["cases"]
        self.assertEqual(case["outcome"], "error")
        self.assertNotIn("noise", case["message"])
        self.assertIn("sample 2", case["message"])

    def test_markdown_is_text(self):
        text = ("cases:\n  - {name: \"<!-- a | *b* `c` & [d](e)\", "
                "algorithm: naive-swap, exact: {n: 3}, "
                "expect: 'tv <= 1/18'}\n")
        p = gate(self.d, text, "--markdown", self.out("s.md"), "--junit",
                 self.out("j.xml"))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        md = read(self.out("s.md"))
        self.assertIn("| &lt;!-- a \\| \\*b\\* \\`c\\` &amp; "
                      "\\[d\\](e) | tv &lt;= 1/18 | held |", md)
        self.check_junit(self.out("j.xml"), 1, 0, 0)

    def test_defaults_fit_each_source(self):
        """A default that does not fit a case is left out of it: 'hands'
        goes to a built-in deal's parameter, not to a shuffle without
        one; a case's own params win."""
        text = ("defaults: {n: 52, hands: 4, samples: 2000}\ncases:\n"
                "  - {name: a, algorithm: fisher-yates, expect: pass}\n"
                "  - {name: b, algorithm: deal-fisher-yates, expect: pass}\n"
                "  - {name: c, algorithm: deal-random-hand, params: "
                "{hands: 2, hand-size: 2}, exact: {n: 4}, "
                "expect: exact-biased}\n")
        p = gate(self.d, text, "--json", self.out("g.json"))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        a, b, c = json.loads(read(self.out("g.json")))["cases"]
        self.assertNotIn("hands", a["command"])
        self.assertIn("--param hands=4", b["command"])
        self.assertIn("--param hands=2", c["command"])
        self.assertNotIn("hands=4", c["command"])

    def test_unexplored_mass_is_inconclusive(self):
        text = ("cases:\n"
                "  - {name: cut walk, algorithm: riffle-until-uniform, "
                "exact: {n: 3}, expect: exact-uniform}\n")
        p = gate(self.d, text, "--junit", self.out("j.xml"))
        self.assertEqual(p.returncode, 3, p.stdout + p.stderr)
        self.assertIn("inconclusive", p.stdout)
        self.check_junit(self.out("j.xml"), 1, 0, 1)

    def test_tv_bounds_are_compared_exactly(self):
        # naive-swap at 3 cards: tv = 1/18 exactly (4,5,5,5,4,4 of 27).
        cases = [("tv <= 1/18", 0), ("tv < 1/18", 1), ("tv >= 0.0556", 1),
                 ("tv > 0.0555", 0), ("tv <= 1e-1", 0)]
        for expect, code in cases:
            with self.subTest(expect=expect):
                text = ("cases:\n  - {name: x, algorithm: naive-swap, "
                        "exact: {n: 3}, expect: '%s'}\n" % expect)
                p = gate(self.d, text)
                self.assertEqual(p.returncode, code, p.stdout + p.stderr)

    def test_manifest_errors_say_where_and_what(self):
        bad = [
            ("cases:\n  - name: a\n    algoritm: fisher-yates\n"
             "    expect: pass\n",
             ["m.yaml:3:5:", "case 'a'", "unknown key 'algoritm'",
              "did you mean 'algorithm'", "valid:"]),
            ("cases:\n  - name: a\n    algorithm: fisher-yates\n"
             "    expect: passs\n",
             ["m.yaml:4:13:", "'passs' is not an expectation",
              "did you mean 'pass'", "exact-uniform"]),
            ("cases:\n  - name: a\n    expect: pass\n",
             ["m.yaml:2:5:", "no source", "algorithm, exec, plugin, input"]),
            ("cases:\n  - {name: a, algorithm: naive-swap, exec: x, "
             "expect: pass}\n", ["one source", "'algorithm' was given"]),
            ("cases:\n  - {name: a, algorithm: sattolo, expect: pass}\n"
             "  - {name: a, algorithm: sattolo, expect: fail}\n",
             ["m.yaml:3:5:", "a second case named 'a'", "line 2"]),
            ("cases:\n  - {name: a, algorithm: sattolo, "
             "expect: exact-biased}\n", ["add exact: {n: 3}"]),
            ("cases:\n  - {name: a, algorithm: sattolo, exact: {n: 3}, "
             "expect: 'tv <= two'}\n", ["not an expectation"]),
            ("cases:\n  - {name: a, algorithm: sattolo, samples: lots, "
             "expect: fail}\n", ["key 'samples'", "'lots'"]),
            ("cases: [\n", ["m.yaml:2:", "not YAML"]),
            ("defaults: {algorithm: x}\ncases: []\n",
             ["defaults:", "belongs to a case"]),
            ("cases:\n  - {name: a, algorithm: fisher-yate, "
             "expect: pass}\n",
             ["m.yaml:2:26: case 'a': key 'algorithm': unknown algorithm "
              "'fisher-yate' (did you mean 'fisher-yates'?); valid:"]),
            ("cases:\n  - {name: a, algorithm: riffle, params: "
             "{pases: 7}, expect: fail}\n",
             ["unknown parameter 'pases=7'", "m.yaml:2:42: case 'a': key "
              "'params'"]),
            ("cases:\n  - {name: a, algorithm: riffle, statistics: "
             "[position, risin], expect: fail}\n",
             ["unknown statistic 'risin'", "m.yaml:2:46: case 'a': key "
              "'statistics'"]),
            # A program's case is checked before anything runs too.
            ("cases:\n  - {name: a, algorithm: sattolo, n: 8, samples: 100,"
             " expect: fail}\n"
             "  - {name: b, exec: 'python3 x.py', statistics: [positon], "
             "expect: pass}\n",
             ["unknown statistic 'positon'", "m.yaml:3:49: case 'b': key "
              "'statistics'"]),
            ("cases:\n  - {name: b, exec: 'python3 x.py', format: cardz, "
             "expect: pass}\n",
             ["m.yaml:2:45: case 'b': key 'format': unknown format "
              "'cardz'; valid: text"]),
            ("cases:\n  - {name: b, exec: 'python3 x.py', rng: mt19937, "
             "expect: pass}\n", ["key 'rng' is for an algorithm"]),
            ("cases:\n  - {name: \"a\\nb\", algorithm: sattolo, "
             "expect: fail}\n", ["one line of printable characters"]),
            ("cases:\n  - {name: a, algorithm: riffle, kind: deal, "
             "expect: fail}\n", ["'kind' is for exec and input"]),
            ("cases:\n  - {name: a, exec: 'python3 x.py', effect: 0.05, "
             "expect: pass}\n", ["key 'effect' sizes a run of an algorithm"]),
        ]
        for text, words in bad:
            with self.subTest(text=text):
                p = gate(self.d, text, "--junit", self.out("j.xml"))
                self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
                for w in words:
                    self.assertIn(w, p.stderr)
                self.assertEqual(p.stdout, "")
                self.assertFalse(os.path.exists(self.out("j.xml")))

    def test_samples_too_few_for_the_claimed_effect_are_refused(self):
        text = ("cases:\n  - {name: weak, algorithm: riffle, n: 16, "
                "samples: 1000, effect: 0.05, expect: fail}\n")
        p = gate(self.d, text)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        m = re.search(r"1000 samples cannot catch an effect of 0\.05 with "
                      r"power 0\.9: it needs (\d+)", p.stderr)
        self.assertTrue(m, p.stderr)
        need = int(m.group(1))
        # A deal's plan is made with its own params and hands together.
        deal = ("cases:\n  - {name: d, algorithm: deal-fisher-yates, "
                "n: 8, hands: 2, params: {hand-size: 4}, samples: 100, "
                "effect: 0.05, expect: pass}\n")
        p = gate(self.d, deal)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertRegex(p.stderr, r"m\.yaml:2:5: case 'd': 100 samples "
                         r"cannot catch an effect of 0\.05 with power 0\.9:"
                         r" it needs \d+ \(decided by card-hand\)")
        # ... and at the samples it names, the same case is accepted.
        ok = text.replace("samples: 1000", "samples: %d" % need)
        p = gate(self.d, ok, "--json", self.out("g.json"))
        self.assertNotIn("cannot catch", p.stderr)
        self.assertIn(p.returncode, (0, 1), p.stderr)

    def test_seeds_are_pinned_and_reports_compare_byte_for_byte(self):
        args = ("--json", self.out("a.json"), "--no-timing")
        p1 = gate(self.d, ISSUE_MANIFEST, *args)
        self.assertEqual(p1.returncode, 0, p1.stderr)
        a = read(self.out("a.json"))
        p2 = gate(self.d, ISSUE_MANIFEST, "--json", self.out("b.json"),
                  "--no-timing", "--threads", "1")
        self.assertEqual(p2.returncode, 0, p2.stderr)
        self.assertEqual(a, read(self.out("b.json")))
        g = json.loads(a)
        self.assertNotIn("timing", g)
        for c in g["cases"]:
            self.assertNotIn("time", c)
            if c.get("mode") == "test":
                self.assertEqual(c["seed"], fnv1a53(c["name"]))
                self.assertIn("--seed %d" % c["seed"], c["command"])

    def test_baselines_mark_every_change(self):
        old = ("defaults: {n: 16, samples: 20000}\ncases:\n"
               "  - {name: fair, algorithm: fisher-yates, expect: pass}\n"
               "  - {name: breaks, algorithm: riffle, params: {passes: 2},"
               " expect: fail}\n"
               "  - {name: mended, algorithm: naive-swap, expect: pass}\n"
               "  - {name: moves, algorithm: riffle, params: {passes: 2},"
               " expect: fail}\n"
               "  - {name: exact, algorithm: naive-swap, exact: {n: 3},"
               " expect: exact-biased}\n"
               "  - {name: gone, algorithm: sattolo, expect: fail}\n"
               "  - {name: broke, algorithm: naive-swap, expect: pass}\n")
        p = gate(self.d, old, "--write-baseline", self.out("base.json"),
                 "--no-timing", name="old.yaml")
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        base = json.loads(read(self.out("base.json")))
        self.assertNotIn("timing", base)
        new = ("defaults: {n: 16, samples: 20000}\ncases:\n"
               # Another seed of the same fair shuffle: noise, not drift.
               "  - {name: fair, algorithm: fisher-yates, seed: 99, "
               "expect: pass}\n"
               "  - {name: breaks, algorithm: riffle, params: {passes: 40},"
               " expect: fail}\n"
               "  - {name: mended, algorithm: fisher-yates, expect: pass}\n"
               "  - {name: moves, algorithm: riffle, params: {passes: 3},"
               " expect: fail}\n"
               "  - {name: exact, algorithm: naive-swap, exact: {n: 4},"
               " expect: exact-biased}\n"
               "  - {name: added, algorithm: sattolo, expect: fail}\n"
               # Not held before, an error now: its outcome changed.
               "  - {name: broke, input: bad.txt, n: 3, expect: pass}\n")
        with open(self.out("bad.txt"), "w") as f:
            f.write("0 1 2\n0 0 0\n")
        p = gate(self.d, new, "--baseline", self.out("base.json"), "--json",
                 self.out("g.json"), "--markdown", self.out("s.md"),
                 name="new.yaml")
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        g = json.loads(read(self.out("g.json")))
        change = {c["name"]: c["change"] for c in g["cases"]}
        self.assertEqual(change, {"fair": "unchanged",
                                  "breaks": "newly failing",
                                  "mended": "fixed", "moves": "drifted",
                                  "exact": "drifted", "added": "new",
                                  "broke": "outcome changed"})
        self.assertEqual(g["baseline"]["removed"], ["gone"])
        drift = {c["name"]: c["drift"] for c in g["cases"]}
        self.assertIn("tv 1/18 -> ", drift["exact"])
        self.assertIn(" sd)", drift["moves"])
        self.assertEqual(drift["broke"], "not held -> error")
        # The changes come first.
        self.assertLess(p.stdout.index("newly failing"),
                        p.stdout.index("case "))
        md = read(self.out("s.md"))
        self.assertLess(md.index("Changes from the baseline"),
                        md.index("| case |"))
        self.assertIn("- **removed**: gone", md)
        # Not a gate's JSON: refused before anything runs.
        with open(self.out("not.json"), "w") as f:
            f.write('{"command": "test"}')
        p = gate(self.d, new, "--baseline", self.out("not.json"),
                 name="new.yaml")
        self.assertEqual(p.returncode, 2)
        self.assertIn("not the JSON of a gate", p.stderr)

    def test_outputs_never_overwrite_the_manifest(self):
        path = os.path.join(self.d, "m.yaml")
        p = gate(self.d, ISSUE_MANIFEST, "--junit", path)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(read(path), ISSUE_MANIFEST)

    def test_an_interrupt_reports_the_cases_run(self):
        text = ("cases:\n"
                "  - {name: first, algorithm: fisher-yates, n: 8, "
                "samples: 1000, expect: pass}\n"
                "  - {name: long, exec: 'sleep 600', n: 8, samples: 10, "
                "expect: pass}\n")
        path = self.out("m.yaml")
        with open(path, "w") as f:
            f.write(text)
        proc = subprocess.Popen([CLI, "gate", path, "--json",
                                 self.out("g.json"), "--markdown",
                                 self.out("s.md")],
                                stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        # The second case has started once the gate says so.
        for line in proc.stderr:
            if "[2/2]" in line:
                break
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=300)
        self.assertEqual(proc.returncode, 130, out + err)
        g = json.loads(read(self.out("g.json")))
        self.assertTrue(g["partial"])
        self.assertEqual([c["outcome"] for c in g["cases"]],
                         ["held", "interrupted"])
        md = read(self.out("s.md"))
        self.assertIn("**FAILED**: 2 cases: 1 held", md)
        self.assertIn("1 interrupted", md)

    def test_a_broken_junit_fails_the_schema(self):
        """The schema check can fail: a testcase without its classname,
        and a failure without its type, are refused."""
        good = ('<testsuites><testsuite name="s" tests="1" failures="1" '
                'errors="0" time="1"><testcase name="a" classname="s" '
                'time="0.5"><failure type="t" message="m">x</failure>'
                '</testcase></testsuite></testsuites>')
        for text, ok in ((good, True),
                         (good.replace(' classname="s"', ""), False),
                         (good.replace(' type="t"', ""), False),
                         (good.replace('time="0.5"', 'time="soon"'), False)):
            with self.subTest(text=text):
                path = self.out("x.xml")
                with open(path, "w") as f:
                    f.write(text)
                self.assertEqual(xmllint(path).returncode == 0, ok)


@unittest.skipUnless(CATALOGUE or "--catalogue" in sys.argv,
                     "the catalogue runs as test_gate_catalogue")
class Catalogue(unittest.TestCase, JUnitChecks):
    def test_the_catalogue_gate_holds(self):
        d = tempfile.mkdtemp()
        try:
            junit = os.path.join(d, "junit.xml")
            man = os.path.join(ROOT, "examples", "ci", "catalogue.yaml")
            p = subprocess.run([CLI, "gate", man, "--junit", junit, "--json",
                                os.path.join(d, "g.json")],
                               capture_output=True, text=True, timeout=3000)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            g = json.loads(read(os.path.join(d, "g.json")))
            n = len(g["cases"])
            self.assertGreater(n, 30)
            self.check_junit(junit, n, 0, 0)
            # Every built-in is in it, fair ones expected to pass and
            # flawed ones to fail (shufflebias list --json).
            lst = json.loads(subprocess.run([CLI, "list", "--json"],
                                            capture_output=True, text=True,
                                            check=True).stdout)
            sampled = {c["algorithm"]: c["expect"] for c in g["cases"]
                       if c["mode"] == "test"}
            for a in lst["algorithms"]:
                want = "pass" if a["literature"] == "uniform" else "fail"
                self.assertEqual(sampled.get(a["name"]), want, a["name"])
        finally:
            shutil.rmtree(d)


def main():
    global CLI, CATALOGUE
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--catalogue", action="store_true")
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    CATALOGUE = args.catalogue
    if CATALOGUE:
        rest = ["Catalogue", *rest]
    unittest.main(argv=[sys.argv[0], *rest])


if __name__ == "__main__":
    main()
