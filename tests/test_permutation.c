/*
 * test_permutation.c - the permutation statistic (stats/permutation.c):
 * how often each whole order of a small deck comes out.
 *
 * Exact values come with their source.  Statistical assertions use fixed
 * seeds (so they are deterministic) and state the false-alarm rate they
 * would have over random seeds.
 */
#include "tests/sb_stats.h"

#include <stdlib.h>
#include <gsl/gsl_errno.h>
#include "stats/registry.h"

/* ---- permutation ------------------------------------------------------ */

/* Every order of 4, ten times each: X^2 = 0 in the dense regime
   (10 >= 5 per cell), chi-square(23), a 1 x 24 table by rank. */
static void test_permutation_dense_exact(void **state)
{
    (void)state;
    sb_card all[240 * 4], a[4] = { 0, 1, 2, 3 };
    size_t i = 0;
    do
        for (int t = 0; t < 10; t++)
            memcpy(all + 4 * i++, a, sizeof a);
    while (next_perm(a, 4));
    assert_int_equal(i, 240);
    sb_result r;
    run_stat(&sb_stat_permutation, 4, all, 240, &r);
    assert_true(r.applicable);
    assert_close(r.statistic, 0.0, 0);
    assert_close(r.df, 23.0, 0);
    assert_close(r.p_value, 1.0, 0);
    assert_string_equal(r.null_desc, "uniform over 4! = 24 orders; "
                                     "chi-square(23)");
    assert_int_equal(r.table.cols, 24);
    for (size_t c = 0; c < 24; c++) {
        assert_close(r.table.observed[c], 10.0, 0);
        assert_int_equal(r.table.lo[c], (long)c);
    }
    sb_result_clear(&r);
}

/* Fair decks of n cards, S of them, from 'seed'; the permutation result. */
static void permutation_of_fair(size_t n, size_t samples, uint64_t seed,
                                sb_result *r)
{
    sb_card *s = malloc(sizeof *s * n * samples);
    assert_non_null(s);
    for (size_t i = 0; i < samples; i++)
        xs_deck(&seed, s + i * n, n);
    run_stat(&sb_stat_permutation, n, s, samples, r);
    free(s);
}

/* n = 7, 1000 samples: 0.2 expected per order and N <= 7!/4, so the
   repeated pairs are counted against Poisson(C(1000,2)/5040 = 99.1).  A
   fair shuffle passes (p >= 1e-6: false alarm 1e-6 at this fixed seed);
   the identity every time is caught with a p-value that underflows. */
static void test_permutation_sparse(void **state)
{
    (void)state;
    enum { N = 7, S = 1000 };
    sb_result r;
    permutation_of_fair(N, S, 0x5eed0002ull, &r);
    assert_true(r.applicable);
    assert_non_null(strstr(r.null_desc, "Poisson(99.1071)"));
    assert_true(r.p_value >= 1e-6);
    /* Every order kept, as at 6 cards and fewer: 5040 counts summing to
       the samples, each order its rank as its range. */
    assert_int_equal(r.table.rows, 1);
    assert_int_equal(r.table.cols, 5040);
    double total = 0;
    for (size_t c = 0; c < 5040; c++)
        total += r.table.observed[c];
    assert_close(total, (double)S, 0);
    assert_int_equal(r.table.lo[5039], 5039);
    assert_close(r.table.expected[0], (double)S / 5040, 1e-15);
    sb_result_clear(&r);

    sb_card *s = malloc(sizeof *s * N * S);
    assert_non_null(s);
    for (size_t i = 0; i < S; i++)
        for (size_t j = 0; j < N; j++)
            s[i * N + j] = (sb_card)j;
    run_stat(&sb_stat_permutation, N, s, S, &r);
    assert_int_equal(r.p_underflow, 1);
    assert_close(r.statistic, 499500.0, 0);   /* every pair repeats */
    assert_string_equal(r.effect_desc,
                        "order ABCDEFG: 503900% more often than uniform");
    sb_result_clear(&r);
    free(s);

    /* n = 8, 20000 samples: 0.5 per order, C(20000,2)/40320 = 4960
       repeats expected: x2 against the normal with its exact moments
       (false alarm 1e-6 at this fixed seed). */
    permutation_of_fair(8, 20000, 0x5eed0012ull, &r);
    assert_true(r.applicable);
    assert_non_null(strstr(r.note, "sparse"));
    assert_close(r.df, 40319.0, 0);
    assert_true(r.p_value >= 1e-6);
    assert_true(r.detectable > 0);
    sb_result_clear(&r);

    /* n = 7, 2000 samples: 2000 > 5040/4 and C(2000,2)/5040 = 397 < 1000:
       between the two approximations, so not applicable, saying why. */
    permutation_of_fair(7, 2000, 0x5eed0013ull, &r);
    assert_false(r.applicable);
    assert_non_null(strstr(r.note, "use at least 3175 samples"));
    sb_result_clear(&r);
}

/* Very few samples of many orders: one or two repeated pairs are common
   and must not read as bias.  2000 fair runs of 100 decks of 8 cards
   (0.12 repeats expected): with Poisson upper-tail p-values at most about
   2 runs are expected below 1e-3; more than 10 has probability below 1e-5
   for a calibrated test (binomial tail), so that is the false-alarm rate.
   The
   normal tail used before for such runs failed about 1% of them. */
static void test_permutation_few_samples_calibrated(void **state)
{
    (void)state;
    unsigned low = 0;
    for (uint64_t run = 0; run < 2000; run++) {
        sb_result r;
        permutation_of_fair(8, 100, 0x5eed1000ull + run, &r);
        assert_true(r.applicable);
        low += r.p_value < 1e-3;
        sb_result_clear(&r);
    }
    assert_true(low <= 10);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_permutation_dense_exact),
        cmocka_unit_test(test_permutation_sparse),
        cmocka_unit_test(test_permutation_few_samples_calibrated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
