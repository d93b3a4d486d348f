/*
 * test_plan.c - sample-size planning (stats/plan.c): the bisection, and
 * the plan of each statistic against the forward computation it inverts
 * (the detectable effect the statistic's finalize reports).
 *
 * Nothing here is random: plans are arithmetic on the nulls.
 */
#include "tests/sb_stats.h"

#include <gsl/gsl_errno.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/plan.h"
#include "stats/registry.h"

/* ok(N) = N >= threshold, counting the calls. */
typedef struct step_ctx {
    uint64_t threshold;
    unsigned calls;
} step_ctx;

static int step_ok(void *ctx, uint64_t n)
{
    step_ctx *c = ctx;
    c->calls++;
    return n >= c->threshold;
}

/* A function that is true on a few islands only: the N returned must be
   one where it was seen true. */
static int islands_ok(void *ctx, uint64_t n)
{
    (void)ctx;
    return (n >= 700 && n < 720) || (n >= 5000 && n < 5003) || n > 90000;
}

static int failing_ok(void *ctx, uint64_t n)
{
    (void)ctx;
    (void)n;
    return -SB_ERANGE;
}

static void test_bisect(void **state)
{
    (void)state;
    const uint64_t thresholds[] = { 1, 2, 3, 1023, 1024, 1025, 4097,
                                    123456789, UINT64_C(1) << 40 };
    for (size_t i = 0; i < sizeof thresholds / sizeof *thresholds; i++) {
        step_ctx c = { thresholds[i], 0 };
        uint64_t n;
        assert_int_equal(sb_plan_bisect(step_ok, &c, 1024,
                                        SB_PLAN_SAMPLES_MAX, &n), SB_OK);
        assert_int_equal(n, thresholds[i]);
        assert_true(c.calls <= 2 * 64);
    }
    /* Never true up to max: 0. */
    step_ctx never = { 5000, 0 };
    uint64_t n = 7;
    assert_int_equal(sb_plan_bisect(step_ok, &never, 16, 4000, &n), SB_OK);
    assert_int_equal(n, 0);
    /* Not monotone: whatever it finds, ok holds there. */
    assert_int_equal(sb_plan_bisect(islands_ok, NULL, 1024,
                                    SB_PLAN_SAMPLES_MAX, &n), SB_OK);
    assert_true(n > 0);
    assert_int_equal(islands_ok(NULL, n), 1);
    /* A status stops it. */
    assert_int_equal(sb_plan_bisect(failing_ok, NULL, 1, 100, &n),
                     SB_ERANGE);
}

static sb_shape perm(size_t n)
{
    return (sb_shape){ .kind = SB_KIND_PERMUTATION, .n = n, .len = n };
}

/* 'position' is referred to chi-square((n-1)^2) whatever N, so its
   detectable distance is lambda* / N with lambda* from
   sb_gof_detectable_chisq: the plan must be ceil(lambda* / D), and the
   report at N - 1 must miss what the report at N catches. */
static void test_position_matches_forward(void **state)
{
    (void)state;
    const size_t ns[] = { 4, 16, 52 };
    const double effects[] = { 0.3, 0.05, 0.01 };
    const double powers[] = { 0.5, 0.9, 0.99 };
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 3; b++)
            for (size_t c = 0; c < 3; c++) {
                const size_t n = ns[a];
                const sb_shape s = perm(n);
                const sb_plan_effect e = { SB_PLAN_RELATIVE, effects[b],
                                           powers[c], 1e-6 / 11 };
                sb_plan_row row;
                assert_int_equal(sb_plan_stat(&sb_stat_position, &s, &e,
                                              &row), SB_OK);
                assert_true(row.planned);
                const double df = (double)((n - 1) * (n - 1));
                double lambda;
                assert_int_equal(sb_gof_detectable_chisq(df, e.alpha,
                                                         e.power, &lambda),
                                 SB_OK);
                const double p = 1.0 / (double)n;
                const double d = e.value * e.value * p / (1.0 - p);
                const double want = ceil(lambda / d);
                /* lambda* is found to a relative 1e-10, and the power
                   ratio recomputes it: within one sample of the exact
                   ceiling once N is in the millions. */
                assert_true(fabs((double)row.samples - want)
                            <= 1.0 + 1e-9 * want);
                assert_close(row.distance, d, 1e-12);
                /* The forward computation at N catches it, at N - 1
                   not. */
                sb_plan_point at, before;
                assert_int_equal(sb_plan_point_at(&sb_stat_position, &s,
                                                  row.samples, &e, &at),
                                 SB_OK);
                assert_int_equal(sb_plan_point_at(&sb_stat_position, &s,
                                                  row.samples - 1, &e,
                                                  &before), SB_OK);
                assert_true(sb_plan_catches(&at, &e));
                assert_false(sb_plan_catches(&before, &e));
                assert_true(at.distance <= d);
            }
}

/* At power 0.9 the plan reads the report's own figure: the detectable
   field of the statistic's result at N is at most the effect. */
static void test_report_figure(void **state)
{
    (void)state;
    const sb_shape s = perm(52);
    const double alpha = 1e-6 / 11;
    const sb_plan_effect e = { SB_PLAN_DISTANCE, 3e-3, 0.9, alpha };
    const sb_stat_type *stats[] = { &sb_stat_position, &sb_stat_fixed_points,
                                    &sb_stat_cycles, &sb_stat_rising,
                                    &sb_stat_successions, &sb_stat_poker7,
                                    &sb_stat_new_age_solitaire };
    for (size_t i = 0; i < sizeof stats / sizeof *stats; i++) {
        sb_plan_row row;
        assert_int_equal(sb_plan_stat(stats[i], &s, &e, &row), SB_OK);
        assert_true(row.planned);
        void *acc;
        assert_int_equal(stats[i]->alloc(&acc, &s), SB_OK);
        sb_result r, r1;
        assert_int_equal(stats[i]->finalize(acc, row.samples, alpha, &r),
                         SB_OK);
        assert_int_equal(stats[i]->finalize(acc, row.samples - 1, alpha,
                                            &r1), SB_OK);
        assert_true(r.applicable);
        assert_true(r.detectable <= e.value);
        /* The smallest such N for these (each one's detectable effect
           falls with N): one fewer misses. */
        assert_true(!r1.applicable || r1.detectable > e.value);
        assert_string_equal(row.at.words, r.detectable_desc);
        sb_result_clear(&r);
        sb_result_clear(&r1);
        stats[i]->free(acc);
    }
}

/* More power or a smaller effect never needs fewer samples. */
static void test_monotone(void **state)
{
    (void)state;
    const sb_shape s = perm(52);
    const sb_stat_type *stats[] = { &sb_stat_position, &sb_stat_fixed_points,
                                    &sb_stat_inversions };
    for (size_t i = 0; i < 3; i++) {
        uint64_t prev = 0;
        for (double v = 0.4; v > 0.004; v /= 2) {
            const sb_plan_effect e = { SB_PLAN_RELATIVE, v, 0.9, 1e-7 };
            sb_plan_row row;
            assert_int_equal(sb_plan_stat(stats[i], &s, &e, &row), SB_OK);
            assert_true(row.planned);
            assert_true(row.samples >= prev);
            prev = row.samples;
        }
        prev = 0;
        const double powers[] = { 0.5, 0.8, 0.9, 0.95, 0.999 };
        for (size_t k = 0; k < 5; k++) {
            const sb_plan_effect e = { SB_PLAN_RELATIVE, 0.05, powers[k],
                                       1e-7 };
            sb_plan_row row;
            assert_int_equal(sb_plan_stat(stats[i], &s, &e, &row), SB_OK);
            assert_true(row.samples > prev);
            prev = row.samples;
        }
    }
}

/* What cannot be planned says why. */
static void test_not_planned(void **state)
{
    (void)state;
    const sb_shape s = perm(52);
    const sb_plan_effect rel = { SB_PLAN_RELATIVE, 0.05, 0.9, 1e-7 };
    const sb_plan_effect dist = { SB_PLAN_DISTANCE, 1e-3, 0.9, 1e-7 };
    sb_plan_row row;
    assert_int_equal(sb_plan_stat(&sb_stat_collisions, &s, &dist, &row),
                     SB_OK);
    assert_false(row.planned);
    assert_non_null(strstr(row.reason, "not a chi-square distance"));
    /* new-age-solitaire's words are a win rate, not one cell's share:
       only a distance plans it. */
    assert_int_equal(sb_plan_stat(&sb_stat_new_age_solitaire, &s, &rel,
                                  &row), SB_OK);
    assert_false(row.planned);
    assert_non_null(strstr(row.reason, "distance"));
    assert_int_equal(sb_plan_stat(&sb_stat_new_age_solitaire, &s, &dist,
                                  &row), SB_OK);
    assert_true(row.planned);
    /* serial's report counts pairs of consecutive samples, and
       suit-lengths refuses counts that do not add up to the samples:
       neither can be read off N alone. */
    assert_int_equal(sb_plan_stat(&sb_stat_serial, &s, &dist, &row), SB_OK);
    assert_false(row.planned);
    assert_non_null(strstr(row.reason, "not read off the number of samples"));
    const sb_shape deal = { .kind = SB_KIND_DEAL, .n = 52, .len = 52,
                            .hands = 4 };
    assert_int_equal(sb_plan_stat(&sb_stat_suit_lengths, &deal, &dist,
                                  &row), SB_OK);
    assert_false(row.planned);
    assert_non_null(strstr(row.reason, "add up to the samples"));
    /* The other deal statistics are planned, and their report at N
       catches the effect. */
    const sb_stat_type *deals[] = { &sb_stat_card_hand,
                                    &sb_stat_hand_patterns, &sb_stat_hcp,
                                    &sb_stat_same_hand_pairs };
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(sb_plan_stat(deals[i], &deal, &dist, &row), SB_OK);
        assert_true(row.planned);
        sb_plan_point at;
        assert_int_equal(sb_plan_point_at(deals[i], &deal, row.samples,
                                          &dist, &at), SB_OK);
        assert_true(sb_plan_catches(&at, &dist));
    }
    /* A bias too small for 2^50 samples. */
    const sb_plan_effect tiny = { SB_PLAN_DISTANCE, 1e-16, 0.9, 1e-7 };
    assert_int_equal(sb_plan_stat(&sb_stat_fixed_points, &s, &tiny, &row),
                     SB_OK);
    assert_false(row.planned);
    assert_non_null(strstr(row.reason, "2^50"));
    /* Bad effects. */
    const sb_plan_effect bad = { SB_PLAN_RELATIVE, 0.0, 0.9, 1e-7 };
    assert_int_equal(sb_plan_stat(&sb_stat_position, &s, &bad, &row),
                     SB_EINVAL);
    const sb_plan_effect weak = { SB_PLAN_RELATIVE, 0.1, 1e-8, 1e-7 };
    assert_int_equal(sb_plan_stat(&sb_stat_position, &s, &weak, &row),
                     SB_EINVAL);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bisect),
        cmocka_unit_test(test_position_matches_forward),
        cmocka_unit_test(test_report_figure),
        cmocka_unit_test(test_monotone),
        cmocka_unit_test(test_not_planned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
