/*
 * test_stats.c - exact nulls, goodness-of-fit machinery, the statistics
 * and their registry.
 *
 * Exact values come with their source.  Statistical assertions use fixed
 * seeds (so they are deterministic) and state the false-alarm rate they
 * would have over random seeds.
 */
#include "sb_test.h"

#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/nulls.h"
#include "stats/registry.h"

/* ---- helpers ---------------------------------------------------------- */

/* xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift
   generators, scrambled", ACM TOMS 2016): the test's own generator, so the
   tests depend on nothing under src/. */
static uint64_t xs_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

/* Uniform in [0, n) by multiply-shift on 32 high bits: bias below
   n / 2^32, far below anything these tests can see. */
static size_t xs_below(uint64_t *s, size_t n)
{
    return (size_t)(((xs_next(s) >> 32) * (uint64_t)n) >> 32);
}

/* Fisher-Yates (Durstenfeld) on the identity: uniform.  With 'sattolo'
   set, j < i instead of j <= i: Sattolo's algorithm, single n-cycles. */
static void shuffle(uint64_t *s, sb_card *deck, size_t n, int sattolo)
{
    for (size_t i = 0; i < n; i++)
        deck[i] = (sb_card)i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = xs_below(s, sattolo ? i : i + 1);
        sb_card t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
}

/* Next permutation in lexicographic order (Knuth, TAOCP 7.2.1.2,
   Algorithm L); 0 after the last. */
static int next_perm(sb_card *a, size_t n)
{
    if (n < 2)
        return 0;
    size_t j = n - 2;
    while (a[j] >= a[j + 1]) {
        if (j == 0)
            return 0;
        j--;
    }
    size_t l = n - 1;
    while (a[j] >= a[l])
        l--;
    sb_card t = a[j];
    a[j] = a[l];
    a[l] = t;
    for (size_t lo = j + 1, hi = n - 1; lo < hi; lo++, hi--) {
        t = a[lo];
        a[lo] = a[hi];
        a[hi] = t;
    }
    return 1;
}

static sb_shape perm_shape(size_t n)
{
    sb_shape s = { SB_KIND_PERMUTATION, n, n, 0 };
    return s;
}

/* Accumulate 'samples' (count x n values) with 't' and finalize. */
static void run_stat(const sb_stat_type *t, size_t n, const sb_card *samples,
                     size_t count, sb_result *res)
{
    sb_shape shape = perm_shape(n);
    void *acc;
    assert_int_equal(t->alloc(&acc, &shape), SB_OK);
    t->add(acc, samples, count);
    assert_int_equal(t->finalize(acc, count, 1e-6, res), SB_OK);
    t->free(acc);
}

/* ---- exact nulls ------------------------------------------------------ */

/* OEIS A008290, rencontres numbers D(n,k), rows n = 4, 5, 6. */
static void test_rencontres_published(void **state)
{
    (void)state;
    static const uint64_t d4[] = { 9, 8, 6, 0, 1 };
    static const uint64_t d5[] = { 44, 45, 20, 10, 0, 1 };
    static const uint64_t d6[] = { 265, 264, 135, 40, 15, 0, 1 };
    const uint64_t *rows[] = { d4, d5, d6 };
    for (size_t n = 4; n <= 6; n++) {
        const uint64_t *want = rows[n - 4];
        uint64_t d[7];
        double p[7];
        assert_int_equal(sb_null_fixed_points_count(n, d), SB_OK);
        assert_int_equal(sb_null_fixed_points(n, p), SB_OK);
        const double f = (double)sb_null_factorial(n);
        for (size_t k = 0; k <= n; k++) {
            assert_int_equal(d[k], want[k]);
            assert_true(fabs(p[k] * f - (double)want[k]) < 1e-9);
        }
    }
}

/* OEIS A132393 (unsigned Stirling numbers of the first kind, with the k = 0
   column; A008275 signed): c(5,k) = 0, 24, 50, 35, 10, 1 and
   c(6,k) = 0, 120, 274, 225, 85, 15, 1. */
static void test_stirling_published(void **state)
{
    (void)state;
    static const uint64_t c5[] = { 0, 24, 50, 35, 10, 1 };
    static const uint64_t c6[] = { 0, 120, 274, 225, 85, 15, 1 };
    const uint64_t *rows[] = { c5, c6 };
    for (size_t n = 5; n <= 6; n++) {
        const uint64_t *want = rows[n - 5];
        uint64_t c[7];
        double p[7];
        assert_int_equal(sb_null_cycles_count(n, c), SB_OK);
        assert_int_equal(sb_null_cycles(n, p), SB_OK);
        const double f = (double)sb_null_factorial(n);
        for (size_t k = 0; k <= n; k++) {
            assert_int_equal(c[k], want[k]);
            assert_true(fabs(p[k] * f - (double)want[k]) < 1e-9);
        }
    }
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
        double sum = 0, mean = 0, h = 0;
        assert_int_equal(sb_null_fixed_points(n, p), SB_OK);
        for (size_t k = 0; k <= n; k++) {
            sum += p[k];
            mean += (double)k * p[k];
        }
        assert_close(sum, 1.0, 1e-12);
        assert_close(mean, 1.0, 1e-12);
        assert_int_equal(sb_null_cycles(n, p), SB_OK);
        sum = mean = 0;
        for (size_t k = 0; k <= n; k++) {
            sum += p[k];
            mean += (double)k * p[k];
        }
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

/* ---- goodness-of-fit machinery ---------------------------------------- */

static void test_pooling(void **state)
{
    (void)state;
    size_t last[8], g;
    /* 0.5+1+2+3 = 6.5 closes the first group at index 3; 10 alone closes
       the second; 4+0.5+0.2 = 4.7 < 5 is left over and joins it. */
    const double e1[] = { 0.5, 1, 2, 3, 10, 4, 0.5, 0.2 };
    assert_int_equal(sb_gof_pool(e1, 8, 5.0, last, &g), SB_OK);
    assert_int_equal(g, 2);
    assert_int_equal(last[0], 3);
    assert_int_equal(last[1], 7);
    /* Exactly 5 is enough; nothing left over. */
    const double e2[] = { 5, 2, 3, 7 };
    assert_int_equal(sb_gof_pool(e2, 4, 5.0, last, &g), SB_OK);
    assert_int_equal(g, 3);
    assert_int_equal(last[0], 0);
    assert_int_equal(last[1], 2);
    assert_int_equal(last[2], 3);
    /* Too little in total: one group, nothing to test. */
    const double e3[] = { 1, 1, 1 };
    assert_int_equal(sb_gof_pool(e3, 3, 5.0, last, &g), SB_OK);
    assert_int_equal(g, 1);
    assert_int_equal(last[0], 2);
    assert_int_equal(sb_gof_pool(e3, 0, 5.0, last, &g), SB_EINVAL);
}

/* The fixed points of 52 cards over 1000 samples: expectations 1000 P(k)
   are 367.9, 367.9, 183.9, 61.3, 15.3, 3.07, 0.51, ... so k = 0..3 stand
   alone, and 4 with everything above it (3.07 + 0.51 + ... < 5 joins 4):
   53 categories into 5 groups, df 4. */
static void test_dist_result_pooling(void **state)
{
    (void)state;
    uint64_t counts[53] = { 0 };
    double prob[53];
    sb_null_fixed_points(52, prob);
    counts[0] = 370;
    counts[1] = 365;
    counts[2] = 180;
    counts[3] = 65;
    counts[4] = 15;
    counts[5] = 4;
    counts[6] = 1;
    sb_result r;
    assert_int_equal(sb_gof_dist_result(&r, "fixed-points", counts, prob, 53,
                                        0, 1000, 1e-6, "fixed point",
                                        "fixed points", "rencontres"),
                     SB_OK);
    assert_true(r.applicable);
    assert_int_equal(r.table.cols, 5);
    assert_int_equal(r.table.rows, 1);
    const long lo[] = { 0, 1, 2, 3, 4 }, hi[] = { 0, 1, 2, 3, 52 };
    for (size_t g = 0; g < 5; g++) {
        assert_int_equal(r.table.lo[g], lo[g]);
        assert_int_equal(r.table.hi[g], hi[g]);
    }
    assert_close(r.table.observed[4], 20.0, 0);
    assert_close(r.df, 4.0, 0);
    assert_string_equal(r.note,
                        "pooled 53 categories into 5 (each expects >= 5)");
    sb_result_clear(&r);
    assert_null(r.table.observed);
}

/* Cohen (1988), "Statistical Power Analysis for the Behavioral Sciences",
   Table 7.4.15: lambda = 10.51 for u = 1, a = .05, power .90 (the exact
   value is 10.5074, (z_.025 + z_.10)^2 = (1.95996 + 1.28155)^2). */
static void test_detectable(void **state)
{
    (void)state;
    double lambda;
    assert_int_equal(sb_gof_detectable_chisq(1, 0.05, 0.9, &lambda), SB_OK);
    assert_close(lambda, 10.507, 1e-3);
    /* df = 1 has a closed form that is nearly exact here:
       P((Z + sqrt(l))^2 > c) = Q(sqrt(c) - sqrt(l)) + Q(sqrt(c) + sqrt(l)). */
    const double zsum = gsl_cdf_ugaussian_Qinv(0.025)
                        + gsl_cdf_ugaussian_Qinv(0.10);
    assert_close(lambda, zsum * zsum, 1e-3);
    assert_int_equal(sb_gof_detectable_chisq(0, 0.05, 0.9, &lambda),
                     SB_EINVAL);
    assert_int_equal(sb_gof_detectable_sparse(1000, 1, 0.05, 0.9, &lambda),
                     SB_EINVAL);
}

/* The Poisson mixture against the df = 1 closed form above, at several
   noncentralities, including large ones (wide mixtures). */
static void test_ncx2(void **state)
{
    (void)state;
    const double c = 3.841458820694124;   /* chi-square(1) 95% point */
    const double lambdas[] = { 0, 0.5, 4, 10.5, 50, 400 };
    for (size_t i = 0; i < sizeof lambdas / sizeof lambdas[0]; i++) {
        const double l = lambdas[i];
        double q;
        assert_int_equal(sb_gof_ncx2_Q(c, 1, l, &q), SB_OK);
        const double want = gsl_cdf_ugaussian_Q(sqrt(c) - sqrt(l))
                            + gsl_cdf_ugaussian_Q(sqrt(c) + sqrt(l));
        assert_close(q, want, 1e-9);
    }
}

/* p-values below 1e-300 are 0 with the flag; ordinary ones pass through. */
static void test_p_values(void **state)
{
    (void)state;
    double p;
    int u;
    assert_int_equal(sb_gof_chisq_p(1e6, 10, &p, &u), SB_OK);
    assert_true(p == 0.0 && u == 1);
    assert_int_equal(sb_gof_chisq_p(3.841458820694124, 1, &p, &u), SB_OK);
    assert_close(p, 0.05, 1e-9);
    assert_int_equal(u, 0);
    assert_int_equal(sb_gof_chisq_p(0, 4, &p, &u), SB_OK);
    assert_true(p == 1.0 && u == 0);
    assert_int_equal(sb_gof_normal_p(40, &p, &u), SB_OK);
    assert_true(p == 0.0 && u == 1);
    assert_int_equal(sb_gof_chisq_p(NAN, 4, &p, &u), SB_EINVAL);
    assert_int_equal(sb_gof_chisq_p(1, 0, &p, &u), SB_EINVAL);
}

/* Large df, where GSL's own chi-square tail is off (by 7.5e-3 relative at
   df = 1.68e7; see chisq_Q in stats/gof.c).  Independent check for even
   df: chi-square(df) > x exactly when fewer than df/2 events of a Poisson
   process of rate 1 fall in [0, x/2], so Q_df(x) = P(Poisson(x/2) <=
   df/2 - 1), summed here term by term downwards from df/2 - 1 (mu/k per
   step) over 60 sd, far past where the terms stop mattering. */
static double poisson_cdf_below(double mu, double K)
{
    double logt = (K - 1.0) * log(mu) - mu - lgamma(K);
    double t = exp(logt), sum = 0.0;
    for (double k = K - 1.0; k >= 0.0 && k > K - 1.0 - 60.0 * sqrt(mu);
         k -= 1.0) {
        sum += t;
        t *= k / mu;
    }
    return sum;
}

static void test_p_values_large_df(void **state)
{
    (void)state;
    const double dfs[] = { 2e4, 3628800, 16769026 };
    const double zs[] = { -1.0, 1.6448536, 4.753424, 7.0 };
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 4; j++) {
            const double df = dfs[i];
            const double x = df + zs[j] * sqrt(2.0 * df);
            double p;
            int u;
            assert_int_equal(sb_gof_chisq_p(x, df, &p, &u), SB_OK);
            assert_close(p, poisson_cdf_below(x / 2, df / 2), 1e-6);
        }
    /* The detectable noncentrality at df = 10! - 1 and alpha = 1e-6, where
       gsl_cdf_chisq_Qinv returns a critical value below the mean: near
       normal, lambda* solves (z_a sqrt(2 df) - l) / sqrt(2 (df + 2 l)) =
       -z_.1, about 16288; 1% covers the skewness left out. */
    const double df = 3628799.0;
    const double za = gsl_cdf_ugaussian_Qinv(1e-6);
    const double zb = gsl_cdf_ugaussian_Qinv(0.1);
    double lo = 0, hi = 1e6, lambda;
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        double z = (za * sqrt(2 * df) - mid) / sqrt(2 * (df + 2 * mid));
        if (z > -zb)
            lo = mid;
        else
            hi = mid;
    }
    assert_int_equal(sb_gof_detectable_chisq(df, 1e-6, 0.9, &lambda),
                     SB_OK);
    assert_close(lambda, lo, 1e-2);
}

/* ---- position --------------------------------------------------------- */

/* Every permutation of 4 exactly once: every card at every position
   exactly 3! = 6 times, X^2 = 0, p = 1. */
static void test_position_all_perms(void **state)
{
    (void)state;
    sb_card all[24 * 4], a[4] = { 0, 1, 2, 3 };
    size_t i = 0;
    do
        memcpy(all + 4 * i++, a, sizeof a);
    while (next_perm(a, 4));
    sb_result r;
    run_stat(&sb_stat_position, 4, all, 24, &r);
    assert_true(r.applicable);
    assert_close(r.statistic, 0.0, 0);
    assert_close(r.df, 9.0, 0);
    assert_close(r.p_value, 1.0, 0);
    assert_int_equal(r.table.rows, 4);
    assert_int_equal(r.table.cols, 4);
    for (size_t c = 0; c < 16; c++) {
        assert_close(r.table.observed[c], 6.0, 0);
        assert_close(r.table.expected[c], 6.0, 0);
    }
    assert_close(r.effect, 0.0, 0);
    assert_true(r.detectable > 0);
    /* 24/4 = 6 expected per cell: no warning about small expectations. */
    assert_null(strstr(r.note, "rough"));
    sb_result_clear(&r);
}

/* The identity, 1000 times: card c always at position c.  The p-value is
   far below the double range. */
static void test_position_identity(void **state)
{
    (void)state;
    enum { N = 52, S = 1000 };
    sb_card *s = malloc(sizeof *s * N * S);
    assert_non_null(s);
    for (size_t i = 0; i < S; i++)
        for (size_t j = 0; j < N; j++)
            s[i * N + j] = (sb_card)j;
    sb_result r;
    run_stat(&sb_stat_position, N, s, S, &r);
    assert_true(r.applicable);
    assert_int_equal(r.p_underflow, 1);
    assert_close(r.p_value, 0.0, 0);
    assert_close(r.df, 51.0 * 51.0, 0);
    /* 1000/52 = 19.2 expected: (1000 - 19.2) / 19.2 = +5100%. */
    assert_string_equal(r.effect_desc,
                        "card 0 at position 0: 5100% more often than uniform");
    assert_true(r.effect > r.detectable);
    free(s);
    sb_result_clear(&r);
}

/* Orientation: rows are cards, columns positions.  The deck (2 0 1) ten
   times puts card 2 at position 0, card 0 at 1 and card 1 at 2. */
static void test_position_orientation(void **state)
{
    (void)state;
    sb_card s[10 * 3];
    for (size_t i = 0; i < 10; i++) {
        s[3 * i] = 2;
        s[3 * i + 1] = 0;
        s[3 * i + 2] = 1;
    }
    sb_result r;
    run_stat(&sb_stat_position, 3, s, 10, &r);
    for (size_t card = 0; card < 3; card++)
        for (size_t pos = 0; pos < 3; pos++) {
            const int hit = (card == 2 && pos == 0) || (card == 0 && pos == 1)
                            || (card == 1 && pos == 2);
            assert_close(r.table.observed[card * 3 + pos], hit ? 10.0 : 0.0,
                         0);
        }
    /* 10 against 10/3 expected: +200%. */
    assert_string_equal(r.effect_desc,
                        "card 2 at position 0: 200% more often than uniform");
    sb_result_clear(&r);
}

/* The mean claim (DESIGN.md): the plain X^2 has mean n(n-1) = 20 for n = 5,
   the scaled one (n-1)^2 = 16.  400 repetitions of N = 1000 uniform decks:
   the scaled statistic is close to chi-square(16), SD sqrt(32) = 5.66, so
   the mean of 400 has SD 0.28; the plain one SD 0.28 * 5/4 = 0.35.
   The plain X^2 is counted in the test itself, not taken from the code.
   Tolerances 1.5 (5.3 SD) and 1.8 (5.1 SD): false alarm below 1e-6 over
   random seeds, while 16 and 20 are 4 apart, so the test cannot confuse
   them. */
static void test_position_mean(void **state)
{
    (void)state;
    enum { N = 5, S = 1000, REPS = 400 };
    uint64_t seed = 0x5eed0001ull;
    sb_card *s = malloc(sizeof *s * N * S);
    assert_non_null(s);
    double plain = 0, scaled = 0, scaled_sq = 0;
    for (int rep = 0; rep < REPS; rep++) {
        for (size_t i = 0; i < S; i++)
            shuffle(&seed, s + i * N, N, 0);
        /* The plain X^2, counted here independently of stats/position.c. */
        double count[N][N] = { { 0 } }, x2 = 0;
        for (size_t i = 0; i < S; i++)
            for (size_t j = 0; j < N; j++)
                count[s[i * N + j]][j]++;
        for (size_t c = 0; c < N; c++)
            for (size_t j = 0; j < N; j++)
                x2 += (count[c][j] - (double)S / N)
                      * (count[c][j] - (double)S / N) / ((double)S / N);
        sb_result r;
        run_stat(&sb_stat_position, N, s, S, &r);
        assert_close(r.statistic, x2 * (N - 1) / N, 1e-12);
        plain += x2;
        scaled += r.statistic;
        scaled_sq += r.statistic * r.statistic;
        sb_result_clear(&r);
    }
    free(s);
    plain /= REPS;
    scaled /= REPS;
    const double var = (scaled_sq - REPS * scaled * scaled) / (REPS - 1);
    assert_true(fabs(plain - 20.0) < 1.8);
    assert_true(fabs(scaled - 16.0) < 1.5);
    /* chi-square(16) has variance 32; the sample variance of 400 values
       has SD about 2.7 (excess kurtosis 0.75), so +-12 is 4.5 SD (false
       alarm ~1e-5), and the unscaled X^2 (variance 32 * 25/16 = 50) would
       fall outside it. */
    assert_true(fabs(var - 32.0) < 12.0);
}

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
        shuffle(&seed, s + i * n, n, 0);
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
    assert_int_equal(r.table.cols, 0);   /* n > 6: no table */
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
   (0.12 repeats expected): with mid-p Poisson values about 0.6 runs are
   expected below 1e-3; more than 10 has probability below 1e-5 for a
   calibrated test (binomial tail), so that is the false-alarm rate.  The
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

/* ---- cycles and fixed points on Sattolo's algorithm ------------------- */

/* Sattolo's algorithm makes only single 52-cycles (probability 1/52 under
   the null) and never leaves a card in place (probability 0.368 of no
   fixed point): both tests see it with p-values below the double range. */
static void test_sattolo(void **state)
{
    (void)state;
    enum { N = 52, S = 2000 };
    uint64_t seed = 0x5eed0003ull;
    sb_card *s = malloc(sizeof *s * N * S);
    assert_non_null(s);
    for (size_t i = 0; i < S; i++)
        shuffle(&seed, s + i * N, N, 1);
    sb_result r;
    run_stat(&sb_stat_cycles, N, s, S, &r);
    assert_true(r.applicable);
    assert_int_equal(r.p_underflow, 1);
    /* 2000/52 = 38.5 expected for 1 cycle: the first group alone. */
    assert_int_equal(r.table.lo[0], 1);
    assert_int_equal(r.table.hi[0], 1);
    assert_close(r.table.observed[0], 2000.0, 0);
    assert_string_equal(r.effect_desc,
                        "1 cycle: 100% of decks against 1.92% expected");
    sb_result_clear(&r);

    run_stat(&sb_stat_fixed_points, N, s, S, &r);
    assert_int_equal(r.p_underflow, 1);
    sb_result_clear(&r);
    free(s);
}

/* ---- every statistic -------------------------------------------------- */

/* Two accumulators merged give exactly what one accumulator fed both
   blocks gives: same counts, same result. */
static void test_merge(void **state)
{
    (void)state;
    enum { N = 5, S1 = 300, S2 = 500 };
    uint64_t seed = 0x5eed0004ull;
    sb_card *s = malloc(sizeof *s * N * (S1 + S2));
    assert_non_null(s);
    for (size_t i = 0; i < S1 + S2; i++)
        shuffle(&seed, s + i * N, N, 0);
    sb_shape shape = perm_shape(N);
    for (size_t t = 0; sb_stat_types[t] != NULL; t++) {
        const sb_stat_type *type = sb_stat_types[t];
        void *a, *b, *c;
        assert_int_equal(type->alloc(&a, &shape), SB_OK);
        assert_int_equal(type->alloc(&b, &shape), SB_OK);
        assert_int_equal(type->alloc(&c, &shape), SB_OK);
        type->add(a, s, S1);
        type->add(b, s + S1 * N, S2);
        /* c is fed in two calls of different sizes, as a runner would. */
        type->add(c, s, 7);
        type->add(c, s + 7 * N, S1 + S2 - 7);
        assert_int_equal(type->merge(a, b), SB_OK);
        sb_result ra, rc;
        assert_int_equal(type->finalize(a, S1 + S2, 1e-6, &ra), SB_OK);
        assert_int_equal(type->finalize(c, S1 + S2, 1e-6, &rc), SB_OK);
        assert_string_equal(ra.name, type->name);
        assert_true(ra.applicable && rc.applicable);
        assert_true(ra.statistic == rc.statistic);
        assert_true(ra.p_value == rc.p_value);
        assert_int_equal(ra.table.rows, rc.table.rows);
        assert_int_equal(ra.table.cols, rc.table.cols);
        assert_true(ra.table.cols > 0);
        assert_memory_equal(ra.table.observed, rc.table.observed,
                            ra.table.rows * ra.table.cols * sizeof(double));
        sb_result_clear(&ra);
        sb_result_clear(&rc);
        type->free(a);
        type->free(b);
        type->free(c);
    }
    free(s);
}

/* Registry sweep: every statistic passes a fair shuffle of 8 cards
   (p >= 1e-6 for each of 4: false alarm below 4e-6 over random seeds),
   states its null, and is not applicable for one card or no samples. */
static void test_sweep(void **state)
{
    (void)state;
    enum { N = 8, S = 20000 };
    uint64_t seed = 0x5eed0005ull;
    sb_card *s = malloc(sizeof *s * N * S);
    assert_non_null(s);
    for (size_t i = 0; i < S; i++)
        shuffle(&seed, s + i * N, N, 0);
    const sb_card one[3] = { 0, 0, 0 };
    for (size_t t = 0; sb_stat_types[t] != NULL; t++) {
        const sb_stat_type *type = sb_stat_types[t];
        sb_result r;
        run_stat(type, N, s, S, &r);
        assert_true(r.applicable);
        assert_true(r.p_value >= 1e-6);
        assert_int_equal(r.p_underflow, 0);
        assert_true(r.df > 0);
        assert_true(r.null_desc[0] != '\0');
        assert_true(r.effect_desc[0] != '\0');
        assert_true(r.detectable > 0);
        assert_true(r.effect >= 0);
        sb_result_clear(&r);

        run_stat(type, 1, one, 3, &r);
        assert_false(r.applicable);
        assert_true(r.note[0] != '\0');
        assert_int_equal(r.table.cols, 0);
        sb_result_clear(&r);

        run_stat(type, N, s, 0, &r);
        assert_false(r.applicable);
        sb_result_clear(&r);
    }
    free(s);
}

static void test_registry(void **state)
{
    (void)state;
    assert_ptr_equal(sb_stat_find("position"), &sb_stat_position);
    assert_ptr_equal(sb_stat_find("permutation"), &sb_stat_permutation);
    assert_ptr_equal(sb_stat_find("fixed-points"), &sb_stat_fixed_points);
    assert_ptr_equal(sb_stat_find("cycles"), &sb_stat_cycles);
    assert_null(sb_stat_find("positon"));
    assert_null(sb_stat_find(NULL));

    char why[128];
    sb_shape s52 = perm_shape(52);
    assert_false(sb_stat_applies(&sb_stat_permutation, &s52, why,
                                 sizeof why));
    assert_string_equal(why, "'permutation' needs n <= 10 (n is 52)");
    sb_shape deal = { SB_KIND_DEAL, 52, 52, 4 };
    assert_false(sb_stat_applies(&sb_stat_position, &deal, why, sizeof why));
    assert_string_equal(why,
                        "'position' applies to permutations, not deals");
    assert_true(sb_stat_applies(&sb_stat_position, &s52, why, sizeof why));
    assert_string_equal(why, "");
    sb_shape big = perm_shape(5000);
    assert_false(sb_stat_applies(&sb_stat_position, &big, NULL, 0));

    const sb_stat_type *out[SB_STAT_DEFAULTS_MAX];
    assert_int_equal(sb_stat_defaults(&s52, out, SB_STAT_DEFAULTS_MAX), 3);
    assert_ptr_equal(out[0], &sb_stat_position);
    assert_ptr_equal(out[1], &sb_stat_fixed_points);
    assert_ptr_equal(out[2], &sb_stat_cycles);
    sb_shape s10 = perm_shape(10), s1 = perm_shape(1);
    assert_int_equal(sb_stat_defaults(&s10, out, SB_STAT_DEFAULTS_MAX), 4);
    assert_ptr_equal(out[1], &sb_stat_permutation);
    assert_int_equal(sb_stat_defaults(&s1, out, SB_STAT_DEFAULTS_MAX), 4);
    assert_int_equal(sb_stat_defaults(&s1, out, 2), 2);
    assert_int_equal(sb_stat_defaults(&big, out, SB_STAT_DEFAULTS_MAX), 2);
    sb_shape draw = { SB_KIND_DRAW, 52, 5, 0 };
    assert_int_equal(sb_stat_defaults(&draw, out, SB_STAT_DEFAULTS_MAX), 0);
    assert_int_equal(sb_stat_defaults(&deal, out, SB_STAT_DEFAULTS_MAX), 0);
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
        cmocka_unit_test(test_pooling),
        cmocka_unit_test(test_dist_result_pooling),
        cmocka_unit_test(test_detectable),
        cmocka_unit_test(test_ncx2),
        cmocka_unit_test(test_p_values),
        cmocka_unit_test(test_p_values_large_df),
        cmocka_unit_test(test_position_all_perms),
        cmocka_unit_test(test_position_identity),
        cmocka_unit_test(test_position_orientation),
        cmocka_unit_test(test_position_mean),
        cmocka_unit_test(test_permutation_dense_exact),
        cmocka_unit_test(test_permutation_sparse),
        cmocka_unit_test(test_permutation_few_samples_calibrated),
        cmocka_unit_test(test_sattolo),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
