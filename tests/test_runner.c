/*
 * test_runner.c - the sampling loop: reproducible from its inputs, and an
 * interrupted run still reports every sample it made.
 */
#include "tests/sb_test.h"
#include "tests/sb_runs.h"

#include <string.h>
#include <gsl/gsl_errno.h>

#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "base/rng.h"
#include "engine/runner.h"
#include "stats/registry.h"

static sb_run_config config(const sb_shuffle_type *t, size_t n,
                            uint64_t samples, uint64_t seed, const char *rng)
{
    static const sb_stat_type *const stats[] = {
        &sb_stat_position, &sb_stat_fixed_points, &sb_stat_cycles
    };
    sb_run_config cfg = {
        .alg = t,
        .args = { .n = n },
        .samples = samples,
        .seed = seed,
        .rng = rng,
        .stats = stats,
        .n_stats = 3,
    };
    sb_shuffle_defaults(t, &cfg.args);
    return cfg;
}

/* Several chunks (the last one partial), run twice: the same counts. */
static void same_inputs_same_counts(void **state)
{
    (void)state;
    const char *rngs[] = { SB_RNG_DEFAULT, "mt19937", "rand15" };
    for (size_t k = 0; k < 3; k++) {
        sb_run_config cfg = config(&sb_shuffle_fisher_yates, 12,
                                   2 * SB_CHUNK_SAMPLES + 123, 77, rngs[k]);
        sb_report a, b;
        char err[256];
        assert_int_equal(sb_run(&cfg, &a, err, sizeof err), SB_OK);
        assert_int_equal(sb_run(&cfg, &b, err, sizeof err), SB_OK);
        assert_int_equal(a.run.done, 2 * SB_CHUNK_SAMPLES + 123);
        assert_false(a.run.partial);
        sb_test_same_counts(&a, &b);
        /* Every card was counted once per sample at each position. */
        double total = 0;
        for (size_t i = 0; i < 12 * 12; i++)
            total += a.results[0].table.observed[i];
        assert_true(total == 12.0 * (double)a.run.done);
        sb_report_release(&a);
        sb_report_release(&b);
    }
}

static void stop_after_first_chunk(void *ctx, uint64_t done, uint64_t total)
{
    (void)total;
    volatile sig_atomic_t *stop = ctx;
    if (done >= SB_CHUNK_SAMPLES)
        *stop = 1;
}

/* A stop request ends the run between blocks; the report covers exactly
   the samples made, is marked partial, and equals an uninterrupted run of
   that many samples. */
static void interrupted_run_reports_what_it_counted(void **state)
{
    (void)state;
    volatile sig_atomic_t stop = 0;
    sb_run_config cfg = config(&sb_shuffle_naive_swap, 6,
                               10 * SB_CHUNK_SAMPLES, 5, SB_RNG_DEFAULT);
    cfg.stop = &stop;
    cfg.progress = stop_after_first_chunk;
    cfg.progress_ctx = (void *)&stop;
    sb_report part, whole;
    char err[256];
    assert_int_equal(sb_run(&cfg, &part, err, sizeof err), SB_OK);
    assert_true(part.run.partial);
    assert_int_equal(part.run.done, SB_CHUNK_SAMPLES);
    assert_int_equal(part.run.samples, 10 * SB_CHUNK_SAMPLES);

    sb_run_config short_cfg = config(&sb_shuffle_naive_swap, 6,
                                     SB_CHUNK_SAMPLES, 5, SB_RNG_DEFAULT);
    assert_int_equal(sb_run(&short_cfg, &whole, err, sizeof err), SB_OK);
    assert_false(whole.run.partial);
    sb_test_same_counts(&part, &whole);
    sb_report_release(&part);
    sb_report_release(&whole);
}

static void refusals_say_why(void **state)
{
    (void)state;
    sb_report rep;
    char err[256];
    sb_run_config cfg = config(&sb_shuffle_fisher_yates, 5, 100, 1, "nope");
    assert_int_equal(sb_run(&cfg, &rep, err, sizeof err), SB_ENOTFOUND);
    assert_non_null(strstr(err, "'nope'"));
    /* 'permutation' does not apply to 52 cards. */
    static const sb_stat_type *const perm[] = { &sb_stat_permutation };
    cfg = config(&sb_shuffle_fisher_yates, 52, 100, 1, SB_RNG_DEFAULT);
    cfg.stats = perm;
    cfg.n_stats = 1;
    assert_int_equal(sb_run(&cfg, &rep, err, sizeof err), SB_EINVAL);
    assert_non_null(strstr(err, "permutation"));
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_inputs_same_counts),
        cmocka_unit_test(interrupted_run_reports_what_it_counted),
        cmocka_unit_test(refusals_say_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
