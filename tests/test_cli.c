/*
 * test_cli.c - the shufflebias command end to end, as a user runs it.
 *
 * Each case runs the built executable through /bin/sh with its output in
 * temporary files, then checks the exit code, the one-line errors and the
 * JSON keys of DESIGN.md.  Statistical verdicts use fixed seeds; the
 * false-alarm rate of each is stated where it is asserted.
 */
#define _POSIX_C_SOURCE 200809L
#include "tests/sb_test.h"
#include "tests/sb_tmpdir.h"
#include "engine/escalate.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct outcome {
    int code;
    char *out, *err;
} outcome;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)len + 1);
    assert_int_equal(fread(s, 1, (size_t)len, f), (size_t)len);
    s[len] = '\0';
    fclose(f);
    return s;
}

/* Run "shufflebias ARGS" and collect what it said. */
static outcome run(const char *dir, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s >%s/out 2>%s/err </dev/null",
             SB_CLI_PATH, args, dir, dir);
    int status = system(cmd);
    assert_true(WIFEXITED(status));
    char path[256];
    outcome o = { WEXITSTATUS(status), NULL, NULL };
    snprintf(path, sizeof path, "%s/out", dir);
    o.out = slurp(path);
    snprintf(path, sizeof path, "%s/err", dir);
    o.err = slurp(path);
    return o;
}

static void release(outcome *o)
{
    free(o->out);
    free(o->err);
}

/* An error is one line on stderr that mentions 'what', and exit code 2. */
static void assert_usage_error(const char *dir, const char *args,
                               const char *what)
{
    outcome o = run(dir, args);
    if (o.code != 2 || !strstr(o.err, what))
        print_error("'%s' gave exit %d and stderr: %s", args, o.code, o.err);
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, what));
    assert_non_null(strchr(o.err, '\n'));
    assert_string_equal(strchr(o.err, '\n'), "\n");   /* exactly one line */
    assert_string_equal(o.out, "");
    release(&o);
}

static json_t *parse_json(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    if (!j)
        print_error("bad JSON at line %d: %s\n", e.line, e.text);
    assert_non_null(j);
    return j;
}

static void list_shows_everything(void **state)
{
    const char *dir = *state;
    outcome o = run(dir, "list");
    assert_int_equal(o.code, 0);
    const char *want[] = { "fisher-yates", "naive-swap", "sattolo",
                           "sort-random-keys", "fisher-yates-mod",
                           "key-bits=53", "position", "permutation",
                           "fixed-points", "cycles", "xoshiro256", "rand15",
                           "mt19937", "biased", "uniform" };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_non_null(strstr(o.out, want[i]));
    release(&o);
    o = run(dir, "list --json");
    assert_int_equal(o.code, 0);
    json_t *j = parse_json(o.out);
    assert_true(json_array_size(json_object_get(j, "algorithms")) >= 5);
    assert_true(json_array_size(json_object_get(j, "statistics")) >= 4);
    json_decref(j);
    release(&o);
}

/* naive-swap at 3 cards is 4/27 vs 5/27 per order: at 200000 samples the
   permutation X^2 has noncentrality ~ 2e5 * 0.0123 * 6 ~ 1.5e4, so a pass
   would take a ~120-sigma miss; with the fixed seed the result is fixed. */
static void naive_swap_is_caught(void **state)
{
    const char *dir = *state;
    outcome o = run(dir, "test naive-swap --n 3 --samples 200000 --seed 1");
    assert_int_equal(o.code, 1);
    assert_non_null(strstr(o.out, "verdict: FAIL"));
    assert_non_null(strstr(o.out, "seed       1\n"));
    release(&o);
}

/* Fisher-Yates is exactly uniform: a fail needs a Holm-adjusted p below
   1e-6 (false-alarm rate <= 1e-6, and a suspect <= 1e-3); the seed is
   fixed, so this run's verdict never changes. */
static void fisher_yates_passes(void **state)
{
    const char *dir = *state;
    outcome o = run(dir, "test fisher-yates --n 52 --samples 1e6 --seed 1");
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.out, "verdict: PASS"));
    assert_non_null(strstr(o.out, "samples    1000000"));
    release(&o);
}

/* The whole default battery of a bridge deal (six statistics) and of a
   7-card draw (three) on fair algorithms.  With escalation a fair run
   ends other than pass only if it fails (at most 1e-6, Holm) or stays
   suspect through four independent stages (at most 1e-12): a false alarm
   below 2e-6 per run over random seeds. */
static void fair_deals_and_draws_pass(void **state)
{
    const char *dir = *state;
    const char *runs[][2] = {
        { "test deal-fisher-yates --n 52 --samples 2e4 --seed 1 --json -",
          "7" },
        { "test partial-deal --n 52 --samples 2e5 --seed 1 --json -", "3" },
    };
    for (size_t i = 0; i < 2; i++) {
        outcome o = run(dir, runs[i][0]);
        assert_int_equal(o.code, 0);
        json_t *j = parse_json(o.out);
        assert_int_equal(json_array_size(json_object_get(j, "tests")),
                         (size_t)atoi(runs[i][1]));
        assert_string_equal(json_string_value(json_object_get(j, "verdict")),
                            "pass");
        json_decref(j);
        release(&o);
    }
}

/* Sattolo never leaves a fixed point and makes one cycle: the fixed-points
   and cycles statistics see it at once (p underflows). */
static void sattolo_is_caught(void **state)
{
    const char *dir = *state;
    outcome o = run(dir, "test sattolo --n 8 --samples 1e5 --seed 3 --json -");
    assert_int_equal(o.code, 1);
    json_t *j = parse_json(o.out);
    assert_string_equal(json_string_value(json_object_get(j, "verdict")),
                        "fail");
    json_t *tests = json_object_get(j, "tests");
    size_t i;
    json_t *t;
    int saw_cycles = 0;
    json_array_foreach(tests, i, t) {
        const char *name = json_string_value(json_object_get(t, "name"));
        if (strcmp(name, "cycles") == 0 || strcmp(name, "fixed-points") == 0) {
            saw_cycles++;
            assert_string_equal(json_string_value(json_object_get(t, "verdict")),
                                "fail");
        }
    }
    assert_int_equal(saw_cycles, 2);
    json_decref(j);
    release(&o);
}

/* A GSL generator by its GSL name; mt19937 is a good generator, so the
   verdict is pass (false alarm <= 1e-3 for suspect, fixed seed). */
static void gsl_generator_by_name(void **state)
{
    const char *dir = *state;
    outcome o = run(dir, "test fisher-yates --rng mt19937 --samples 2e5 --seed 4");
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.out, "rng        mt19937"));
    release(&o);
    o = run(dir, "test fisher-yates --rng rand15 --n 10 --samples 1e4 --seed 4");
    assert_int_not_equal(o.code, 2);
    assert_non_null(strstr(o.out, "rng        rand15 (stream version 4; the "
                                  "generator was seeded with 4, 32 bits)"));
    release(&o);
}

static void json_has_the_contract_keys(void **state)
{
    const char *dir = *state;
    outcome o = run(dir, "test fisher-yates --n 6 --samples 5e4 --seed 11 "
                    "--json -");
    assert_int_equal(o.code, 0);
    json_t *j = parse_json(o.out);
    const char *keys[] = { "algorithm", "n", "samples", "seed", "rng",
                           "stream_version", "verdict", "partial", "tests",
                           "timing" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_non_null(json_object_get(j, keys[i]));
    assert_int_equal(json_integer_value(json_object_get(j, "seed")), 11);
    assert_int_equal(json_integer_value(json_object_get(j, "n")), 6);
    assert_int_equal(json_integer_value(json_object_get(j, "samples")), 50000);
    assert_true(json_is_false(json_object_get(j, "partial")));
    json_t *tests = json_object_get(j, "tests");
    /* n <= 10: the eleven permutation statistics of the default
       battery that take 6 cards, and serial (no poker7: 52 cards only;
       no collisions below 15 cards) */
    assert_int_equal(json_array_size(tests), 12);
    size_t i;
    json_t *t;
    json_array_foreach(tests, i, t) {
        const char *tk[] = { "name", "statistic", "df", "p_value",
                             "p_adjusted", "verdict" };
        for (size_t k = 0; k < sizeof tk / sizeof tk[0]; k++)
            assert_non_null(json_object_get(t, tk[k]));
        assert_true(json_real_value(json_object_get(t, "p_adjusted"))
                    >= json_real_value(json_object_get(t, "p_value")));
    }
    json_decref(j);
    release(&o);
}

/* Escalation end to end.  naive-swap at 10 cards is biased; with 600
   decks and seed 1 its battery of three comes out suspect (smallest
   Holm-adjusted p 2.8e-5: between 1e-6 and 1e-3), so the run goes on to a
   second stage on seed sb_escalation_seed(1, 1) with 1200 decks, where it
   fails.  The same run with --escalate 0 stops at the suspect stage:
   exit 3.  Both runs are deterministic (fixed seed). */
static void suspect_runs_escalate(void **state)
{
    const char *dir = *state;
    const char *args = "test naive-swap --n 10 --samples 600 --seed 1 "
                       "--tests position,fixed-points,cycles";
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s --json -", args);
    outcome o = run(dir, cmd);
    assert_int_equal(o.code, 1);
    json_t *j = parse_json(o.out);
    json_t *stages = json_object_get(j, "stages");
    assert_int_equal(json_array_size(stages), 2);
    json_t *s0 = json_array_get(stages, 0), *s1 = json_array_get(stages, 1);
    assert_string_equal(json_string_value(json_object_get(s0, "verdict")),
                        "suspect");
    assert_string_equal(json_string_value(json_object_get(s1, "verdict")),
                        "fail");
    assert_int_equal(json_integer_value(json_object_get(s0, "seed")), 1);
    assert_true((uint64_t)json_integer_value(json_object_get(s1, "seed"))
                == sb_escalation_seed(1, 1));
    assert_int_equal(json_integer_value(json_object_get(s1, "samples")),
                     1200);
    assert_int_equal(json_integer_value(json_object_get(j, "samples")),
                     1200);
    assert_int_equal(json_integer_value(json_object_get(j, "samples_total")),
                     1800);
    assert_int_equal(json_integer_value(json_object_get(j,
                                                        "samples_requested")),
                     600);
    json_t *tables = json_object_get(j, "tables");
    assert_int_equal(json_integer_value(json_object_get(tables, "stage")), 1);
    assert_true((uint64_t)json_integer_value(json_object_get(tables, "seed"))
                == sb_escalation_seed(1, 1));
    assert_int_equal(json_integer_value(json_object_get(tables, "samples")),
                     1200);
    assert_int_equal(json_integer_value(json_object_get(j, "seed")), 1);
    json_decref(j);
    release(&o);

    o = run(dir, args);
    assert_int_equal(o.code, 1);
    assert_non_null(strstr(o.out, "stage 1  seed "));
    release(&o);

    snprintf(cmd, sizeof cmd, "%s --escalate 0", args);
    o = run(dir, cmd);
    assert_int_equal(o.code, 3);
    assert_non_null(strstr(o.out, "verdict: SUSPECT"));
    assert_null(strstr(o.out, "escalation"));
    release(&o);

    assert_usage_error(dir, "test naive-swap --escalate 9",
                       "invalid --escalate '9'");
}

/* Same seed, same counts: the JSON is identical once timing is removed. */
static void same_seed_same_result(void **state)
{
    const char *dir = *state;
    const char *args = "test naive-swap --n 5 --samples 1e5 --seed 99 --json -";
    outcome a = run(dir, args), b = run(dir, args);
    json_t *ja = parse_json(a.out), *jb = parse_json(b.out);
    json_object_del(ja, "timing");
    json_object_del(jb, "timing");
    assert_true(json_equal(ja, jb));
    json_decref(ja);
    json_decref(jb);
    release(&a);
    release(&b);
    outcome c = run(dir, "test naive-swap --n 5 --samples 1e5 --seed 98 --json -");
    outcome d = run(dir, args);
    json_t *jc = parse_json(c.out), *jd = parse_json(d.out);
    json_object_del(jc, "timing");
    json_object_del(jd, "timing");
    assert_false(json_equal(jd, jc));
    json_decref(jc);
    json_decref(jd);
    release(&c);
    release(&d);
}

static void json_to_file_and_samples_suffixes(void **state)
{
    const char *dir = *state;
    char args[512];
    snprintf(args, sizeof args, "test fisher-yates --n 4 --samples 20k "
             "--seed 5 --quiet --json %s/r.json", dir);
    outcome o = run(dir, args);
    assert_int_equal(o.code, 0);
    assert_string_equal(o.out, "");     /* --quiet */
    char path[256];
    snprintf(path, sizeof path, "%s/r.json", dir);
    char *text = slurp(path);
    json_t *j = parse_json(text);
    assert_int_equal(json_integer_value(json_object_get(j, "samples")), 20000);
    json_decref(j);
    free(text);
    release(&o);
}

static void a_fresh_seed_is_printed(void **state)
{
    const char *dir = *state;
    outcome o = run(dir, "test fisher-yates --n 5 --samples 1000");
    assert_non_null(strstr(o.out, "seed       "));
    release(&o);
}

static void bad_input_is_a_clear_error(void **state)
{
    const char *dir = *state;
    assert_usage_error(dir, "test fisher-yate", "unknown algorithm 'fisher-yate'");
    assert_usage_error(dir, "test fisher-yate",
                       "fisher-yates, fisher-yates-forward");
    assert_usage_error(dir, "test deal-random-hand --n 50",
                       "4 hands of 13 cards = 52 cards, but n is 50");
    assert_usage_error(dir, "test partial-deal --n 5", "k must be at most n");
    assert_usage_error(dir, "test gsl-shuffle --rng uni --n 32767 --samples 10",
                       "cannot run at n = 32767 on the source 'uni'");
    assert_usage_error(dir, "test fisher-yates --rng reseed32:nope",
                       "unknown randomness source 'reseed32:nope'");
    assert_usage_error(dir, "test fisher-yates --n 0", "invalid --n '0'");
    assert_usage_error(dir, "test fisher-yates --n 70000", "invalid --n '70000'");
    assert_usage_error(dir, "test fisher-yates-mod --n 40000",
                       "out of range for 'fisher-yates-mod'");
    assert_usage_error(dir, "test fisher-yates --samples abc",
                       "invalid --samples 'abc'");
    assert_usage_error(dir, "test fisher-yates --samples 1.5", "invalid --samples");
    assert_usage_error(dir, "test fisher-yates --rng mt19973",
                       "unknown randomness source 'mt19973'");
    assert_usage_error(dir, "test fisher-yates --tests position,chi",
                       "unknown statistic 'chi'");
    assert_usage_error(dir, "test fisher-yates --n 52 --tests permutation",
                       "permutation");
    assert_usage_error(dir, "test fisher-yates --param k=3",
                       "'fisher-yates' takes no parameters");
    assert_usage_error(dir, "test sort-random-keys --param key-bits=99",
                       "key-bits=1..64");
    assert_usage_error(dir, "test sort-random-keys --param bits=9",
                       "unknown parameter 'bits=9'");
    assert_usage_error(dir, "test fisher-yates --seed -1", "invalid --seed");
    assert_usage_error(dir, "test fisher-yates --bogus", "unknown or incomplete");
    assert_usage_error(dir, "test", "which algorithm");
    assert_usage_error(dir, "frobnicate", "unknown command 'frobnicate'");
    /* Counts are decimal: no hexadecimal floats, nothing above 2^62. */
    assert_usage_error(dir, "test fisher-yates --samples 0x10",
                       "invalid --samples '0x10'");
    assert_usage_error(dir, "test fisher-yates --n 0x1p2", "invalid --n");
    assert_usage_error(dir, "test fisher-yates --samples 4611686018427387905",
                       "invalid --samples");
    /* A generator stuck from the start, or refusing its seed, is said so
       at once instead of spinning for ever. */
    assert_usage_error(dir, "test fisher-yates --rng minstd --seed 2147483647",
                       "'minstd' seeded with 2147483647 is stuck");
    assert_usage_error(dir, "test fisher-yates --rng ran0 --seed 123459876",
                       "refuses the seed 123459876");
    /* An output that cannot be written is refused before the run. */
    assert_usage_error(dir, "test fisher-yates --json /nonexistent/r.json",
                       "cannot write '/nonexistent/r.json'");
}

/* A seed reads as decimal ("010" is ten) or as hexadecimal after 0x. */
static void seeds_are_decimal_or_hex(void **state)
{
    const char *dir = *state;
    outcome o = run(dir, "test fisher-yates --n 3 --samples 1000 --seed 010");
    assert_non_null(strstr(o.out, "seed       10\n"));
    release(&o);
    o = run(dir, "test fisher-yates --n 3 --samples 1000 --seed 0x1F");
    assert_non_null(strstr(o.out, "seed       31\n"));
    release(&o);
}

/* A report that cannot be written to standard output is an error. */
static void full_stdout_is_an_error(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' test fisher-yates --n 4 --samples 100 "
             ">/dev/full 2>/dev/null", SB_CLI_PATH);
    int status = system(cmd);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 2);
}

/* An algorithm's own count reaches the report: the passes the stopping
   rule took, in the text and in the JSON. */
static void tally_is_reported(void **state)
{
    const char *dir = *state;
    outcome o = run(dir, "test riffle-until-uniform --n 8 --samples 2000 "
                         "--seed 3");
    assert_non_null(strstr(o.out, "passes"));
    assert_non_null(strstr(o.out, "per sample"));
    release(&o);
    o = run(dir, "test riffle-until-uniform --n 8 --samples 2000 --seed 3 "
                 "--json -");
    json_t *j = parse_json(o.out);
    json_t *t = json_object_get(j, "tally");
    assert_string_equal(json_string_value(json_object_get(t, "name")),
                        "passes");
    assert_int_equal(json_integer_value(json_object_get(t, "samples")), 2000);
    /* 8 cards need at least 3 passes for 8 distinct 3-bit labels. */
    assert_true(json_real_value(json_object_get(t, "mean")) >= 3.0);
    json_decref(j);
    release(&o);
    /* reseed32 runs end to end and is named in the report.  2000 decks
       are far too few to see its 2^32 seeds, so the verdict is a pass
       (false alarm at most 1e-3 per run, fixed seed). */
    o = run(dir, "test fisher-yates --n 8 --samples 2000 --seed 3 "
                 "--rng reseed32:mt19937 --json -");
    assert_int_equal(o.code, 0);
    j = parse_json(o.out);
    assert_string_equal(json_string_value(json_object_get(j, "rng")),
                        "reseed32:mt19937");
    json_decref(j);
    release(&o);
}

static void audit_writes_its_reports(void **state)
{
    const char *dir = *state;
    char args[512];
    snprintf(args, sizeof args, "audit --n 8 --samples 2e4 --markdown "
             "%s/audit.md --json %s/audit.json", dir, dir);
    outcome o = run(dir, args);
    /* Every uniform algorithm passes at this fixed seed (false alarm per
       algorithm <= 1e-3), so the exit code is 0. */
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.out, "naive-swap"));
    char path[256];
    snprintf(path, sizeof path, "%s/audit.md", dir);
    char *md = slurp(path);
    assert_non_null(strstr(md, "| `sattolo` |"));
    free(md);
    snprintf(path, sizeof path, "%s/audit.json", dir);
    char *text = slurp(path);
    json_t *j = parse_json(text);
    json_t *runs = json_object_get(j, "runs");
    assert_true(json_array_size(runs) >= 5);
    size_t i;
    json_t *r;
    json_array_foreach(runs, i, r) {
        const char *alg = json_string_value(json_object_get(r, "algorithm"));
        if (strcmp(alg, "sattolo") == 0 || strcmp(alg, "naive-swap") == 0)
            assert_string_equal(json_string_value(json_object_get(r, "verdict")),
                                "fail");
    }
    json_decref(j);
    free(text);
    release(&o);
}

/* 'shufflebias exact': its tables and exit codes. */
static void exact_tables_and_exit_codes(void **state)
{
    const char *dir = *state;
    outcome o = run(dir, "exact naive-swap --n 3");
    assert_int_equal(o.code, 1);
    const char *want[] = { "27 paths walked", "ABC    4/27", "ACB    5/27",
                           "CBA    4/27", "1/18", "NOT UNIFORM" };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_non_null(strstr(o.out, want[i]));
    release(&o);
    o = run(dir, "exact sattolo --n 5");
    assert_int_equal(o.code, 1);
    assert_non_null(strstr(o.out, "never reached: 96 of 120 orders"));
    release(&o);
    o = run(dir, "exact sort-random-keys --n 3 --param key-bits=2");
    assert_int_equal(o.code, 1);
    assert_non_null(strstr(o.out, "ABC    5/16"));
    release(&o);
    /* The flawed deal at two hands of two (tests/test_algorithms.c derives
       these by hand), and its fix. */
    o = run(dir, "exact deal-random-hand --n 4 --param hands=2 "
                 "--param hand-size=2");
    assert_int_equal(o.code, 1);
    assert_non_null(strstr(o.out, "AB|CD  1/4"));
    assert_non_null(strstr(o.out, "AC|BD  1/8"));
    release(&o);
    o = run(dir, "exact deal-weighted-hand --n 4 --param hands=2 "
                 "--param hand-size=2");
    assert_int_equal(o.code, 0);
    release(&o);
    o = run(dir, "exact fisher-yates --n 7 --json -");
    assert_int_equal(o.code, 0);
    json_t *j = parse_json(o.out);
    assert_int_equal(json_array_size(json_object_get(j, "permutations")), 5040);
    assert_true(json_is_true(json_object_get(j, "uniform")));
    json_decref(j);
    release(&o);
    assert_usage_error(dir, "exact sort-random-keys --n 3",
                       "--param key-bits=2");
    assert_usage_error(dir, "exact naive-swap --n 9 --max-paths 1e6 --walk "
                       "paths", "387420489 paths, over the budget of "
                       "1000000: raise --max-paths or lower n");
    /* By its states: 9 x (9^0 + ... + 9^5) moves in the first six steps,
       9 x 9! in each of the last three (9^6 > 9!). */
    assert_usage_error(dir, "exact naive-swap --n 9 --max-paths 1e6",
                       "takes up to 10395630 moves (a deck through one path "
                       "of a step's draws), over the budget of 1000000: "
                       "raise --max-paths or lower n");
    assert_usage_error(dir, "exact fisher-yates-mod --n 3 --walk states",
                       "cannot be walked by its states: it does not say it "
                       "is Markov in its deck");
    assert_usage_error(dir, "exact fisher-yate", "unknown algorithm");
    assert_usage_error(dir, "exact --all --param key-bits=2", "--all");
    assert_usage_error(dir, "exact --all --kind hand", "unknown kind 'hand'");
    assert_usage_error(dir, "exact naive-swap --kind deal", "--kind goes with");
    assert_usage_error(dir, "exact gsl-shuffle", "cannot be enumerated");
}

/* Run 'command' into the test folder; what it writes must equal the
   checked-in reports/examples/NAME.{md,json}. */
static void compare_example(const char *dir, const char *command,
                            const char *name)
{
    char args[512];
    snprintf(args, sizeof args, "%s --quiet --markdown %s/e.md --json "
             "%s/e.json", command, dir, dir);
    outcome o = run(dir, args);
    assert_int_equal(o.code, 0);
    release(&o);
    const char *ext[] = { "md", "json" };
    for (size_t i = 0; i < 2; i++) {
        char made[256], kept[512];
        snprintf(made, sizeof made, "%s/e.%s", dir, ext[i]);
        snprintf(kept, sizeof kept, "%s/reports/examples/%s.%s",
                 SB_SOURCE_DIR, name, ext[i]);
        char *a = slurp(made), *b = slurp(kept);
        if (strcmp(a, b) != 0)
            print_error("%s differs from what the code makes: run "
                        "scripts/examples\n", kept);
        assert_string_equal(a, b);
        free(a);
        free(b);
    }
}

/* The checked-in exact reports are what the code makes today (the same
   commands as scripts/examples). */
static void checked_in_exact_reports_are_current(void **state)
{
    const char *dir = *state;
    const char *const examples[][2] = {
        { "exact --all --n 3", "exact-3-cards" },
        { "exact --all --n 4 --kind deal", "exact-deals-4-cards" },
    };
    for (size_t e = 0; e < 2; e++)
        compare_example(dir, examples[e][0], examples[e][1]);
}

/* A fresh temporary folder for each test's files, handed over as state. */
static int setup(void **state)
{
    return sb_test_tmpdir(state, "sb-cli");
}

static int teardown(void **state)
{
    return sb_test_tmpdir_remove(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(list_shows_everything, setup, teardown),
        cmocka_unit_test_setup_teardown(naive_swap_is_caught, setup, teardown),
        cmocka_unit_test_setup_teardown(fisher_yates_passes, setup, teardown),
        cmocka_unit_test_setup_teardown(fair_deals_and_draws_pass, setup, teardown),
        cmocka_unit_test_setup_teardown(sattolo_is_caught, setup, teardown),
        cmocka_unit_test_setup_teardown(gsl_generator_by_name, setup, teardown),
        cmocka_unit_test_setup_teardown(json_has_the_contract_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(same_seed_same_result, setup, teardown),
        cmocka_unit_test_setup_teardown(suspect_runs_escalate, setup, teardown),
        cmocka_unit_test_setup_teardown(json_to_file_and_samples_suffixes, setup, teardown),
        cmocka_unit_test_setup_teardown(a_fresh_seed_is_printed, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_input_is_a_clear_error, setup, teardown),
        cmocka_unit_test_setup_teardown(tally_is_reported, setup, teardown),
        cmocka_unit_test_setup_teardown(audit_writes_its_reports, setup, teardown),
        cmocka_unit_test_setup_teardown(seeds_are_decimal_or_hex, setup, teardown),
        cmocka_unit_test(full_stdout_is_an_error),
        cmocka_unit_test_setup_teardown(exact_tables_and_exit_codes, setup, teardown),
        cmocka_unit_test_setup_teardown(checked_in_exact_reports_are_current, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
