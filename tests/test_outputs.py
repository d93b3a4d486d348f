#!/usr/bin/env python3
"""Output files and what a report says at its top, from the command line.

No output file is ever destroyed: an output that is also an input (or the
run's other output) is refused before anything runs, with the input kept
byte for byte; an early error leaves an existing report as it was; a write
that fails part-way (a file size limit standing in for a full disk) leaves
the old report and no temporary file; a state file is never written over a
pipe or device, nor over another run's state without --force.  Ctrl-C
while a report waits on a pipe's slow reader cuts it and exits 130, not as
a write error.

Exit codes and the JSON 'verdict' tell the truth: a run where nothing
could be judged exits 3 with the reason; an interrupted run says
'incomplete', a run whose input or state save went wrong says 'error'.

No assertion here is statistical (the verdicts checked do not depend on
the samples), and nothing is timed.

    test_outputs.py --cli PATH/shufflebias --plugin PATH/plugin.so
"""
import argparse
import fcntl
import json
import random
import os
import resource
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import termios
import unittest

CLI = None
PLUGIN = None


def handles_sigint(pid):
    """Whether process 'pid' has installed its SIGINT handler yet."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("SigCgt:"):
                return int(line.split()[1], 16) & (1 << (signal.SIGINT - 1))
    return False


def cpu_ticks(pid):
    """The user and system clock ticks process 'pid' has used."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def file_limit(size):
    """For a child: writes to files stop at 'size' bytes with EFBIG (as a
    full disk stops them with ENOSPC), the signal that would kill it
    ignored."""
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


class Outputs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def run_cli(self, *args, codes=(0,), **kw):
        p = subprocess.run([CLI, *args], capture_output=True, text=True,
                           timeout=600, cwd=self.dir, **kw)
        if p.returncode not in codes:
            raise AssertionError(f"{args}: exit {p.returncode}: {p.stderr}")
        return p

    def make_state(self, name, alg="fisher-yates", seed="1"):
        path = self.path(name)
        self.run_cli("test", alg, "--n", "10", "--seed", seed, "--samples",
                     "1000", "--tests", "position", "--state", path,
                     "--quiet", codes=(0, 1))
        return path

    def read(self, path):
        with open(path, "rb") as f:
            return f.read()

    def leftovers(self):
        return [f for f in os.listdir(self.dir) if ".tmp" in f]

    def test_an_input_is_never_an_output(self):
        state = self.make_state("run.state")
        kept = self.read(state)
        p = self.run_cli("test", "--resume", state, "--json", state,
                         codes=(2,))
        self.assertIn("same file as --resume", p.stderr)
        self.assertEqual(self.read(state), kept)
        # The same file under another name, and through a link.
        os.link(state, self.path("hard.state"))
        os.symlink(state, self.path("soft.json"))
        for other in ("./run.state", "hard.state", "soft.json"):
            with self.subTest(other=other):
                p = self.run_cli("merge", "run.state", "--json", other,
                                 codes=(2,))
                self.assertIn("same file as the input", p.stderr)
                self.assertEqual(self.read(state), kept)
        p = self.run_cli("merge", state, "--state", state, codes=(2,))
        self.assertIn("same file as the input", p.stderr)
        self.assertEqual(self.read(state), kept)

        decks = self.path("decks.txt")
        with open(decks, "w") as f:
            f.write("0 1 2\n2 1 0\n1 0 2\n")
        p = self.run_cli("test", "--input", decks, "--n", "3", "--json",
                         decks, codes=(2,))
        self.assertIn("same file as --input", p.stderr)
        self.assertEqual(self.read(decks), b"0 1 2\n2 1 0\n1 0 2\n")

        # Two outputs of one run, neither of which exists yet.
        os.mkdir(self.path("sub"))
        p = self.run_cli("test", "fisher-yates", "--samples", "1000",
                         "--state", "new.state", "--json",
                         "sub/../new.state", codes=(2,))
        self.assertIn("same file as --state", p.stderr)
        self.assertFalse(os.path.exists(self.path("new.state")))
        p = self.run_cli("audit", "--samples", "1000", "--json", "a.out",
                         "--markdown", "./a.out", codes=(2,))
        self.assertIn("same file", p.stderr)

    def test_a_program_is_never_an_output(self):
        # The program of --exec, or a script it runs, is the user's code:
        # a report written over it would destroy it.
        with tempfile.TemporaryDirectory() as d:
            prog = os.path.join(d, "gen.sh")
            text = "#!/bin/sh\necho 0 1 2\n"
            with open(prog, "w") as f:
                f.write(text)
            os.chmod(prog, 0o755)
            for cmd in (prog, "sh " + prog, "sh '%s' --fast" % prog):
                p = self.run_cli("test", "--exec", cmd, "--n", "3",
                                 "--samples", "3", "--json", prog,
                                 codes=(2,))
                self.assertIn("is the same file as --exec", p.stderr)
                with open(prog) as f:
                    self.assertEqual(f.read(), text)

    def test_an_early_error_leaves_the_report(self):
        report = self.path("report.json")
        with open(report, "w") as f:
            f.write('{"verdict": "pass"}\n')
        for args in (["test", "fisher-yaets"],
                     ["test", "fisher-yates", "--tests", "nothing"],
                     ["merge", self.path("missing.state")],
                     ["exact", "no-such-shuffle", "--n", "3"]):
            with self.subTest(args=args):
                self.run_cli(*args, "--json", report, codes=(2,))
                self.assertEqual(self.read(report), b'{"verdict": "pass"}\n')

    def test_a_failed_write_leaves_the_old_report(self):
        report = self.path("report.json")
        old = b'{"verdict": "pass"}\n'
        with open(report, "wb") as f:
            f.write(old)
        # The report of 10 statistics is some 8 kB: cut at 2 kB.
        p = self.run_cli("test", "fisher-yates", "--n", "8", "--samples",
                         "2000", "--seed", "1", "--json", report, "--quiet",
                         codes=(2,), preexec_fn=file_limit(2048))
        self.assertIn("cannot write", p.stderr)
        self.assertIn("File too large", p.stderr)
        self.assertEqual(self.read(report), old)
        self.assertEqual(self.leftovers(), [])

    def test_a_replaced_report_keeps_its_mode(self):
        report = self.path("report.json")
        with open(report, "w") as f:
            f.write("{}\n")
        os.chmod(report, 0o640)
        self.run_cli("test", "fisher-yates", "--n", "5", "--samples",
                     "1000", "--seed", "1", "--quiet", "--json", report)
        self.assertEqual(stat.S_IMODE(os.stat(report).st_mode), 0o640)
        self.assertEqual(json.loads(self.read(report))["samples"], 1000)
        self.assertEqual(self.leftovers(), [])

    @unittest.skipUnless(os.path.exists("/dev/full"), "no /dev/full")
    def test_full_device_says_so(self):
        p = self.run_cli("test", "fisher-yates", "--n", "5", "--samples",
                         "1000", "--quiet", "--json", "/dev/full",
                         codes=(2,))
        self.assertIn("cannot write '/dev/full': No space left on device",
                      p.stderr)
        # Standard output on a full device: said once, with the reason.
        for extra in ([], ["--json", "-"]):
            with open("/dev/full", "w") as full:
                p = subprocess.run([CLI, "test", "fisher-yates", "--n", "5",
                                    "--samples", "1000", *extra],
                                   stdout=full, stderr=subprocess.PIPE,
                                   text=True, timeout=600)
            self.assertEqual(p.returncode, 2)
            self.assertEqual(p.stderr.count("cannot write standard output: "
                                            "No space left on device"), 1,
                             p.stderr)
        # A device that takes everything stays usable as an output.
        self.run_cli("test", "fisher-yates", "--n", "5", "--samples",
                     "1000", "--seed", "1", "--quiet", "--json",
                     "/dev/null")

    def test_a_state_is_never_written_over_a_pipe(self):
        state = self.make_state("a.state")
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        for cmd in (["merge", state, "--state", fifo],
                    ["test", "fisher-yates", "--samples", "1000",
                     "--state", fifo]):
            with self.subTest(cmd=cmd[0]):
                p = self.run_cli(*cmd, codes=(2,))
                self.assertIn("not a regular file", p.stderr)
                self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode))
        p = self.run_cli("merge", state, "--state", self.dir, codes=(2,))
        self.assertIn("is a directory", p.stderr)

    def test_another_runs_state_needs_force(self):
        other = self.make_state("other.state", alg="sattolo")
        kept = self.read(other)
        new = ["test", "fisher-yates", "--n", "10", "--seed", "2",
               "--samples", "1000", "--tests", "position", "--quiet",
               "--state", other]
        p = self.run_cli(*new, codes=(2,))
        self.assertIn("holds the saved state of a run of 'sattolo'",
                      p.stderr)
        self.assertIn(f"--resume {other}", p.stderr)
        self.assertEqual(self.read(other), kept)
        a = self.make_state("a.state")
        p = self.run_cli("merge", a, "--state", other, codes=(2,))
        self.assertIn("--force", p.stderr)
        self.assertEqual(self.read(other), kept)
        # A file that is no state at all is not replaced either.
        notes = self.path("notes.txt")
        with open(notes, "w") as f:
            f.write("keep me\n")
        p = self.run_cli("test", "fisher-yates", "--samples", "1000",
                         "--state", notes, codes=(2,))
        self.assertIn("not a state file", p.stderr)
        self.assertEqual(self.read(notes), b"keep me\n")
        # With --force the new run replaces it, and resumes as itself.
        self.run_cli(*new, "--force")
        p = self.run_cli("test", "--resume", other, "--json", "-")
        self.assertEqual(json.loads(p.stdout)["algorithm"], "fisher-yates")
        self.assertEqual(json.loads(p.stdout)["seed"], 2)
        p = self.run_cli("test", "fisher-yates", "--force", codes=(2,))
        self.assertIn("--force goes with --state", p.stderr)
        # --resume saves to its file: --force goes with it too.
        p = self.run_cli("test", "--resume", other, "--force", "--json",
                         "-", codes=(0, 1, 3))
        self.assertEqual(json.loads(p.stdout)["algorithm"], "fisher-yates")

    def interrupt_blocked_writer(self, *args):
        """Run the CLI with its standard output on a pipe of one page that
        is not read; once the pipe is full the CLI is inside a write it
        cannot finish (its first write is longer than a page: the report
        is, and stdio writes it whole or by 8 kB), and SIGINT cuts that
        write.  The pipe is read only once the signal has been taken (the
        one-shot handler is reset then): read sooner, the space made
        could let the write go on before the kernel sees the signal.
        Returns the exit code, what reached the pipe, the pipe's size and
        stderr."""
        r, w = os.pipe()
        fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, 4096)
        size = fcntl.fcntl(w, fcntl.F_GETPIPE_SZ)
        if size > 4096:
            os.close(r)
            os.close(w)
            self.skipTest(f"the smallest pipe holds {size} bytes here")
        with open(self.path("stderr"), "w+") as err:
            p = subprocess.Popen([CLI, *args], stdout=w, stderr=err,
                                 cwd=self.dir)
            os.close(w)
            queued = bytearray(4)
            while True:
                fcntl.ioctl(r, termios.FIONREAD, queued)
                if struct.unpack("i", queued)[0] >= size:
                    break
                self.assertIsNone(p.poll(), "the report fitted the pipe")
            p.send_signal(signal.SIGINT)
            while handles_sigint(p.pid):
                pass
            with os.fdopen(r, "rb") as f:
                out = f.read()
            p.wait(timeout=600)
            err.seek(0)
            return p.returncode, out, size, err.read()

    def test_an_interrupt_cuts_a_report_on_a_pipe(self):
        # Signal handlers have no SA_RESTART: a write to a reader slow to
        # read is cut by the interrupt, which is no write error.
        state = self.path("big.state")
        self.run_cli("test", "fisher-yates", "--n", "1000", "--seed", "1",
                     "--samples", "2000", "--state", state, "--quiet",
                     codes=(0, 1, 3))
        for cmd in (["exact", "fisher-yates", "--n", "7", "--json", "-"],
                    ["test", "fisher-yates", "--n", "1000", "--seed", "1",
                     "--samples", "2000", "--json", "-"],
                    ["merge", state, "--json", "-"]):
            with self.subTest(cmd=cmd):
                code, out, size, err = self.interrupt_blocked_writer(*cmd)
                self.assertEqual(code, 130, err)
                self.assertNotIn("cannot write", err)
                self.assertEqual(err.count("interrupted"), 1, err)
                # What was written stays; what was still buffered is
                # dropped, not written once the reader reads.
                self.assertEqual(len(out), size)
                self.assertTrue(out.startswith(b"{"))
        self.assertEqual(self.leftovers(), [])

    def test_a_nonblocking_pipe_gets_the_whole_report(self):
        # A parent may leave standard output non-blocking: a write then
        # takes what fits and says EAGAIN, with no signal at all.  That is
        # no interrupt: the rest waits until the reader reads, and the
        # whole report arrives.  The pipe of one page is read only once it
        # is full, so the report meets EAGAIN at least once.
        for cmd in (["exact", "fisher-yates", "--n", "6", "--json", "-"],
                    ["exact", "naive-swap", "--n", "6", "--json", "-"]):
            with self.subTest(cmd=cmd):
                r, w = os.pipe()
                fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, 4096)
                size = fcntl.fcntl(w, fcntl.F_GETPIPE_SZ)
                os.set_blocking(w, False)
                p = subprocess.Popen([CLI, *cmd], stdout=w,
                                     stderr=subprocess.PIPE, cwd=self.dir)
                os.close(w)
                queued = bytearray(4)
                while p.poll() is None:
                    fcntl.ioctl(r, termios.FIONREAD, queued)
                    if struct.unpack("i", queued)[0] >= size:
                        break
                with os.fdopen(r, "rb") as f:
                    out = f.read()
                err = p.stderr.read().decode()
                p.wait(timeout=600)
                p.stderr.close()
                self.assertIn(p.returncode, (0, 1, 3), err)
                self.assertGreater(len(out), size)
                json.loads(out)

    def test_a_plugin_path_a_state_cannot_hold(self):
        # Over 1023 bytes, yet the same file.
        d, base = os.path.split(PLUGIN)
        long_path = d + "/." * 520 + "/" + base
        p = self.run_cli("test", "--plugin", long_path,
                         "example-fisher-yates", "--n", "10", "--samples",
                         "1000", "--state", "p.state", codes=(2,))
        self.assertIn("a state file keeps at most 1023", p.stderr)
        self.assertFalse(os.path.exists(self.path("p.state")))

    def test_state_file_messages(self):
        p = self.run_cli("test", "--resume", self.dir, codes=(2,))
        self.assertIn("Is a directory", p.stderr)
        huge = self.path("huge.state")
        with open(huge, "wb") as f:
            f.write(b"SBSTATE\n" + struct.pack("<QQ", 1, 2**64 - 1)
                    + bytes(64))
        p = self.run_cli("test", "--resume", huge, codes=(2,))
        self.assertIn("18446744073709551615 bytes", p.stderr)


class Verdicts(unittest.TestCase):
    def run_cli(self, *args, codes):
        p = subprocess.run([CLI, *args], capture_output=True, text=True,
                           timeout=600)
        if p.returncode not in codes:
            raise AssertionError(f"{args}: exit {p.returncode}: {p.stderr}")
        return p

    def test_nothing_judged_is_inconclusive(self):
        p = self.run_cli("test", "fisher-yates", "--n", "1", "--samples",
                         "1000", "--json", "-", codes=(3,))
        rep = json.loads(p.stdout)
        self.assertEqual(rep["verdict"], "n/a")
        self.assertIn("no statistic could judge", rep["reason"])
        self.assertIn("inconclusive: no statistic could judge", p.stderr)
        # It is a result, not an error: --quiet (nothing but errors) keeps
        # it off stderr; the exit code and the JSON's reason still say it.
        p = self.run_cli("test", "fisher-yates", "--n", "1", "--samples",
                         "1000", "--json", "-", "--quiet", codes=(3,))
        self.assertEqual(p.stderr, "")
        self.assertIn("no statistic could judge",
                      json.loads(p.stdout)["reason"])
        # A verdict that stands on its own has no reason.
        p = self.run_cli("test", "fisher-yates", "--n", "4", "--samples",
                         "1000", "--seed", "1", "--json", "-",
                         "--escalate", "0", "--tests", "position",
                         codes=(0, 1, 3))
        self.assertIsNone(json.loads(p.stdout)["reason"])

    def test_samples_that_cannot_fail_do_not_pass(self):
        # One deck, or fewer decks than cards: every cell of the position
        # table expects less than one sample, and one deck gives the same
        # X^2 whatever it is; 20 games of New Age Solitaire cannot give a
        # p-value below 1e-6.  Such a run judged nothing: exit 3, never a
        # pass.  From 30 decks the game judges (from 21 or 22, by the share
        # of the threshold Holm gives it), from 52 the table too.
        with tempfile.TemporaryDirectory() as d:
            decks = os.path.join(d, "decks.txt")
            for count, code in ((1, 3), (20, 3), (30, 0), (52, 0)):
                with open(decks, "w") as f:
                    for i in range(count):
                        deck = list(range(52))
                        random.Random(i).shuffle(deck)
                        f.write(" ".join(map(str, deck)) + "\n")
                p = self.run_cli("test", "--input", decks, "--n", "52",
                                 "--tests", "position,new-age-solitaire",
                                 "--json", "-", codes=(code,))
                rep = json.loads(p.stdout)
                self.assertEqual(rep["verdict"], "n/a" if code else "pass",
                                 count)
                tests = {t["name"]: t["verdict"] for t in rep["tests"]}
                self.assertEqual(tests["position"],
                                 "n/a" if count < 52 else "pass")
                self.assertEqual(tests["new-age-solitaire"],
                                 "n/a" if count < 21 else "pass")
            # The card x hand table of a deal: each card in each of 4
            # hands, 3 deals expect 0.75 per cell.
            p = self.run_cli("test", "deal-fisher-yates", "--samples", "3",
                             "--seed", "1", "--tests", "card-hand",
                             "--json", "-", codes=(3,))
            self.assertEqual(json.loads(p.stdout)["verdict"], "n/a")

    def test_input_error_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            decks = os.path.join(d, "decks.txt")
            with open(decks, "w") as f:
                f.write("0 1 2\n2 1 0\n0 1 1\n")
            p = self.run_cli("test", "--input", decks, "--n", "3",
                             "--json", "-", codes=(2,))
            rep = json.loads(p.stdout)
            self.assertEqual(rep["verdict"], "error")
            self.assertIn("decks.txt:3 (sample 3)", rep["reason"])
            self.assertTrue(rep["partial"])
            # The JSON keeps the whole partial report.
            self.assertEqual(rep["samples"], 2)
            self.assertTrue(rep["tests"])
            # The text: the message and what was counted, no table.
            p = self.run_cli("test", "--input", decks, "--n", "3",
                             codes=(2,))
            self.assertIn("verdict: ERROR", p.stdout)
            self.assertIn("after 2 good samples", p.stdout)
            self.assertNotIn("p (Holm)", p.stdout)
            self.assertIn("decks.txt:3 (sample 3)", p.stderr)
            # A seed means nothing to recorded decks.
            p = self.run_cli("test", "--input", decks, "--n", "3",
                             "--seed", "4", codes=(2,))
            self.assertIn("--seed means nothing to recorded samples",
                          p.stderr)

    def test_a_seed_still_goes_to_a_program(self):
        p = self.run_cli("test", "--exec", "echo $SHUFFLEBIAS_SEED >&2; "
                         "yes '0 1 2' | head -n 4", "--n", "3",
                         "--samples", "4", "--seed", "77", "--tests",
                         "position", "--json", "-", codes=(0, 1, 3))
        self.assertIn("77", p.stderr)

    def test_interrupted_run_is_incomplete(self):
        p = subprocess.Popen([CLI, "test", "fisher-yates", "--samples",
                              "1G", "--threads", "1", "--json", "-"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        while not handles_sigint(p.pid):
            pass      # no sleep: the handler is the first thing main does
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=600)
        self.assertEqual(p.returncode, 130, err)
        rep = json.loads(out)
        self.assertEqual(rep["verdict"], "incomplete")
        self.assertTrue(rep["partial"])
        self.assertIn("interrupted after", rep["reason"])
        # The text says so, and what the samples counted showed.
        p = subprocess.Popen([CLI, "test", "fisher-yates", "--samples",
                              "1G", "--threads", "1", "--tests", "position"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        while not handles_sigint(p.pid):
            pass
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=600)
        self.assertEqual(p.returncode, 130, err)
        self.assertIn("verdict: INCOMPLETE (the run was interrupted; on the ",
                      out)

    def test_interrupted_exact_all_reports_the_walks_done(self):
        """exact --all, interrupted: the walks finished are reported whole,
        the one cut short with the totals it counted, exit 130."""
        with tempfile.TemporaryDirectory() as d:
            js, page = os.path.join(d, "all.json"), os.path.join(d, "all.html")
            # Every path at 7 cards (--walk paths: by their states the
            # walks take well under a second): past the first walks (a few
            # milliseconds each) and into the long ones, half a second of
            # its CPU time.
            p = subprocess.Popen([CLI, "exact", "--all", "--n", "7",
                                  "--walk", "paths", "--quiet", "--json", js,
                                  "--html", page],
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            while p.poll() is None and cpu_ticks(p.pid) < 50:
                pass
            self.assertIsNone(p.poll(), "the walks ended before the "
                              "interrupt: nothing to test")
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=600)
            self.assertEqual(p.returncode, 130, err)
            with open(js) as f:
                rep = json.load(f)
            self.assertTrue(rep["partial"])
            walks = rep["algorithms"]
            self.assertTrue(walks[-1]["partial"])
            self.assertGreater(len(walks), 1)
            for w in walks[:-1]:
                self.assertFalse(w["partial"], w["algorithm"])
                self.assertEqual(w["unexplored_mass"], "0/1", w["algorithm"])
                self.assertGreater(len(w["permutations"]), 0)
            with open(page) as f:
                text = f.read()
            for w in walks:
                self.assertIn('id="run-%s"' % w["algorithm"], text)

    def test_failed_save_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            state = os.path.join(d, "big.state")
            # The state of 'position' at n = 52 is some 22 kB: cut at 4 kB.
            p = subprocess.run([CLI, "test", "fisher-yates", "--samples",
                                "1000", "--seed", "1", "--tests",
                                "position", "--state", state, "--json",
                                "-"], capture_output=True, text=True,
                               timeout=600, preexec_fn=file_limit(4096))
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("File too large", p.stderr)
            rep = json.loads(p.stdout)
            self.assertEqual(rep["verdict"], "error")
            self.assertIn("cannot save the state", rep["reason"])
            self.assertFalse(os.path.exists(state))
            self.assertEqual(os.listdir(d), [])


def main():
    global CLI, PLUGIN
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--plugin", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    PLUGIN = os.path.abspath(args.plugin)
    unittest.main(argv=[sys.argv[0], *rest])


if __name__ == "__main__":
    main()
