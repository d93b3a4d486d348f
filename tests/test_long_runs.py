#!/usr/bin/env python3
"""Long runs from the command line: threads, state files, resuming, parts.

What a user does with a long run, end to end: the JSON report is the same
on one thread and on two; a run interrupted with Ctrl-C (SIGINT) reports
what it counted, exits 130 and goes on from its state file to the very
report of the run made in one go; the parts of a run made apart
(--part I/K) merge into that same report; and files that do not belong
together, are cut short, or are not state files are refused with a reason.

Every comparison is of counts and what is computed from them, which do not
depend on chance; no assertion here is statistical, and nothing is timed.

    test_long_runs.py --cli PATH/shufflebias
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import unittest

CLI = None

# Keys that say how a report was made, not what it counted.
HOW = {"timing", "stages", "tables", "samples_total", "merged", "part",
       "samples_requested", "memory"}


def counted(rep):
    """A report without the keys that say how it was made."""
    return {k: v for k, v in rep.items() if k not in HOW}


def handles_sigint(pid):
    """Whether process 'pid' has installed its SIGINT handler yet."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("SigCgt:"):
                return int(line.split()[1], 16) & (1 << (signal.SIGINT - 1))
    return False


class LongRuns(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def run_cli(self, *args, codes=(0,)):
        p = subprocess.run([CLI, *args], capture_output=True, text=True,
                           timeout=600)
        if p.returncode not in codes:
            raise AssertionError(f"{args}: exit {p.returncode}: {p.stderr}")
        return p

    def report(self, *args, codes=(0,)):
        p = self.run_cli(*args, "--json", "-", codes=codes)
        return json.loads(p.stdout), p.returncode

    RUN = ["fisher-yates", "--n", "52", "--seed", "17",
           "--tests", "position,cycles,serial,collisions"]

    def test_threads_give_the_same_report(self):
        one, _ = self.report("test", *self.RUN, "--samples", "300000",
                             "--threads", "1")
        two, _ = self.report("test", *self.RUN, "--samples", "300000",
                             "--threads", "2")
        self.assertEqual(one["timing"]["threads"], 1)
        self.assertEqual(two["timing"]["threads"], 2)
        self.assertEqual(counted(one), counted(two))
        self.assertEqual(one["samples"], 300000)

    def test_sequential_source_runs_on_one_thread(self):
        rep, _ = self.report("test", "fisher-yates", "--n", "8", "--seed",
                             "3", "--samples", "70000", "--rng", "mt19937",
                             "--threads", "2", "--tests", "position")
        self.assertEqual(rep["timing"]["threads"], 1)
        # And says why, in the JSON and in the text.
        self.assertIn("19937-bit state has no jump-ahead",
                      rep["rng_sequential"])
        p = self.run_cli("test", "fisher-yates", "--n", "8", "--seed", "3",
                         "--samples", "1000", "--rng", "mt19937")
        self.assertIn("made in order on one thread", p.stdout)
        p = self.run_cli("list")
        self.assertIn("an MPI job refuses them", p.stdout)
        # --part needs a source that starts at any chunk.
        p = self.run_cli("test", "fisher-yates", "--seed", "3", "--rng",
                         "mt19937", "--part", "1/2", codes=(2,))
        self.assertIn("--part needs a random-access source", p.stderr)

    def test_linear_congruential_sources_run_on_every_thread(self):
        # rand() % n, as a C program makes it, on both cores: the same
        # counts as on one thread (chunk k jumps ahead to its place in the
        # generator's sequence), and the parts of a run merge to it.
        for rng in ("rand15", "lcg32", "minstd", "rand48",
                    "reseed32:mt19937"):
            with self.subTest(rng=rng):
                # Three chunks and a short one, shared by the threads;
                # the fisher-yates-mod on rand15.
                alg = "fisher-yates-mod" if rng == "rand15" \
                    else "fisher-yates"
                run = [alg, "--n", "52", "--seed", "11", "--samples",
                       "200000", "--rng", rng, "--escalate", "0",
                       "--tests", "position,fy-code", "--no-diagnosis"]
                one, _ = self.report("test", *run, "--threads", "1",
                                     codes=(0, 1, 3))
                two, _ = self.report("test", *run, "--threads", "2",
                                     codes=(0, 1, 3))
                self.assertEqual(two["timing"]["threads"], 2)
                self.assertNotIn("rng_sequential", two)
                self.assertEqual(two["stream_version"], 4)
                self.assertEqual(counted(one), counted(two))
        states = [self.path(f"lcg{i}.state") for i in (1, 2)]
        common = ["fisher-yates", "--n", "52", "--seed", "11",
                  "--samples", "200000", "--rng", "rand15", "--tests",
                  "position,fy-code", "--quiet"]
        for i, st in enumerate(states, 1):
            self.run_cli("test", *common, "--part", f"{i}/2", "--state", st,
                         codes=(0, 1, 3))
        merged, _ = self.report("merge", *states, codes=(0, 1, 3))
        whole, _ = self.report("test", *common[:-1], "--escalate", "0",
                               codes=(0, 1, 3))
        self.assertEqual(counted(merged), counted(whole))

    def test_interrupted_run_resumes_to_the_whole_report(self):
        samples = "3000000"
        state = self.path("run.state")
        p = subprocess.Popen([CLI, "test", *self.RUN, "--samples", samples,
                              "--threads", "2", "--state", state,
                              "--json", "-"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        while not handles_sigint(p.pid):
            pass      # no sleep: the handler is the first thing main does
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=600)
        self.assertEqual(p.returncode, 130, err)
        part = json.loads(out)
        self.assertTrue(part["partial"])
        self.assertLess(part["samples"], int(samples))
        # Whole chunks only, while a state is kept.
        self.assertEqual(part["samples"] % 65536, 0)
        self.assertIn(f"--resume {state}", err)

        resumed, _ = self.report("test", "--resume", state, "--threads", "1")
        whole, _ = self.report("test", *self.RUN, "--samples", samples)
        self.assertFalse(resumed["partial"])
        self.assertEqual(counted(resumed), counted(whole))
        # The state now holds the whole run: resuming it again only
        # reports it.
        again, _ = self.report("test", "--resume", state)
        self.assertEqual(counted(again), counted(whole))

    def test_parts_merge_into_the_whole_report(self):
        common = ["sattolo", "--n", "9", "--seed", "5", "--samples",
                  "400000", "--tests", "position,cycles,permutation",
                  "--quiet"]
        states = []
        for i in (1, 2, 3):
            states.append(self.path(f"p{i}.state"))
            self.run_cli("test", *common, "--part", f"{i}/3", "--state",
                         states[-1], codes=(1,))
        merged, code = self.report("merge", *states, codes=(1,))
        whole, _ = self.report("test", *common[:-1], "--escalate", "0",
                               codes=(1,))
        self.assertEqual(counted(merged), counted(whole))
        self.assertEqual(merged["merged"], {"files": 3, "seeds": [5]})
        self.assertFalse(merged["partial"])
        # Two parts of three: what they hold, said to be partial.
        some, _ = self.report("merge", states[0], states[2], codes=(1,))
        self.assertTrue(some["partial"])
        self.assertLess(some["samples"], 400000)
        # Merged into a state, then resumed: the missing part is made.
        joined = self.path("joined.state")
        self.run_cli("merge", states[0], states[2], "--state", joined,
                     "--quiet", codes=(1,))
        done, _ = self.report("test", "--resume", joined, codes=(1,))
        self.assertEqual(counted(done), counted(whole))

    def test_runs_of_different_seeds_add_up(self):
        states = []
        for seed in ("1", "2"):
            states.append(self.path(f"s{seed}.state"))
            self.run_cli("test", "fisher-yates", "--n", "10", "--seed", seed,
                         "--samples", "70000", "--tests", "position",
                         "--state", states[-1], "--quiet")
        rep, _ = self.report("merge", *states)
        self.assertEqual(rep["samples"], 140000)
        self.assertEqual(rep["merged"]["seeds"], [1, 2])
        p = self.run_cli("merge", *states, "--state", self.path("x.state"),
                         codes=(2,))
        self.assertIn("one seed", p.stderr)

    def test_mismatched_and_damaged_files_are_refused(self):
        a, b = self.path("a.state"), self.path("b.state")
        self.run_cli("test", "fisher-yates", "--n", "10", "--seed", "1",
                     "--samples", "1000", "--tests", "position", "--state",
                     a, "--quiet")
        self.run_cli("test", "sattolo", "--n", "10", "--seed", "1",
                     "--samples", "1000", "--tests", "position", "--state",
                     b, "--quiet", codes=(1,))
        p = self.run_cli("merge", a, a, codes=(2,))
        self.assertIn("twice", p.stderr)
        p = self.run_cli("merge", a, b, codes=(2,))
        self.assertIn("algorithm 'sattolo' against 'fisher-yates'", p.stderr)
        with open(a, "rb") as f:
            data = f.read()
        cut = self.path("cut.state")
        with open(cut, "wb") as f:
            f.write(data[:len(data) // 2])
        for cmd in (["merge", a, cut], ["test", "--resume", cut]):
            p = self.run_cli(*cmd, codes=(2,))
            self.assertIn("cut short", p.stderr)
        other = self.path("report.json")
        with open(other, "w") as f:
            f.write('{"verdict": "pass"}\n')
        p = self.run_cli("merge", other, codes=(2,))
        self.assertIn("not a shufflebias state file", p.stderr)
        p = self.run_cli("merge", self.path("missing.state"), codes=(2,))
        self.assertIn("cannot read", p.stderr)

    def test_options_that_cannot_go_together(self):
        a = self.path("a.state")
        self.run_cli("test", "fisher-yates", "--n", "10", "--seed", "1",
                     "--samples", "1000", "--tests", "position", "--state",
                     a, "--quiet")
        for extra, says in ((["--n", "12"], "drop '--n'"),
                            (["--seed", "2"], "drop '--seed'"),
                            (["sattolo"], "drop 'sattolo'")):
            p = self.run_cli("test", "--resume", a, *extra, codes=(2,))
            self.assertIn(says, p.stderr)
        p = self.run_cli("test", "--resume", a, "--format", "u8",
                         codes=(2,))
        self.assertIn("drop '--kind, --hands", p.stderr)
        p = self.run_cli("test", "fisher-yates", "--part", "1/2", codes=(2,))
        self.assertIn("needs --seed", p.stderr)
        p = self.run_cli("test", "fisher-yates", "--seed", "1", "--part",
                         "1/2", "--escalate", "2", codes=(2,))
        self.assertIn("escalate after 'shufflebias merge'", p.stderr)
        p = self.run_cli("test", "fisher-yates", "--seed", "1", "--part",
                         "1/2", "--rng", "mt19937", codes=(2,))
        self.assertIn("random-access source", p.stderr)
        p = self.run_cli("test", "fisher-yates", "--state", self.dir,
                         codes=(2,))
        self.assertIn("not a regular file", p.stderr)
        for bad in ("3/2", "0/2", "1/0", "x", "1/2x"):
            p = self.run_cli("test", "fisher-yates", "--seed", "1",
                             "--part", bad, codes=(2,))
            self.assertIn("invalid --part", p.stderr)
        p = self.run_cli("test", "--input", "-", "--n", "3", "--state", a,
                         codes=(2,))
        self.assertIn("cannot be made again", p.stderr)
        p = self.run_cli("test", "fisher-yates", "--threads", "0",
                         codes=(2,))
        self.assertIn("invalid --threads", p.stderr)
        # A part too small to hold a chunk.
        p = self.run_cli("test", "fisher-yates", "--seed", "1", "--samples",
                         "1000", "--part", "1/2", codes=(2,))
        self.assertIn("holds no chunk", p.stderr)

    # --memory: one budget for a run, split across its threads.
    COLLIDE = ["fisher-yates", "--n", "20", "--seed", "3", "--samples",
               "327680", "--tests", "collisions,position", "--threads", "4"]

    def test_fewer_threads_when_they_do_not_all_fit(self):
        # Each thread's tables take about 121 MiB (collisions' table as
        # it grows to its cap): 300 MiB holds two threads, not four.
        tight = self.run_cli("test", *self.COLLIDE, "--memory", "300M",
                             "--json", "-")
        rep = json.loads(tight.stdout)
        self.assertEqual(rep["memory"]["threads"], 2)
        self.assertEqual(rep["memory"]["threads_wanted"], 4)
        self.assertEqual(rep["memory"]["budget"], 300 << 20)
        self.assertLessEqual(rep["memory"]["estimate"], 300 << 20)
        self.assertEqual(rep["timing"]["threads"], 2)
        self.assertIn("ran on 2 of the 4 threads asked for", tight.stderr)
        roomy, _ = self.report("test", *self.COLLIDE, "--memory", "4G")
        self.assertEqual(roomy["memory"]["threads"], 4)
        self.assertNotIn("threads_wanted", roomy["memory"])
        self.assertEqual(counted(rep), counted(roomy))

    def test_a_run_that_cannot_fit_is_refused_with_its_need(self):
        p = self.run_cli("test", *self.COLLIDE, "--memory", "100M",
                         codes=(2,))
        self.assertRegex(p.stderr, r"needs 12[0-9] MiB of memory for its "
                                   r"tables on one thread, over the budget "
                                   r"of 100 MiB")
        for bad in ("abc", "0", "512X", "100", "1e9", "-2G"):
            p = self.run_cli("test", "fisher-yates", "--memory", bad,
                             codes=(2,))
            self.assertIn(f"invalid --memory '{bad}'", p.stderr)

    def test_the_default_budget_is_half_of_what_the_process_may_have(self):
        # Under 'ulimit -v 2G' the default is 1 GiB, not half the machine.
        # AddressSanitizer reserves terabytes of address space, so a
        # sanitized build cannot run under such a limit at all.
        libs = subprocess.run(["ldd", CLI], capture_output=True, text=True)
        if "asan" in libs.stdout:
            self.skipTest("address-space limits do not apply to ASan builds")
        import resource

        def limit():
            resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

        p = subprocess.run([CLI, "test", "fisher-yates", "--seed", "1",
                            "--samples", "70000", "--json", "-"],
                           capture_output=True, text=True, timeout=600,
                           preexec_fn=limit)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["memory"]["budget"], 1 << 30)

    def test_exact_over_the_budget(self):
        # Known before the walk: 12! orders cannot fit in 1 GiB.
        p = self.run_cli("exact", "naive-swap", "--n", "12", "--walk",
                         "paths", "--max-paths", "1e15", "--memory", "1G",
                         codes=(2,))
        self.assertRegex(p.stderr, r"can reach 4\.79e\+08 outcomes, whose "
                                   r"exact table would need up to [0-9.]+ "
                                   r"GiB of memory, over the budget of 1 GiB")
        # Not known before: human-packet's walk outgrows 1 MiB on the way.
        p = self.run_cli("exact", "human-packet", "--n", "7", "--walk",
                         "paths", "--memory", "1M", codes=(2,))
        self.assertRegex(p.stderr, r"reached [0-9]+ outcomes in [0-9]+ paths "
                                   r"and its exact table outgrew the memory "
                                   r"budget of 1 MiB; all 5040 possible "
                                   r"outcomes would need about [0-9.]+ MiB")
        self.assertEqual(p.stdout, "")
        # Within the budget: the report says which, and what it needed.
        rep, _ = self.report("exact", "naive-swap", "--n", "5", "--memory",
                             "64M", codes=(1,))
        self.assertEqual(rep["memory"]["budget"], 64 << 20)
        # A few hundred bytes for each of the 120 orders.
        self.assertGreater(rep["memory"]["estimate"], 120 * 256)
        self.assertLess(rep["memory"]["estimate"], 64 << 20)

    def test_merge_keeps_to_the_budget(self):
        # position at 1024 cards: 8 MiB of counts, which a merge holds
        # about three times over, and its table of results.
        state = self.path("a.state")
        self.run_cli("test", "fisher-yates", "--n", "1024", "--seed", "2",
                     "--samples", "2000", "--tests", "position",
                     "--state", state)
        p = self.run_cli("merge", state, "--memory", "16M", codes=(2,))
        self.assertRegex(p.stderr, r"need [0-9.]+ MiB of memory to merge, "
                                   r"over the budget of 16 MiB")
        rep, _ = self.report("merge", state)
        self.assertGreater(rep["memory"]["estimate"], 0)
        self.assertLessEqual(rep["memory"]["estimate"],
                             rep["memory"]["budget"])

    def test_exact_interrupt_is_answered_with_a_small_report(self):
        # 9^9 paths of the naive swap take minutes to walk.  Its progress
        # line (shown on a terminal, after a second) says the walk is under
        # way with more than 2^20 paths walked; then SIGINT.  The report
        # gives the totals only, however many orders were reached.
        import pty
        master, slave = pty.openpty()
        p = subprocess.Popen([CLI, "exact", "naive-swap", "--n", "9",
                              "--walk", "paths", "--max-paths", "1e9",
                              "--json", "-"],
                             stdout=subprocess.PIPE, stderr=slave, text=True)
        os.close(slave)
        seen = b""
        while b"paths" not in seen:
            seen += os.read(master, 4096)
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=600)
        os.close(master)
        self.assertEqual(p.returncode, 130)
        self.assertLess(len(out), 4096)
        rep = json.loads(out)
        self.assertTrue(rep["partial"])
        self.assertFalse(rep["outcomes_listed"])
        self.assertNotIn("permutations", rep)
        self.assertGreaterEqual(rep["paths"], 1 << 20)
        self.assertGreater(rep["reached"], 0)
        self.assertLessEqual(rep["reached"], 362880)
        self.assertGreater(rep["memory"]["estimate"], 0)
        # Every path of the naive swap weighs 9^-9: the mass walked is
        # exactly the paths walked over 9^9, and the rest is unexplored.
        from fractions import Fraction
        walked = Fraction(rep["explored_mass"])
        self.assertEqual(walked, Fraction(rep["paths"], 9 ** 9))
        self.assertEqual(Fraction(rep["unexplored_mass"]), 1 - walked)


def main():
    global CLI
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    unittest.main(argv=[sys.argv[0], *rest])


if __name__ == "__main__":
    main()
