#!/usr/bin/env python3
"""Runs shared between the ranks of an MPI job (docs/scale.md), end to end.

What a cluster user does with 'mpirun -n K shufflebias test ...': the
statistics are those of one process with the same seed and samples, bit
for bit, at 1, 2 and 3 ranks (3 on this two-core machine with
--oversubscribe), and the JSON says how many ranks made them; a suspect
run escalates the same way; SIGINT to mpirun ends the run on every rank
with a partial report and one state file, which resumes (under mpirun or
not) to the report of the run made in one go; an error on one rank ends
the run on all of them with that rank's message; a source that is one
sequential stream and the commands that run as one process are refused
with the reason.

Every comparison is of counts and what is computed from them: nothing
here is statistical, and nothing is timed.  Skipped in a build without
MPI (--mpi OFF) or without mpirun.

    test_mpi.py --cli PATH/shufflebias --mpi ON|OFF --samples N
                --plugin PATH/libsb_test_plugin_rank_error.so
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

CLI = None
MPI = False
SAMPLES = "1e7"
PLUGIN = None
# A run long enough to be interrupted: mpirun passes SIGINT on as SIGTERM
# after OMPI_MCA_odls_base_sigkill_timeout seconds (below).
LONG = "1e8"

# Keys that say how a report was made, not what it counted.
HOW = {"timing", "memory", "ranks"}

# Open MPI's mpirun refuses to start ranks as root unless told it may (a
# CI container runs as root); it gives the ranks 1 s between SIGTERM and
# SIGKILL after an interrupt, and a run saving its state needs more
# (docs/scale.md says so).  Open MPI leaves memory to the end of the
# process in modules it has unloaded by then, where the sanitized build's
# leak checker can neither name nor tell them from ours: the ranks run
# without it.  The engine's side of a job is leak-checked in-process by
# test_team, with a team of threads.
ENV = dict(os.environ,
           OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_odls_base_sigkill_timeout="5",
           ASAN_OPTIONS="detect_leaks=0")
# One process, not under mpirun: leaks checked as everywhere else.
ALONE = dict(os.environ)
SANITIZED = False


def counted(rep):
    """A report without the keys that say how it was made."""
    return {k: v for k, v in rep.items() if k not in HOW}


def mpirun(k, *args):
    return ["mpirun", "--oversubscribe", "-n", str(k), CLI, *args]


class Ranks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not MPI:
            raise unittest.SkipTest("built without MPI")
        if not shutil.which("mpirun"):
            raise unittest.SkipTest("no mpirun")

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def run_cmd(self, cmd, codes=(0,), env=None):
        if env is None:
            env = ENV if cmd[0] == "mpirun" else ALONE
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=600, env=env)
        if p.returncode not in codes:
            self.fail(f"{' '.join(cmd)} exited {p.returncode}\n"
                      f"stdout: {p.stdout[-2000:]}\nstderr: "
                      f"{p.stderr[-2000:]}")
        return p

    def report(self, cmd, name, codes=(0,)):
        out = self.path(name)
        self.run_cmd([*cmd, "--json", out], codes)
        with open(out) as f:
            return json.load(f)

    def test_same_statistics_at_one_two_and_three_ranks(self):
        # The issue's own command: one process against 1, 2 and 3 ranks.
        args = ["test", "fisher-yates", "--n", "52", "--samples", SAMPLES,
                "--seed", "5"]
        alone = self.report([CLI, *args], "alone.json")
        self.assertEqual(alone["ranks"], 1)
        self.assertEqual(alone["verdict"], "pass")
        for k in (1, 2, 3):
            with self.subTest(ranks=k):
                rep = self.report(mpirun(k, *args), f"ranks{k}.json")
                # A job of one rank is one process.
                self.assertEqual(rep["ranks"], k)
                self.assertEqual(counted(rep), counted(alone))

    def test_escalation_as_one_process(self):
        # A suspect first stage escalates on every rank alike, and the
        # stages and tables are those of one process.  Its 6e6 decks of
        # 52 cards, twice, take minutes in the sanitized build: the plain
        # build runs it.
        if SANITIZED:
            self.skipTest("the plain build runs it")
        args = ["test", "fisher-yates-mod", "--n", "52", "--samples", "2e6",
                "--seed", "1", "--threads", "1"]
        alone = self.report([CLI, *args], "alone.json", codes=(0, 1, 3))
        rep = self.report(mpirun(2, *args), "two.json", codes=(0, 1, 3))
        self.assertGreater(len(alone.get("stages", [])), 1,
                           "seed 1 no longer makes a suspect first stage: "
                           "choose another")
        self.assertEqual(counted(rep), counted(alone))

    def test_random_access_lcg_on_ranks(self):
        # rand15 jumps to each chunk: the ranks share it, as threads do.
        # Its fail is not diagnosed: the diagnosis simulates the
        # catalogue on rank 0 alone, minutes in the sanitized build.
        args = ["test", "fisher-yates-mod", "--n", "52", "--samples", "1e6",
                "--seed", "3", "--rng", "rand15", "--escalate", "0",
                "--no-diagnosis"]
        alone = self.report([CLI, *args, "--threads", "1"], "alone.json",
                            codes=(0, 1, 3))
        rep = self.report(mpirun(3, *args), "three.json", codes=(0, 1, 3))
        self.assertEqual(counted(rep), counted(alone))

    def test_sequential_source_refused(self):
        p = self.run_cmd(mpirun(2, "test", "fisher-yates", "--n", "10",
                                "--samples", "1e5", "--seed", "1", "--rng",
                                "mt19937"), codes=(2,))
        self.assertIn("cannot be shared between ranks", p.stderr)
        self.assertIn("mt19937", p.stderr)
        # Said once, by rank 0.
        self.assertEqual(p.stderr.count("cannot be shared"), 1)

    def test_other_commands_refused(self):
        p = self.run_cmd(mpirun(2, "exact", "naive-swap", "--n", "3"),
                         codes=(2,))
        self.assertIn("only 'test' shares its run", p.stderr)

    def test_error_on_one_rank_ends_the_run(self):
        env = dict(ENV, SB_TEST_FAIL_RANK="1")
        p = self.run_cmd(mpirun(2, "test", "--plugin", PLUGIN,
                                "fails-on-a-rank", "--n", "10", "--samples",
                                "1e6", "--seed", "1", "--json",
                                self.path("r.json")),
                         codes=(2,), env=env)
        self.assertIn("rank 1 of 2:", p.stderr)
        self.assertIn("returned status", p.stderr)
        self.assertFalse(os.path.exists(self.path("r.json")))
        # Without the variable no rank fails.
        self.run_cmd(mpirun(2, "test", "--plugin", PLUGIN, "fails-on-a-rank",
                            "--n", "10", "--samples", "2e5", "--seed", "1"))

    def test_interrupt_state_and_resume(self):
        state, part = self.path("run.state"), self.path("part.json")
        args = ["test", "fisher-yates", "--n", "8", "--samples", LONG,
                "--seed", "9", "--escalate", "0", "--threads", "1"]
        p = subprocess.Popen(mpirun(2, *args, "--state", state, "--json",
                                    part),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=ENV)
        # mpirun's ranks are its children; once both have their handler,
        # SIGINT to mpirun reaches them (as SIGTERM, a few seconds later).
        ranks = []
        while len(ranks) < 2 and p.poll() is None:
            ranks = [c for c in children(p.pid) if handles_sigint(c)]
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=300)
        self.assertIn("interrupted: the report covers the", err)
        with open(part) as f:
            rep = json.load(f)
        self.assertTrue(rep["partial"])
        self.assertEqual(rep["ranks"], 2)
        self.assertTrue(os.path.exists(state))
        # Resumed, under mpirun and as one process: the report of the
        # run made in one go by one process.
        whole = self.report([CLI, *args], "whole.json")
        for how, cmd in (("ranks", mpirun(2, "test", "--resume", state)),
                         ("alone", [CLI, "test", "--resume", state])):
            with self.subTest(resumed=how):
                again = self.report(cmd, f"again-{how}.json")
                self.assertFalse(again["partial"])
                self.assertEqual(counted(again), counted(whole))


def children(pid):
    """The processes whose parent is 'pid'."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    out.append(int(d))
            except OSError:
                pass
    return out


def handles_sigint(pid):
    """Whether process 'pid' has installed its SIGINT handler yet."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return int(line.split()[1], 16) & (1 << (signal.SIGINT
                                                             - 1))
    except OSError:
        pass
    return False


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--mpi", required=True)
    ap.add_argument("--samples", default="1e7")
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--sanitized", action="store_true")
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    MPI = args.mpi.upper() in ("ON", "1", "TRUE", "YES")
    SAMPLES = args.samples
    if args.sanitized:
        # Several times slower a deck: a shorter run, still under way when
        # mpirun, told to wait less, passes SIGINT on.
        LONG = "1e7"
        ENV["OMPI_MCA_odls_base_sigkill_timeout"] = "2"
    PLUGIN = os.path.abspath(args.plugin)
    SANITIZED = args.sanitized
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)
