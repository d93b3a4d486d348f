/*
 * test_nulls.c - the exact null laws (stats/nulls.c) against published
 * values and a brute force over every permutation of a small deck.
 *
 * Exact values come with their source.  Statistical assertions use fixed
 * seeds (so they are deterministic) and state the false-alarm rate they
 * would have over random seeds.
 */
#include "tests/sb_stats.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_errno.h>
#include "stats/nulls.h"

/* ---- exact nulls ------------------------------------------------------ */

/* A law's counts and its probabilities against published rows: row
   n - first of 'rows' holds the counts for k = 0..n, n = first..last; the
   probabilities times n! give them again. */
static void check_rows(int (*count)(size_t, uint64_t *),
                       int (*prob)(size_t, double *),
                       const uint64_t *const *rows, size_t first,
                       size_t last)
{
    for (size_t n = first; n <= last; n++) {
        const uint64_t *want = rows[n - first];
        uint64_t c[8];
        double p[8];
        assert_true(n < 8);
        assert_int_equal(count(n, c), SB_OK);
        assert_int_equal(prob(n, p), SB_OK);
        const double f = (double)sb_null_factorial(n);
        for (size_t k = 0; k <= n; k++) {
            assert_int_equal(c[k], want[k]);
            assert_true(fabs(p[k] * f - (double)want[k]) < 1e-9);
        }
    }
}

/* OEIS A008290, rencontres numbers D(n,k), rows n = 4, 5, 6. */
static void test_rencontres_published(void **state)
{
    (void)state;
    static const uint64_t d4[] = { 9, 8, 6, 0, 1 };
    static const uint64_t d5[] = { 44, 45, 20, 10, 0, 1 };
    static const uint64_t d6[] = { 265, 264, 135, 40, 15, 0, 1 };
    const uint64_t *const rows[] = { d4, d5, d6 };
    check_rows(sb_null_fixed_points_count, sb_null_fixed_points, rows, 4, 6);
}

/* OEIS A132393 (unsigned Stirling numbers of the first kind, with the k = 0
   column; A008275 signed): c(5,k) = 0, 24, 50, 35, 10, 1 and
   c(6,k) = 0, 120, 274, 225, 85, 15, 1. */
static void test_stirling_published(void **state)
{
    (void)state;
    static const uint64_t c5[] = { 0, 24, 50, 35, 10, 1 };
    static const uint64_t c6[] = { 0, 120, 274, 225, 85, 15, 1 };
    const uint64_t *const rows[] = { c5, c6 };
    check_rows(sb_null_cycles_count, sb_null_cycles, rows, 5, 6);
}

/* At n = 20, the largest exact row: the integers sum to 20! (every
   permutation has some number of fixed points and of cycles) and the
   double probabilities agree with them to 1e-12. */
static void test_nulls_n20(void **state)
{
    (void)state;
    uint64_t d[21], c[21];
    double pd[21], pc[21];
    const uint64_t f20 = 2432902008176640000ull;   /* 20!, A000142 */
    assert_int_equal(sb_null_factorial(20), f20);
    assert_int_equal(sb_null_factorial(21), 0);
    assert_int_equal(sb_null_fixed_points_count(20, d), SB_OK);
    assert_int_equal(sb_null_cycles_count(20, c), SB_OK);
    assert_int_equal(sb_null_fixed_points(20, pd), SB_OK);
    assert_int_equal(sb_null_cycles(20, pc), SB_OK);
    uint64_t sd = 0, sc = 0;
    for (size_t k = 0; k <= 20; k++) {
        sd += d[k];
        sc += c[k];
        assert_close(pd[k], (double)d[k] / (double)f20, 1e-12);
        assert_close(pc[k], (double)c[k] / (double)f20, 1e-12);
    }
    assert_int_equal(sd, f20);
    assert_int_equal(sc, f20);
    /* !20 = 895014631192902121 (OEIS A000166) */
    assert_int_equal(d[0], 895014631192902121ull);
    assert_int_equal(sb_null_fixed_points_count(21, d), SB_EINVAL);
    assert_int_equal(sb_null_fixed_points(0, pd), SB_EINVAL);
}

/* The sum of p[0..k-1] and the mean of the value k with probability
   p[k]. */
static void sum_and_mean(const double *p, size_t k, double *sum,
                         double *mean)
{
    *sum = *mean = 0.0;
    for (size_t v = 0; v < k; v++) {
        *sum += p[v];
        *mean += (double)v * p[v];
    }
}

/* Large n, where only doubles are possible: both distributions sum to 1,
   the mean number of fixed points is 1 (n >= 1) and the mean number of
   cycles is the harmonic number H_n (Knuth, TAOCP 1.2.10). */
static void test_nulls_large(void **state)
{
    (void)state;
    const size_t sizes[] = { 2, 52, 1000, 65535 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const size_t n = sizes[s];
        double *p = malloc((n + 1) * sizeof *p);
        assert_non_null(p);
        double sum, mean, h = 0;
        assert_int_equal(sb_null_fixed_points(n, p), SB_OK);
        sum_and_mean(p, n + 1, &sum, &mean);
        assert_close(sum, 1.0, 1e-12);
        assert_close(mean, 1.0, 1e-12);
        assert_int_equal(sb_null_cycles(n, p), SB_OK);
        sum_and_mean(p, n + 1, &sum, &mean);
        for (size_t k = n; k >= 1; k--)
            h += 1.0 / (double)k;
        assert_close(sum, 1.0, 1e-10);
        assert_close(mean, h, 1e-10);
        free(p);
    }
}

/* Independent brute force: all 7! = 5040 permutations in lexicographic
   order.  Their index is their rank; fixed points and cycles counted here
   by the simplest code reproduce the nulls exactly. */
static void test_brute_force_n7(void **state)
{
    (void)state;
    enum { N = 7 };
    sb_card a[N], b[N];
    uint64_t fixed[N + 1] = { 0 }, cyc[N + 1] = { 0 };
    for (size_t i = 0; i < N; i++)
        a[i] = (sb_card)i;
    uint64_t index = 0;
    do {
        assert_int_equal(sb_null_perm_rank(a, N), index);
        assert_int_equal(sb_null_perm_unrank(index, N, b), SB_OK);
        assert_memory_equal(a, b, sizeof a);
        size_t f = 0, c = 0;
        int seen[N] = { 0 };
        for (size_t j = 0; j < N; j++) {
            f += a[j] == j;
            if (!seen[j]) {
                c++;
                for (size_t x = j; !seen[x]; x = a[x])
                    seen[x] = 1;
            }
        }
        fixed[f]++;
        cyc[c]++;
        index++;
    } while (next_perm(a, N));
    assert_int_equal(index, 5040);
    assert_int_equal(sb_null_perm_unrank(5040, N, b), SB_EINVAL);

    double pf[N + 1], pc[N + 1];
    uint64_t df[N + 1], dc[N + 1];
    sb_null_fixed_points(N, pf);
    sb_null_cycles(N, pc);
    sb_null_fixed_points_count(N, df);
    sb_null_cycles_count(N, dc);
    for (size_t k = 0; k <= N; k++) {
        assert_int_equal(df[k], fixed[k]);
        assert_int_equal(dc[k], cyc[k]);
        assert_true(fabs(pf[k] * 5040.0 - (double)fixed[k]) < 1e-9);
        assert_true(fabs(pc[k] * 5040.0 - (double)cyc[k]) < 1e-9);
    }
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rencontres_published),
        cmocka_unit_test(test_stirling_published),
        cmocka_unit_test(test_nulls_n20),
        cmocka_unit_test(test_nulls_large),
        cmocka_unit_test(test_brute_force_n7),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
