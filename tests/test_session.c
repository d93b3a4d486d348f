/*
 * test_session.c - the library's API (include/shufflebias/session.h): a
 * session runs what 'shufflebias test' and 'exact' run and writes the
 * same JSON; its errors come back as statuses with a reason, never
 * printed.
 *
 * False alarms: every run here has a fixed seed, so each verdict is the
 * same every time; the fair shuffles would fail a randomly seeded run
 * with probability at most 1e-6 (the fail threshold on Holm-adjusted
 * p-values), and the biased ones tested are biased far beyond what their
 * samples need to show it.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>
#include <jansson.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>

#include "shufflebias/shufflebias.h"
#include "tests/sb_tmpdir.h"

static int fair(void *state, const sb_shuffle_args *a, sb_src *src,
                sb_card *out)
{
    (void)state;
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)i;
    for (size_t i = a->n - 1; i > 0; i--) {
        size_t j = (size_t)sb_below(src, i + 1);
        sb_card t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
    return SB_OK;
}

/* Fair until its 1000th sample, which holds card 0 twice. */
typedef struct bad_state { uint64_t made; } bad_state;
static int bad_init(void **state, const sb_shuffle_args *a)
{
    (void)a;
    *state = calloc(1, sizeof(bad_state));
    return *state ? SB_OK : SB_ENOMEM;
}
static void bad_reset(void *state, const sb_shuffle_args *a)
{
    (void)state;
    (void)a;
}
static int bad(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    fair(NULL, a, src, out);
    if (++((bad_state *)state)->made == 1000)
        out[1] = out[0];
    return SB_OK;
}

static const sb_shuffle_type own_fair = {
    .name = "own-fair", .summary = "Durstenfeld", .source = "test",
    .bias = "none", .kind = SB_KIND_PERMUTATION, .n_min = 1,
    .n_max = SB_DECK_MAX, .run = fair,
};
static const sb_shuffle_type own_bad = {
    .name = "own-bad", .summary = "a duplicate card", .source = "test",
    .bias = "not a permutation", .kind = SB_KIND_PERMUTATION, .n_min = 1,
    .n_max = SB_DECK_MAX, .init = bad_init, .reset = bad_reset,
    .free = free, .run = bad,
};

static int setup(void **state)
{
    return sb_test_tmpdir(state, "sb-session");
}

static int teardown(void **state)
{
    return sb_test_tmpdir_remove(state);
}

static sb_session *session(void)
{
    sb_session *s;
    assert_int_equal(sb_session_new(&s), SB_OK);
    return s;
}

/* A JSON report without its timing, which no two runs share. */
static json_t *load(const char *path)
{
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    if (!j)
        fail_msg("%s: %s", path, e.text);
    json_object_del(j, "timing");
    return j;
}

/* The JSON the library writes is the program's, for the same run. */
static void same_json_as_the_program(void **state)
{
    const char *dir = *state;
    char cli[256], lib[256], cmd[1024];
    snprintf(cli, sizeof cli, "%s/cli.json", dir);
    snprintf(lib, sizeof lib, "%s/lib.json", dir);
    snprintf(cmd, sizeof cmd, "%s test riffle --param passes=3 --n 52 "
             "--samples 300000 --seed 11 --threads 1 --tests "
             "position,rising --quiet --json %s", SB_CLI_PATH, cli);
    const int status = system(cmd);
    assert_true(WIFEXITED(status));
    sb_session *s = session();
    assert_int_equal(sb_session_set_shuffle(s, "riffle"), SB_OK);
    assert_int_equal(sb_session_set_param(s, "passes=3"), SB_OK);
    assert_int_equal(sb_session_set_samples(s, 300000), SB_OK);
    assert_int_equal(sb_session_set_seed(s, 11), SB_OK);
    assert_int_equal(sb_session_set_tests(s, "position,rising"), SB_OK);
    assert_int_equal(sb_session_test(s), SB_OK);
    /* Three riffles of 52 cards: far from random, and the program said
       so with exit code 1. */
    assert_int_equal(WEXITSTATUS(status), 1);
    assert_int_equal(sb_session_verdict(s), SB_VERDICT_FAIL);
    assert_string_equal(sb_session_verdict_str(s), "fail");
    /* The program diagnoses a fail; the library when asked. */
    assert_int_equal(sb_session_diagnose(s), SB_OK);
    assert_int_equal(sb_session_save_json(s, lib), SB_OK);
    json_t *a = load(cli), *b = load(lib);
    assert_true(json_equal(a, b));
    json_decref(a);
    json_decref(b);
    const sb_report *rep = sb_session_report(s);
    assert_int_equal(rep->n_results, 2);
    assert_string_equal(rep->results[1].name, "rising");
    assert_null(sb_session_exact_report(s));
    sb_session_free(s);
}

/* Threads change nothing but the time. */
static void threads_change_no_count(void **state)
{
    (void)state;
    double stat[2];
    for (unsigned k = 0; k < 2; k++) {
        sb_session *s = session();
        assert_int_equal(sb_session_set_shuffle_type(s, &own_fair), SB_OK);
        assert_int_equal(sb_session_set_n(s, 10), SB_OK);
        assert_int_equal(sb_session_set_samples(s, 400000), SB_OK);
        assert_int_equal(sb_session_set_threads(s, k ? 2 : 1), SB_OK);
        assert_int_equal(sb_session_test(s), SB_OK);
        assert_int_equal(sb_session_verdict(s), SB_VERDICT_PASS);
        stat[k] = sb_session_report(s)->results[0].statistic;
        sb_session_free(s);
    }
    assert_true(stat[0] == stat[1]);
}

/* Errors come back with their reason, and change no setting. */
static void errors_are_returned(void **state)
{
    (void)state;
    sb_session *s = session();
    assert_string_equal(sb_session_error(s), "");
    assert_int_equal(sb_session_test(s), SB_EINVAL);
    assert_string_equal(sb_session_error(s), "no shuffle set");
    assert_int_equal(sb_session_set_param(s, "passes=2"), SB_EINVAL);
    assert_int_equal(sb_session_set_shuffle(s, "fisher-yeats"), SB_ENOTFOUND);
    assert_string_equal(sb_session_error(s), "unknown algorithm "
                        "'fisher-yeats' (did you mean 'fisher-yates'?); "
                        "'shufflebias list' names them");
    assert_int_equal(sb_session_set_shuffle(s, "riffle"), SB_OK);
    assert_int_equal(sb_session_set_param(s, "passes=0"), SB_ERANGE);
    assert_int_equal(sb_session_set_param(s, "flips=2"), SB_ENOTFOUND);
    assert_int_equal(sb_session_set_n(s, 0), SB_EINVAL);
    assert_int_equal(sb_session_set_escalations(s, 9), SB_EINVAL);
    assert_int_equal(sb_session_set_threads(s, 257), SB_EINVAL);
    assert_int_equal(sb_session_set_samples(s, 0), SB_EINVAL);
    assert_int_equal(sb_session_set_seed(s, (uint64_t)1 << 63), SB_EINVAL);
    assert_int_equal(sb_session_set_rng(s, "no-such-rng"), SB_OK);
    assert_int_equal(sb_session_test(s), SB_ENOTFOUND);
    assert_int_equal(sb_session_set_rng(s, "mt19937"), SB_OK);
    assert_int_equal(sb_session_set_tests(s, "position,position"), SB_OK);
    assert_int_equal(sb_session_test(s), SB_EINVAL);
    assert_non_null(strstr(sb_session_error(s), "named twice"));
    /* High-card points need a deck of 52 cards. */
    assert_int_equal(sb_session_set_tests(s, "hcp"), SB_OK);
    assert_int_equal(sb_session_set_n(s, 5), SB_OK);
    assert_int_equal(sb_session_test(s), SB_EINVAL);
    assert_int_equal(sb_session_write_json(s, stdout), SB_EINVAL);
    assert_int_equal(sb_session_save_json(s, "/nonexistent/x.json"),
                     SB_EINVAL);
    sb_session_free(s);
    sb_session_free(NULL);
}

/* The caller's own shuffle has every sample checked: a bad one ends the
   run, which says which sample, and the report covers those before. */
static void a_bad_sample_ends_the_run(void **state)
{
    (void)state;
    sb_session *s = session();
    assert_int_equal(sb_session_set_shuffle_type(s, &own_bad), SB_OK);
    assert_int_equal(sb_session_set_n(s, 8), SB_OK);
    assert_int_equal(sb_session_set_samples(s, 100000), SB_OK);
    assert_int_equal(sb_session_test(s), SB_EINVAL);
    assert_non_null(strstr(sb_session_error(s), "'own-bad'"));
    assert_non_null(strstr(sb_session_error(s), "1000"));
    assert_string_equal(sb_session_verdict_str(s), "error");
    assert_int_equal(sb_session_report(s)->run.done, 999);
    sb_session_free(s);
}

/* A stop flag already set: nothing counted, said as an interrupt. */
static void a_stop_interrupts(void **state)
{
    (void)state;
    static volatile sig_atomic_t stop = 1;
    sb_session *s = session();
    assert_int_equal(sb_session_set_shuffle(s, "fisher-yates"), SB_OK);
    sb_session_set_stop(s, &stop);
    assert_int_equal(sb_session_test(s), SB_EINTR);
    assert_string_equal(sb_session_verdict_str(s), "incomplete");
    assert_true(sb_session_report(s)->run.partial);
    sb_session_free(s);
}

/* Exact mode: a proof either way, and its JSON. */
static void exact_walks(void **state)
{
    const char *dir = *state;
    sb_session *s = session();
    assert_int_equal(sb_session_set_shuffle(s, "naive-swap"), SB_OK);
    assert_int_equal(sb_session_set_n(s, 3), SB_OK);
    assert_int_equal(sb_session_exact(s), SB_OK);
    const sb_exact_report *rep = sb_session_exact_report(s);
    assert_int_equal(rep->verdict, SB_EXACT_BIASED);
    assert_int_equal(rep->paths, 27);
    assert_string_equal(rep->tv, "1/18");
    assert_string_equal(sb_session_verdict_str(s), "biased");
    assert_null(sb_session_report(s));
    assert_int_equal(sb_session_verdict(s), SB_VERDICT_NA);
    char path[256];
    snprintf(path, sizeof path, "%s/exact.json", dir);
    assert_int_equal(sb_session_save_json(s, path), SB_OK);
    json_t *j = load(path);
    assert_string_equal(json_string_value(json_object_get(j, "tv_distance_exact")), "1/18");
    json_decref(j);
    assert_int_equal(sb_session_set_shuffle_type(s, &own_fair), SB_OK);
    assert_int_equal(sb_session_exact(s), SB_OK);
    assert_string_equal(sb_session_verdict_str(s), "uniform");
    assert_int_equal(sb_session_set_shuffle(s, "sort-random-keys"), SB_OK);
    assert_int_not_equal(sb_session_exact(s), SB_OK);
    assert_string_equal(sb_session_verdict_str(s), "");
    /* The reason alone: a program has no command-line options to raise
       (the program's message goes on with ": raise --max-paths ..."). */
    assert_null(strstr(sb_session_error(s), "--"));
    assert_non_null(strstr(sb_session_error(s), "paths, over the budget"));
    assert_int_equal(sb_session_set_shuffle(s, "naive-swap"), SB_OK);
    assert_int_equal(sb_session_set_n(s, 12), SB_OK);
    assert_int_equal(sb_session_exact(s), SB_ERANGE);
    assert_null(strstr(sb_session_error(s), "--"));
    assert_non_null(strstr(sb_session_error(s), "over the budget"));
    sb_session_free(s);
}

/* GSL's default error handler aborts the process: a session turns it
   off, since the library checks every GSL result and never ends its
   caller.  Runs first, while the handler is still GSL's default. */
static void gsl_cannot_abort(void **state)
{
    (void)state;
    assert_null(gsl_set_error_handler(NULL));
    sb_session *s;
    assert_int_equal(sb_session_new(&s), SB_OK);
    gsl_error_handler_t *h = gsl_set_error_handler(NULL);
    assert_non_null(h);
    gsl_set_error_handler(h);
    /* An error GSL reports, which would abort under its default. */
    gsl_sf_result r;
    assert_int_equal(gsl_sf_lngamma_e(0.0, &r), GSL_EDOM);
    sb_session_free(s);
}

/* A failing test is diagnosed on request: Sattolo's single cycle at 8
   cards (fails by far at 20000 decks, seed 5: a deterministic case). */
static void a_fail_is_diagnosed(void **state)
{
    (void)state;
    sb_session *s = session();
    assert_int_equal(sb_session_diagnose(s), SB_EINVAL);
    assert_int_equal(sb_session_set_shuffle(s, "sattolo"), SB_OK);
    assert_int_equal(sb_session_set_n(s, 8), SB_OK);
    assert_int_equal(sb_session_set_samples(s, 20000), SB_OK);
    assert_int_equal(sb_session_set_seed(s, 5), SB_OK);
    assert_int_equal(sb_session_test(s), SB_OK);
    assert_int_equal(sb_session_verdict(s), SB_VERDICT_FAIL);
    assert_int_equal(sb_session_report(s)->diagnosis.state,
                     SB_DIAGNOSIS_NONE);
    assert_int_equal(sb_session_diagnose(s), SB_OK);
    const sb_diagnosis *g = &sb_session_report(s)->diagnosis;
    assert_int_equal(g->state, SB_DIAGNOSIS_MATCH);
    assert_string_equal(g->name, "sattolo");
    assert_true(g->score >= g->threshold);
    sb_session_free(s);
}

static void version(void **state)
{
    (void)state;
    assert_string_equal(sb_version(), SB_VERSION_STRING);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gsl_cannot_abort),
        cmocka_unit_test(same_json_as_the_program),
        cmocka_unit_test(threads_change_no_count),
        cmocka_unit_test(errors_are_returned),
        cmocka_unit_test(a_bad_sample_ends_the_run),
        cmocka_unit_test(a_stop_interrupts),
        cmocka_unit_test(exact_walks),
        cmocka_unit_test(a_fail_is_diagnosed),
        cmocka_unit_test(version),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
