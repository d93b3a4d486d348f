/*
 * sb_runs.h - one sampling run of a shuffle from a test, through the
 * library's own runner, for the tests that check what a statistic sees on
 * a real algorithm.  Include after sb_test.h (it asserts).
 */
#ifndef SB_RUNS_H
#define SB_RUNS_H

#include <stddef.h>
#include <stdint.h>
#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "engine/runner.h"

/* The registry algorithm called 'name'; fails the test when there is
   none. */
static inline const sb_shuffle_type *sb_test_alg(const char *name)
{
    const sb_shuffle_type *t = sb_shuffle_find(name);
    assert_non_null(t);
    return t;
}

/* Run 't' at its defaults and then 'params' ("k=v", NULL-ended; or NULL)
   on n cards for 'samples' samples from 'seed' on the source 'rng',
   counting 'stats'; the run must succeed and count every sample. */
static inline void sb_test_run(const sb_shuffle_type *t,
                               const char *const *params, size_t n,
                               uint64_t samples, uint64_t seed,
                               const char *rng,
                               const sb_stat_type *const *stats,
                               size_t n_stats, sb_report *rep)
{
    sb_run_config cfg = {
        .alg = t,
        .args = { .n = n },
        .samples = samples,
        .seed = seed,
        .rng = rng,
        .stats = stats,
        .n_stats = n_stats,
    };
    sb_shuffle_defaults(t, &cfg.args);
    for (size_t i = 0; params != NULL && params[i] != NULL; i++)
        assert_int_equal(sb_shuffle_set_param(t, &cfg.args, params[i]),
                         SB_OK);
    char err[256] = "";
    const int rc = sb_run(&cfg, rep, err, sizeof err);
    if (rc != SB_OK)
        print_error("sb_run: %s\n", err);
    assert_int_equal(rc, SB_OK);
    assert_true(rep->run.done == samples);
}

/* Two reports agree on everything counted and computed, bit for bit:
   samples, tally, and every statistic's value, p-value and table (their
   timing aside). */
static inline void sb_test_same_counts(const sb_report *a, const sb_report *b)
{
    assert_int_equal(a->n_results, b->n_results);
    assert_int_equal(a->run.done, b->run.done);
    assert_memory_equal(&a->run.tally, &b->run.tally, sizeof a->run.tally);
    assert_int_equal(a->verdict, b->verdict);
    for (size_t i = 0; i < a->n_results; i++) {
        const sb_result *x = &a->results[i], *y = &b->results[i];
        assert_string_equal(x->name, y->name);
        assert_int_equal(x->applicable, y->applicable);
        assert_memory_equal(&x->statistic, &y->statistic, sizeof(double));
        assert_memory_equal(&x->df, &y->df, sizeof(double));
        assert_memory_equal(&x->p_value, &y->p_value, sizeof(double));
        assert_memory_equal(&x->p_adjusted, &y->p_adjusted, sizeof(double));
        const sb_table *tx = &x->table, *ty = &y->table;
        assert_int_equal(tx->rows * tx->cols, ty->rows * ty->cols);
        if (tx->rows * tx->cols != 0)
            assert_memory_equal(tx->observed, ty->observed,
                                tx->rows * tx->cols * sizeof *tx->observed);
    }
}

#endif /* SB_RUNS_H */
