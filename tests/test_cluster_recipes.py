#!/usr/bin/env python3
"""The cluster recipes of examples/cluster/ work, run here the way Slurm
or mpirun would run them, on this machine.

- Every script parses (bash -n), sets -eu, and runs the program as
  ${SHUFFLEBIAS:-shufflebias}; README.md names every script.
- slurm-array.sbatch, run with bash once per task of an array 1-3 (the
  variables Slurm sets for a task in its environment, and a stand-in
  'srun' on PATH that runs its command and logs it), makes parts 1/3,
  2/3 and 3/3; slurm-merge.sbatch adds them up into a report whose
  statistics and verdict are those of one 'shufflebias test' of the same
  seed, samples and n with --escalate 0 (a part never escalates).  A
  task run again goes on from its state file (--resume).  A biased
  shuffle's parts still end their tasks with 0, so that the merge
  (afterok) runs, and the merge says fail with exit code 1.  A missing
  part makes the merge exit 2; a task id outside 1-K is refused.
- A stopped step (the stand-in srun exits 130) ends both Slurm recipes
  with 130, and with REQUEUE=1 they requeue their job (a stand-in
  'scontrol' logs it), not without.
- With --mpi ON and mpirun: slurm-mpi.sbatch with a stand-in srun that
  starts its command with 'mpirun --oversubscribe -n $SLURM_NTASKS'
  writes a report of 2 ranks with the statistics of one process; run
  again with its state file there, it resumes and reports the same.
  mpirun-hosts.sh with a hostfile 'localhost slots=2' does the same,
  and gives mpirun the recipe's sigkill timeout.

Every comparison is of counts and what is computed from them, from pinned
seeds: nothing here is statistical, and nothing is timed.

    test_cluster_recipes.py --cli PATH/shufflebias --mpi ON|OFF
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

CLI = None
MPI = False
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLUSTER = os.path.join(ROOT, "examples", "cluster")
SCRIPTS = ["slurm-mpi.sbatch", "slurm-array.sbatch", "slurm-merge.sbatch",
           "mpirun-hosts.sh"]

# >= 3 chunks of 65536 decks, so that each of 3 parts or ranks has one.
SAMPLES = "3e5"
SEED = "7"

# Open MPI's mpirun refuses to start ranks as root unless told it may (a
# CI container runs as root); its leaks at exit are its own (the
# sanitized build's leak checker is told to leave them).
BASE_ENV = dict(os.environ,
                OMPI_ALLOW_RUN_AS_ROOT="1",
                OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                LSAN_OPTIONS="suppressions=" + os.path.join(
                    ROOT, "tests", "lsan-mpi.supp"))
for _k in ("ALG", "N", "SAMPLES", "SEED", "OUT", "OPTS", "PARTS",
           "REQUEUE", "HOSTS", "RANKS", "MPIRUN_OPTS", "SIGKILL_TIMEOUT"):
    BASE_ENV.pop(_k, None)
for _k in list(BASE_ENV):
    if _k.startswith("SLURM_") or _k.startswith("OMPI_MCA_"):
        del BASE_ENV[_k]

# A stand-in for srun: logs its arguments, takes the options the recipes
# give it (anything else is an error), and runs the command, under
# mpirun for --mpi=pmix; FAKE_SRUN_EXIT makes it exit at once instead,
# as a step stopped by SIGTERM would.
FAKE_SRUN = r"""#!/bin/sh
printf '%s\n' "$*" >> "$FAKE_LOG/srun"
mpi=0
while [ $# -gt 0 ]; do
    case $1 in
        --mpi=pmix) mpi=1; shift ;;
        --ntasks=*|--cpus-per-task=*) shift ;;
        -*) echo "fake srun: unexpected option $1" >&2; exit 99 ;;
        *) break ;;
    esac
done
if [ -n "${FAKE_SRUN_EXIT:-}" ]; then exit "$FAKE_SRUN_EXIT"; fi
if [ "$mpi" = 1 ]; then
    exec mpirun --oversubscribe -n "${SLURM_NTASKS:-2}" "$@"
fi
exec "$@"
"""

FAKE_SCONTROL = r"""#!/bin/sh
printf '%s\n' "$*" >> "$FAKE_LOG/scontrol"
"""

# A stand-in for mpirun that logs its arguments and runs the real one.
FAKE_MPIRUN = r"""#!/bin/sh
printf '%s\n' "$*" >> "$FAKE_LOG/mpirun"
exec {real} "$@"
"""

_plain = {}


def plain(alg, n, *extra):
    """The JSON report of one process running the same run."""
    key = (alg, n, extra)
    if key not in _plain:
        p = subprocess.run([CLI, "test", alg, "--n", n, "--samples",
                            SAMPLES, "--seed", SEED, *extra, "--quiet",
                            "--json", "-"], capture_output=True, text=True,
                           env=BASE_ENV)
        if p.returncode not in (0, 1):
            raise AssertionError(f"plain run: exit {p.returncode}\n"
                                 f"{p.stderr}")
        _plain[key] = json.loads(p.stdout)
    return _plain[key]


def read_json(path):
    with open(path) as f:
        return json.load(f)


class Recipes(unittest.TestCase):
    """A temporary directory with stand-ins on PATH and the job's output
    directory."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.bin = os.path.join(self.dir, "bin")
        self.log = os.path.join(self.dir, "log")
        self.out = os.path.join(self.dir, "out")
        os.mkdir(self.bin)
        os.mkdir(self.log)
        self.tool("srun", FAKE_SRUN)
        self.tool("scontrol", FAKE_SCONTROL)
        self.env = dict(BASE_ENV, SHUFFLEBIAS=CLI, FAKE_LOG=self.log,
                        PATH=self.bin + os.pathsep + BASE_ENV["PATH"],
                        OUT=self.out, SAMPLES=SAMPLES, SEED=SEED,
                        ALG="fisher-yates", N="52",
                        SLURM_JOB_ID="4242")

    def tearDown(self):
        self.tmp.cleanup()

    def tool(self, name, text):
        path = os.path.join(self.bin, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)

    def logged(self, name):
        """The commands a stand-in was given, one a line."""
        path = os.path.join(self.log, name)
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return f.read().splitlines()

    def recipe(self, script, codes=(0,), **env):
        """Runs a recipe with bash in the temporary directory, as a batch
        system would (in the submit directory)."""
        p = subprocess.run(["bash", os.path.join(CLUSTER, script)],
                           cwd=self.dir, capture_output=True, text=True,
                           env=dict(self.env, **env))
        self.assertIn(p.returncode, codes,
                      f"{script}: exit {p.returncode}\n{p.stdout[-3000:]}"
                      f"\n{p.stderr[-3000:]}")
        return p

    def task(self, i, k, codes=(0,), **env):
        return self.recipe("slurm-array.sbatch", codes,
                           SLURM_ARRAY_JOB_ID="4242",
                           SLURM_ARRAY_TASK_ID=str(i),
                           SLURM_ARRAY_TASK_COUNT=str(k),
                           SLURM_JOB_ID=str(5000 + i), **env)

    def same_run(self, rep, ref):
        self.assertEqual(rep["tests"], ref["tests"])
        self.assertEqual(rep["verdict"], ref["verdict"])
        self.assertEqual(rep["samples"], ref["samples"])
        self.assertFalse(rep["partial"])


class Scripts(unittest.TestCase):
    def test_bash_n(self):
        for name in SCRIPTS:
            with self.subTest(name):
                path = os.path.join(CLUSTER, name)
                p = subprocess.run(["bash", "-n", path],
                                   capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, p.stderr)
                with open(path) as f:
                    text = f.read()
                self.assertTrue(text.startswith("#!/bin/bash\n")
                                or text.startswith("#!/bin/sh\n"))
                self.assertIn("\nset -eu\n", text)
                self.assertIn("SHUFFLEBIAS=${SHUFFLEBIAS:-shufflebias}",
                              text)

    def test_readme_names_every_script(self):
        with open(os.path.join(CLUSTER, "README.md")) as f:
            text = f.read()
        for name in SCRIPTS:
            self.assertIn(name, text)
        self.assertEqual(sorted(os.listdir(CLUSTER)),
                         sorted(SCRIPTS + ["README.md"]))


class JobArray(Recipes):
    def test_parts_merge_to_the_run(self):
        for i in (1, 2, 3):
            self.task(i, 3)
            self.assertTrue(os.path.exists(
                os.path.join(self.out, f"part-{i}.state")))
        runs = self.logged("srun")
        self.assertEqual(len(runs), 3)
        for i, line in enumerate(runs, 1):
            self.assertIn(f"--part {i}/3", line)
            self.assertNotIn("--resume", line)
        p = self.recipe("slurm-merge.sbatch", PARTS="3")
        merged = read_json(os.path.join(self.out, "merged.json"))
        self.assertEqual(merged["merged"]["files"], 3)
        self.same_run(merged, plain("fisher-yates", "52", "--escalate",
                                    "0"))
        self.assertIn("PASS", p.stdout)

        # A task run again (requeued, resubmitted) goes on from its
        # state; the merge is the same.
        self.task(2, 3)
        self.assertIn("--resume", self.logged("srun")[-1])
        self.assertNotIn("--part", self.logged("srun")[-1])
        self.recipe("slurm-merge.sbatch")
        self.same_run(read_json(os.path.join(self.out, "merged.json")),
                      merged)

    def test_biased_parts_still_merge(self):
        # Each part fails (exit 1 from the program), but its task is done
        # (0), so that an afterok merge runs; the merge says fail.
        env = {"ALG": "sattolo", "N": "6"}
        for i in (1, 2, 3):
            self.task(i, 3, **env)
        self.recipe("slurm-merge.sbatch", codes=(1,), **env)
        merged = read_json(os.path.join(self.out, "merged.json"))
        self.assertEqual(merged["verdict"], "fail")
        self.same_run(merged, plain("sattolo", "6", "--escalate", "0",
                                    "--no-diagnosis"))

    def test_missing_part(self):
        self.task(1, 3)
        self.task(3, 3)
        p = self.recipe("slurm-merge.sbatch", codes=(2,))
        self.assertIn("missing", p.stderr)
        p = self.recipe("slurm-merge.sbatch", codes=(2,), PARTS="3")
        self.assertIn("2 parts of 3", p.stderr)

    def test_no_parts(self):
        p = self.recipe("slurm-merge.sbatch", codes=(2,))
        self.assertIn("no parts", p.stderr)

    def test_task_ids_count_from_1(self):
        self.task(0, 3, codes=(2,))
        self.task(4, 3, codes=(2,))
        self.assertEqual(self.logged("srun"), [])
        self.task(3, 3)
        self.assertIn("--part 3/3", self.logged("srun")[-1])

    def test_resubmitted_tasks_keep_their_parts(self):
        # 'PARTS=3 sbatch --array=2': one task, part 2 of 3.
        self.task(2, 1, PARTS="3")
        self.assertIn("--part 2/3", self.logged("srun")[-1])


class Stopped(Recipes):
    """A step stopped by SIGTERM (its exit code 130)."""

    def test_requeue(self):
        for script, job in (("slurm-mpi.sbatch", "4242"),
                            ("slurm-array.sbatch", "5002")):
            with self.subTest(script):
                env = dict(FAKE_SRUN_EXIT="130",
                           SLURM_ARRAY_TASK_ID="2",
                           SLURM_ARRAY_TASK_COUNT="3",
                           SLURM_JOB_ID=job)
                self.recipe(script, codes=(130,), **env)
                self.assertEqual(self.logged("scontrol"), [])
                self.recipe(script, codes=(130,), REQUEUE="1", **env)
                self.assertEqual(self.logged("scontrol"),
                                 [f"requeue {job}"])
                os.remove(os.path.join(self.log, "scontrol"))


class Mpi(Recipes):
    @classmethod
    def setUpClass(cls):
        if not MPI:
            raise unittest.SkipTest("built without MPI")
        if not shutil.which("mpirun"):
            raise unittest.SkipTest("no mpirun")

    def check(self, path, ranks=2):
        rep = read_json(path)
        self.assertEqual(rep.get("ranks"), ranks)
        self.same_run(rep, plain("fisher-yates", "52"))
        return rep

    def test_slurm_mpi(self):
        report = os.path.join(self.out, "report.json")
        self.recipe("slurm-mpi.sbatch", SLURM_NTASKS="2",
                    SLURM_CPUS_PER_TASK="1")
        self.check(report)
        self.assertTrue(os.path.exists(os.path.join(self.out,
                                                    "run.state")))
        first = self.logged("srun")
        self.assertEqual(len(first), 1)
        self.assertIn("--mpi=pmix", first[0])
        self.assertNotIn("--resume", first[0])

        # The job again (requeued): it resumes the saved run.
        os.remove(report)
        self.recipe("slurm-mpi.sbatch", SLURM_NTASKS="2")
        self.assertIn("--resume", self.logged("srun")[-1])
        self.check(report)

    def test_mpirun_hosts(self):
        self.tool("mpirun", FAKE_MPIRUN.format(real=shutil.which("mpirun")))
        hosts = os.path.join(self.dir, "hosts")
        with open(hosts, "w") as f:
            f.write("localhost slots=2\n")
        report = os.path.join(self.out, "report.json")
        self.recipe("mpirun-hosts.sh", HOSTS=hosts, RANKS="2")
        self.check(report)
        runs = self.logged("mpirun")
        self.assertEqual(len(runs), 1)
        self.assertIn("--mca odls_base_sigkill_timeout 20", runs[0])
        words = runs[0].split()
        self.assertEqual(words[words.index("-n") + 1], "2")
        self.assertNotIn("--resume", runs[0])

        # Again: it goes on with the saved run; one rank a slot.
        os.remove(report)
        self.recipe("mpirun-hosts.sh", HOSTS=hosts)
        self.assertIn("--resume", self.logged("mpirun")[-1])
        self.assertNotIn("-n", self.logged("mpirun")[-1].split())
        self.check(report)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--mpi", required=True)
    args, rest = ap.parse_known_args()
    CLI = os.path.abspath(args.cli)
    MPI = args.mpi.upper() in ("ON", "1", "TRUE", "YES")
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)
