/*
 * test_reports.c - the renderers of reports/ on reports built by hand:
 * the verdict and reason at the top of a report (outcome.c), the JSON
 * (json.c, read back with Jansson), the terminal table (text.c), the
 * audit summary (audit.c) and the exact table (exact.c).  Nothing random
 * and no run: every field a renderer reads is set here, so each check
 * says what the renderer makes of it.
 */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include "sb_test.h"

#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "reports/render.h"
#include "shufflebias/status.h"
#include "stats/gof.h"

/* ---- helpers ---------------------------------------------------------- */

/* What 'render' writes about 'arg', as a string (free it). */
static char *rendered(int (*render)(FILE *, const void *), const void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(render(f, arg), SB_OK);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static int text_of(FILE *f, const void *rep)
{
    return sb_render_text(f, rep);
}

static int json_of(FILE *f, const void *rep)
{
    return sb_render_json(f, rep);
}

static int exact_text_of(FILE *f, const void *rep)
{
    return sb_render_exact_text(f, rep);
}

static int exact_json_of(FILE *f, const void *rep)
{
    return sb_render_exact_json(f, rep);
}

static int audit_text_of(FILE *f, const void *reps)
{
    return sb_render_audit_text(f, reps, 2);
}

static int audit_json_of(FILE *f, const void *reps)
{
    return sb_render_audit_json(f, reps, 2);
}

/* The JSON 'render' writes, parsed (json_decref it). */
static json_t *parsed(int (*render)(FILE *, const void *), const void *arg)
{
    char *text = rendered(render, arg);
    json_error_t e;
    json_t *root = json_loads(text, 0, &e);
    if (root == NULL)
        print_error("line %d: %s\n%s\n", e.line, e.text, text);
    assert_non_null(root);
    free(text);
    return root;
}

#define assert_contains(haystack, needle)                                \
    do {                                                                 \
        if (strstr((haystack), (needle)) == NULL) {                      \
            print_error("'%s' not found in:\n%s\n", (needle),            \
                        (haystack));                                     \
            fail();                                                      \
        }                                                                \
    } while (0)

#define assert_json_string(obj, key, want)                               \
    assert_string_equal(json_string_value(json_object_get((obj), (key))), \
                        (want))

/* Two results: 'position' failed beyond the double range, 'cycles' could
   not be computed at this size. */
static void two_results(sb_result r[2])
{
    memset(r, 0, 2 * sizeof *r);
    r[0].name = "position";
    r[0].applicable = 1;
    r[0].statistic = 5130.5;
    r[0].df = 2601;
    r[0].p_value = 0.0;
    r[0].p_underflow = 1;
    r[0].p_adjusted = 0.0;
    r[0].verdict = SB_VERDICT_FAIL;
    snprintf(r[0].null_desc, sizeof r[0].null_desc, "chi-square(2601)");
    snprintf(r[0].effect_desc, sizeof r[0].effect_desc,
             "card 0 at position 0: 9.1%% of decks against 1.92%% expected");
    r[0].effect = 0.0125;
    r[0].detectable = 0.0013;
    r[1].name = "cycles";
    r[1].applicable = 0;
    r[1].p_value = r[1].p_adjusted = 1.0;
    r[1].verdict = SB_VERDICT_NA;
    snprintf(r[1].note, sizeof r[1].note, "'cycles' needs n >= 2");
}

/* A run of 'riffle' that escalated once and failed. */
static void failed_run(sb_report *rep, sb_result *r)
{
    memset(rep, 0, sizeof *rep);
    two_results(r);
    rep->results = r;
    rep->n_results = 2;
    rep->verdict = SB_VERDICT_FAIL;
    sb_run_info *run = &rep->run;
    run->algorithm = "riffle";
    snprintf(run->params, sizeof run->params, "passes=7,sort=merge");
    run->kind = SB_KIND_PERMUTATION;
    run->literature = "biased";
    run->n = 52;
    run->samples = 200000;
    run->done = 400000;
    run->seed = 7;
    run->rng = "xoshiro256";
    run->rng_seed = 7;
    run->rng_seed_bits = 64;
    run->stream_version = SB_STREAM_VERSION;
    run->samples_total = 600000;
    run->suspect_alpha = 1e-3;
    run->fail_alpha = 1e-6;
    run->threads = 2;
    run->seconds = 1.5;
    rep->n_stages = 2;
    rep->stages[0] = (sb_stage){ 7, 200000, 200000, SB_VERDICT_SUSPECT,
                                 2e-4, "position" };
    rep->stages[1] = (sb_stage){ 99, 400000, 400000, SB_VERDICT_FAIL, 0.0,
                                 "position" };
}

/* ---- csv.c: the tables as CSV ------------------------------------------ */

static int csv_file_1(FILE *f, const void *rep)
{
    return sb_render_csv(f, rep, 1);
}

static int csv_file_2(FILE *f, const void *rep)
{
    return sb_render_csv(f, rep, 2);
}

static int summary_csv_of(FILE *f, const void *rep)
{
    return sb_render_csv(f, rep, 0);
}

static int run_csv_of(FILE *f, const void *rep)
{
    return sb_render_run_csv(f, rep, "merge", "summary.csv stages.csv");
}

static void test_csv(void **state)
{
    (void)state;
    /* A law of three named categories (one name with a comma, one with
       quotes), and a 2 x 2 card x slot matrix with a cell that expects
       nothing, its columns named (the last "not drawn"), and a p-value
       below the double range. */
    double o1[3] = { 10, 20, 30 }, e1[3] = { 12.5, 20, 27.5 };
    long lo[3] = { 0, 1, 3 }, hi[3] = { 0, 2, 9 };
    char n0[] = "none", n1[] = "one, or two", n2[] = "\"many\"";
    char *labels[3] = { n0, n1, n2 };
    double o2[4] = { 3, 0, 1, 4 }, e2[4] = { 2, 0, 2, 4 };
    char s0[] = "1", s1[] = "not drawn";
    char *slots[2] = { s0, s1 };
    sb_result r[3];
    memset(r, 0, sizeof r);
    r[0].name = "law";
    r[0].applicable = 1;
    r[0].statistic = 1.5;
    r[0].df = 2;
    r[0].p_value = r[0].p_adjusted = 0.25;
    r[0].table = (sb_table){ 1, 3, o1, e1, lo, hi };
    r[0].labels = labels;
    r[1].name = "skipped";     /* not applicable: no file, empty numbers */
    r[1].verdict = SB_VERDICT_NA;
    r[2].name = "matrix";
    r[2].applicable = 1;
    r[2].p_value = r[2].p_adjusted = 0;
    r[2].p_underflow = 1;
    r[2].table = (sb_table){ 2, 2, o2, e2, NULL, NULL };
    r[2].labels = slots;
    r[2].row_label = "card";
    r[2].col_label = "slot";
    sb_report rep;
    memset(&rep, 0, sizeof rep);
    rep.results = r;
    rep.n_results = 3;
    rep.run.n = 4;

    char name[64];
    assert_int_equal(sb_csv_name(&rep, 0, name, sizeof name), SB_OK);
    assert_string_equal(name, "summary.csv");
    assert_int_equal(sb_csv_name(&rep, 1, name, sizeof name), SB_OK);
    assert_string_equal(name, "law.csv");
    assert_int_equal(sb_csv_name(&rep, 2, name, sizeof name), SB_OK);
    assert_string_equal(name, "matrix.csv");
    assert_int_equal(sb_csv_name(&rep, 3, name, sizeof name), SB_ERANGE);

    char *text = rendered(summary_csv_of, &rep);
    assert_string_equal(text,
        "name,statistic,df,p_value,p_underflow,p_adjusted,verdict\n"
        "law,1.5,2,0.25,0,0.25,pass\n"
        "skipped,,,,,,n/a\n"
        "matrix,0,0,0,1,0,pass\n");
    free(text);
    text = rendered(csv_file_1, &rep);
    assert_string_equal(text,
        "lo,hi,label,observed,expected\n"
        "0,0,none,10,12.5\n"
        "1,2,\"one, or two\",20,20\n"
        "3,9,\"\"\"many\"\"\",30,27.5\n");
    free(text);
    text = rendered(csv_file_2, &rep);
    assert_string_equal(text,
        "card,slot,label,observed,expected,ratio\n"
        "0,0,1,3,2,1.5\n"
        "0,1,not drawn,0,0,\n"
        "1,0,1,1,2,0.5\n"
        "1,1,not drawn,4,4,1\n");
    free(text);

    /* The same tables in the JSON: labels, ranges, rows of cells. */
    json_t *root = parsed(json_of, &rep);
    json_t *tests = json_object_get(root, "tests");
    json_t *t = json_object_get(json_array_get(tests, 0), "table");
    assert_int_equal(json_integer_value(json_object_get(t, "cols")), 3);
    assert_true(json_is_true(json_object_get(t, "cells_listed")));
    assert_true(json_is_false(json_object_get(t, "expected_constant")));
    assert_string_equal(json_string_value(json_array_get(
        json_object_get(t, "labels"), 1)), "one, or two");
    assert_int_equal(json_integer_value(json_array_get(
        json_object_get(t, "hi"), 2)), 9);
    assert_int_equal(json_integer_value(json_array_get(json_array_get(
        json_object_get(t, "observed"), 0), 2)), 30);
    assert_true(json_is_null(json_object_get(json_array_get(tests, 1),
                                             "table")));
    t = json_object_get(json_array_get(tests, 2), "table");
    assert_int_equal(json_integer_value(json_array_get(json_array_get(
        json_object_get(t, "observed"), 1), 0)), 1);
    assert_true(json_real_value(json_array_get(json_array_get(
        json_object_get(t, "expected"), 1), 1)) == 4.0);
    json_decref(root);

    /* An escalated run: its stages after its tables. */
    sb_report esc;
    sb_result er[2];
    failed_run(&esc, er);
    assert_int_equal(sb_csv_name(&esc, 1, name, sizeof name), SB_OK);
    assert_string_equal(name, "stages.csv");
    assert_int_equal(sb_csv_name(&esc, 2, name, sizeof name), SB_ERANGE);
    text = rendered(csv_file_1, &esc);
    assert_string_equal(text,
        "stage,seed,samples,samples_requested,verdict,min_p_adjusted,worst\n"
        "0,7,200000,200000,suspect,0.0002,position\n"
        "1,99,400000,400000,fail,0,position\n");
    free(text);
    /* Which run the files are from: the command, the run's facts, the
       verdict and the files beside it. */
    esc.run.seed = 7;
    esc.run.n = 52;
    text = rendered(run_csv_of, &esc);
    assert_non_null(strstr(text, "key,value\ncommand,merge\n"));
    assert_non_null(strstr(text, "\nn,52\n"));
    assert_non_null(strstr(text, "\nseed,7\n"));
    assert_non_null(strstr(text, "\nverdict,fail\n"));
    assert_non_null(strstr(text, "\nfiles,summary.csv stages.csv\n"));
    free(text);
}

/* ---- outcome.c: the verdict and reason at the top ---------------------- */

static void test_outcome(void **state)
{
    (void)state;
    sb_report rep;
    sb_result r[2];
    char why[1024];
    failed_run(&rep, r);
    assert_string_equal(sb_report_verdict(&rep), "fail");
    sb_report_reason(&rep, why, sizeof why);
    assert_string_equal(why, "");

    /* Interrupted: never the battery's word. */
    rep.run.partial = 1;
    rep.run.done = 65536;
    rep.run.samples = 3000000;
    assert_string_equal(sb_report_verdict(&rep), "incomplete");
    sb_report_reason(&rep, why, sizeof why);
    assert_string_equal(why, "interrupted after 65536 of 3000000 samples");

    /* A merge of files short of their samples keeps the battery's. */
    rep.run.merged_files = 2;
    assert_string_equal(sb_report_verdict(&rep), "fail");
    rep.run.merged_files = 0;
    rep.run.partial = 0;

    /* Errors: the run's own, a bad sample, then the input's first. */
    rep.run.error = "cannot save the state 'a.state'";
    assert_string_equal(sb_report_verdict(&rep), "error");
    sb_report_reason(&rep, why, sizeof why);
    assert_string_equal(why, "cannot save the state 'a.state'");
    snprintf(rep.run.bad_sample, sizeof rep.run.bad_sample,
             "sample 3: card 5 twice");
    sb_report_reason(&rep, why, sizeof why);
    assert_string_equal(why, "sample 3: card 5 twice");
    sb_input_info in;
    memset(&in, 0, sizeof in);
    in.source = "input";
    in.what = "decks.txt";
    in.format = "text";
    snprintf(in.error, sizeof in.error, "decks.txt:4: 53 is not a card");
    rep.run.input = &in;
    assert_string_equal(sb_report_verdict(&rep), "error");
    sb_report_reason(&rep, why, sizeof why);
    assert_string_equal(why,
                        "the input went wrong: decks.txt:4: 53 is not a card");

    /* Nothing judged: the statistics' own words. */
    rep.run.input = NULL;
    rep.run.error = NULL;
    rep.run.bad_sample[0] = '\0';
    rep.verdict = SB_VERDICT_NA;
    r[0].applicable = 0;
    r[0].note[0] = '\0';
    assert_string_equal(sb_report_verdict(&rep), "n/a");
    sb_report_reason(&rep, why, sizeof why);
    assert_string_equal(why, "no statistic could judge these samples: "
                             "'cycles' needs n >= 2");
}

/* ---- json.c ----------------------------------------------------------- */

static void test_json(void **state)
{
    (void)state;
    sb_report rep;
    sb_result r[2];
    failed_run(&rep, r);
    json_t *root = parsed(json_of, &rep);
    assert_json_string(root, "command", "test");
    assert_json_string(root, "algorithm", "riffle");
    assert_json_string(root, "source", "algorithm");
    assert_json_string(root, "kind", "permutation");
    assert_json_string(root, "literature", "biased");
    assert_json_string(root, "verdict", "fail");
    assert_true(json_is_null(json_object_get(root, "reason")));
    assert_true(json_is_false(json_object_get(root, "partial")));
    assert_int_equal(json_integer_value(json_object_get(root, "n")), 52);
    /* samples counted (the last stage's), and the first stage's asked */
    assert_int_equal(json_integer_value(json_object_get(root, "samples")),
                     400000);
    assert_int_equal(json_integer_value(json_object_get(root,
                     "samples_requested")), 200000);
    assert_int_equal(json_integer_value(json_object_get(root, "seed")), 7);
    assert_json_string(root, "rng", "xoshiro256");
    assert_int_equal(json_integer_value(json_object_get(root,
                     "stream_version")), SB_STREAM_VERSION);
    /* integer parameters are numbers, choices strings */
    json_t *params = json_object_get(root, "params");
    assert_int_equal(json_integer_value(json_object_get(params, "passes")),
                     7);
    assert_json_string(params, "sort", "merge");

    json_t *stages = json_object_get(root, "stages");
    assert_int_equal(json_array_size(stages), 2);
    json_t *s1 = json_array_get(stages, 1);
    assert_int_equal(json_integer_value(json_object_get(s1, "seed")), 99);
    assert_json_string(s1, "verdict", "fail");
    assert_json_string(s1, "worst", "position");
    json_t *tables = json_object_get(root, "tables");
    assert_int_equal(json_integer_value(json_object_get(tables, "stage")), 1);
    assert_int_equal(json_integer_value(json_object_get(tables, "seed")), 99);
    assert_int_equal(json_integer_value(json_object_get(root,
                     "samples_total")), 600000);

    json_t *th = json_object_get(root, "thresholds");
    assert_close(json_real_value(json_object_get(th, "fail")), 1e-6, 0);
    assert_close(json_real_value(json_object_get(th, "suspect")), 1e-3, 0);
    assert_json_string(th, "correction", "holm");

    json_t *tests = json_object_get(root, "tests");
    assert_int_equal(json_array_size(tests), 2);
    json_t *t0 = json_array_get(tests, 0), *t1 = json_array_get(tests, 1);
    assert_json_string(t0, "name", "position");
    assert_json_string(t0, "verdict", "fail");
    assert_close(json_real_value(json_object_get(t0, "statistic")), 5130.5,
                 0);
    assert_close(json_real_value(json_object_get(t0, "p_value")), 0.0, 0);
    assert_json_string(t0, "p_value_bound", "< 1e-300");
    assert_json_string(t0, "null", "chi-square(2601)");
    assert_null(json_object_get(t0, "p_interval"));
    assert_json_string(t1, "name", "cycles");
    assert_json_string(t1, "verdict", "n/a");
    assert_true(json_is_null(json_object_get(t1, "statistic")));
    assert_true(json_is_null(json_object_get(t1, "p_value")));
    assert_json_string(t1, "note", "'cycles' needs n >= 2");

    /* machine-dependent keys stand apart: no budget, no "memory" */
    assert_null(json_object_get(root, "memory"));
    json_t *timing = json_object_get(root, "timing");
    assert_close(json_real_value(json_object_get(timing, "seconds")), 1.5, 0);
    assert_close(json_real_value(json_object_get(timing,
                 "samples_per_second")), 400000 / 1.5, 1e-12);
    json_decref(root);

    /* Recorded samples: no seed, where they came from, the error. */
    sb_input_info in;
    memset(&in, 0, sizeof in);
    in.source = "input";
    in.what = "decks.txt";
    in.format = "cards";
    snprintf(in.error, sizeof in.error, "decks.txt:4: 'ZZ' is not a card");
    rep.run.input = &in;
    rep.run.rng = NULL;
    rep.run.partial = 1;
    root = parsed(json_of, &rep);
    assert_json_string(root, "source", "input");
    assert_true(json_is_null(json_object_get(root, "seed")));
    assert_true(json_is_null(json_object_get(root, "rng")));
    assert_json_string(root, "verdict", "error");
    assert_json_string(root, "reason",
                       "the input went wrong: decks.txt:4: 'ZZ' is not a "
                       "card");
    json_t *input = json_object_get(root, "input");
    assert_json_string(input, "path", "decks.txt");
    assert_json_string(input, "format", "cards");
    assert_json_string(input, "error", "decks.txt:4: 'ZZ' is not a card");
    json_decref(root);
}

/* ---- json.c: tables too large for a tree -------------------------------- */

static int full_json_of(FILE *f, const void *rep)
{
    sb_render_opts o = SB_RENDER_OPTS_DEFAULT;
    o.full_tables = 1;
    o.no_timing = 1;
    return sb_render_json_with(f, rep, &o);
}

static int audit_full_json_of(FILE *f, const void *reps)
{
    sb_render_opts o = SB_RENDER_OPTS_DEFAULT;
    o.full_tables = 1;
    return sb_render_audit_json_with(f, reps, 1, &o);
}

/* A 2 x 40,000 matrix whose cells expect different counts, and a law
   over 70,000 orders of 9 cards: both over SB_RENDER_CELLS_MAX, so that
   --full-tables writes their arrays value by value rather than as a tree
   (docs/command-line.md).  What is written is what Jansson writes of the
   same document, byte for byte: read back and written again by Jansson,
   it is the same text. */
static void test_json_streamed_tables(void **state)
{
    (void)state;
    enum { COLS = 40000, ORDERS = 70000 };
    sb_report rep;
    sb_result r[2];
    failed_run(&rep, r);
    rep.run.n = 9;
    r[1] = r[0];
    r[1].name = "permutation";
    r[1].subtests = 0;
    assert_int_equal(sb_gof_table_alloc(&r[0].table, 2, COLS, 0),
                     SB_OK);
    assert_int_equal(sb_gof_table_alloc(&r[1].table, 1, ORDERS, 1),
                     SB_OK);
    r[0].row_label = "card";
    r[0].col_label = "position";
    for (size_t i = 0; i < 2 * COLS; i++) {
        r[0].table.observed[i] = (double)(i % 7);
        r[0].table.expected[i] = 3.0 + (double)(i % 3) / 7.0;
    }
    r[1].col_label = "order";
    for (size_t i = 0; i < ORDERS; i++) {
        r[1].table.observed[i] = (double)(i % 3);
        r[1].table.expected[i] = 1.0;
        r[1].table.lo[i] = r[1].table.hi[i] = (long)i;
    }
    /* A string that looks like a placeholder but names no table is
       written as it is. */
    rep.run.algorithm = "\001sb-table:o:1234";

    char *text = rendered(full_json_of, &rep);
    json_error_t e;
    json_t *root = json_loads(text, 0, &e);
    assert_non_null(root);
    char *again = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    assert_non_null(again);
    assert_int_equal(strlen(text), strlen(again) + 1);   /* its '\n' */
    assert_memory_equal(text, again, strlen(again));
    free(again);
    assert_json_string(root, "algorithm", "\001sb-table:o:1234");
    json_t *tests = json_object_get(root, "tests");
    json_t *m = json_object_get(json_array_get(tests, 0), "table");
    assert_true(json_is_true(json_object_get(m, "cells_listed")));
    json_t *obs = json_object_get(m, "observed");
    json_t *exp = json_object_get(m, "expected");
    assert_int_equal(json_array_size(obs), 2);
    assert_int_equal(json_array_size(json_array_get(obs, 1)), COLS);
    assert_int_equal(json_integer_value(json_array_get(json_array_get(obs, 1),
                                                       5)), (COLS + 5) % 7);
    assert_close(json_real_value(json_array_get(json_array_get(exp, 1), 5)),
                 3.0 + (double)((COLS + 5) % 3) / 7.0, 1e-15);
    json_t *law = json_object_get(json_array_get(tests, 1), "table");
    json_t *labels = json_object_get(law, "labels");
    assert_int_equal(json_array_size(labels), ORDERS);
    assert_string_equal(json_string_value(json_array_get(labels, 0)),
                        "ABCDEFGHI");
    assert_string_equal(json_string_value(json_array_get(labels, 1)),
                        "ABCDEFGIH");
    assert_int_equal(json_integer_value(json_array_get(
                     json_object_get(law, "hi"), ORDERS - 1)), ORDERS - 1);
    assert_true(json_is_real(json_object_get(law, "expected")));
    assert_int_equal(json_array_size(json_array_get(
                     json_object_get(law, "observed"), 0)), ORDERS);
    json_decref(root);
    free(text);

    /* An audit streams its runs' tables too. */
    text = rendered(audit_full_json_of, &rep);
    root = json_loads(text, 0, &e);
    assert_non_null(root);
    m = json_object_get(json_array_get(json_object_get(
        json_array_get(json_object_get(root, "runs"), 0), "tests"), 0),
        "table");
    assert_int_equal(json_array_size(json_array_get(
                     json_object_get(m, "observed"), 0)), COLS);
    json_decref(root);
    free(text);

    /* Summarized: no array of 70,000 names or ranges, each cell listed
       with its order's name instead. */
    root = parsed(json_of, &rep);
    law = json_object_get(json_array_get(json_object_get(root, "tests"), 1),
                          "table");
    assert_true(json_is_false(json_object_get(law, "cells_listed")));
    assert_null(json_object_get(law, "labels"));
    assert_null(json_object_get(law, "lo"));
    assert_null(json_object_get(law, "hi"));
    json_t *top = json_object_get(law, "ratio_max");
    assert_int_equal(json_integer_value(json_object_get(top, "col")), 2);
    assert_json_string(top, "label", "ABCDEFHGI");
    json_decref(root);
    for (size_t i = 0; i < 2; i++) {
        free(r[i].table.observed);
        free(r[i].table.expected);
        free(r[i].table.lo);
        free(r[i].table.hi);
    }
}

/* ---- text.c ----------------------------------------------------------- */

static void test_text(void **state)
{
    (void)state;
    char p[32];
    sb_render_pvalue(p, sizeof p, 0.41723, 0);
    assert_string_equal(p, "0.4172");
    sb_render_pvalue(p, sizeof p, 3.1e-9, 0);
    assert_string_equal(p, "3.1e-09");
    sb_render_pvalue(p, sizeof p, 0.0, 1);
    assert_string_equal(p, "< 1e-300");

    sb_report rep;
    sb_result r[2];
    failed_run(&rep, r);
    char *t = rendered(text_of, &rep);
    assert_contains(t, "statistic                 value       df  p-value"
                       "     p (Holm)    verdict\n");
    assert_contains(t, "position                 5130.5     2601  < 1e-300"
                       "    < 1e-300    FAIL\n");
    assert_contains(t, "cycles                        -        -  -      "
                       "     -           N/A\n");
    assert_contains(t, "  position: card 0 at position 0: 9.1% of decks");
    assert_contains(t, "  cycles: 'cycles' needs n >= 2\n");
    assert_contains(t, "escalation: suspect at first");
    assert_contains(t, "  stage 1  seed 99 ");
    assert_contains(t, "\nverdict: FAIL (bias found)\n");
    assert_contains(t, "  algorithm  riffle\n");
    assert_contains(t, "  params     passes=7,sort=merge\n");
    assert_contains(t, "  seed       7 (the tables are stage 1's, seed 99)\n");
    assert_contains(t, "  rng        xoshiro256 (stream version");
    assert_contains(t, "  thresholds suspect below 0.001, fail below 1e-06");
    free(t);

    /* An input error: the summary alone, no table. */
    sb_input_info in;
    memset(&in, 0, sizeof in);
    in.source = "exec";
    in.what = "./deal";
    in.format = "text";
    snprintf(in.error, sizeof in.error, "line 3: 9 values, expected 52");
    rep.run.input = &in;
    rep.run.done = 2;
    t = rendered(text_of, &rep);
    assert_null(strstr(t, "p (Holm)"));
    assert_contains(t, "verdict: ERROR (the input went wrong, below, after "
                       "2 good samples");
    assert_contains(t, "  program    ./deal (format text)\n");
    assert_contains(t, "  INPUT ERROR line 3: 9 values, expected 52\n");
    free(t);
}

/* A hand-wise deal statistic's p-value is already Bonferroni-corrected
   over its sub-tests: the text marks it '*' and says so under the table,
   the JSON keeps p_value and gives the same value as p_value_corrected,
   with the correction in combination and subtests;
   a plain p-value has neither. */
static void test_corrected_p(void **state)
{
    (void)state;
    sb_report rep;
    sb_result r[2];
    failed_run(&rep, r);
    r[1].name = "hcp";
    r[1].applicable = 1;
    r[1].statistic = 24.5;
    r[1].df = 24;
    r[1].p_value = 0.5;
    r[1].p_adjusted = 1.0;
    r[1].subtests = 4;
    r[1].verdict = SB_VERDICT_PASS;
    char *t = rendered(text_of, &rep);
    assert_contains(t, "hcp                        24.5       24  0.5000*"
                       "     1.0000      PASS\n");
    assert_contains(t, "  * hcp: p-value corrected, Bonferroni over 4 "
                       "sub-tests: min(1, 4 x smallest p)\n");
    assert_null(strstr(t, "* position"));
    free(t);
    json_t *j = parsed(json_of, &rep);
    json_t *tests = json_object_get(j, "tests");
    json_t *hcp = json_array_get(tests, 1);
    assert_true(json_real_value(json_object_get(hcp, "p_value_corrected"))
                == 0.5);
    assert_json_string(hcp, "combination", "bonferroni");
    assert_true(json_integer_value(json_object_get(hcp, "subtests")) == 4);
    assert_true(json_real_value(json_object_get(hcp, "p_value")) == 0.5);
    assert_null(json_object_get(json_array_get(tests, 0),
                                "p_value_corrected"));
    json_decref(j);
}

/* ---- audit.c ---------------------------------------------------------- */

static void test_audit(void **state)
{
    (void)state;
    sb_report reps[2];
    sb_result r0[2], r1[2];
    failed_run(&reps[0], r0);
    failed_run(&reps[1], r1);
    reps[1].run.algorithm = "fisher-yates";
    reps[1].run.literature = "uniform";
    reps[1].verdict = SB_VERDICT_PASS;
    r1[0].verdict = SB_VERDICT_PASS;
    r1[0].p_underflow = 0;
    r1[0].p_value = r1[0].p_adjusted = 0.25;
    char *t = rendered(audit_text_of, reps);
    assert_contains(t, "riffle                       biased     fail     "
                       "position       < 1e-300    bias found, as "
                       "expected\n");
    assert_contains(t, "fisher-yates                 uniform    pass     "
                       "position       0.2500      no bias found, as "
                       "expected\n");
    free(t);
    json_t *root = parsed(audit_json_of, reps);
    assert_json_string(root, "command", "audit");
    json_t *runs = json_object_get(root, "runs");
    assert_int_equal(json_array_size(runs), 2);
    assert_json_string(json_array_get(runs, 1), "algorithm", "fisher-yates");
    assert_json_string(json_array_get(runs, 1), "verdict", "pass");
    json_decref(root);
}

static int audit_csv_of(FILE *f, const void *reps)
{
    return sb_render_audit_csv(f, reps, 1);
}

static int audit_html_of(FILE *f, const void *reps)
{
    return sb_render_audit_html(f, reps, 1, NULL);
}

static int audit_markdown_of(FILE *f, const void *reps)
{
    return sb_render_audit_markdown(f, reps, 1);
}

/* A pass of many statistics leaves every Holm-adjusted p at 1: the worst
   statistic is then the one of smallest raw p, not the first. */
static void test_audit_worst_ties(void **state)
{
    (void)state;
    sb_report rep;
    sb_result r[3];
    failed_run(&rep, r);
    memset(r, 0, sizeof r);
    const char *names[3] = { "position", "cycles", "rising" };
    const double raw[3] = { 0.8, 0.03, 0.5 };
    for (size_t i = 0; i < 3; i++) {
        r[i].name = names[i];
        r[i].applicable = 1;
        r[i].p_value = raw[i];
        r[i].p_adjusted = 1.0;
        r[i].verdict = SB_VERDICT_PASS;
    }
    rep.results = r;
    rep.n_results = 3;
    rep.n_stages = 0;
    rep.verdict = SB_VERDICT_PASS;
    assert_ptr_equal(sb_report_worst(&rep), &r[1]);
    char *t = rendered(audit_csv_of, &rep);
    assert_contains(t, ",pass,cycles,1\n");
    free(t);
    t = rendered(audit_markdown_of, &rep);
    assert_contains(t, "| **pass** | cycles | 1.0000 |");
    free(t);
    t = rendered(audit_html_of, &rep);
    assert_contains(t, "</td><td>cycles</td><td class=\"num\">1.0000</td>");
    free(t);
    /* Equal raw p-values too: the battery's order. */
    r[2].p_value = 0.03;
    assert_ptr_equal(sb_report_worst(&rep), &r[1]);
    /* A smaller adjusted p wins whatever the raw ones. */
    r[0].p_adjusted = 0.5;
    assert_ptr_equal(sb_report_worst(&rep), &r[0]);
    /* Nothing applicable: none. */
    for (size_t i = 0; i < 3; i++)
        r[i].applicable = 0;
    assert_null(sb_report_worst(&rep));
}

/* ---- exact.c ---------------------------------------------------------- */

/* The exact walk of a fair shuffle of 2 cards: orders AB and BA, one path
   each of probability 1/2. */
typedef struct two_cards {
    sb_exact_report rep;
    sb_card samples[4];
    sb_exact_outcome outcomes[2];
    sb_exact_level level;
    size_t by_p[2];
    char *matrix[4];
} two_cards;

static void exact_two_cards(two_cards *w)
{
    memset(w, 0, sizeof *w);
    static char half[] = "1/2", two[] = "2", zero[] = "0";
    const sb_card s[4] = { 0, 1, 1, 0 };
    memcpy(w->samples, s, sizeof s);
    for (size_t i = 0; i < 2; i++)
        w->outcomes[i] = (sb_exact_outcome){ w->samples + 2 * i, half, 0.5,
                                             1.0, 1 };
    w->level = (sb_exact_level){ half, 0.5, 1.0, 2 };
    w->by_p[0] = 0;
    w->by_p[1] = 1;
    for (size_t i = 0; i < 4; i++)
        w->matrix[i] = half;
    sb_exact_report *rep = &w->rep;
    rep->algorithm = "two-card-swap";
    rep->kind = SB_KIND_PERMUTATION;
    rep->n = rep->len = 2;
    rep->paths = 2;
    rep->equal_weights = 1;
    rep->path_weight = half;
    rep->possible = two;
    rep->possible_d = 2;
    rep->uniform = half;
    rep->outcomes = w->outcomes;
    rep->n_outcomes = 2;
    rep->by_probability = w->by_p;
    rep->levels = &w->level;
    rep->n_levels = 1;
    rep->unreached = zero;
    rep->tv = zero;
    rep->unexplored = zero;
    rep->max_ratio = rep->min_ratio = 1.0;
    rep->verdict = SB_EXACT_UNIFORM;
    rep->rows = rep->cols = 2;
    rep->matrix = w->matrix;
    rep->reached = 2;
}

static void test_exact(void **state)
{
    (void)state;
    two_cards w;
    exact_two_cards(&w);
    char *t = rendered(exact_text_of, &w.rep);
    assert_contains(t, "exact: two-card-swap, n = 2\n");
    assert_contains(t, "2 paths walked, each with probability 1/2\n");
    assert_contains(t, "2 orders possible, each 1/2 under a uniform "
                       "shuffle\n");
    assert_contains(t, "  AB     1/2 ");
    assert_contains(t, "  BA     1/2 ");
    assert_contains(t, "never reached: 0 of 2 orders\n");
    assert_contains(t, "exact card x position matrix");
    assert_contains(t, "verdict: EXACTLY UNIFORM - every one of the 2 orders "
                       "has probability 1/2\n");
    free(t);

    json_t *root = parsed(exact_json_of, &w.rep);
    assert_json_string(root, "command", "exact");
    assert_json_string(root, "algorithm", "two-card-swap");
    assert_int_equal(json_integer_value(json_object_get(root, "possible")), 2);
    assert_true(json_is_true(json_object_get(root, "uniform")));
    assert_true(json_is_false(json_object_get(root, "partial")));
    json_t *perms = json_object_get(root, "permutations");
    assert_int_equal(json_array_size(perms), 2);
    json_t *ba = json_array_get(perms, 1);
    assert_int_equal(json_integer_value(json_array_get(
                     json_object_get(ba, "perm"), 0)), 1);
    assert_json_string(ba, "exact", "1/2");
    assert_int_equal(json_integer_value(json_object_get(ba, "count")), 1);
    json_t *m = json_object_get(root, "position_matrix");
    assert_int_equal(json_array_size(m), 2);
    assert_string_equal(json_string_value(json_array_get(json_array_get(m, 1),
                                                         0)), "1/2");
    json_decref(root);

    /* Biased: one order never comes. */
    static char one[] = "1", half[] = "1/2";
    w.outcomes[0] = (sb_exact_outcome){ w.samples, one, 1.0, 2.0, 2 };
    w.rep.n_outcomes = 1;
    w.rep.unreached = one;
    w.rep.tv = half;
    w.rep.tv_d = 0.5;
    w.rep.min_ratio = 0.0;
    w.rep.max_ratio = 2.0;
    w.rep.verdict = SB_EXACT_BIASED;
    w.rep.n_never = 1;
    w.rep.never = w.samples + 2;
    t = rendered(exact_text_of, &w.rep);
    assert_contains(t, "never reached: 1 of 2 orders: BA\n");
    assert_contains(t, "max/min probability ratio: infinite");
    assert_contains(t, "verdict: NOT UNIFORM - total-variation distance 1/2 "
                       "(0.5) from uniform\n");
    free(t);
    root = parsed(exact_json_of, &w.rep);
    assert_true(json_is_false(json_object_get(root, "uniform")));
    assert_json_string(root, "tv_distance_exact", "1/2");
    assert_int_equal(json_integer_value(json_object_get(root,
                     "never_reached")), 1);
    json_decref(root);

    /* Interrupted: the totals, no outcome listed. */
    static char explored[] = "3/4", rest[] = "1/4";
    w.rep.summary_only = 1;
    w.rep.paths = 5;
    w.rep.reached = 1;
    w.rep.explored = explored;
    w.rep.explored_d = 0.75;
    w.rep.unexplored = rest;
    w.rep.unexplored_d = 0.25;
    t = rendered(exact_text_of, &w.rep);
    assert_contains(t, "interrupted after 5 paths: 1 of 2 orders reached\n");
    assert_contains(t, "verdict: INCONCLUSIVE - interrupted");
    free(t);
    root = parsed(exact_json_of, &w.rep);
    assert_true(json_is_false(json_object_get(root, "outcomes_listed")));
    assert_true(json_is_true(json_object_get(root, "partial")));
    assert_json_string(root, "explored_mass", "3/4");
    assert_null(json_object_get(root, "permutations"));
    json_decref(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outcome),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_json_streamed_tables),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_corrected_p),
        cmocka_unit_test(test_audit),
        cmocka_unit_test(test_audit_worst_ties),
        cmocka_unit_test(test_exact),
        cmocka_unit_test(test_csv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
