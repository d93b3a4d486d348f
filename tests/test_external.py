#!/usr/bin/env python3
"""Samples made outside shufflebias, end to end, as a user runs them.

Recorded decks (--input, from a file and from standard input, in every
format and kind), a user's program (--exec: what it is told, how its end
is reported, that it is always ended and reaped, that an interrupt still
reports), and that nothing is miscounted: the position table is checked
against counts made here, independently, from the very decks written.

Verdicts asserted on fair decks use fixed seeds; a fair run fails with
probability below 1e-6 and stays suspect below 1e-9 after escalation, so
a pass asserted here is wrong by chance less than once in a million runs.

    test_external.py --cli PATH/shufflebias
"""
import argparse
import json
import os
import random
import signal
import stat
import subprocess
import sys
import tempfile
import unittest

CLI = None

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["C", "D", "H", "S"]


def card_name(c):
    """The name of card c in the numbering of --format cards."""
    return RANKS[c % 13] + SUITS[c // 13]


def fair_decks(n, count, seed):
    rng = random.Random(seed)
    decks = []
    for _ in range(count):
        d = list(range(n))
        rng.shuffle(d)
        decks.append(d)
    return decks


def run(args, stdin=None, env=None):
    """Run shufflebias with 'args'; returns (exit code, stdout, stderr)."""
    p = subprocess.run([CLI] + args, input=stdin, capture_output=True,
                       env=env, timeout=300)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def run_json(args, stdin=None):
    code, out, err = run(args + ["--json", "-"], stdin=stdin)
    return code, json.loads(out), err


def position_x2(decks, n):
    """The position statistic computed here from the decks themselves:
    Pearson X^2 over the card x position table, scaled by (n-1)/n."""
    counts = [[0] * n for _ in range(n)]
    for d in decks:
        for pos, card in enumerate(d):
            counts[card][pos] += 1
    e = len(decks) / n
    x2 = sum((counts[c][p] - e) ** 2 / e for c in range(n) for p in range(n))
    return x2 * (n - 1) / n


def group_alive(pgid):
    """Whether a process of group 'pgid' is still running (a zombie whose
    parent has gone is not: it runs nothing, and a container's first
    process may be slow to reap it)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def blocked_with_handler(pid, sig):
    """Whether process 'pid' has a handler for 'sig' installed and is
    asleep in the kernel (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
    except OSError:
        return False
    caught = int(fields["SigCgt"].strip(), 16)
    return bool(caught >> (sig - 1) & 1) and fields["State"].split()[0] == "S"


def test_of(report, name):
    return next(t for t in report["tests"] if t["name"] == name)


class Temp(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, data):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        return path


class RecordedDecks(Temp):
    def test_text_file_counted_exactly(self):
        decks = fair_decks(8, 3000, seed=11)
        lines = ["# recorded by a test", ""]
        seps = [" ", ",", "\t", ", "]
        for i, d in enumerate(decks):
            lines.append(seps[i % 4].join(map(str, d)))
        path = self.write("decks.txt", "\r\n".join(lines) + "\n")
        code, rep, _ = run_json(["test", "--input", path, "--n", "8",
                                 "--tests", "position"])
        self.assertEqual(code, 0)
        self.assertEqual(rep["samples"], 3000)
        self.assertFalse(rep["partial"])
        self.assertEqual(rep["source"], "input")
        self.assertIsNone(rep["seed"])
        self.assertIsNone(rep["input"]["error"])
        self.assertAlmostEqual(test_of(rep, "position")["statistic"],
                               position_x2(decks, 8), places=6)

    def test_stdin_and_one_based(self):
        decks = fair_decks(6, 500, seed=12)
        text = "".join(" ".join(str(c + 1) for c in d) + "\n" for d in decks)
        code, rep, _ = run_json(["test", "--input", "-", "--n", "6",
                                 "--one-based", "--tests", "position"],
                                stdin=text.encode())
        self.assertEqual(code, 0)
        self.assertEqual(rep["samples"], 500)
        self.assertAlmostEqual(test_of(rep, "position")["statistic"],
                               position_x2(decks, 6), places=6)

    def test_samples_caps_and_shortfall(self):
        decks = fair_decks(5, 100, seed=13)
        path = self.write("d.txt", "".join(" ".join(map(str, d)) + "\n"
                                           for d in decks))
        code, rep, _ = run_json(["test", "--input", path, "--n", "5",
                                 "--samples", "60", "--tests", "position"])
        self.assertEqual(rep["samples"], 60)
        self.assertFalse(rep["partial"])
        self.assertAlmostEqual(test_of(rep, "position")["statistic"],
                               position_x2(decks[:60], 5), places=6)
        # Asking for more than the file holds is an input error, with the
        # report of what it held.
        code, rep, err = run_json(["test", "--input", path, "--n", "5",
                                   "--samples", "150", "--tests",
                                   "position"])
        self.assertEqual(code, 2)
        self.assertTrue(rep["partial"])
        self.assertEqual(rep["samples"], 100)
        self.assertIn("ended after 100 samples of the 150", err)

    def test_bad_samples_are_located(self):
        good = "0 1 2 3\n3 2 1 0\n"
        cases = [
            ("0 1 2\n", "4 cards expected, 3 found"),
            ("0 1 2 4\n", "out of range"),
            ("0 1 1 3\n", "twice"),
            ("0 1 x 3\n", "'x'"),
            ("0 1 99999999999999999999 3\n", "out of range"),
        ]
        for bad, what in cases:
            with self.subTest(bad=bad):
                path = self.write("bad.txt", "# header\n" + good + bad
                                  + good)
                # The file and its line, as an editor or grep names them.
                where = path + ":4 (sample 3)"
                code, rep, err = run_json(["test", "--input", path, "--n",
                                           "4", "--tests", "position"])
                self.assertEqual(code, 2)
                self.assertIn(where, err)
                self.assertIn(what, err)
                self.assertEqual(rep["samples"], 2)
                self.assertTrue(rep["partial"])
                self.assertIn(where, rep["input"]["error"])

    def test_skip_invalid_counts_and_lists(self):
        decks = fair_decks(4, 400, seed=14)
        lines = [" ".join(map(str, d)) for d in decks]
        lines[10] = "0 1 2"
        lines[20] = "0 0 1 2"
        lines[30] = "5 0 1 2"
        path = self.write("d.txt", "\n".join(lines) + "\n")
        code, rep, out = run_json(["test", "--input", path, "--n", "4",
                                   "--skip-invalid", "--tests", "position"])
        self.assertEqual(code, 0)
        self.assertEqual(rep["samples"], 397)
        self.assertEqual(rep["input"]["invalid_skipped"], 3)
        listed = rep["input"]["invalid"]
        self.assertEqual(len(listed), 3)
        self.assertIn(path + ":11 (sample 11)", listed[0])
        self.assertIn(path + ":31 (sample 31)", listed[2])
        kept = [d for i, d in enumerate(decks) if i not in (10, 20, 30)]
        self.assertAlmostEqual(test_of(rep, "position")["statistic"],
                               position_x2(kept, 4), places=6)
        # The text report lists them too.
        code, out, _ = run(["test", "--input", path, "--n", "4",
                            "--skip-invalid", "--tests", "position"])
        self.assertIn("skipped    3 bad samples", out)
        self.assertIn(path + ":21 (sample 21)", out)

    def test_card_names(self):
        decks = fair_decks(52, 300, seed=15)
        styles = [lambda c: card_name(c),
                  lambda c: card_name(c).lower().replace("10", "t")]
        text = "".join(" ".join(styles[i % 2](c) for c in d) + "\n"
                       for i, d in enumerate(decks))
        path = self.write("cards.txt", text)
        code, rep, _ = run_json(["test", "--input", path, "--format",
                                 "cards", "--tests", "position"])
        self.assertEqual(code, 0)
        self.assertEqual(rep["samples"], 300)
        self.assertAlmostEqual(test_of(rep, "position")["statistic"],
                               position_x2(decks, 52), places=6)
        path = self.write("bad.txt", "AS " * 51 + "ZZ\n")
        code, _, err = run(["test", "--input", path, "--format", "cards"])
        self.assertEqual(code, 2)
        self.assertIn(path + ":1 (sample 1)", err)

    def test_binary_formats(self):
        decks = fair_decks(10, 2000, seed=16)
        u8 = bytes(c for d in decks for c in d)
        u16 = b"".join(c.to_bytes(2, "little") for d in decks for c in d)
        for fmt, data in (("u8", u8), ("u16", u16)):
            with self.subTest(fmt=fmt):
                path = self.write("d." + fmt, data)
                code, rep, _ = run_json(["test", "--input", path, "--n",
                                         "10", "--format", fmt, "--tests",
                                         "position"])
                self.assertEqual(code, 0)
                self.assertEqual(rep["samples"], 2000)
                self.assertAlmostEqual(
                    test_of(rep, "position")["statistic"],
                    position_x2(decks, 10), places=6)
                # A record cut short is a bad sample, not a lost one.
                path = self.write("cut." + fmt, data[:-3])
                code, rep, err = run_json(["test", "--input", path, "--n",
                                           "10", "--format", fmt,
                                           "--tests", "position"])
                self.assertEqual(code, 2)
                self.assertEqual(rep["samples"], 1999)
                self.assertIn("sample 2000", err)

    def test_deals_both_ways(self):
        rng = random.Random(17)
        deals = []
        for _ in range(3000):
            d = list(range(52))
            rng.shuffle(d)
            deals.append(d)
        by_card, by_hand = [], []
        for d in deals:
            hand = [0] * 52
            for pos, card in enumerate(d):
                hand[card] = pos // 13
            by_card.append(" ".join(map(str, hand)))
            by_hand.append(" | ".join(
                " ".join(card_name(c) for c in sorted(d[h * 13:h * 13 + 13]))
                for h in range(4)))
        a = self.write("a.txt", "\n".join(by_card) + "\n")
        b = self.write("b.txt", "\n".join(by_hand) + "\n")
        code_a, rep_a, _ = run_json(["test", "--input", a, "--kind", "deal",
                                     "--hands", "4"])
        code_b, rep_b, _ = run_json(["test", "--input", b, "--kind", "deal",
                                     "--hands", "4", "--format", "cards"])
        self.assertEqual(code_a, 0)
        self.assertEqual(code_b, 0)
        self.assertEqual(rep_a["samples"], 3000)
        # The same deals, written two ways: the same statistics.
        self.assertEqual([t["statistic"] for t in rep_a["tests"]],
                         [t["statistic"] for t in rep_b["tests"]])
        bad = self.write("c.txt", "0 " * 51 + "0\n")
        code, _, err = run(["test", "--input", bad, "--kind", "deal"])
        self.assertEqual(code, 2)
        self.assertIn("hand 0 holds 52 cards, 13 expected", err)

    def test_draws_take_their_length(self):
        rng = random.Random(18)
        draws = [rng.sample(range(52), 5) for _ in range(4000)]
        path = self.write("d.txt", "".join(" ".join(map(str, d)) + "\n"
                                           for d in draws))
        code, rep, _ = run_json(["test", "--input", path, "--kind", "draw"])
        self.assertEqual(code, 0)
        self.assertEqual(rep["samples"], 4000)
        self.assertEqual(rep["kind"], "draw")
        code, _, err = run(["test", "--input", path, "--kind", "draw",
                            "--format", "u8"])
        self.assertEqual(code, 2)

    def test_nothing_to_test_is_an_error(self):
        # An empty file, or one whose every sample is bad, must not let a
        # gate pass on nothing.
        for text, extra in (("", []), ("# only a comment\n\n", []),
                            ("0 0 1\n1 1 2\n", ["--skip-invalid"])):
            with self.subTest(text=text):
                path = self.write("e.txt", text)
                code, rep, err = run_json(["test", "--input", path, "--n",
                                           "3"] + extra)
                self.assertEqual(code, 2)
                self.assertIn("no valid sample", err)
                self.assertEqual(rep["samples"], 0)
        # Mostly bad: the spec is wrong, whatever the verdict on the rest.
        path = self.write("m.txt", "0 1 2\n" + "0 1 2 3\n" * 5)
        code, _, err = run(["test", "--input", path, "--n", "3",
                            "--skip-invalid"])
        self.assertEqual(code, 2)
        self.assertIn("more samples were bad (5) than good (1)", err)

    def test_messages_name_escape_and_suggest(self):
        # Each message: exit 2, one line naming the file (or <stdin>) and
        # what to do, with what it quotes escaped.
        perm = "0 1 2 3\n"
        bom = self.write("bom.txt", b"\xef\xbb\xbf" + perm.encode())
        cases = [
            (["--input", "-"], perm + "0 1 1 3\n",
             "--input: <stdin>:2 (sample 2): card 1 appears twice"),
            (["--input", self.dir], "",
             f"--input: cannot read '{self.dir}': Is a directory"),
            (["--input", bom], "",
             "'\\xEF\\xBB\\xBF0' is not a card number; the input starts "
             "with a UTF-8 byte-order mark"),
            (["--input", "-"], "0 1 \x01 3\n",
             "'\\x01' is not a card number"),
            (["--input", "-"], "0 1 \u2660 3\n",
             "'\u2660' is not a card number"),
            (["--input", "-"], "1 2 3 4\n",
             "card 4 is out of range 0..3; numbers from 1? use "
             "--one-based"),
            (["--input", "-", "--one-based"], "0 1 2 3\n",
             "card 0 is out of range 1..4; numbers from 0? drop "
             "--one-based"),
            (["--input", "-"], "AS 2C 3H 10d\n",
             "'AS' is not a card number; card names? use --format cards"),
            (["--input", "-"], "0 1 2\n",
             "4 cards expected, 3 found; the sample has 3 values: is --n 3 "
             "meant?"),
            (["--input", "-", "--kind", "deal", "--hands", "2"],
             "1 1 2 2\n", "hand 2 is out of range 0..1; hands from 1? use "
             "--one-based"),
        ]
        for args, stdin, what in cases:
            with self.subTest(args=args, stdin=stdin):
                code, out, err = run(["test", "--n", "4"] + args,
                                     stdin=stdin.encode())
                self.assertEqual(code, 2)
                self.assertIn(what, err)
                self.assertEqual(err.count("\n"), 1)

    def test_card_order_numbers_card_names(self):
        # A program that numbers a new deck spades first, ace high (AS is
        # its card 0) writes card names; with --card-order the statistics
        # see its own numbering: every statistic is that of its numbers
        # written as text.
        order = [r + s for s in "SHDC" for r in "AKQJT98765432"]
        decks = fair_decks(52, 400, seed=19)
        path = self.write("bridge.txt", "".join(
            " ".join(order[c] for c in d) + "\n" for d in decks))
        numbers = self.write("numbers.txt", "".join(
            " ".join(map(str, d)) + "\n" for d in decks))
        tests = "rising,inversions,successions,fixed-points"
        _, want, _ = run_json(["test", "--input", numbers, "--tests", tests])
        want = [t["statistic"] for t in want["tests"]]
        code, rep, _ = run_json(["test", "--input", path, "--format",
                                 "cards", "--card-order",
                                 "shdc:akqjt98765432", "--tests", tests])
        self.assertEqual(code, 0)
        self.assertEqual([t["statistic"] for t in rep["tests"]], want)
        # Without it the same names are other numbers (AS is 51), and the
        # order-sensitive statistics differ: the order was applied.
        code, rep, _ = run_json(["test", "--input", path, "--format",
                                 "cards", "--tests", tests])
        self.assertEqual(code, 0)
        self.assertNotEqual([t["statistic"] for t in rep["tests"]], want)

    def test_pbn_from_a_dealer(self):
        # A dealing program's PBN file, as bridge software writes one:
        # a header, tags per board, the dealer rotating, an auction section
        # and commentary in some boards.  The same deals written as hand
        # numbers (N 0, E 1, S 2, W 3) give the same statistics.
        rng = random.Random(20)
        seats = "NESW"
        lines = ["% PBN 2.1", "% EXPORT", "%Creator: a dealer", ""]
        by_card = []
        for board in range(1, 2001):
            d = list(range(52))
            rng.shuffle(d)
            hand = [0] * 52
            for pos, card in enumerate(d):
                hand[card] = pos // 13
            by_card.append(" ".join(map(str, hand)))
            first = (board - 1) % 4

            def pbn_hand(seat):
                suits = []
                for suit in (3, 2, 1, 0):
                    suits.append("".join(
                        "23456789TJQKA"[r] for r in range(12, -1, -1)
                        if hand[suit * 13 + r] == seat))
                return ".".join(suits)
            deal = seats[first] + ":" + " ".join(
                pbn_hand((first + i) % 4) for i in range(4))
            lines += [f'[Event "Simulation"]', f'[Site "Club"]',
                      f'[Board "{board}"]', f'[Dealer "{seats[first]}"]',
                      '[Vulnerable "None"]', f'[Deal "{deal}"]']
            if board % 50 == 0:
                lines += ['[Auction "N"]', "1NT Pass 3NT AP",
                          "{ a board to look at again }"]
            lines.append("")
        pbn = self.write("deals.pbn", "\r\n".join(lines) + "\r\n")
        hands = self.write("deals.txt", "\n".join(by_card) + "\n")
        code_p, rep_p, _ = run_json(["test", "--input", pbn, "--format",
                                     "pbn"])
        code_h, rep_h, _ = run_json(["test", "--input", hands, "--kind",
                                     "deal"])
        self.assertEqual(code_p, 0)
        self.assertEqual(rep_p["samples"], 2000)
        self.assertEqual(rep_p["kind"], "deal")
        self.assertEqual([t["statistic"] for t in rep_p["tests"]],
                         [t["statistic"] for t in rep_h["tests"]])
        # A dealing program run by --exec, told the format: its PBN read
        # the same way.
        prog = self.write("dealer.py", (
            "import os, random\n"
            "assert os.environ['SHUFFLEBIAS_FORMAT'] == 'pbn'\n"
            "assert os.environ['SHUFFLEBIAS_KIND'] == 'deal'\n"
            "rng = random.Random(int(os.environ['SHUFFLEBIAS_SEED']))\n"
            "cards = [s + r for s in 'SHDC' for r in 'AKQJT98765432']\n"
            "for board in range(int(os.environ['SHUFFLEBIAS_SAMPLES'])):\n"
            "    rng.shuffle(cards)\n"
            "    hands = [sorted(cards[13 * h:13 * h + 13],\n"
            "                    key=lambda c: ('SHDC'.index(c[0]),\n"
            "                                   'AKQJT98765432'.index(c[1])))\n"
            "             for h in range(4)]\n"
            "    pbn = ' '.join('.'.join(''.join(c[1] for c in h if c[0] == s)\n"
            "                            for s in 'SHDC') for h in hands)\n"
            "    print(f'[Board \"{board + 1}\"]')\n"
            "    print(f'[Deal \"W:{pbn}\"]')\n"))
        code, rep, err = run_json(["test", "--exec", f"python3 {prog}",
                                   "--format", "pbn", "--samples", "3000",
                                   "--seed", "7"])
        self.assertEqual(code, 0, err)
        self.assertEqual(rep["samples"], 3000)
        # A fault names the file and line; a deal with a card twice.
        bad = self.write("bad.pbn", '[Board "1"]\n[Deal "N:AKQJ.AKQ.AKQ.'
                         'AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.'
                         '5433"]\n')
        code, _, err = run(["test", "--input", bad, "--format", "pbn"])
        self.assertEqual(code, 2)
        self.assertIn(bad + ":2 (sample 1): card 3C appears twice", err)

    def test_usage_errors(self):
        for args, what in [
            (["--input", "/nonexistent/decks"], "cannot read"),
            (["--input", "-", "--format", "xml"], "valid: text, cards"),
            (["--input", "-", "--kind", "shuffle"], "valid: permutation"),
            (["--input", "-", "fisher-yates"], "takes no algorithm"),
            (["fisher-yates", "--format", "u8"], "go with --exec or"),
            (["--input", "-", "--exec", "true"], "one of --plugin"),
            (["--input", "-", "--hands", "4"], "--hands goes with"),
            (["--input", "-", "--rng", "mt19937"], "--rng is for"),
            (["--input", "-", "--kind", "draw", "--skip-invalid"],
             "needs --draw K"),
            (["--exec", "echo STARTED >&2", "--kind", "deal", "--hands",
              "5"], "hands"),
            (["--input", "-", "--format", "cards", "--card-order",
              "shdc:akqjt9876543"], "invalid --card-order "
             "'shdc:akqjt9876543': 13 ranks expected"),
            (["--input", "-", "--card-order", "shdc:akqjt98765432"],
             "goes with the cards and pbn formats"),
            (["--exec", "echo STARTED >&2", "--format", "pbn", "--kind",
              "permutation"], "the pbn format reads bridge deals"),
            (["--input", "-", "--format", "pbn", "--n", "48"],
             "the pbn format reads bridge deals"),
        ]:
            with self.subTest(args=args):
                code, out, err = run(["test"] + args, stdin=b"")
                self.assertEqual(code, 2)
                self.assertIn(what, err)
                # A spec refused is refused before any program starts.
                self.assertNotIn("STARTED", err)
                self.assertEqual(err.count("\n"), 1)


class Programs(Temp):
    def test_told_what_is_wanted(self):
        # The program checks its environment and writes a constant deck
        # otherwise: the run counts exactly the samples asked for.
        prog = ('test "$SHUFFLEBIAS_N" = 5 && test "$SHUFFLEBIAS_SEED" = 42'
                ' && test "$SHUFFLEBIAS_KIND" = permutation'
                ' && test "$SHUFFLEBIAS_FORMAT" = text'
                ' && test "$SHUFFLEBIAS_SAMPLES" = 300 || exit 9;'
                ' while :; do echo 0 1 2 3 4; done')
        code, rep, err = run_json(["test", "--exec", prog, "--n", "5",
                                   "--samples", "300", "--seed", "42",
                                   "--tests", "position"])
        self.assertEqual(rep["samples"], 300)
        self.assertEqual(rep["input"]["program_end"],
                         "ended by shufflebias once it had read enough")
        self.assertEqual(code, 1)     # a constant deck: bias found
        self.assertEqual(rep["seed"], 42)

    def test_seed_handed_over(self):
        # SHUFFLEBIAS_SEED is --seed as given, up to 2^63 - 1, and a fresh
        # seed is below 2^53 (docs/own-shuffle.md says both).
        out = os.path.join(self.dir, "seed")
        prog = f'echo "$SHUFFLEBIAS_SEED" > {out}; echo 0 1 2'
        for given in [["--seed", str(2**63 - 1)], []]:
            with self.subTest(given=given):
                code, rep, _ = run_json(["test", "--exec", prog, "--n", "3",
                                         "--samples", "1", "--tests",
                                         "position"] + given)
                self.assertIsNone(rep["input"]["error"])
                with open(out) as f:
                    handed = int(f.read())
                self.assertEqual(handed, rep["seed"])
                if given:
                    self.assertEqual(handed, 2**63 - 1)
                else:
                    self.assertLess(handed, 2**53)

    def test_early_end_crash_and_garbage(self):
        cases = [
            ("echo 0 1 2; echo 2 1 0", "exited with status 0 after 2 samples",
             "'2 1 0'", 2),
            ("echo 0 1 2; exit 3", "exited with status 3 after 1 sample of",
             "'0 1 2'", 1),
            ("echo 0 1 2; kill -SEGV $$", "killed by signal 11 (SIGSEGV)",
             "'0 1 2'", 1),
            # A crash behind the shell: sh exits with 128 + 11, and the
            # message says what that status means without claiming it.
            ("echo 0 1 2; sh -c 'ulimit -c 0; kill -SEGV $$'; exit $?",
             "exited with status 139 (a shell's report of a command "
             "killed by signal 11, SIGSEGV) after 1 sample of the 1000",
             "'0 1 2'", 1),
            # Closed its output, did not exit: ended by us, said plainly.
            ("echo 0 1 2; exec >&-; exec sleep 1000",
             "closed its output after 1 sample of the 1000 asked for, but "
             "did not exit, and was ended by shufflebias", "'0 1 2'", 1),
            ("echo 0 1 2; echo hello", "line 2 (sample 2)", "'hello'", 1),
            ("no-such-command-here", "could not run the command", "no line",
             0),
        ]
        for prog, what, last, counted in cases:
            with self.subTest(prog=prog):
                code, rep, err = run_json(["test", "--exec", prog, "--n",
                                           "3", "--samples", "1000",
                                           "--tests", "position"])
                self.assertEqual(code, 2)
                self.assertIn(what, err)
                self.assertIn(last, err)
                self.assertNotIn("was closed", err)
                # Every message about a program names it.
                self.assertIn(f"'{prog}'", err)
                self.assertTrue(rep["partial"])
                self.assertEqual(rep["samples"], counted)

    def test_crash_of_a_plain_command(self):
        # A program named alone is run in place of the shell, so its crash
        # is reported as a crash, not as the shell's status 139.
        path = self.write("crash", "#!/bin/sh\necho 0 1 2\nulimit -c 0\n"
                                   "kill -SEGV $$\n")
        os.chmod(path, 0o700)
        code, rep, err = run_json(["test", "--exec", path, "--n", "3",
                                   "--samples", "1000", "--tests",
                                   "position"])
        self.assertEqual(code, 2)
        self.assertIn(f"the program '{path}' was killed by signal 11 "
                      "(SIGSEGV) after 1 sample of the 1000 asked for", err)
        self.assertEqual(rep["input"]["program_end"],
                         "killed by signal 11 (SIGSEGV)")

    def test_skipped_samples_under_exec(self):
        # The program writes what it was asked for, one of them bad: with
        # --skip-invalid the run is whole, one sample short of the count.
        path = self.write("p.py", "\n".join([
            "import os",
            "s = int(os.environ['SHUFFLEBIAS_SAMPLES'])",
            "print('0 0 1')",
            "print('\\n'.join(['0 1 2', '2 1 0', '1 2 0'][i % 3]",
            "                for i in range(s - 1)))",
        ]) + "\n")
        code, rep, _ = run_json(["test", "--exec", f"python3 {path}", "--n",
                                 "3", "--samples", "900", "--skip-invalid",
                                 "--tests", "position"])
        self.assertEqual(rep["samples"], 899)
        self.assertEqual(rep["input"]["invalid_skipped"], 1)
        self.assertFalse(rep["partial"])
        self.assertIsNone(rep["input"]["error"])
        self.assertEqual(code, 1)     # three orders only: bias found
        # A program writing nothing but bad samples is given up on.
        code, rep, err = run_json(["test", "--exec", "yes '0 0 0'", "--n",
                                   "3", "--skip-invalid"])
        self.assertEqual(code, 2)
        self.assertIn("were bad", err)

    def test_stubborn_programs_are_ended(self):
        # Ignoring SIGPIPE, then SIGTERM too, and a background process
        # holding the pipe: each run still ends, and the program's whole
        # process group is gone afterwards.
        progs = ["trap '' PIPE; while :; do echo 0 1 2; done",
                 "trap '' PIPE TERM; while :; do echo 0 1 2; done "
                 "2>/dev/null",
                 "sleep 1000 & while :; do echo 0 1 2; done"]
        for prog in progs:
            with self.subTest(prog=prog):
                pidfile = os.path.join(self.dir, "pid")
                code, rep, _ = run_json(["test", "--exec",
                                         f"echo $$ > {pidfile}; {prog}",
                                         "--n", "3", "--samples", "5000",
                                         "--tests", "position"])
                self.assertEqual(rep["samples"], 5000)
                self.assertEqual(code, 1)     # constant decks
                with open(pidfile) as f:
                    self.assertFalse(group_alive(int(f.read())))

    def test_interrupt_reports_what_was_counted(self):
        # The program writes 50 decks, then blocks on a FIFO that the test
        # opens once it knows the decks are written; then SIGINT.  No
        # sleeps: every step waits for the one before.
        fifo = os.path.join(self.dir, "fifo")
        os.mkfifo(fifo)
        pidfile = os.path.join(self.dir, "pid")
        prog = (f"echo $$ > {pidfile}; i=0; while [ $i -lt 50 ]; do "
                f"echo 0 1 2; i=$((i+1)); done; echo ready > {fifo}; "
                "exec sleep 1000")
        p = subprocess.Popen([CLI, "test", "--exec", prog, "--n", "3",
                              "--samples", "1000", "--tests", "position",
                              "--json", "-"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        with open(fifo) as f:
            self.assertEqual(f.read().strip(), "ready")
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 130)
        rep = json.loads(out)
        self.assertTrue(rep["partial"])
        self.assertLessEqual(rep["samples"], 50)
        self.assertIn("interrupted", err.decode())
        with open(pidfile) as f:
            self.assertFalse(group_alive(int(f.read())))

    def test_background_holder_does_not_hang(self):
        # The shell writes one deck and exits; the background process
        # holds the pipe for 1000 s.  The run must end soon after the
        # shell (the 60 s timeout fires only if it waits for end-of-file
        # again) as an input error: 1 sample of the 100 asked for.
        pidfile = os.path.join(self.dir, "pid")
        prog = (f"echo $$ > {pidfile}; sleep 1000 & "
                "echo 0 1 2 3 4")
        p = subprocess.run([CLI, "test", "--exec", prog, "--n", "5",
                            "--samples", "100", "--json", "-"],
                           capture_output=True, timeout=60)
        err = p.stderr.decode()
        self.assertEqual(p.returncode, 2)
        rep = json.loads(p.stdout)
        self.assertTrue(rep["partial"])
        self.assertEqual(rep["samples"], 1)
        self.assertIn(f"the program '{prog}' exited with status 0 after 1 "
                      "sample of the 100 asked for", err)
        self.assertIn("left running in the background", err)
        self.assertIn("left running in the background",
                      rep["input"]["program_end"])
        with open(pidfile) as f:
            self.assertFalse(group_alive(int(f.read())))

    def test_silent_program_times_out(self):
        # A program that writes nothing for --exec-timeout seconds is
        # ended: an input error naming the option, with what it wrote
        # before counted.  The subprocess timeout fires only if the
        # limit is not kept (the program would sleep 1000 s).
        cases = [("exec sleep 1000", [], 0),
                 ("echo 0 1 2; exec sleep 1000", [], 1),
                 ("echo 0 1 2; sleep 1000", [], 1),
                 # A draw of unknown size waits for its first sample
                 # before the run starts.
                 ("exec sleep 1000", ["--kind", "draw"], None)]
        for prog, extra, counted in cases:
            with self.subTest(prog=prog, extra=extra):
                pidfile = os.path.join(self.dir, "pid")
                full = f"echo $$ > {pidfile}; {prog}"
                p = subprocess.run([CLI, "test", "--exec", full, "--n", "3",
                                    "--samples", "100", "--exec-timeout",
                                    "1", "--json", "-"] + extra,
                                   capture_output=True, timeout=60)
                err = p.stderr.decode()
                self.assertEqual(p.returncode, 2)
                self.assertIn(f"the program '{full}' wrote nothing for 1 s",
                              err)
                self.assertIn("--exec-timeout", err)
                self.assertEqual(err.count("\n"), 1)
                if counted is not None:
                    rep = json.loads(p.stdout)
                    self.assertTrue(rep["partial"])
                    self.assertEqual(rep["samples"], counted)
                    self.assertIn("--exec-timeout",
                                  rep["input"]["program_end"])
                with open(pidfile) as f:
                    self.assertFalse(group_alive(int(f.read())))

    def test_exec_timeout_option(self):
        # 0 is no limit; a value that is no whole number of seconds, and
        # the option without --exec, are usage errors.
        code, rep, _ = run_json(["test", "--exec",
                                 "printf '0 1 2\\n1 2 0\\n2 0 1\\n'",
                                 "--exec-timeout", "0", "--n", "3",
                                 "--samples", "3", "--tests", "position"])
        self.assertEqual(code, 0)
        self.assertEqual(rep["samples"], 3)
        for args, what in [(["--exec", "true", "--exec-timeout", "-1"],
                            "invalid --exec-timeout '-1'"),
                           (["--exec", "true", "--exec-timeout", "1.5"],
                            "invalid --exec-timeout '1.5'"),
                           (["--exec", "true", "--exec-timeout", "x"],
                            "invalid --exec-timeout 'x'"),
                           (["--input", "-", "--exec-timeout", "5"],
                            "--exec-timeout goes with --exec"),
                           (["fisher-yates", "--exec-timeout", "5"],
                            "--exec-timeout goes with --exec")]:
            with self.subTest(args=args):
                code, _, err = run(["test"] + args, stdin=b"")
                self.assertEqual(code, 2)
                self.assertIn(what, err)

    def test_interrupt_while_waiting_for_a_fifo_writer(self):
        # shufflebias waits for a FIFO's writer.  Once it has its SIGINT
        # handler (SigCgt in /proc) and sleeps in the kernel (state S:
        # nothing else blocks before that wait), SIGINT must end it like
        # any other interrupt: 130 and an empty partial report whose
        # verdict says so, not an error - a draw of unknown length too,
        # whose first sample never came.  Nobody ever writes to the FIFO,
        # so a regression that waits hangs until the 60 s timeout.
        for extra in [[], ["--kind", "draw"]]:
            with self.subTest(extra=extra):
                fifo = os.path.join(self.dir, "fifo")
                os.mkfifo(fifo)
                p = subprocess.Popen([CLI, "test", "--input", fifo, "--n",
                                      "5", "--json", "-"] + extra,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
                while not blocked_with_handler(p.pid, signal.SIGINT):
                    pass
                p.send_signal(signal.SIGINT)
                out, err = p.communicate(timeout=60)
                os.unlink(fifo)
                err = err.decode()
                self.assertEqual(p.returncode, 130, err)
                self.assertNotIn("Interrupted system call", err)
                self.assertIn("interrupted", err)
                rep = json.loads(out)
                self.assertTrue(rep["partial"])
                self.assertEqual(rep["verdict"], "incomplete")
                self.assertEqual(rep["samples"], 0)
                self.assertIsNone(rep["input"]["error"])

    def test_fifo_writer_that_comes_later_is_read(self):
        # The FIFO is opened without waiting for a writer; the reading
        # waits for one instead, and must not take the time before it
        # came for the end of the input.  The writer's open below returns
        # only once shufflebias holds the FIFO; whatever it then writes is
        # read to the end.
        fifo = os.path.join(self.dir, "fifo")
        os.mkfifo(fifo)
        decks = fair_decks(5, 200, seed=3)
        p = subprocess.Popen([CLI, "test", "--input", fifo, "--n", "5",
                              "--tests", "position", "--json", "-"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        with open(fifo, "w") as f:
            f.write("".join(" ".join(map(str, d)) + "\n" for d in decks))
        out, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 0, err.decode())
        rep = json.loads(out)
        self.assertEqual(rep["samples"], 200)
        self.assertAlmostEqual(test_of(rep, "position")["statistic"],
                               position_x2(decks, 5), places=6)

    def test_interrupt_before_the_first_sample_is_reported(self):
        # A draw of unknown size waits for the first sample before the run
        # starts; SIGINT then ends it like any other interrupt: 130 and an
        # empty partial report that says the program was interrupted.  The
        # program says through a FIFO that it has started.
        fifo = os.path.join(self.dir, "fifo")
        os.mkfifo(fifo)
        pidfile = os.path.join(self.dir, "pid")
        prog = f"echo $$ > {pidfile}; echo ready > {fifo}; exec sleep 1000"
        p = subprocess.Popen([CLI, "test", "--exec", prog, "--n", "5",
                              "--kind", "draw", "--json", "-"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        with open(fifo) as f:
            self.assertEqual(f.read().strip(), "ready")
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 130, err.decode())
        self.assertIn("interrupted", err.decode())
        rep = json.loads(out)
        self.assertTrue(rep["partial"])
        self.assertEqual(rep["verdict"], "incomplete")
        self.assertEqual(rep["samples"], 0)
        self.assertIsNone(rep["input"]["error"])
        self.assertEqual(rep["input"]["program_end"],
                         "ended by shufflebias, interrupted")
        with open(pidfile) as f:
            self.assertFalse(group_alive(int(f.read())))

    def test_program_dies_with_a_killed_shufflebias(self):
        # SIGKILL gives shufflebias no time to end its program; the kernel
        # must (PR_SET_PDEATHSIG).  The program ignores SIGPIPE and
        # SIGTERM and would otherwise write for ever.  It writes its pid
        # into a FIFO, so the test knows it runs before the kill.
        fifo = os.path.join(self.dir, "fifo")
        os.mkfifo(fifo)
        prog = (f"trap '' PIPE TERM; echo $$ > {fifo}; "
                "while :; do echo 0 1 2; done")
        p = subprocess.Popen([CLI, "test", "--exec", prog, "--n", "3",
                              "--samples", "1G", "--quiet"],
                             stderr=subprocess.DEVNULL)
        with open(fifo) as f:
            pid = int(f.read())
        p.kill()
        p.wait(timeout=60)
        # The kernel kills the orphan as its parent dies; wait for it to
        # be gone, which must happen (ctest's timeout bounds the loop).
        while group_alive(pid):
            pass

    def test_same_seed_same_decks(self):
        path = self.write("fy.py", "\n".join([
            "import os, random",
            "n = int(os.environ['SHUFFLEBIAS_N'])",
            "rng = random.Random(int(os.environ['SHUFFLEBIAS_SEED']))",
            "for _ in range(int(os.environ['SHUFFLEBIAS_SAMPLES'])):",
            "    d = list(range(n)); rng.shuffle(d)",
            "    print(' '.join(map(str, d)))",
        ]) + "\n")
        args = ["test", "--exec", f"python3 {path}", "--n", "6",
                "--samples", "2000", "--seed", "5", "--tests", "position"]
        code, rep, _ = run_json(args)
        self.assertEqual(code, 0)
        again, rep2, _ = run_json(args)
        self.assertEqual(test_of(rep, "position")["statistic"],
                         test_of(rep2, "position")["statistic"])

    def test_escalation_runs_the_program_again(self):
        # Stage 0 (seed 5) gets decks made to be suspect: of 6000 3-card
        # decks, 1000 of each order except the identity 133 more and the
        # reversal 133 fewer, so the scaled position X^2 is
        # (2/3) * 4 * 133^2 / 2000 = 23.59 on 4 df, p = 1e-4.  Any other
        # seed gets the identity only: a plain fail.  The program logs the
        # seed and samples it was handed each time it runs.
        log = os.path.join(self.dir, "log")
        path = self.write("prog.py", "\n".join([
            "import os",
            "seed = os.environ['SHUFFLEBIAS_SEED']",
            "samples = int(os.environ['SHUFFLEBIAS_SAMPLES'])",
            f"open({log!r}, 'a').write(seed + ' ' + str(samples) + '\\n')",
            "orders = ['0 1 2', '0 2 1', '1 0 2', '1 2 0', '2 0 1', '2 1 0']",
            "if seed == '5':",
            "    counts = [1133, 1000, 1000, 1000, 1000, 867]",
            "    lines = [o for o, c in zip(orders, counts) for _ in range(c)]",
            "else:",
            "    lines = [orders[0]] * samples",
            "print('\\n'.join(lines))",
        ]) + "\n")
        code, rep, _ = run_json(["test", "--exec", f"python3 {path}",
                                 "--n", "3", "--samples", "6000", "--seed",
                                 "5", "--tests", "position"])
        self.assertEqual(code, 1)
        self.assertEqual([s["verdict"] for s in rep["stages"]],
                         ["suspect", "fail"])
        with open(log) as f:
            calls = f.read().split()
        self.assertEqual(calls, ["5", "6000", str(rep["stages"][1]["seed"]),
                                 "12000"])


def main():
    global CLI
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
