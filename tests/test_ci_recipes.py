#!/usr/bin/env python3
"""The CI recipes of examples/ci/ work, as far as they can without a CI
service: each is run here the way its service would run it.

- Every YAML file there parses; the workflow uses the action, with
  inputs the action declares; the action's expressions name its own
  inputs and steps; both recipes install every package the build needs
  (scripts/lib.sh) and build with an option CMakeLists.txt has; the
  GitLab job's JUnit report and artifacts are the files its script
  writes.
- The action's gate step (its bash script, with its env: expressions
  evaluated on the inputs' defaults), the GitLab job's script and
  'make -f examples/ci/Makefile gate' run the built program on
  examples/ci/shuffles.yaml, in a workspace laid out as README.md says
  (examples/ci/ copied to ci/): exit 0, and JUnit that validates against
  tests/data/junit.xsd.  The same manifest with the broken twin marked
  'expect: pass' (or with the shuffle itself made biased) makes each
  fail, with the gate's exit code 1 and a JUnit failure naming the case.
- The ctest recipe (examples/ci/ctest/) builds against the build
  installed into a temporary prefix, as tests/test_install.py does, and
  its tests pass; with the broken twin marked 'expect: pass', 'gate'
  fails.
- With --build-recipes (slow: a whole build), the action's package and
  build steps too, on this source tree, and its gate step on the program
  they installed.

False alarms: every verdict here comes from a pinned seed (the case's
name, or SEED 1), so it is the same on every run of the same code; a
fair shuffle's fails at random at most once in a million seeds should the
code change its stream.  Nothing is timed.

    test_ci_recipes.py --cli PATH/shufflebias [--build DIR] [--cmake CMAKE]
        [--ctest CTEST] [--build-recipes]

--build: the build directory to install for the ctest recipe (default:
the CLI's directory, when it is one).  Needs Python's yaml module
(Debian: python3-yaml) and xmllint (libxml2-utils).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

try:
    import yaml
except ImportError:
    sys.exit("test_ci_recipes.py: Python's yaml module is missing "
             "(Debian: apt-get install python3-yaml)")

ARGS = None
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CI = os.path.join(ROOT, "examples", "ci")
XSD = os.path.join(ROOT, "tests", "data", "junit.xsd")
TWIN = "our shuffle's broken twin"

# What scripts/lib.sh installs for the project's own tests only; the rest
# of its list is what building shufflebias needs.
TEST_ONLY_PACKAGES = {"libcmocka-dev", "groff-base", "g++", "chromium",
                      "fonts-dejavu-core"}


def load(name):
    with open(os.path.join(CI, name)) as f:
        return yaml.safe_load(f)


def read(path):
    with open(path) as f:
        return f.read()


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def twin_marked_pass(text):
    """The manifest with the broken twin expected to pass: what a gate
    sees when the control no longer tells a bias.  Its diagnosis is
    turned off: it simulates the catalogue's flaws at 52 cards (15 s and
    more), and tests/test_gate.py checks it."""
    lines = text.splitlines(keepends=True)
    start = lines.index("  - name: %s\n" % TWIN)
    at = next(i for i in range(start, len(lines))
              if lines[i] == "    expect: fail\n")
    lines[at] = "    expect: pass\n    diagnosis: false\n"
    return "".join(lines)


def shuffle_made_biased(text):
    """The manifest with 'our shuffle' replaced by the naive swap: the
    regression the gate is there to catch (diagnosis off, as above)."""
    old = ('    exec: "python3 ../python/fisher_yates.py"\n'
           '    expect: pass\n')
    assert old in text
    return text.replace(old, '    exec: "python3 ../python/naive_swap.py"\n'
                        '    expect: pass\n    diagnosis: false\n')


def workspace(d, manifest=None):
    """A user's repository: examples/ci/ copied to ci/, the Python
    shuffles its manifest runs next to it in python/ (its paths are
    ../python/...); 'manifest' replaces ci/shuffles.yaml's text."""
    ws = os.path.join(d, "ws")
    shutil.copytree(CI, os.path.join(ws, "ci"))
    shutil.copytree(os.path.join(ROOT, "examples", "python"),
                    os.path.join(ws, "python"))
    if manifest is not None:
        write(os.path.join(ws, "ci", "shuffles.yaml"), manifest)
    return ws


def path_with_cli(d):
    """A PATH on which 'shufflebias' is the program under test."""
    bindir = os.path.join(d, "bin")
    os.makedirs(bindir, exist_ok=True)
    os.symlink(os.path.abspath(ARGS.cli), os.path.join(bindir, "shufflebias"))
    return bindir + os.pathsep + os.environ["PATH"]


def evaluate(expr, inputs, outputs):
    """A GitHub expression of the few forms the action uses: 'a || b'
    of inputs.NAME, steps.ID.outputs.NAME and 'literal'."""
    value = ""
    for alt in (a.strip() for a in expr.split("||")):
        m = re.fullmatch(r"inputs\.([\w-]+)", alt)
        s = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", alt)
        if m:
            if m.group(1) not in inputs:
                raise AssertionError("no input '%s'" % m.group(1))
            value = inputs[m.group(1)]
        elif s:
            value = outputs.get(s.group(1), {}).get(s.group(2), "")
        elif re.fullmatch(r"'[^']*'", alt):
            value = alt[1:-1]
        else:
            raise AssertionError("an expression this test cannot "
                                 "evaluate: %s" % expr)
        if value:
            return value
    return value


def substitute(text, inputs, outputs):
    return re.sub(r"\$\{\{\s*(.*?)\s*\}\}",
                  lambda m: evaluate(m.group(1), inputs, outputs), str(text))


def read_outputs(path):
    out = {}
    for line in read(path).splitlines():
        k, _, v = line.partition("=")
        out[k] = v
    return out


def run_action_step(step, d, ws, inputs, outputs, path=None):
    """Run a 'shell: bash' step of the action as the runner does (bash
    -eo pipefail), in 'ws'; its exit code, output and GITHUB_OUTPUT."""
    env = dict(os.environ)
    for k, v in step.get("env", {}).items():
        env[k] = substitute(v, inputs, outputs)
    gh_output = os.path.join(d, "github-output-%s" % step.get("id", "x"))
    summary = os.path.join(d, "step-summary.md")
    write(gh_output, "")
    write(summary, "")
    runner_temp = os.path.join(d, "runner-temp")
    os.makedirs(runner_temp, exist_ok=True)
    env.update(GITHUB_OUTPUT=gh_output, GITHUB_STEP_SUMMARY=summary,
               GITHUB_PATH=os.path.join(d, "github-path"),
               GITHUB_ACTION_PATH=CI, GITHUB_WORKSPACE=ws,
               RUNNER_TEMP=runner_temp)
    if path:
        env["PATH"] = path
    script = os.path.join(d, "step.sh")
    write(script, step["run"])
    p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail",
                        script], cwd=ws, env=env, capture_output=True,
                       text=True, timeout=900)
    return p, read_outputs(gh_output), read(summary)


def input_defaults(action):
    return {k: str(v.get("default", "")) for k, v in action["inputs"].items()}


def step_named(action, step_id):
    steps = [s for s in action["runs"]["steps"] if s.get("id") == step_id]
    assert len(steps) == 1, step_id
    return steps[0]


def option_value(command, option):
    m = re.search(r"%s\s+(\S+)" % re.escape(option), command)
    assert m, "%s not in %s" % (option, command)
    return m.group(1)


class JUnit:
    def check_junit(self, path, failed):
        """'path' validates; one testsuite, 'shuffles', with a failure in
        exactly the cases named in 'failed', each saying what was
        expected and what came."""
        self.assertTrue(os.path.exists(path), path)
        p = subprocess.run(["xmllint", "--noout", "--schema", XSD, path],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        suites = ET.parse(path).getroot().findall("testsuite")
        self.assertEqual(len(suites), 1)
        self.assertEqual(suites[0].get("name"), "shuffles")
        cases = suites[0].findall("testcase")
        self.assertEqual(len(cases), 4)
        self.assertEqual(int(suites[0].get("failures")), len(failed))
        self.assertEqual(int(suites[0].get("errors")), 0)
        for tc in cases:
            f = tc.find("failure")
            if tc.get("name") in failed:
                self.assertIsNotNone(f, tc.get("name"))
                self.assertIn("expected pass, got fail", f.get("message"))
            else:
                self.assertIsNone(f, tc.get("name"))


class Files(unittest.TestCase):
    """What can be checked without running anything."""

    def test_every_yaml_file_parses(self):
        names = []
        for top, _, files in os.walk(CI):
            names += [os.path.join(top, f) for f in files
                      if f.endswith((".yml", ".yaml"))]
        self.assertGreaterEqual(len(names), 5)
        for name in names:
            with self.subTest(name=name):
                self.assertIsInstance(yaml.safe_load(read(name)), dict)

    def test_the_manifest_runs_files_that_exist(self):
        m = load("shuffles.yaml")
        names = [c["name"] for c in m["cases"]]
        self.assertEqual(len(names), len(set(names)))
        self.assertIn(TWIN, names)
        for c in m["cases"]:
            if "exec" in c:
                prog = c["exec"].split()[1]
                self.assertTrue(os.path.exists(os.path.join(CI, prog)), prog)

    def test_the_workflow_uses_the_action_with_its_inputs(self):
        action = load("action.yml")
        flow = load("github-workflow.yml")
        # PyYAML reads the key 'on' as a YAML 1.1 boolean.
        self.assertTrue("on" in flow or True in flow)
        steps = [s for job in flow["jobs"].values() for s in job["steps"]]
        uses = [s for s in steps if s.get("uses") == "./ci"]
        self.assertEqual(len(uses), 1)
        # The workspace is checked out before a local action can run.
        self.assertLess(
            [i for i, s in enumerate(steps)
             if str(s.get("uses", "")).startswith("actions/checkout@")][0],
            steps.index(uses[0]))
        given = uses[0].get("with", {})
        self.assertLessEqual(set(given), set(action["inputs"]))
        for name, spec in action["inputs"].items():
            if spec.get("required") and "default" not in spec:
                self.assertIn(name, given)
        self.assertEqual(given["manifest"], "ci/shuffles.yaml")

    def test_the_action_names_its_own_inputs_and_steps(self):
        action = load("action.yml")
        text = read(os.path.join(CI, "action.yml"))
        self.assertEqual(action["runs"]["using"], "composite")
        for name in re.findall(r"inputs\.([\w-]+)", text):
            self.assertIn(name, action["inputs"])
        ids = {s.get("id") for s in action["runs"]["steps"]}
        for name in re.findall(r"steps\.([\w-]+)\.", text):
            self.assertIn(name, ids)
        for s in action["runs"]["steps"]:
            self.assertTrue("run" in s or "uses" in s)
            if "run" in s:
                self.assertEqual(s.get("shell"), "bash")
        gate = step_named(action, "gate")["run"]
        self.assertIn('--markdown "$GITHUB_STEP_SUMMARY"', gate)
        self.assertIn('--junit "$JUNIT"', gate)
        upload = [s for s in action["runs"]["steps"]
                  if str(s.get("uses", "")).startswith(
                      "actions/upload-artifact@")]
        self.assertEqual(len(upload), 1)
        self.assertIn("always()", upload[0]["if"])
        for name in ("junit", "json", "html"):
            self.assertIn("${{ inputs.%s }}" % name, upload[0]["with"]["path"])

    def test_the_recipes_install_and_build_what_the_build_needs(self):
        lib = read(os.path.join(ROOT, "scripts", "lib.sh"))
        listed = re.search(r"SB_PACKAGES=\(([^)]*)\)", lib).group(1).split()
        needed = set(listed) - TEST_ONLY_PACKAGES
        self.assertIn("libyaml-dev", needed)
        cmake = read(os.path.join(ROOT, "CMakeLists.txt"))
        self.assertRegex(cmake, r"option\(SB_TESTS ")
        action = read(os.path.join(CI, "action.yml"))
        gitlab = load("gitlab-ci.yml")["shufflebias-gate"]
        before = "\n".join(gitlab["before_script"])
        for name, text in (("action.yml", action), ("gitlab-ci.yml", before)):
            with self.subTest(recipe=name):
                words = set(re.findall(r"[\w.+-]+", text))
                self.assertLessEqual(needed, words)
                self.assertIn("-DSB_TESTS=OFF", text)

    def test_the_gitlab_job_keeps_what_its_script_writes(self):
        job = load("gitlab-ci.yml")["shufflebias-gate"]
        self.assertTrue(job["image"].startswith("debian:"))
        script = "\n".join(job["script"])
        art = job["artifacts"]
        self.assertEqual(art["when"], "always")
        junit = option_value(script, "--junit")
        self.assertEqual(art["reports"]["junit"], junit)
        for option in ("--junit", "--json", "--html"):
            self.assertIn(option_value(script, option), art["paths"])


class Runs(unittest.TestCase, JUnit):
    """Each recipe's gate run here on the built program."""

    def setUp(self):
        self.d = tempfile.mkdtemp(prefix="sb-ci-")
        self.manifest = read(os.path.join(CI, "shuffles.yaml"))

    def tearDown(self):
        shutil.rmtree(self.d)

    def action_gate(self, manifest):
        action = load("action.yml")
        ws = workspace(self.d, manifest)
        p, out, summary = run_action_step(step_named(action, "gate"), self.d,
                                          ws, input_defaults(action), {},
                                          path=path_with_cli(self.d))
        return ws, p, out, summary

    def test_action_gate_step(self):
        ws, p, out, summary = self.action_gate(None)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(out["exit-code"], "0")
        self.assertIn("4 cases: 4 held, 0 not held", p.stdout)
        self.assertIn("**PASSED**", summary)
        self.assertIn("| %s | fail | held |" % TWIN, summary)
        self.check_junit(os.path.join(ws, "shufflebias-junit.xml"), [])
        for name in ("shufflebias-gate.json", "shufflebias-gate.html"):
            self.assertTrue(os.path.exists(os.path.join(ws, name)), name)

    def test_action_gate_step_fails_when_the_shuffle_is_biased(self):
        ws, p, out, summary = self.action_gate(
            shuffle_made_biased(self.manifest))
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertEqual(out["exit-code"], "1")
        self.assertIn("**FAILED**", summary)
        self.assertIn("| our shuffle | pass | **not held** |", summary)
        self.check_junit(os.path.join(ws, "shufflebias-junit.xml"),
                         ["our shuffle"])

    def gitlab_script(self, manifest):
        job = load("gitlab-ci.yml")["shufflebias-gate"]
        ws = workspace(self.d, manifest)
        env = dict(os.environ, CI_PROJECT_DIR=ws, PATH=path_with_cli(self.d))
        env.update({k: str(v) for k, v in job["variables"].items()})
        p = subprocess.run(["bash", "--noprofile", "--norc", "-eo",
                            "pipefail", "-c", "\n".join(job["script"])],
                           cwd=ws, env=env, capture_output=True, text=True,
                           timeout=900)
        return ws, job, p

    def test_gitlab_script(self):
        ws, job, p = self.gitlab_script(None)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.check_junit(os.path.join(ws, job["artifacts"]["reports"]
                                      ["junit"]), [])
        for name in job["artifacts"]["paths"]:
            self.assertTrue(os.path.exists(os.path.join(ws, name)), name)

    def test_gitlab_script_fails_when_the_control_is_not_seen(self):
        ws, job, p = self.gitlab_script(twin_marked_pass(self.manifest))
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.check_junit(os.path.join(ws, job["artifacts"]["reports"]
                                      ["junit"]), [TWIN])

    def make_gate(self, *extra):
        return subprocess.run(["make", "--no-print-directory", "-f",
                               os.path.join(CI, "Makefile"), "gate",
                               "SHUFFLEBIAS=" + os.path.abspath(ARGS.cli),
                               *extra], cwd=self.d, capture_output=True,
                              text=True, timeout=900)

    def test_make_gate(self):
        p = self.make_gate()
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.check_junit(os.path.join(self.d, "shufflebias-junit.xml"), [])

    def test_make_gate_fails_when_the_control_is_not_seen(self):
        ws = workspace(self.d, twin_marked_pass(self.manifest))
        p = self.make_gate("MANIFEST=" + os.path.join(ws, "ci",
                                                      "shuffles.yaml"))
        self.assertNotEqual(p.returncode, 0, p.stdout + p.stderr)
        # make's own status is 2 for any failed recipe; the gate's is
        # in its message.
        self.assertRegex(p.stderr, r"\[.*Makefile:\d+: gate\] Error 1\n")
        self.assertIn("%s: expected pass, got fail" % TWIN, p.stdout)
        self.check_junit(os.path.join(self.d, "shufflebias-junit.xml"),
                         [TWIN])

    def test_make_baseline_then_gate_against_it(self):
        p = subprocess.run(["make", "-f", os.path.join(CI, "Makefile"),
                            "baseline", "SHUFFLEBIAS=" +
                            os.path.abspath(ARGS.cli)], cwd=self.d,
                           capture_output=True, text=True, timeout=900)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        p = self.make_gate("BASELINE=shufflebias-baseline.json")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("--baseline 'shufflebias-baseline.json'", p.stdout)
        self.assertIn("unchanged", read(os.path.join(
            self.d, "shufflebias-gate.json")))


def installable():
    return ARGS.build and os.path.exists(os.path.join(ARGS.build,
                                                      "cmake_install.cmake"))


class CTestRecipe(unittest.TestCase):
    """examples/ci/ctest/ against the build installed in a temporary
    prefix, in a copy of examples/ as a user's repository would hold it."""

    @classmethod
    def setUpClass(cls):
        if not installable():
            raise unittest.SkipTest("no build directory to install "
                                    "(give --build)")
        cls.d = tempfile.mkdtemp(prefix="sb-ci-ctest-")
        cls.prefix = os.path.join(cls.d, "prefix")
        p = subprocess.run([ARGS.cmake, "--install", ARGS.build, "--prefix",
                            cls.prefix], capture_output=True, text=True)
        assert p.returncode == 0, p.stdout + p.stderr
        cls.repo = os.path.join(cls.d, "repo")
        for sub in ("ci", "python", "plugin"):
            shutil.copytree(os.path.join(ROOT, "examples", sub),
                            os.path.join(cls.repo, "examples", sub))
        cls.build = os.path.join(cls.d, "build")
        for cmd in ([ARGS.cmake, "-S", os.path.join(cls.repo, "examples",
                                                     "ci", "ctest"),
                     "-B", cls.build, "-DCMAKE_PREFIX_PATH=" + cls.prefix],
                    [ARGS.cmake, "--build", cls.build]):
            p = subprocess.run(cmd, capture_output=True, text=True)
            assert p.returncode == 0, p.stdout + p.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.d, ignore_errors=True)

    def ctest(self, *args):
        return subprocess.run([ARGS.ctest, "--test-dir", self.build,
                               "--output-on-failure", *args],
                              capture_output=True, text=True, timeout=900)

    def test_ctest_recipe(self):
        p = self.ctest()
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("100% tests passed, 0 tests failed out of 4", p.stdout)
        for name in ("gate", "plugin_fisher_yates", "plugin_off_by_one",
                     "plugin_fisher_yates_exact"):
            self.assertRegex(p.stdout, r"Test +#\d+: %s \.+ +Passed" % name)
        junit = os.path.join(self.build, "shufflebias-junit.xml")
        JUnit.check_junit(self, junit, [])
        # The tests ran the program installed.
        ctestfile = read(os.path.join(self.build, "CTestTestfile.cmake"))
        self.assertIn(os.path.join(self.prefix, "bin", "shufflebias"),
                      ctestfile)

    def test_ctest_gate_fails_when_the_control_is_not_seen(self):
        manifest = os.path.join(self.repo, "examples", "ci", "shuffles.yaml")
        good = read(manifest)
        write(manifest, twin_marked_pass(good))
        try:
            p = self.ctest("-R", "^gate$")
        finally:
            write(manifest, good)
        self.assertNotEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("0% tests passed, 1 tests failed out of 1", p.stdout)
        self.assertIn("%s: expected pass, got fail" % TWIN, p.stdout)
        self.assertRegex(p.stdout, r"\d+ - gate \(Failed\)")
        JUnit.check_junit(self, os.path.join(self.build,
                                             "shufflebias-junit.xml"), [TWIN])


class BuildRecipes(unittest.TestCase, JUnit):
    """The action's package and build steps on this source tree, then its
    gate step on the program they installed (--build-recipes: a whole
    build, minutes)."""

    def setUp(self):
        if not ARGS.build_recipes:
            self.skipTest("slow: give --build-recipes")
        self.d = tempfile.mkdtemp(prefix="sb-ci-build-")

    def tearDown(self):
        shutil.rmtree(self.d)

    def test_action_builds_installs_and_gates(self):
        action = load("action.yml")
        inputs = input_defaults(action)
        inputs["packages"] = "python3"
        ws = workspace(self.d)
        outputs = {}
        for step_id, name in (("packages", "Install the Debian packages"),
                              ("build", None), ("gate", None)):
            step = (step_named(action, step_id) if name is None else
                    [s for s in action["runs"]["steps"]
                     if s.get("name") == name][0])
            p, out, _ = run_action_step(step, self.d, ws, inputs, outputs)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            outputs[step_id] = out
        program = outputs["build"]["program"]
        self.assertTrue(program.startswith(os.path.join(self.d,
                                                        "runner-temp")))
        self.assertEqual(outputs["gate"]["exit-code"], "0")
        self.check_junit(os.path.join(ws, "shufflebias-junit.xml"), [])


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("--cli", required=True)
    p.add_argument("--build")
    p.add_argument("--cmake", default="cmake")
    p.add_argument("--ctest", default="ctest")
    p.add_argument("--build-recipes", action="store_true")
    ARGS, rest = p.parse_known_args()
    if ARGS.build is None:
        ARGS.build = os.path.dirname(os.path.abspath(ARGS.cli))
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
