/*
 * test_order_stats.c - the order statistics: rising sequences, descents,
 * inversions and successions, and their exact nulls.
 *
 * Every null is checked three ways: against rows published in the OEIS
 * (source beside each), against a brute-force count over every
 * permutation of up to 8 cards written here from the definitions, and for
 * large decks by its total, mean and variance (formulas derived or cited
 * beside them).  The statistics are then run on real registry shuffles
 * with fixed seeds; each statistical assertion states its false-alarm
 * rate over random seeds.
 */
#include "tests/sb_test.h"
#include "tests/sb_sample.h"
#include "tests/sb_runs.h"

#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>

#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "base/rng.h"
#include "engine/runner.h"
#include "stats/nulls.h"
#include "stats/registry.h"

/* The four statistics under test, in registry order. */
static const sb_stat_type *const order_stats[] = {
    &sb_stat_rising, &sb_stat_descents, &sb_stat_inversions,
    &sb_stat_successions
};
#define N_ORDER 4

/* ---- building blocks --------------------------------------------------- */

/* The four statistics of one deck, from their definitions, as simply as
   possible (O(n^2) where that is simplest).

   Rising sequences as a magician reads them (Bayer & Diaconis 1992,
   section 1): look through the deck from the top for card 0, then on down
   for card 1, 2, ...; when the bottom is reached, that is one rising
   sequence, and the next starts again from the top with the card not yet
   found. */
static size_t bf_rising(const sb_card *a, size_t n)
{
    size_t r = 0, next = 0;
    while (next < n) {
        r++;
        for (size_t j = 0; j < n; j++)
            if (a[j] == next)
                next++;
    }
    return r;
}

static size_t bf_descents(const sb_card *a, size_t n)
{
    size_t d = 0;
    for (size_t j = 0; j + 1 < n; j++)
        d += a[j] > a[j + 1];
    return d;
}

static size_t bf_inversions(const sb_card *a, size_t n)
{
    size_t inv = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            inv += a[i] > a[j];
    return inv;
}

static size_t bf_successions(const sb_card *a, size_t n)
{
    size_t k = 0;
    for (size_t j = 0; j + 1 < n; j++)
        k += a[j + 1] == a[j] + 1;
    return k;
}

/* The value statistic i (order of order_stats) takes on deck 'a'. */
static size_t bf_value(size_t i, const sb_card *a, size_t n)
{
    switch (i) {
    case 0: return bf_rising(a, n);
    case 1: return bf_descents(a, n);
    case 2: return bf_inversions(a, n);
    default: return bf_successions(a, n);
    }
}

static sb_shape perm_shape(size_t n)
{
    sb_shape s = { SB_KIND_PERMUTATION, n, n, 0 };
    return s;
}

/* Accumulate 'count' decks of n cards with 't' and finalize. */
static void run_stat(const sb_stat_type *t, size_t n, const sb_card *decks,
                     size_t count, sb_result *res)
{
    sb_shape shape = perm_shape(n);
    void *acc;
    assert_int_equal(t->alloc(&acc, &shape), SB_OK);
    t->add(acc, decks, count);
    assert_int_equal(t->finalize(acc, count, 1e-6, res), SB_OK);
    t->free(acc);
}

/* The observed counts of a finalized result are exactly the histogram
   'hist' (value v at hist[v - first]) summed over each pooled group. */
static void assert_table_is(const sb_result *r, const uint64_t *hist,
                            long first)
{
    assert_true(r->applicable);
    assert_int_equal(r->table.rows, 1);
    assert_true(r->table.cols >= 2);
    for (size_t g = 0; g < r->table.cols; g++) {
        uint64_t o = 0;
        for (long v = r->table.lo[g]; v <= r->table.hi[g]; v++)
            o += hist[v - first];
        assert_close(r->table.observed[g], (double)o, 0);
    }
}

/* ---- published rows --------------------------------------------------- */

/* OEIS A008292, Eulerian numbers T(n,k) = A(n,k-1), rows n = 4..7:
   1 11 11 1 / 1 26 66 26 1 / 1 57 302 302 57 1 /
   1 120 1191 2416 1191 120 1. */
static void test_eulerian_published(void **state)
{
    (void)state;
    static const uint64_t e4[] = { 1, 11, 11, 1 };
    static const uint64_t e5[] = { 1, 26, 66, 26, 1 };
    static const uint64_t e6[] = { 1, 57, 302, 302, 57, 1 };
    static const uint64_t e7[] = { 1, 120, 1191, 2416, 1191, 120, 1 };
    const uint64_t *rows[] = { e4, e5, e6, e7 };
    for (size_t n = 4; n <= 7; n++) {
        uint64_t a[7];
        double p[7];
        assert_int_equal(sb_null_eulerian_count(n, a), SB_OK);
        assert_int_equal(sb_null_eulerian(n, p), SB_OK);
        const double f = (double)sb_null_factorial(n);
        for (size_t k = 0; k < n; k++) {
            assert_int_equal(a[k], rows[n - 4][k]);
            assert_close(p[k] * f, (double)rows[n - 4][k], 1e-13);
        }
    }
}

/* OEIS A008302, Mahonian numbers, rows n = 4..6:
   1 3 5 6 5 3 1 / 1 4 9 15 20 22 20 15 9 4 1 /
   1 5 14 29 49 71 90 101 101 90 71 49 29 14 5 1. */
static void test_mahonian_published(void **state)
{
    (void)state;
    static const uint64_t m4[] = { 1, 3, 5, 6, 5, 3, 1 };
    static const uint64_t m5[] = { 1, 4, 9, 15, 20, 22, 20, 15, 9, 4, 1 };
    static const uint64_t m6[] = { 1, 5, 14, 29, 49, 71, 90, 101, 101, 90,
                                   71, 49, 29, 14, 5, 1 };
    const uint64_t *rows[] = { m4, m5, m6 };
    for (size_t n = 4; n <= 6; n++) {
        const size_t max = sb_null_inversions_max(n);
        assert_int_equal(max, n * (n - 1) / 2);
        uint64_t c[16];
        double p[16];
        assert_int_equal(sb_null_inversions_count(n, c), SB_OK);
        assert_int_equal(sb_null_inversions(n, p), SB_OK);
        const double f = (double)sb_null_factorial(n);
        for (size_t k = 0; k <= max; k++) {
            assert_int_equal(c[k], rows[n - 4][k]);
            assert_close(p[k] * f, (double)rows[n - 4][k], 1e-13);
        }
    }
    assert_int_equal(sb_null_inversions_max(1), 0);
    assert_int_equal(sb_null_inversions_max(52), 1326);
}

/* OEIS A010027 ("Triangle of permutations of 1..n by number of
   consecutive ascending pairs") lists row n from k = n-1 down to k = 0:
   1 3 9 11 / 1 4 18 44 53 / 1 5 30 110 265 309 for n = 4, 5, 6 (its
   worked example: 123, 132, 213, 231, 312, 321 have 2, 0, 0, 1, 1, 0
   such pairs, so n = 3 reads 1 2 3).  The k = 0 column is OEIS A000255,
   a(n-1) for n = 1..20. */
static void test_successions_published(void **state)
{
    (void)state;
    static const uint64_t s4[] = { 1, 3, 9, 11 };
    static const uint64_t s5[] = { 1, 4, 18, 44, 53 };
    static const uint64_t s6[] = { 1, 5, 30, 110, 265, 309 };
    const uint64_t *rows[] = { s4, s5, s6 };
    for (size_t n = 4; n <= 6; n++) {
        uint64_t s[6];
        double p[6];
        assert_int_equal(sb_null_successions_count(n, s), SB_OK);
        assert_int_equal(sb_null_successions(n, p), SB_OK);
        const double f = (double)sb_null_factorial(n);
        for (size_t k = 0; k < n; k++) {
            const uint64_t want = rows[n - 4][n - 1 - k];
            assert_int_equal(s[k], want);
            assert_close(p[k] * f, (double)want, 1e-13);
        }
    }
    /* A000255: a(0..19). */
    static const uint64_t a255[] = {
        1ull, 1ull, 3ull, 11ull, 53ull, 309ull, 2119ull, 16687ull,
        148329ull, 1468457ull, 16019531ull, 190899411ull, 2467007773ull,
        34361893981ull, 513137616783ull, 8178130767479ull,
        138547156531409ull, 2486151753313617ull, 47106033220679059ull,
        939765362752547227ull
    };
    for (size_t n = 1; n <= 20; n++) {
        uint64_t s[20];
        assert_int_equal(sb_null_successions_count(n, s), SB_OK);
        assert_int_equal(s[0], a255[n - 1]);
    }
}

/* ---- brute force over every permutation ------------------------------- */

/* All n! permutations of n = 1..8, counted from the definitions above:
   the integer nulls match exactly, the double ones to 1e-12, and the
   statistics fed every permutation once observe exactly the brute-force
   histogram in every group, which then equals its expectation: X^2 = 0
   (to rounding) and p = 1. */
static void test_brute_force(void **state)
{
    (void)state;
    enum { NMAX = 8, MAXV = NMAX * (NMAX - 1) / 2 + 1 };
    sb_card *all = malloc(sizeof *all * 40320 * NMAX);
    assert_non_null(all);
    for (size_t n = 1; n <= NMAX; n++) {
        uint64_t hist[N_ORDER][MAXV] = { { 0 } };
        sb_card a[NMAX];
        for (size_t i = 0; i < n; i++)
            a[i] = (sb_card)i;
        size_t count = 0;
        do {
            memcpy(all + count * n, a, n * sizeof *a);
            count++;
            for (size_t s = 0; s < N_ORDER; s++)
                hist[s][bf_value(s, a, n)]++;
        } while (next_perm(a, n));
        assert_int_equal(count, sb_null_factorial(n));
        const double f = (double)count;

        uint64_t c[MAXV];
        double p[MAXV];
        /* Rising sequences r = 1..n: hist[0][r], null index r - 1. */
        assert_int_equal(hist[0][0], 0);
        assert_int_equal(sb_null_eulerian_count(n, c), SB_OK);
        assert_int_equal(sb_null_eulerian(n, p), SB_OK);
        for (size_t k = 0; k < n; k++) {
            assert_int_equal(c[k], hist[0][k + 1]);
            assert_int_equal(c[k], hist[1][k]);
            assert_close(p[k] * f, (double)c[k], 1e-12);
        }
        assert_int_equal(sb_null_inversions_count(n, c), SB_OK);
        assert_int_equal(sb_null_inversions(n, p), SB_OK);
        for (size_t k = 0; k <= sb_null_inversions_max(n); k++) {
            assert_int_equal(c[k], hist[2][k]);
            assert_close(p[k] * f, (double)c[k], 1e-12);
        }
        assert_int_equal(sb_null_successions_count(n, c), SB_OK);
        assert_int_equal(sb_null_successions(n, p), SB_OK);
        for (size_t k = 0; k < n; k++) {
            assert_int_equal(c[k], hist[3][k]);
            assert_close(p[k] * f, (double)c[k], 1e-12);
        }

        /* Every permutation once, through the statistics.  From n = 5
           on, n! samples fill at least two groups of 5. */
        if (n < 5)
            continue;
        for (size_t s = 0; s < N_ORDER; s++) {
            sb_result r;
            run_stat(order_stats[s], n, all, count, &r);
            assert_table_is(&r, hist[s], 0);
            for (size_t g = 0; g < r.table.cols; g++)
                assert_close(r.table.observed[g], r.table.expected[g],
                             1e-12);
            assert_true(r.statistic < 1e-9);
            assert_close(r.p_value, 1.0, 1e-9);
            sb_result_clear(&r);
        }
    }
    free(all);
}

/* ---- large decks: totals, means, variances ---------------------------- */

/* The total of 'p', and the mean and variance of the values first,
   first + 1, ... it weighs. */
static void moments(const double *p, size_t k, double first, double *sum,
                    double *mean, double *var)
{
    double s = 0, m = 0, m2 = 0;
    for (size_t i = 0; i < k; i++) {
        const double v = first + (double)i;
        s += p[i];
        m += v * p[i];
        m2 += v * v * p[i];
    }
    *sum = s;
    *mean = m / s;
    *var = m2 / s - *mean * *mean;
}

/* n = 20, the largest exact row: the k integers 'count' gives sum to 20!
   and the doubles of 'prob' agree with them to 1e-12 everywhere,
   including the far tails (1/20!).  'c' and 'p' receive them. */
static void check_n20(int (*count)(size_t, uint64_t *),
                      int (*prob)(size_t, double *), size_t k, uint64_t *c,
                      double *p)
{
    const uint64_t f20 = 2432902008176640000ull;   /* 20!, A000142 */
    assert_int_equal(count(20, c), SB_OK);
    assert_int_equal(prob(20, p), SB_OK);
    uint64_t total = 0;
    for (size_t v = 0; v < k; v++) {
        total += c[v];
        assert_close(p[v], (double)c[v] / (double)f20, 1e-12);
    }
    assert_int_equal(total, f20);
}

static void test_nulls_n20(void **state)
{
    (void)state;
    uint64_t c[191];
    double p[191];
    check_n20(sb_null_eulerian_count, sb_null_eulerian, 20, c, p);
    check_n20(sb_null_inversions_count, sb_null_inversions, 191, c, p);
    for (size_t k = 0; k <= 190; k++)
        assert_int_equal(c[k], c[190 - k]);     /* reversal: k <-> 190-k */
    assert_int_equal(c[1], 19);                 /* one adjacent swap */
    check_n20(sb_null_successions_count, sb_null_successions, 20, c, p);

    assert_int_equal(sb_null_eulerian_count(21, c), SB_EINVAL);
    assert_int_equal(sb_null_inversions_count(21, c), SB_EINVAL);
    assert_int_equal(sb_null_successions_count(0, c), SB_EINVAL);
    assert_int_equal(sb_null_eulerian(0, p), SB_EINVAL);
    assert_int_equal(sb_null_inversions(1, NULL), SB_EINVAL);
}

/* Totals and moments where only doubles are possible.
   Descents: mean (n-1)/2 and variance (n+1)/12 (OEIS A008292; each of
   the n - 1 adjacent pairs is a descent with probability 1/2, and
   neighbouring indicators are correlated).
   Inversions: mean n(n-1)/4 and variance n(n-1)(2n+5)/72 (Knuth, TAOCP
   vol. 3, 5.1.1: the sum of independent uniforms on 0..i-1, variance
   (i^2 - 1)/12 each).
   Successions: each of the n - 1 pairs (c, c+1) is adjacent in order in
   (n-1)! of the n! permutations, so the mean is (n-1)/n.  Two distinct
   pairs are both present in (n-2)! permutations (overlapping pairs glue
   three cards into one block, disjoint ones two blocks of two: n - 2
   units either way), so E[X(X-1)] = (n-1)(n-2) (n-2)!/n! = (n-2)/n and
   the variance is (n-2)/n + (n-1)/n - ((n-1)/n)^2 = (n^2 - n - 1)/n^2. */
static void test_nulls_large(void **state)
{
    (void)state;
    const size_t sizes[] = { 2, 52, 1000, 65535 };
    double sum, mean, var;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const size_t n = sizes[i];
        const double dn = (double)n;
        double *p = malloc(n * sizeof *p);
        assert_non_null(p);
        assert_int_equal(sb_null_eulerian(n, p), SB_OK);
        moments(p, n, 0, &sum, &mean, &var);
        assert_close(sum, 1.0, 1e-12);
        assert_close(mean, (dn - 1) / 2, 1e-12);
        assert_close(var, (dn + 1) / 12, 1e-9);
        /* symmetric: A(n,k) = A(n,n-1-k) */
        assert_close(p[n / 3], p[n - 1 - n / 3], 1e-12);

        assert_int_equal(sb_null_successions(n, p), SB_OK);
        moments(p, n, 0, &sum, &mean, &var);
        assert_close(sum, 1.0, 1e-12);
        assert_close(mean, (dn - 1) / dn, 1e-12);
        assert_close(var, (dn * dn - dn - 1) / (dn * dn), 1e-12);
        free(p);
    }
    const size_t inv_sizes[] = { 2, 52, 1024 };
    for (size_t i = 0; i < sizeof inv_sizes / sizeof inv_sizes[0]; i++) {
        const size_t n = inv_sizes[i], max = sb_null_inversions_max(n);
        const double dn = (double)n;
        double *p = malloc((max + 1) * sizeof *p);
        assert_non_null(p);
        assert_int_equal(sb_null_inversions(n, p), SB_OK);
        moments(p, max + 1, 0, &sum, &mean, &var);
        assert_close(sum, 1.0, 1e-12);
        assert_close(mean, dn * (dn - 1) / 4, 1e-12);
        assert_close(var, dn * (dn - 1) * (2 * dn + 5) / 72, 1e-9);
        free(p);
    }
}

/* ---- accumulating ----------------------------------------------------- */

/* Random decks of sizes around the 64-card mask of 'inversions' and well
   above it (a Fenwick tree), and at its largest deck: the counts are
   exactly those of the brute force.  Also the other three statistics at
   n = 100. */
static void test_counts_random_decks(void **state)
{
    (void)state;
    enum { S = 300 };
    const size_t sizes[] = { 63, 64, 65, 100, 1024 };
    uint64_t seed = 0x5eed3001ull;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        const size_t n = sizes[z], max = sb_null_inversions_max(n);
        sb_card *d = malloc(sizeof *d * n * S);
        uint64_t *hist = calloc(max + 1, sizeof *hist);
        assert_non_null(d);
        assert_non_null(hist);
        for (size_t i = 0; i < S; i++)
            xs_deck(&seed, d + i * n, n);
        /* The sorted and the reversed deck: 0 and the most inversions. */
        for (size_t j = 0; j < n; j++) {
            d[j] = (sb_card)j;
            d[n + j] = (sb_card)(n - 1 - j);
        }
        for (size_t s = 0; s < N_ORDER; s++) {
            if (s != 2 && n != 100)
                continue;
            memset(hist, 0, (max + 1) * sizeof *hist);
            for (size_t i = 0; i < S; i++)
                hist[bf_value(s, d + i * n, n)]++;
            if (s == 2) {
                assert_int_equal(hist[0], 1);
                assert_true(hist[max] == 1);
            }
            sb_result r;
            run_stat(order_stats[s], n, d, S, &r);
            assert_table_is(&r, hist, 0);
            sb_result_clear(&r);
        }
        free(d);
        free(hist);
    }
}

/* Two accumulators merged give exactly what one accumulator fed both
   halves gives (fed in two calls of different sizes, as the runner
   does): at 52 cards for all four, and at 100 cards (Fenwick tree) for
   inversions.  Accumulators of different sizes refuse to merge. */
static void test_merge(void **state)
{
    (void)state;
    enum { S1 = 700, S2 = 1300 };
    uint64_t seed = 0x5eed3002ull;
    const size_t sizes[] = { 52, 100 };
    for (size_t z = 0; z < 2; z++) {
        const size_t n = sizes[z];
        sb_shape shape = perm_shape(n);
        sb_card *d = malloc(sizeof *d * n * (S1 + S2));
        assert_non_null(d);
        for (size_t i = 0; i < S1 + S2; i++)
            xs_deck(&seed, d + i * n, n);
        for (size_t s = 0; s < N_ORDER; s++) {
            const sb_stat_type *t = order_stats[s];
            if (n == 100 && t != &sb_stat_inversions)
                continue;
            void *a, *b, *c;
            assert_int_equal(t->alloc(&a, &shape), SB_OK);
            assert_int_equal(t->alloc(&b, &shape), SB_OK);
            assert_int_equal(t->alloc(&c, &shape), SB_OK);
            t->add(a, d, S1);
            t->add(b, d + S1 * n, S2);
            t->add(c, d, 13);
            t->add(c, d + 13 * n, S1 + S2 - 13);
            assert_int_equal(t->merge(a, b), SB_OK);
            sb_result ra, rc;
            assert_int_equal(t->finalize(a, S1 + S2, 1e-6, &ra), SB_OK);
            assert_int_equal(t->finalize(c, S1 + S2, 1e-6, &rc), SB_OK);
            assert_true(ra.applicable && rc.applicable);
            assert_string_equal(ra.name, t->name);
            assert_true(ra.statistic == rc.statistic);
            assert_true(ra.p_value == rc.p_value);
            assert_int_equal(ra.table.cols, rc.table.cols);
            assert_memory_equal(ra.table.observed, rc.table.observed,
                                ra.table.cols * sizeof(double));
            sb_result_clear(&ra);
            sb_result_clear(&rc);

            sb_shape other = perm_shape(n - 1);
            void *e;
            assert_int_equal(t->alloc(&e, &other), SB_OK);
            assert_int_equal(t->merge(a, e), SB_EINVAL);
            t->free(a);
            t->free(b);
            t->free(c);
            t->free(e);
        }
        free(d);
    }
}

/* What cannot be tested says why: one card, no samples, and inversions
   above its 1024-card bound (refused by the registry and by alloc). */
static void test_limits(void **state)
{
    (void)state;
    const sb_card one[3] = { 0, 0, 0 };
    for (size_t s = 0; s < N_ORDER; s++) {
        const sb_stat_type *t = order_stats[s];
        sb_result r;
        run_stat(t, 1, one, 3, &r);
        assert_false(r.applicable);
        assert_non_null(strstr(r.note, "needs n >= 2"));
        sb_result_clear(&r);
        sb_card two[4] = { 0, 1, 1, 0 };
        run_stat(t, 2, two, 0, &r);
        assert_false(r.applicable);
        assert_string_equal(r.note, "no samples");
        sb_result_clear(&r);
        assert_int_equal(t->kinds, SB_KIND_PERMUTATION);
        assert_int_equal(t->default_kinds, SB_KIND_PERMUTATION);
        assert_int_equal(t->n_min, 2);
    }
    char why[128];
    sb_shape big = perm_shape(1025);
    assert_int_equal(sb_stat_check(&sb_stat_inversions, &big, why, sizeof why),
                     SB_EINVAL);
    assert_string_equal(why, "'inversions' needs n <= 1024 (n is 1025)");
    void *acc;
    assert_int_equal(sb_stat_inversions.alloc(&acc, &big), SB_EINVAL);
    sb_shape huge = perm_shape(SB_DECK_MAX);
    assert_int_equal(sb_stat_check(&sb_stat_rising, &huge, why, sizeof why),
                     SB_OK);
    assert_ptr_equal(sb_stat_find("rising"), &sb_stat_rising);
    assert_ptr_equal(sb_stat_find("descents"), &sb_stat_descents);
    assert_ptr_equal(sb_stat_find("inversions"), &sb_stat_inversions);
    assert_ptr_equal(sb_stat_find("successions"), &sb_stat_successions);
}

/* ---- the shuffles each statistic exists for --------------------------- */

/* 'stat' alone on 'samples' decks of n cards from 'alg' with 'params'
   (NULL: its defaults) on 'seed': the result, applicable, in 'rep'
   (release it). */
static const sb_result *run_one(const char *alg, const char *const *params,
                                const sb_stat_type *stat, size_t n,
                                uint64_t samples, uint64_t seed,
                                sb_report *rep)
{
    const sb_stat_type *const stats[] = { stat };
    sb_test_run(sb_test_alg(alg), params, n, samples, seed, SB_RNG_DEFAULT,
                stats, 1, rep);
    assert_true(rep->results[0].applicable);
    return &rep->results[0];
}

/* The same number of fisher-yates decks passes 'stat' (p >= 1e-6: false
   alarm 1e-6 over random seeds). */
static void fair_shuffle_passes(const sb_stat_type *stat, size_t n,
                                uint64_t samples, uint64_t seed)
{
    sb_report rep;
    const sb_result *r = run_one("fisher-yates", NULL, stat, n, samples,
                                 seed, &rep);
    assert_true(r->p_value >= 1e-6);
    sb_report_release(&rep);
}

/* The X^2 a pooled result should show when the samples follow 'alt'
   instead of the null 'null' (both per value, value v at index
   v - first): with q_g and p_g the two laws summed over group g, O_g is
   binomial(N, q_g), so
     E[X^2] = sum_g (N q_g (1 - q_g) + N^2 (q_g - p_g)^2) / (N p_g)
            = sum_g q_g (1 - q_g) / p_g + lambda,
     lambda = N sum_g (q_g - p_g)^2 / p_g,
   and its spread is about that of a noncentral chi-square,
   sd = sqrt(2 (df + 2 lambda)).  The result's own expectations must be
   N p_g. */
static void expected_x2(const sb_result *r, const double *null,
                        const double *alt, long first, uint64_t samples,
                        double *mean, double *sd)
{
    const double N = (double)samples;
    double m = 0, lambda = 0;
    for (size_t g = 0; g < r->table.cols; g++) {
        double p = 0, q = 0;
        for (long v = r->table.lo[g]; v <= r->table.hi[g]; v++) {
            p += null[v - first];
            q += alt[v - first];
        }
        assert_close(r->table.expected[g], N * p, 1e-9);
        m += q * (1 - q) / p;
        lambda += N * (q - p) * (q - p) / p;
    }
    *mean = m + lambda;
    *sd = sqrt(2 * (r->df + 2 * lambda));
}

/* The same for the statistic the pooled laws are now tested with: the
   exact binomial splits of stats/gof.c, which is the likelihood ratio G^2
   where groups are large (and at most G^2 plus rounding elsewhere: each
   split's discreteness only lowers it).  Under the alternative q against
   the null p over the groups, G^2 = 2N KL(q^ || p) has mean about
   2N KL(q || p) + df and variance about 4N Var_q(ln(q/p)) + 2 df (the
   expansion of KL(q^ || p) about q^ = q). */
static void expected_g2(const sb_result *r, const double *null,
                        const double *alt, long first, uint64_t samples,
                        double *mean, double *sd)
{
    const double N = (double)samples;
    double kl = 0, m1 = 0, m2 = 0;
    for (size_t g = 0; g < r->table.cols; g++) {
        double p = 0, q = 0;
        for (long v = r->table.lo[g]; v <= r->table.hi[g]; v++) {
            p += null[v - first];
            q += alt[v - first];
        }
        assert_close(r->table.expected[g], N * p, 1e-9);
        if (q > 0) {
            const double l = log(q / p);
            kl += q * l;
            m1 += q * l;
            m2 += q * l * l;
        }
    }
    *mean = 2 * N * kl + r->df;
    *sd = sqrt(4 * N * (m2 - m1 * m1) + 2 * r->df);
}

/* 'rising' on 10 GSR riffles of 52 cards, against the exact law of
   Bayer & Diaconis (1992, Theorem 1): P(pi) = C(2^k + n - r, n) /
   2^(kn) for a deck of r rising sequences, so with A(n, r-1) such decks,
     P_k(r) = (A(n,r-1) / n!) prod_{j=0}^{n-1} (1 + (n - r - j) / 2^k).
   Its chi-square distance from uniform is 0.0115 per deck at k = 10, so
   32768 decks (half a chunk) give lambda near 377 over about 15 df:
   E[X^2] near 392 with sd near 39, where failing needs only X^2 above
   about 60 (p < 1e-6): missing it would take X^2 8 sd below its mean.
   The test asserts both the failure and that X^2 lies within 5 sd of
   the value the exact law predicts (false alarm about 6e-7 over random
   seeds, in the normal approximation).  The same number of decks from
   fisher-yates passes (p >= 1e-6: false alarm 1e-6 over random seeds). */
static void test_rising_ten_riffles(void **state)
{
    (void)state;
    enum { N = 52, K = 10 };
    const uint64_t S = 32768;
    const char *const params[] = { "passes=10", NULL };
    sb_report rep;
    const sb_result *r = run_one("riffle", params, &sb_stat_rising, N, S,
                                 0x5eed3003ull, &rep);
    assert_true(r->p_value < 1e-6);
    assert_int_equal(r->verdict, SB_VERDICT_FAIL);

    double null[N], alt[N], total = 0;
    assert_int_equal(sb_null_eulerian(N, null), SB_OK);
    const double a = 1024.0;   /* 2^K */
    for (size_t rs = 1; rs <= N; rs++) {
        double ratio = 1.0;
        for (size_t j = 0; j < N; j++)
            ratio *= 1.0 + ((double)N - (double)rs - (double)j) / a;
        alt[rs - 1] = null[rs - 1] * ratio;
        total += alt[rs - 1];
    }
    assert_close(total, 1.0, 1e-12);   /* the law is a distribution */
    double mean, sd;
    expected_x2(r, null, alt, 1, S, &mean, &sd);
    assert_true(mean > 300);
    assert_true(fabs(r->statistic - mean) < 5 * sd);
    /* Fewer rising sequences than uniform, as riffles leave: the lowest
       group is over its expectation. */
    assert_true(r->table.observed[0] > r->table.expected[0]);
    sb_report_release(&rep);

    fair_shuffle_passes(&sb_stat_rising, N, S, 0x5eed3004ull);
}

/* 'descents' on 4 GSR riffles of 52 cards.  An a-shuffle (a = 2^4 = 16
   here: k riffles are one 2^k-shuffle, Bayer & Diaconis 1992) gives each
   position j of the new deck an independent uniform digit D_j in
   0..a-1, and packet i (a run of consecutive cards, lower packets
   holding lower cards) fills the positions of digit i in order.  So
   deck[j] > deck[j+1] exactly when D_j > D_{j+1}: equal digits are
   consecutive cards of one packet, in order.  The exact law of descents
   is then that of descents in a string of n uniform digits, computed
   below by dynamic programming over (last digit, descents so far); its
   mean is (n-1)(a-1)/(2a) = 23.9, against 25.5 for a uniform deck.
   2000 decks give lambda near 1500 over about 11 df: the failure, and
   the statistic within 5 sd of the likelihood ratio's predicted mean
   (expected_g2; false alarm about 6e-7), are asserted.  fisher-yates passes with the same number of decks
   (p >= 1e-6: false alarm 1e-6). */
static void test_descents_four_riffles(void **state)
{
    (void)state;
    enum { N = 52, A = 16 };
    const uint64_t S = 2000;
    const char *const params[] = { "passes=4", NULL };
    sb_report rep;
    const sb_result *r = run_one("riffle", params, &sb_stat_descents, N, S,
                                 0x5eed3005ull, &rep);
    assert_true(r->p_value < 1e-6);

    /* f[v][d]: P(the digits so far end with v and show d descents). */
    double f[A][N] = { { 0 } }, g[A][N];
    for (size_t v = 0; v < A; v++)
        f[v][0] = 1.0 / A;
    for (size_t j = 1; j < N; j++) {
        memset(g, 0, sizeof g);
        for (size_t v = 0; v < A; v++)
            for (size_t d = 0; d < j; d++)
                for (size_t w = 0; w < A; w++)
                    g[w][d + (v > w)] += f[v][d] / A;
        memcpy(f, g, sizeof f);
    }
    double null[N], alt[N] = { 0 }, total = 0, mean_d = 0;
    for (size_t v = 0; v < A; v++)
        for (size_t d = 0; d < N; d++)
            alt[d] += f[v][d];
    for (size_t d = 0; d < N; d++) {
        total += alt[d];
        mean_d += (double)d * alt[d];
    }
    assert_close(total, 1.0, 1e-12);
    assert_close(mean_d, 51.0 * 15.0 / 32.0, 1e-12);
    assert_int_equal(sb_null_eulerian(N, null), SB_OK);
    double mean, sd;
    expected_g2(r, null, alt, 0, S, &mean, &sd);
    assert_true(mean > 1000);
    assert_true(fabs(r->statistic - mean) < 5 * sd);
    sb_report_release(&rep);

    fair_shuffle_passes(&sb_stat_descents, N, S, 0x5eed3006ull);
}

/* 'inversions' on sort-random-comparator with sort=insertion, 52 cards.
   Inserting card i moves it left past each earlier card while a fair coin
   says so: past m cards with probability 2^-(m+1) (m < i), and each card
   passed is one inversion (card i is larger than all of them).  So a deck
   has about 50 inversions (a sum of 51 such geometric counts, mean just
   under 1 each, sd about 10), where a uniform deck has 663 +- 63.  200
   decks: the lowest pooled group (values from 0 up to where 5 of 200
   decks are expected, near 540) holds every deck, against 5 expected,
   and the p-value is below 1e-250 (every group above it empty: the
   likelihood ratio 2 x 200 ln(200/5) = 1476 over some 35 df, a little
   less for the splits' discreteness).  A deck above 100
   inversions would be 5 sd out for this shuffle, so the first assertion
   fails by chance with probability below 1e-4; fisher-yates passes with
   the same number of decks (p >= 1e-6: false alarm 1e-6). */
static void test_inversions_insertion_sort(void **state)
{
    (void)state;
    enum { N = 52 };
    const uint64_t S = 200;
    const char *const params[] = { "sort=insertion", NULL };
    sb_report rep;
    const sb_result *r = run_one("sort-random-comparator", params,
                                 &sb_stat_inversions, N, S, 0x5eed3007ull,
                                 &rep);
    assert_int_equal(r->table.lo[0], 0);
    assert_true(r->table.hi[0] >= 100);
    assert_close(r->table.observed[0], (double)S, 0);
    assert_true(r->p_underflow || r->p_value < 1e-250);
    sb_report_release(&rep);

    fair_shuffle_passes(&sb_stat_inversions, N, S, 0x5eed3008ull);
}

/* 'successions' on human-packet with its defaults (7 passes, 52 cards).
   A packet of two or more cards that falls as one keeps neighbours
   together, so decks without any succession are rarer than the uniform
   37.5% (P(0) = a(51)/52!, near 1/e).  2000 decks: the test asserts
   p < 1e-6 and that the "0 successions" group falls more than 5 sd
   (binomial, 5 sqrt(N p (1-p)) = 108) below its expectation of 750; a
   fair shuffle would do that with probability below 3e-7, and the cause
   (stuck packets) can only lower that group.  fisher-yates passes with
   the same number of decks (p >= 1e-6: false alarm 1e-6). */
static void test_successions_human_packet(void **state)
{
    (void)state;
    enum { N = 52 };
    const uint64_t S = 2000;
    sb_report rep;
    const sb_result *r = run_one("human-packet", NULL, &sb_stat_successions,
                                 N, S, 0x5eed3009ull, &rep);
    assert_true(r->p_value < 1e-6);
    assert_int_equal(r->table.lo[0], 0);
    assert_int_equal(r->table.hi[0], 0);
    const double e0 = r->table.expected[0], p0 = e0 / (double)S;
    assert_true(r->table.observed[0]
                < e0 - 5 * sqrt((double)S * p0 * (1 - p0)));
    sb_report_release(&rep);

    fair_shuffle_passes(&sb_stat_successions, N, S, 0x5eed300aull);
}

/* A fair shuffle passes all four at once, at 52 cards with 10^5 decks
   and at 100 cards (inversions through its Fenwick tree, 4951 values)
   with 2 x 10^4: each of the 8 results must pass, that is have a
   Holm-adjusted p-value of 1e-3 or more among the four, which a fair
   shuffle misses with probability at most 1e-3 per size (Holm's
   family-wise bound): a false alarm below 2e-3 over random seeds.  The
   effects and detectable effects are stated. */
static void test_fair_passes(void **state)
{
    (void)state;
    const size_t sizes[] = { 52, 100 };
    const uint64_t samples[] = { 100000, 20000 };
    for (size_t z = 0; z < 2; z++) {
        sb_report rep;
        sb_test_run(sb_test_alg("fisher-yates"), NULL, sizes[z], samples[z],
                    0x5eed300bull + z, SB_RNG_DEFAULT, order_stats, N_ORDER,
                    &rep);
        assert_int_equal(rep.n_results, N_ORDER);
        for (size_t s = 0; s < N_ORDER; s++) {
            const sb_result *r = &rep.results[s];
            assert_string_equal(r->name, order_stats[s]->name);
            assert_true(r->applicable);
            assert_true(r->p_value >= 1e-6);
            assert_int_equal(r->verdict, SB_VERDICT_PASS);
            assert_true(r->detectable > 0);
            assert_true(r->effect_desc[0] != '\0');
            assert_true(r->null_desc[0] != '\0');
        }
        sb_report_release(&rep);
    }
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eulerian_published),
        cmocka_unit_test(test_mahonian_published),
        cmocka_unit_test(test_successions_published),
        cmocka_unit_test(test_brute_force),
        cmocka_unit_test(test_nulls_n20),
        cmocka_unit_test(test_nulls_large),
        cmocka_unit_test(test_counts_random_decks),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_rising_ten_riffles),
        cmocka_unit_test(test_descents_four_riffles),
        cmocka_unit_test(test_inversions_insertion_sort),
        cmocka_unit_test(test_successions_human_packet),
        cmocka_unit_test(test_fair_passes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
