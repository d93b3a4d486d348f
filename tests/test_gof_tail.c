/*
 * test_gof_tail.c - the pooled statistics' p-values keep their promise in
 * the far tail: P(p <= a) <= a at every level a, the premise of the fail
 * threshold (docs/verdicts.md).
 *
 * No sampling: for a small law and a small number of samples every
 * outcome of the multinomial is enumerated, each with its exact
 * probability, and the code's p-value (sb_gof_pooled_begin, then
 * sb_gof_pooled_statistic and sb_gof_chisq_p, the calls sb_gof_law_result
 * makes) is computed for each; the exact probability of p <= a is then
 * summed and must not exceed a.  Deterministic, so no false-alarm rate: it
 * fails only when the code's tail does.  Pearson's X^2 referred to chi-square
 * over the same groups (the code before the binomial splits) fails every case:
 * in the first, P(p <= a) is 1.7 a at 1e-3, 8.6 a at 1e-6 and 27 a at 1e-7,
 * because one group expects 5 samples, as the sparse end of a 52-card law
 * does.
 */
#include "tests/sb_stats.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>
#include "stats/gof.h"
#include "stats/nulls.h"

#define LEVELS 8
static const double level[LEVELS] = { 1e-1, 1e-2, 1e-3, 1e-4, 1e-5,
                                      1e-6, 1e-7, 1e-8 };

typedef struct walk {
    const double *prob;
    size_t k;
    unsigned samples;
    sb_gof_pooled pooled;
    sb_table table;
    uint64_t counts[8];
    double mass[LEVELS];      /* P(p <= level[l]) so far */
    double total;             /* probability of every outcome visited */
    double checked;           /* outcomes also run through
                                 sb_gof_law_result */
} walk;

static double p_of(walk *w)
{
    size_t wg;
    double wc, p;
    int under;
    const double x = sb_gof_pooled_statistic(&w->pooled, w->counts, 0,
                                             &w->table, 0, &wg, &wc);
    assert_int_equal(sb_gof_chisq_p(x, (double)(w->pooled.groups - 1), &p,
                                    &under), SB_OK);
    return under ? 0.0 : p;
}

/* Every composition of 'left' samples into categories i..k-1. */
static void visit(walk *w, size_t i, unsigned left)
{
    if (i + 1 == w->k) {
        w->counts[i] = left;
        double lp = gsl_sf_lnfact(w->samples);
        for (size_t c = 0; c < w->k; c++)
            lp += (double)w->counts[c] * log(w->prob[c])
                  - gsl_sf_lnfact((unsigned)w->counts[c]);
        const double pr = exp(lp), p = p_of(w);
        w->total += pr;
        for (int l = 0; l < LEVELS; l++)
            if (p <= level[l])
                w->mass[l] += pr;
        /* Now and then the whole 1-D result: the same p-value. */
        if (w->checked < 50 && p < 1e-3) {
            const sb_gof_law law = { .prob = w->prob, .k = w->k,
                                     .one = "value", .many = "values",
                                     .desc = "test law" };
            sb_result r;
            assert_int_equal(sb_gof_law_result(&r, "tail", w->counts, &law,
                                               w->samples, 1e-6), SB_OK);
            assert_close(r.p_underflow ? 0.0 : r.p_value, p, 1e-12);
            sb_result_clear(&r);
            w->checked += 1.0;
        }
        return;
    }
    for (unsigned x = 0; x <= left; x++) {
        w->counts[i] = x;
        visit(w, i + 1, left - x);
    }
}

static void exact_tail(const double *prob, size_t k, unsigned samples,
                       size_t groups)
{
    walk w;
    memset(&w, 0, sizeof w);
    w.prob = prob;
    w.k = k;
    w.samples = samples;
    sb_result res;
    sb_gof_begin(&res, "tail");
    assert_int_equal(sb_gof_pooled_begin(&w.pooled, &res, prob, k, samples),
                     SB_OK);
    assert_int_equal(w.pooled.groups, groups);
    assert_int_equal(sb_gof_table_alloc(&w.table, 1, groups, 1), SB_OK);
    visit(&w, 0, samples);
    /* The enumeration covered the whole law. */
    assert_close(w.total, 1.0, 1e-9);
    assert_true(w.checked > 0);
    for (int l = 0; l < LEVELS; l++) {
        if (w.mass[l] > level[l] * (1.0 + 1e-9))
            fail_msg("P(p <= %g) = %.4g exceeds %g (law of %zu, %u "
                     "samples)", level[l], w.mass[l], level[l], k, samples);
    }
    /* Not trivially conservative: at 1e-2 the exact size is a sizeable
       share of the level (a statistic that never rejected would pass the
       check above). */
    assert_true(w.mass[1] > 0.2 * level[1]);
    sb_gof_pooled_end(&w.pooled);
    sb_result_clear(&res);
    free(w.table.observed);
    free(w.table.expected);
    free(w.table.lo);
    free(w.table.hi);
}

/* Expectations 30, 15, then 3 + 1.5 + 0.5 = 5 pooled into one group: the
   sparse end of a 52-card law (fixed points, successions) in small. */
static void test_exact_tail_three_groups(void **state)
{
    (void)state;
    const double prob[] = { 0.6, 0.3, 0.06, 0.03, 0.01 };
    exact_tail(prob, 5, 50, 3);
}

/* Four groups, two of them small (6 and 7.2 expected), 60 samples. */
static void test_exact_tail_four_groups(void **state)
{
    (void)state;
    const double prob[] = { 0.5, 0.28, 0.1, 0.08, 0.04 };
    exact_tail(prob, 5, 60, 4);
}

/* A symmetric split (every split probability 1/2 at some point) makes
   deviance ties on both sides, which must count as extreme. */
static void test_exact_tail_ties(void **state)
{
    (void)state;
    const double prob[] = { 0.25, 0.25, 0.25, 0.25 };
    exact_tail(prob, 4, 40, 4);
}

/* Where every group is large the statistic is the likelihood ratio
   G^2 = 2 sum O ln(O / E) over the groups, to within the binomials'
   discreteness: here 10^6 samples of the fixed points of 52 cards, the
   counts a few percent off their expectations. */
static void test_large_groups_are_g2(void **state)
{
    (void)state;
    double prob[53];
    sb_null_fixed_points(52, prob);
    const unsigned N = 1000000;
    sb_result res;
    sb_gof_begin(&res, "fixed-points");
    sb_gof_pooled p;
    assert_int_equal(sb_gof_pooled_begin(&p, &res, prob, 53, N), SB_OK);
    sb_table t;
    assert_int_equal(sb_gof_table_alloc(&t, 1, p.groups, 1), SB_OK);
    /* 0 and 1 fixed points 1% more and less often, the rest as expected
       (rounded). */
    uint64_t counts[53] = { 0 };
    uint64_t total = 0;
    for (size_t i = 1; i < 53; i++) {
        counts[i] = (uint64_t)llround(N * prob[i] * (i == 1 ? 0.99 : 1.0));
        total += counts[i];
    }
    counts[0] = N - total;
    size_t wg;
    double wc;
    const double stat = sb_gof_pooled_statistic(&p, counts, 0, &t, 0, &wg,
                                                &wc);
    double g2 = 0.0;
    for (size_t g = 0; g < p.groups; g++)
        if (t.observed[g] > 0.0)
            g2 += 2.0 * t.observed[g] * log(t.observed[g] / t.expected[g]);
    assert_true(g2 > 20.0);
    assert_close(stat, g2, 0.03);
    sb_gof_pooled_end(&p);
    sb_result_clear(&res);
    free(t.observed);
    free(t.expected);
    free(t.lo);
    free(t.hi);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_tail_three_groups),
        cmocka_unit_test(test_exact_tail_four_groups),
        cmocka_unit_test(test_exact_tail_ties),
        cmocka_unit_test(test_large_groups_are_g2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
