#!/usr/bin/env python3
"""What 'cmake --install' puts in place works for a C programmer.

The build is installed into a temporary prefix, and then:

1. the files are there: the program, libshufflebias.so (with its SONAME
   and version links) and .a, the headers, shufflebias.pc and the CMake
   package with its version file;
2. the shared library exports its public API and the draws plug-ins call,
   and nothing of its inside (sb_run, sb_enumerate, ...);
3. examples/unit-test builds against the prefix through pkg-config (its
   Makefile, with the shared library and with the static one) and through
   find_package (its CMakeLists.txt), and its tests
   run and pass: the fair shuffle passes, the broken one is seen to fail,
   and shufflebias_add_test's tests pass on the verdicts expected;
4. shufflebias_add_test's tests fail when the verdict is not the one
   expected, and on exit codes 2 and 3 whatever was expected.

    test_install.py --build DIR --source DIR --version X.Y.Z --cmake CMAKE
        --ctest CTEST --cc CC [--cflags FLAGS]

--cflags: what a program built against a library of this build needs as
well (the sanitizers' flags, with SB_SANITIZE).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ARGS = None
TMP = None          # the temporary directory of the whole run
PREFIX = None       # the prefix installed into


def run(cmd, cwd=None, env=None):
    """Run 'cmd'; its exit code and its output and errors together."""
    r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def must(cmd, cwd=None, env=None):
    code, out = run(cmd, cwd=cwd, env=env)
    if code != 0:
        raise AssertionError("%s exited %d:\n%s" % (" ".join(cmd), code, out))
    return out


# A C++ program: a fair built-in shuffle and a biased one, by name.
CXX_PROGRAM = r"""
#include <cstdio>
#include <shufflebias/shufflebias.h>

static const char *verdict_of(const char *name)
{
    sb_session *s = nullptr;
    if (sb_session_new(&s) != SB_OK)
        return "no session";
    sb_session_set_shuffle(s, name);
    sb_session_set_n(s, 8);
    sb_session_set_samples(s, 20000);
    sb_session_set_seed(s, 1);
    const char *v = sb_session_test(s) == SB_OK
        ? sb_session_verdict_str(s) : sb_session_error(s);
    static char out[2][64];
    static int k;
    std::snprintf(out[k], sizeof out[k], "%s", v);
    sb_session_free(s);
    return out[k++];
}

int main()
{
    const char *fair = verdict_of("fisher-yates");
    const char *biased = verdict_of("naive-swap");
    std::printf("%s fisher-yates %s naive-swap %s\n", sb_version(), fair,
                biased);
    return 0;
}
"""


def setUpModule():
    global TMP, PREFIX
    TMP = tempfile.mkdtemp(prefix="sb-install-")
    PREFIX = os.path.join(TMP, "prefix")
    must([ARGS.cmake, "--install", ARGS.build, "--prefix", PREFIX])


def tearDownModule():
    shutil.rmtree(TMP, ignore_errors=True)


def example_copy(name):
    """A fresh copy of examples/unit-test, as a user would have it."""
    dst = os.path.join(TMP, name)
    shutil.copytree(os.path.join(ARGS.source, "examples", "unit-test"), dst)
    return dst


class Installed(unittest.TestCase):
    def test_files(self):
        major = ARGS.version.split(".")[0]
        for rel in ["bin/shufflebias", "lib/libshufflebias.a",
                    "lib/libshufflebias.so",
                    "lib/libshufflebias.so." + major,
                    "lib/libshufflebias.so." + ARGS.version,
                    "include/shufflebias/shufflebias.h",
                    "include/shufflebias/session.h",
                    "include/shufflebias/plugin.h",
                    "lib/pkgconfig/shufflebias.pc",
                    "lib/cmake/shufflebias/shufflebias-config.cmake",
                    "lib/cmake/shufflebias/shufflebias-config-version.cmake",
                    "lib/cmake/shufflebias/shufflebias-add-test.cmake"]:
            self.assertTrue(os.path.exists(os.path.join(PREFIX, rel)), rel)
        so = os.path.join(PREFIX, "lib", "libshufflebias.so")
        self.assertEqual(os.readlink(so), "libshufflebias.so." + major)
        dyn = must(["readelf", "-d", so])
        self.assertIn("Library soname: [libshufflebias.so.%s]" % major, dyn)

    def test_exports_the_api_only(self):
        out = must(["nm", "-D", "--defined-only",
                    os.path.join(PREFIX, "lib", "libshufflebias.so")])
        names = {line.split()[-1] for line in out.splitlines()
                 if len(line.split()) == 3}
        for public in ["sb_session_new", "sb_session_test",
                       "sb_session_exact", "sb_session_write_json",
                       "sb_session_diagnose",
                       "sb_version", "sb_status_str", "sb_draw_below",
                       "sb_draw_rand_mod", "sb_src_error"]:
            self.assertIn(public, names)
        for inside in ["sb_run", "sb_enumerate", "sb_render_json",
                       "sb_shuffle_find", "sb_run_session", "sb_state_write",
                       "sb_stat_defaults"]:
            self.assertNotIn(inside, names)
        allowed = re.compile(r"^(sb_session_\w+|sb_draw_\w+|sb_src_error|"
                             r"sb_src_gsl_rng|sb_version|sb_status_str)$")
        self.assertEqual(sorted(n for n in names if not allowed.match(n)),
                         [])
        # The pkg-config file names the version of the library installed.
        env = dict(os.environ,
                   PKG_CONFIG_PATH=os.path.join(PREFIX, "lib", "pkgconfig"))
        self.assertEqual(must(["pkg-config", "--modversion", "shufflebias"],
                              env=env).strip(), ARGS.version)

    def test_pkg_config_build(self):
        src = example_copy("with-pkg-config")
        env = dict(os.environ, CC=ARGS.cc,
                   PKG_CONFIG_PATH=os.path.join(PREFIX, "lib", "pkgconfig"))
        make = ["make", "check"]
        if ARGS.cflags:
            make.append("CFLAGS=-O1 -Wall -Wextra " + ARGS.cflags)
        out = must(make, cwd=src, env=env)
        self.assertIn("[  PASSED  ] 5 test(s).", out)
        self.assertIn("my-fair-shuffle: pass", out)
        self.assertIn("my-swap-any: fail", out)
        self.assertIn("my-swap-any, every path at 4 cards: biased", out)
        self.assertIn("libshufflebias %s (built against %s)"
                      % (ARGS.version, ARGS.version), out)
        dyn = must(["readelf", "-d", os.path.join(src, "test_my_shuffles")])
        self.assertIn("Shared library: [libshufflebias.so.%s]"
                      % ARGS.version.split(".")[0], dyn)

    def test_pkg_config_static_build(self):
        src = example_copy("with-pkg-config-static")
        env = dict(os.environ, CC=ARGS.cc,
                   PKG_CONFIG_PATH=os.path.join(PREFIX, "lib", "pkgconfig"))
        make = ["make", "check-static"]
        if ARGS.cflags:
            make.append("CFLAGS=-O1 -Wall -Wextra " + ARGS.cflags)
        out = must(make, cwd=src, env=env)
        self.assertIn("[  PASSED  ] 5 test(s).", out)
        self.assertIn("my-swap-any: fail", out)
        dyn = must(["readelf", "-d", os.path.join(src,
                                                  "test_my_shuffles_static")])
        self.assertNotIn("libshufflebias", dyn)

    def test_cxx_program(self):
        """A C++ program includes the headers and links the library: the
        public headers declare the API extern "C"."""
        src = os.path.join(TMP, "cxx")
        os.makedirs(src, exist_ok=True)
        with open(os.path.join(src, "main.cc"), "w") as f:
            f.write(CXX_PROGRAM)
        env = dict(os.environ,
                   PKG_CONFIG_PATH=os.path.join(PREFIX, "lib", "pkgconfig"))
        flags = must(["pkg-config", "--cflags", "--libs", "shufflebias"],
                     env=env).split()
        exe = os.path.join(src, "main")
        must([ARGS.cxx, "-std=c++11", "-Wall", "-Wextra", "-o", exe,
              os.path.join(src, "main.cc")] + ARGS.cflags.split() + flags +
             ["-Wl,-rpath," + os.path.join(PREFIX, "lib")])
        out = must([exe])
        self.assertEqual(out, "%s fisher-yates pass naive-swap fail\n"
                         % ARGS.version)

    def test_find_package_build(self):
        src = example_copy("with-cmake")
        build = os.path.join(src, "build")
        must([ARGS.cmake, "-S", src, "-B", build, "-DCMAKE_C_COMPILER=" +
              ARGS.cc, "-DCMAKE_PREFIX_PATH=" + PREFIX,
              "-DCMAKE_C_FLAGS=" + ARGS.cflags])
        must([ARGS.cmake, "--build", build])
        out = must([ARGS.ctest, "--test-dir", build, "-V"])
        self.assertIn("100% tests passed, 0 tests failed out of 4", out)
        for name in ["my_shuffles", "builtin_fisher_yates",
                     "builtin_naive_swap", "plugin_swap_any"]:
            self.assertRegex(out, r"Test +#\d+: %s \.+ +Passed" % name)
        self.assertIn("my-swap-any: fail", out)
        self.assertIn("[  PASSED  ] 5 test(s).", out)
        # The tests ran the program installed.
        self.assertIn(os.path.join(PREFIX, "bin", "shufflebias"), out)

    def test_add_test_fails_on_the_wrong_verdict(self):
        src = os.path.join(TMP, "wrong")
        os.makedirs(src)
        with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
            f.write("""cmake_minimum_required(VERSION 3.18)
project(wrong LANGUAGES NONE)
find_package(shufflebias REQUIRED)
enable_testing()
shufflebias_add_test(NAME fair_said_fail SHUFFLE fisher-yates N 52
                     SAMPLES 100000 SEED 1 EXPECT fail)
shufflebias_add_test(NAME biased_said_pass SHUFFLE naive-swap N 52
                     SAMPLES 100000 SEED 1 EXPECT pass)
shufflebias_add_test(NAME usage_error SHUFFLE no-such-shuffle EXPECT fail)
shufflebias_add_test(NAME inconclusive SHUFFLE fisher-yates N 52 SAMPLES 10
                     SEED 1 TESTS position EXPECT pass)
shufflebias_add_test(NAME right SHUFFLE naive-swap N 52 SAMPLES 100000
                     SEED 1 TESTS position cycles EXPECT fail)
""")
        build = os.path.join(src, "build")
        must([ARGS.cmake, "-S", src, "-B", build,
              "-DCMAKE_PREFIX_PATH=" + PREFIX])
        code, out = run([ARGS.ctest, "--test-dir", build])
        self.assertNotEqual(code, 0, out)
        self.assertIn("20% tests passed, 4 tests failed out of 5", out)
        for name in ["fair_said_fail", "biased_said_pass", "usage_error",
                     "inconclusive"]:
            self.assertRegex(out, r"\d+ - %s \(Failed\)" % name)
        self.assertRegex(out, r"Test +#\d+: right \.+ +Passed")
        # Why, in the words of the test's output.
        code, out = run([ARGS.ctest, "--test-dir", build, "-R",
                         "inconclusive", "--output-on-failure"])
        self.assertIn("shufflebias exited 3: inconclusive; expected pass "
                      "(no bias found)", out)


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--source", required=True)
    p.add_argument("--version", required=True)
    p.add_argument("--cmake", required=True)
    p.add_argument("--ctest", required=True)
    p.add_argument("--cc", required=True)
    p.add_argument("--cflags", default="")
    p.add_argument("--cxx", default="g++")
    ARGS, rest = p.parse_known_args()
    # An option CMake left out is an empty word.
    unittest.main(argv=[sys.argv[0]] + [a for a in rest if a],
                  verbosity=2)


if __name__ == "__main__":
    main()
