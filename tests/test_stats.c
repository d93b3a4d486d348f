/*
 * test_stats.c - exact nulls, goodness-of-fit machinery, the statistics
 * and their registry.
 *
 * Exact values come with their source.  Statistical assertions use fixed
 * seeds (so they are deterministic) and state the false-alarm rate they
 * would have over random seeds.
 */
#include "sb_test.h"
#include "tests/sb_sample.h"

#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/nulls.h"
#include "stats/registry.h"
#include "base/rng.h"

/* ---- helpers ---------------------------------------------------------- */

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

static sb_shape perm_shape(size_t n)
{
    sb_shape s = { SB_KIND_PERMUTATION, n, n, 0 };
    return s;
}

static sb_shape deal_shape(size_t n, unsigned hands)
{
    sb_shape s = { SB_KIND_DEAL, n, n, hands };
    return s;
}

static sb_shape draw_shape(size_t n, size_t k)
{
    sb_shape s = { SB_KIND_DRAW, n, k, 0 };
    return s;
}

/* Accumulate 'samples' (count x shape->len values) with 't' and
   finalize. */
static void run_shaped(const sb_stat_type *t, const sb_shape *shape,
                       const sb_card *samples, size_t count, sb_result *res)
{
    void *acc;
    assert_int_equal(t->alloc(&acc, shape), SB_OK);
    t->add(acc, samples, count);
    assert_int_equal(t->finalize(acc, count, 1e-6, res), SB_OK);
    t->free(acc);
}

/* The same for permutations of n cards. */
static void run_stat(const sb_stat_type *t, size_t n, const sb_card *samples,
                     size_t count, sb_result *res)
{
    sb_shape shape = perm_shape(n);
    run_shaped(t, &shape, samples, count, res);
}

/* The largest deck the fair samplers below take. */
#define FAIR_N_MAX 64

/* 'count' fair samples of shape 'sh' from 'seed', sh->len values each:
   a uniform deck (Fisher-Yates) for a permutation; for a deal, the card at
   position p of a uniform deck goes to hand p mod H (every hand gets n/H
   cards, and every split is equally likely); for a draw, the first k
   cards of a uniform deck. */
static void fair_samples(const sb_shape *sh, uint64_t *seed, sb_card *out,
                         size_t count)
{
    sb_card deck[FAIR_N_MAX];
    assert_true(sh->n <= FAIR_N_MAX);
    for (size_t i = 0; i < count; i++, out += sh->len) {
        shuffle(seed, deck, sh->n, 0);
        if (sh->kind == SB_KIND_DEAL)
            for (size_t p = 0; p < sh->n; p++)
                out[deck[p]] = (sb_card)(p % sh->hands);
        else
            memcpy(out, deck, sh->len * sizeof *deck);
    }
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

/* The cycles accumulator against the simplest count, written here: every
   permutation of 7 cards fed in calls of 1, 2, 3, ... decks (so that the
   side-by-side lanes and the leftovers are all exercised), and random
   decks of 64 and 65 cards (the word-wide path's limit, and past it).
   The counts come out through save, whose words are a key then the
   histogram. */
static void simple_cycles(const sb_card *a, size_t n, uint64_t *hist)
{
    unsigned char seen[70] = { 0 };
    size_t c = 0;
    for (size_t j = 0; j < n; j++)
        if (!seen[j]) {
            c++;
            for (size_t x = j; !seen[x]; x = a[x])
                seen[x] = 1;
        }
    hist[c]++;
}

static void check_cycles_add(const sb_card *decks, size_t n, size_t count)
{
    const sb_shape shape = { SB_KIND_PERMUTATION, n, n, 0 };
    void *acc;
    assert_int_equal(sb_stat_cycles.alloc(&acc, &shape), SB_OK);
    uint64_t want[70] = { 0 };
    size_t done = 0;
    for (size_t call = 1; done < count; call++) {
        const size_t k = call < count - done ? call : count - done;
        sb_stat_cycles.add(acc, decks + done * n, k);
        done += k;
    }
    for (size_t i = 0; i < count; i++)
        simple_cycles(decks + i * n, n, want);
    uint64_t *words;
    size_t len;
    assert_int_equal(sb_stat_cycles.save(acc, &words, &len), SB_OK);
    assert_int_equal(len, 1 + n + 1);
    assert_memory_equal(words + 1, want, (n + 1) * sizeof *want);
    free(words);
    sb_stat_cycles.free(acc);
}

static void test_cycles_add_brute_force(void **state)
{
    (void)state;
    enum { N = 7, ALL = 5040 };
    sb_card *decks = malloc(ALL * N * sizeof *decks);
    assert_non_null(decks);
    sb_card a[N];
    for (size_t i = 0; i < N; i++)
        a[i] = (sb_card)i;
    size_t k = 0;
    do
        memcpy(decks + N * k++, a, sizeof a);
    while (next_perm(a, N));
    assert_int_equal(k, ALL);
    check_cycles_add(decks, N, ALL);
    free(decks);

    for (size_t n = 64; n <= 65; n++) {
        enum { COUNT = 1000 };
        sb_card *big = malloc(COUNT * n * sizeof *big);
        assert_non_null(big);
        sb_src src;
        sb_src_fast(&src, 99, n);
        for (size_t i = 0; i < COUNT; i++) {
            sb_card *d = big + i * n;
            for (size_t j = 0; j < n; j++)
                d[j] = (sb_card)j;
            for (size_t j = n; j-- > 1;) {
                const size_t r = (size_t)sb_below(&src, j + 1);
                const sb_card t = d[j];
                d[j] = d[r];
                d[r] = t;
            }
        }
        check_cycles_add(big, n, COUNT);
        free(big);
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

/* The detectable effect in words, checked by building the alternative it
   names and computing that alternative's noncentrality per sample
   directly: it must equal res->detectable.
   1-D: the fixed-points result of test_dist_result_pooling names its most
   likely group (0 fixed points, 36.8%) shifted by delta, the other groups
   scaled to make up the difference; sum (p' - p)^2 / p over the 5 groups.
   Card x hand (4 cards, 2 hands): one cell shifted by eps = delta p_g, its
   row and column evened out (the rank-one pattern of gof.c); the plain
   X^2 noncentrality per sample, sum over cells (p'_cg - p_cg)^2 / p_cg
   with p_cg = 1/2, scaled by (n-1)/n. */
static double desc_delta(const sb_result *r)
{
    const char *c = strchr(r->detectable_desc, ':');
    assert_non_null(c);
    double pct = 0.0;
    assert_int_equal(sscanf(c + 1, "%lf%%", &pct), 1);
    return pct / 100.0;
}

static void test_detectable_words(void **state)
{
    (void)state;
    uint64_t counts[53] = { 370, 365, 180, 65, 15, 4, 1 };
    double prob[53];
    sb_null_fixed_points(52, prob);
    sb_result r;
    assert_int_equal(sb_gof_dist_result(&r, "fixed-points", counts, prob, 53,
                                        0, 1000, 1e-6, "fixed point",
                                        "fixed points", "rencontres"),
                     SB_OK);
    assert_non_null(strstr(r.detectable_desc, "0 fixed points (36.8% of "
                                              "decks): "));
    double group[5] = { 0 };
    for (size_t v = 0; v <= 52; v++)
        group[v < 4 ? v : 4] += prob[v];
    const double d = desc_delta(&r), p = group[0];
    double lambda = 0.0;
    for (size_t g = 0; g < 5; g++) {
        const double q = g == 0 ? p * (1.0 + d)
                                : group[g] * (1.0 - p * (1.0 + d))
                                  / (1.0 - p);
        lambda += (q - group[g]) * (q - group[g]) / group[g];
    }
    /* desc rounds delta to three digits: 1e-2 relative on delta^2. */
    assert_close(lambda, r.detectable, 1e-2);
    sb_result_clear(&r);

    const sb_card s[] = { 0, 0, 1, 1,  0, 1, 0, 1,  0, 0, 1, 1,
                          1, 1, 0, 0 };
    sb_shape sh = deal_shape(4, 2);
    run_shaped(&sb_stat_card_hand, &sh, s, 4, &r);
    assert_non_null(strstr(r.detectable_desc, "one card in one hand: "));
    const double eps = desc_delta(&r) * 0.5;
    lambda = 0.0;
    for (size_t c = 0; c < 4; c++)
        for (size_t h = 0; h < 2; h++) {
            const double a = c == 0 ? 1.0 : -1.0 / 3.0;
            const double b = h == 0 ? 1.0 : -1.0;
            lambda += (eps * a * b) * (eps * a * b) / 0.5;
        }
    assert_close(lambda * 3.0 / 4.0, r.detectable, 1e-2);
    sb_result_clear(&r);
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

/* ---- card-hand and card-slot ------------------------------------------ */

/* The plain X^2 of a card x group table, counted here independently of
   stats/: card x hand for a deal (S/H expected per cell); card x slot for
   a draw (S/n per slot) plus, when k < n, the cards not drawn, counted
   directly (S(n-k)/n expected). */
static double plain_groups_x2(const sb_shape *sh, const sb_card *s,
                              size_t count)
{
    const size_t n = sh->n, k = sh->len;
    const int deal = sh->kind == SB_KIND_DEAL;
    const size_t cols = deal ? sh->hands : k + (k < n);
    double *o = calloc(n * cols, sizeof *o);
    assert_non_null(o);
    assert_true(n <= FAIR_N_MAX);
    for (size_t i = 0; i < count; i++, s += k) {
        int drawn[FAIR_N_MAX] = { 0 };
        for (size_t j = 0; j < k; j++) {
            if (deal) {
                o[j * cols + s[j]]++;
            } else {
                o[s[j] * cols + j]++;
                drawn[s[j]] = 1;
            }
        }
        if (!deal && k < n)
            for (size_t c = 0; c < n; c++)
                o[c * cols + k] += !drawn[c];
    }
    const double S = (double)count;
    double x2 = 0;
    for (size_t c = 0; c < n; c++)
        for (size_t g = 0; g < cols; g++) {
            const double e = deal ? S / (double)sh->hands
                             : g < k ? S / (double)n
                                     : S * (double)(n - k) / (double)n;
            x2 += (o[c * cols + g] - e) * (o[c * cols + g] - e) / e;
        }
    free(o);
    return x2;
}

/* The correction by simulation (the derivation is in stats/gof.c).  Over
   fair samples, the plain X^2 of a card x group table with G groups has
   mean n(G-1) exactly, and the scaled X^2 (n-1)/n is close to
   chi-square(df), df = (n-1)(G-1): mean df, variance 2 df.  'reps' runs of
   'per_run' fair samples each: every run's statistic must equal the plain
   X^2 counted here times (n-1)/n, and the mean of the runs must be within
   5 SD of df (SD sqrt(2 df / reps), the mean of 200 or more runs being
   close to normal), the plain mean within 5 SD (n/(n-1) times larger) of
   n(G-1).  Two-sided 5 SD: false alarm 5.7e-7 per check over random
   seeds.  The two means are df/(n-1) = G-1 apart; the test asserts that
   each tolerance plus 3 SD is less than that, so a missing correction, or
   one applied twice, fails with probability above 0.998. */
static void groups_mean(const sb_stat_type *t, const sb_shape *sh,
                        size_t per_run, int reps, uint64_t seed, double df)
{
    const double n = (double)sh->n;
    const double plain_mean = df * n / (n - 1.0);
    const double sd = sqrt(2.0 * df / reps), sd_plain = sd * n / (n - 1.0);
    assert_true(8.0 * sd < plain_mean - df);
    assert_true(8.0 * sd_plain < plain_mean - df);

    sb_card *s = malloc(sizeof *s * sh->len * per_run);
    assert_non_null(s);
    double plain = 0, scaled = 0;
    for (int rep = 0; rep < reps; rep++) {
        fair_samples(sh, &seed, s, per_run);
        const double x2 = plain_groups_x2(sh, s, per_run);
        sb_result r;
        run_shaped(t, sh, s, per_run, &r);
        assert_true(r.applicable);
        assert_close(r.df, df, 0);
        assert_close(r.statistic, x2 * (n - 1.0) / n, 1e-12);
        plain += x2;
        scaled += r.statistic;
        sb_result_clear(&r);
    }
    free(s);
    plain /= reps;
    scaled /= reps;
    assert_true(fabs(scaled - df) < 5.0 * sd);
    assert_true(fabs(plain - plain_mean) < 5.0 * sd_plain);
}

/* card x hand: 8 cards in 2 hands (df 7, plain mean 8: only 1 apart, so
   1200 runs, SD of the mean 0.11, 0.12 for the plain one) and 12 cards in
   4 hands (df 33, plain mean 36; 600 runs, SD 0.33 and 0.36). */
static void test_card_hand_mean(void **state)
{
    (void)state;
    sb_shape d8 = deal_shape(8, 2), d12 = deal_shape(12, 4);
    groups_mean(&sb_stat_card_hand, &d8, 500, 1200, 0x5eed2001ull, 7.0);
    groups_mean(&sb_stat_card_hand, &d12, 1000, 600, 0x5eed2002ull, 33.0);
}

/* card x slot: 3 cards drawn from 10 (df (n-1)k = 27, plain mean 30; 500
   runs, SD of the mean 0.33 and 0.37), and all 10 (no not-drawn column:
   df (n-1)^2 = 81, plain mean 90; 200 runs, SD 0.90 and 1.0). */
static void test_card_slot_mean(void **state)
{
    (void)state;
    sb_shape k3 = draw_shape(10, 3), k10 = draw_shape(10, 10);
    groups_mean(&sb_stat_card_slot, &k3, 1000, 500, 0x5eed2003ull, 27.0);
    groups_mean(&sb_stat_card_slot, &k10, 1000, 200, 0x5eed2004ull, 81.0);
}

/* Four deals of 4 cards into 2 hands of 2, written out (hand of cards
   0, 1, 2, 3):
       0 0 1 1,  0 1 0 1,  0 0 1 1,  1 1 0 0.
   Card 0 is in hand 0 three times and hand 1 once; card 1 2 and 2; card 2
   2 and 2; card 3 once and three times.  Each cell expects 4/2 = 2, so
   X^2 = (1 + 1 + 0 + 0 + 0 + 0 + 1 + 1) / 2 = 2, the scaled value
   2 * 3/4 = 1.5 on (4-1)(2-1) = 3 df, and the plain mean n(H-1) = 4.
   For 3 df the chi-square tail has the closed form Q(x) = erfc(sqrt(x/2))
   + sqrt(2x/pi) exp(-x/2) (Abramowitz and Stegun, section 26.4):
   Q(1.5) = 0.68227.  The largest
   cell contributions, 1/2 each, are card 0 in hand 0 (found first), card 0
   in hand 1, and card 3 in both: 3 against 2 is +50%. */
static void test_card_hand_by_hand(void **state)
{
    (void)state;
    const sb_card s[] = { 0, 0, 1, 1,  0, 1, 0, 1,  0, 0, 1, 1,
                          1, 1, 0, 0 };
    const double want[4][2] = { { 3, 1 }, { 2, 2 }, { 2, 2 }, { 1, 3 } };
    sb_shape sh = deal_shape(4, 2);
    sb_result r;
    run_shaped(&sb_stat_card_hand, &sh, s, 4, &r);
    assert_true(r.applicable);
    assert_string_equal(r.name, "card-hand");
    assert_int_equal(r.table.rows, 4);
    assert_int_equal(r.table.cols, 2);
    for (size_t c = 0; c < 4; c++)
        for (size_t h = 0; h < 2; h++) {
            assert_close(r.table.observed[c * 2 + h], want[c][h], 0);
            assert_close(r.table.expected[c * 2 + h], 2.0, 0);
        }
    assert_close(r.statistic, 1.5, 1e-15);
    assert_close(r.df, 3.0, 0);
    const double q = erfc(sqrt(0.75)) + sqrt(3.0 / acos(-1.0)) * exp(-0.75);
    assert_close(r.p_value, q, 1e-12);
    assert_close(r.p_value, 0.68227, 1e-5);
    assert_close(r.effect, 0.0, 0);
    assert_string_equal(r.effect_desc,
                        "card 0 in hand 0: 50.0% more often than uniform");
    assert_non_null(strstr(r.null_desc, "chi-square((n-1)(G-1) = 3)"));
    assert_non_null(strstr(r.note, "plain x2 (2) has mean n(G-1) = 4"));
    assert_non_null(strstr(r.note, "rough"));   /* 2 expected per cell */
    sb_result_clear(&r);
}

/* Four draws of 2 cards from 4, written out: (0 1), (0 2), (1 0), (3 2).
   Slots 0, 1 and not drawn, per card:
       card 0: 2 1 1    card 1: 1 1 2    card 2: 0 2 2    card 3: 1 0 3.
   A slot cell expects 4/4 = 1, a not-drawn cell 4 * 2/4 = 2:
   X^2 = (1 + 0 + 1/2) + (0 + 0 + 0) + (1 + 1 + 0) + (0 + 1 + 1/2) = 5,
   scaled 5 * 3/4 = 3.75 on (4-1) * 2 = 6 df, plain mean nk = 8.  For an
   even df = 2m the tail is a Poisson sum, Q(x) = exp(-x/2) sum_{j<m}
   (x/2)^j / j! (Abramowitz and Stegun, section 26.4); for 6 df,
   Q(3.75) = 0.7104.  The largest contribution, 1, is first
   reached at card 0 in slot 0: 2 against 1, +100%. */
static void test_card_slot_by_hand(void **state)
{
    (void)state;
    const sb_card s[] = { 0, 1,  0, 2,  1, 0,  3, 2 };
    const double want[4][3] = { { 2, 1, 1 }, { 1, 1, 2 }, { 0, 2, 2 },
                                { 1, 0, 3 } };
    sb_shape sh = draw_shape(4, 2);
    sb_result r;
    run_shaped(&sb_stat_card_slot, &sh, s, 4, &r);
    assert_true(r.applicable);
    assert_string_equal(r.name, "card-slot");
    assert_int_equal(r.table.rows, 4);
    assert_int_equal(r.table.cols, 3);
    for (size_t c = 0; c < 4; c++)
        for (size_t g = 0; g < 3; g++) {
            assert_close(r.table.observed[c * 3 + g], want[c][g], 0);
            assert_close(r.table.expected[c * 3 + g], g < 2 ? 1.0 : 2.0, 0);
        }
    assert_close(r.statistic, 3.75, 1e-15);
    assert_close(r.df, 6.0, 0);
    const double y = 3.75 / 2;
    assert_close(r.p_value, exp(-y) * (1 + y + y * y / 2), 1e-12);
    assert_close(r.p_value, 0.7104, 1e-4);
    assert_string_equal(r.effect_desc,
                        "card 0 in slot 0: 100% more often than uniform");
    assert_non_null(strstr(r.note, "plain x2 (5) has mean n(G-1) = 8"));
    sb_result_clear(&r);

    /* Three draws of 2 cards from 3, (1 2), (2 1), (1 2): card 0 is never
       drawn.  Every cell expects 3/3 = 1 (slots) or 3 * 1/3 = 1 (not
       drawn); per card, slots 0, 1 and not drawn:
           card 0: 0 0 3    card 1: 2 1 0    card 2: 1 2 0,
       X^2 = (1 + 1 + 4) + (1 + 0 + 1) + (0 + 1 + 1) = 10, scaled
       10 * 2/3 on (3-1) * 2 = 4 df: Q(x) = exp(-x/2) (1 + x/2) = 0.15459
       (the Poisson sum above).  The worst cell is the not-drawn one of card 0,
       3 against 1: +200%. */
    const sb_card s3[] = { 1, 2,  2, 1,  1, 2 };
    sh = draw_shape(3, 2);
    run_shaped(&sb_stat_card_slot, &sh, s3, 3, &r);
    assert_int_equal(r.table.cols, 3);
    assert_close(r.table.observed[2], 3.0, 0);
    assert_close(r.table.expected[2], 1.0, 0);
    assert_close(r.statistic, 20.0 / 3.0, 1e-15);
    assert_close(r.df, 4.0, 0);
    assert_close(r.p_value, exp(-10.0 / 3.0) * (1 + 10.0 / 3.0), 1e-12);
    assert_string_equal(r.effect_desc,
                        "card 0 not drawn: 200% more often than uniform");
    sb_result_clear(&r);
}

/* A draw of the whole deck is a permutation: card-slot with k = n leaves
   the always-empty not-drawn column out, and is then the position matrix,
   counted by stats/position.c: same table, statistic and df (n-1)^2. */
static void test_card_slot_whole_deck(void **state)
{
    (void)state;
    enum { N = 6, S = 3000 };
    uint64_t seed = 0x5eed2005ull;
    sb_card *s = malloc(sizeof *s * N * S);
    assert_non_null(s);
    sb_shape perm = perm_shape(N), all = draw_shape(N, N);
    fair_samples(&perm, &seed, s, S);
    sb_result rp, rs;
    run_stat(&sb_stat_position, N, s, S, &rp);
    run_shaped(&sb_stat_card_slot, &all, s, S, &rs);
    assert_true(rs.applicable);
    assert_close(rs.df, 25.0, 0);
    assert_close(rs.statistic, rp.statistic, 1e-12);
    assert_close(rs.p_value, rp.p_value, 1e-12);
    assert_int_equal(rs.table.rows, N);
    assert_int_equal(rs.table.cols, N);
    assert_memory_equal(rs.table.observed, rp.table.observed,
                        N * N * sizeof(double));
    assert_memory_equal(rs.table.expected, rp.table.expected,
                        N * N * sizeof(double));
    sb_result_clear(&rp);
    sb_result_clear(&rs);
    free(s);
}

/* A deal that sends card 0 to hand 0 too often: 52 cards in 4 hands,
   fair, except that in one deal of ten (by the test's generator) card 0,
   when it is not in hand 0, swaps hands with a card of hand 0 chosen
   uniformly.  Card 0 is then in hand 0 with probability 1/4 + 3/40 =
   0.325: over 20000 deals that cell expects 5000 and gets about 6500, a
   contribution near 450 alone, and the noncentrality is about
   20000 (0.075^2 + 3 * 0.025^2) / 0.25 = 600 against df 153, so the
   p-value is far below 1e-6 (missing it would take the statistic 9 SD
   below its mean).  The same number of fair deals passes (p >= 1e-6:
   false alarm 1e-6 over random seeds). */
static void test_card_hand_biased(void **state)
{
    (void)state;
    enum { N = 52, H = 4, S = 20000 };
    uint64_t seed = 0x5eed2006ull;
    sb_card *s = malloc(sizeof *s * N * S);
    assert_non_null(s);
    sb_shape sh = deal_shape(N, H);
    fair_samples(&sh, &seed, s, S);
    sb_result r;
    run_shaped(&sb_stat_card_hand, &sh, s, S, &r);
    assert_true(r.applicable);
    assert_close(r.df, 153.0, 0);
    assert_true(r.p_value >= 1e-6);
    sb_result_clear(&r);

    for (size_t i = 0; i < S; i++) {
        sb_card *d = s + i * N;
        if (xs_below(&seed, 10) != 0 || d[0] == 0)
            continue;
        size_t pick = xs_below(&seed, N / H), c = 0;
        for (;; c++)
            if (d[c] == 0 && pick-- == 0)
                break;
        d[c] = d[0];
        d[0] = 0;
    }
    run_shaped(&sb_stat_card_hand, &sh, s, S, &r);
    assert_true(r.p_value < 1e-6);
    assert_true(r.effect > r.detectable);
    assert_true(strncmp(r.effect_desc, "card 0 in hand 0: ", 18) == 0);
    assert_non_null(strstr(r.effect_desc, "% more often than uniform"));
    sb_result_clear(&r);
    free(s);
}

/* A draw of 3 cards from 10 that never draws card 0 first (a fair draw,
   redrawn whenever card 0 comes first): cell (0, slot 0) expects
   20000/10 = 2000 and gets 0, a contribution of 2000 alone against df 27,
   which puts the p-value below the double range; no other cell comes
   close (card c != 0 comes first with probability 1/9 instead of 1/10, a
   contribution near 25). */
static void test_card_slot_biased(void **state)
{
    (void)state;
    enum { N = 10, K = 3, S = 20000 };
    uint64_t seed = 0x5eed2007ull;
    sb_card *s = malloc(sizeof *s * K * S);
    assert_non_null(s);
    sb_shape sh = draw_shape(N, K);
    for (size_t i = 0; i < S; i++)
        do
            fair_samples(&sh, &seed, s + i * K, 1);
        while (s[i * K] == 0);
    sb_result r;
    run_shaped(&sb_stat_card_slot, &sh, s, S, &r);
    assert_true(r.applicable);
    assert_close(r.df, 27.0, 0);
    assert_int_equal(r.p_underflow, 1);
    assert_close(r.table.observed[0], 0.0, 0);
    assert_string_equal(r.effect_desc,
                        "card 0 in slot 0: 100% less often than uniform");
    sb_result_clear(&r);
    free(s);
}

/* What the tables cannot test is not applicable, saying why: one card,
   one hand, hands of unequal size, no hands given, a draw of no card, no
   samples. */
static void test_card_groups_not_applicable(void **state)
{
    (void)state;
    const sb_card zeros[8] = { 0 };
    const struct {
        const sb_stat_type *t;
        sb_shape sh;
        size_t count;
        const char *note;
    } cases[] = {
        { &sb_stat_card_hand, { SB_KIND_DEAL, 1, 1, 1 }, 1,
          "'card-hand' needs n >= 2 (n is 1)" },
        { &sb_stat_card_hand, { SB_KIND_DEAL, 8, 8, 1 }, 1,
          "'card-hand' needs at least two hands (got 1)" },
        { &sb_stat_card_hand, { SB_KIND_DEAL, 8, 8, 0 }, 1,
          "'card-hand' needs at least two hands (got 0)" },
        { &sb_stat_card_hand, { SB_KIND_DEAL, 8, 8, 3 }, 1,
          "'card-hand' needs hands of equal size: 3 hands do not divide "
          "8 cards" },
        { &sb_stat_card_hand, { SB_KIND_DEAL, 4, 4, 8 }, 1,
          "'card-hand' needs hands of equal size: 8 hands do not divide "
          "4 cards" },
        { &sb_stat_card_hand, { SB_KIND_DEAL, 8, 8, 2 }, 0, "no samples" },
        { &sb_stat_card_slot, { SB_KIND_DRAW, 1, 1, 0 }, 1,
          "'card-slot' needs n >= 2 (n is 1)" },
        { &sb_stat_card_slot, { SB_KIND_DRAW, 8, 0, 0 }, 1,
          "'card-slot' needs draws of at least one card" },
        { &sb_stat_card_slot, { SB_KIND_DRAW, 8, 3, 0 }, 0, "no samples" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_result r;
        run_shaped(cases[i].t, &cases[i].sh, zeros, cases[i].count, &r);
        assert_false(r.applicable);
        assert_string_equal(r.note, cases[i].note);
        assert_int_equal(r.table.cols, 0);
        sb_result_clear(&r);
    }
    /* Shapes no sample can have are refused when allocating. */
    void *acc;
    sb_shape long_draw = draw_shape(5, 6), perm = perm_shape(5);
    assert_int_equal(sb_stat_card_slot.alloc(&acc, &long_draw), SB_EINVAL);
    assert_int_equal(sb_stat_card_slot.alloc(&acc, &perm), SB_EINVAL);
    assert_int_equal(sb_stat_card_hand.alloc(&acc, &perm), SB_EINVAL);
}

/* ---- every statistic -------------------------------------------------- */

/* One shape of each kind, for the sweeps below: every statistic applies to
   at least one of them. */
static void kind_shapes(size_t n, sb_shape out[3])
{
    out[0] = perm_shape(n);
    out[1] = deal_shape(n, 2);
    out[2] = draw_shape(n, 3);
}

/* Two accumulators merged give exactly what one accumulator fed both
   blocks gives: same counts, same result, for every statistic on every
   kind of sample it applies to. */
static void test_merge(void **state)
{
    (void)state;
    enum { S1 = 300, S2 = 500 };
    uint64_t seed = 0x5eed0004ull;
    /* 5 cards: 800 permutations fill the dense regime of 'permutation'
       (5! = 120 orders); 52 cards for 'poker7', and a bridge deal for
       the statistics of suits and honours, which need whole suits. */
    const sb_shape shapes[5] = { perm_shape(5), deal_shape(6, 3),
                                 draw_shape(6, 2), perm_shape(52),
                                 deal_shape(52, 4) };
    size_t tested[32] = { 0 };
    for (size_t k = 0; k < 5; k++) {
        const sb_shape *shape = &shapes[k];
        const size_t len = shape->len;
        sb_card *s = malloc(sizeof *s * len * (S1 + S2));
        assert_non_null(s);
        fair_samples(shape, &seed, s, S1 + S2);
        for (size_t t = 0; sb_stat_types[t] != NULL; t++) {
            const sb_stat_type *type = sb_stat_types[t];
            if (sb_stat_check(type, shape, NULL, 0) != SB_OK)
                continue;
            assert_true(t < 32);
            void *a, *b, *c;
            assert_int_equal(type->alloc(&a, shape), SB_OK);
            assert_int_equal(type->alloc(&b, shape), SB_OK);
            assert_int_equal(type->alloc(&c, shape), SB_OK);
            type->add(a, s, S1);
            type->add(b, s + S1 * len, S2);
            /* c is fed in two calls of different sizes, as a runner
               would; but 'serial' counts pairs of consecutive samples
               within one call, so it is fed at the boundary of a and b
               (tests/test_collisions.c checks its own merge). */
            const size_t cut = type == &sb_stat_serial ? S1 : 7;
            type->add(c, s, cut);
            type->add(c, s + cut * len, S1 + S2 - cut);
            assert_int_equal(type->merge(a, b), SB_OK);
            sb_result ra, rc;
            assert_int_equal(type->finalize(a, S1 + S2, 1e-6, &ra), SB_OK);
            assert_int_equal(type->finalize(c, S1 + S2, 1e-6, &rc), SB_OK);
            assert_string_equal(ra.name, type->name);
            assert_int_equal(ra.applicable, rc.applicable);
            assert_string_equal(ra.note, rc.note);
            /* A shape a statistic takes but cannot test (5 cards read as
               four hands dealt in blocks) is tested on another one. */
            tested[t] += ra.applicable;
            assert_true(ra.statistic == rc.statistic);
            assert_true(ra.p_value == rc.p_value);
            assert_int_equal(ra.table.rows, rc.table.rows);
            assert_int_equal(ra.table.cols, rc.table.cols);
            assert_true(ra.table.cols > 0 || !ra.applicable);
            assert_memory_equal(ra.table.observed, rc.table.observed,
                                ra.table.rows * ra.table.cols
                                    * sizeof(double));
            sb_result_clear(&ra);
            sb_result_clear(&rc);
            type->free(a);
            type->free(b);
            type->free(c);
        }
        free(s);
    }
    /* Every statistic of small decks was tested ('collisions' needs
       n >= 15 and has its own merge tests in tests/test_collisions.c). */
    for (size_t t = 0; sb_stat_types[t] != NULL; t++)
        assert_true(tested[t] > 0 || sb_stat_types[t]->n_min > 6);
}

/* Registry sweep: every statistic passes fair samples of 8 cards of each
   kind it applies to (p >= 1e-6 for each of 15: false alarm below 1.5e-5
   over random seeds), states its null, and is not applicable for one card
   or no samples. */
static void test_sweep(void **state)
{
    (void)state;
    enum { N = 8, S = 20000 };
    uint64_t seed = 0x5eed0005ull;
    sb_shape shapes[3], ones[3];
    kind_shapes(N, shapes);
    ones[0] = perm_shape(1);
    ones[1] = deal_shape(1, 1);
    ones[2] = draw_shape(1, 1);
    const sb_card one[3] = { 0, 0, 0 };
    for (size_t k = 0; k < 3; k++) {
        const sb_shape *shape = &shapes[k];
        sb_card *s = malloc(sizeof *s * shape->len * S);
        assert_non_null(s);
        fair_samples(shape, &seed, s, S);
        for (size_t t = 0; sb_stat_types[t] != NULL; t++) {
            const sb_stat_type *type = sb_stat_types[t];
            if (sb_stat_check(type, shape, NULL, 0) != SB_OK)
                continue;
            sb_result r;
            run_shaped(type, shape, s, S, &r);
            assert_true(r.applicable);
            assert_true(r.p_value >= 1e-6);
            assert_int_equal(r.p_underflow, 0);
            assert_true(r.df > 0);
            assert_true(r.null_desc[0] != '\0');
            assert_true(r.effect_desc[0] != '\0');
            assert_true(r.detectable > 0);
            assert_true(r.effect >= 0);
            sb_result_clear(&r);

            run_shaped(type, &ones[k], one, 3, &r);
            assert_false(r.applicable);
            assert_true(r.note[0] != '\0');
            assert_int_equal(r.table.cols, 0);
            sb_result_clear(&r);

            run_shaped(type, shape, s, 0, &r);
            assert_false(r.applicable);
            sb_result_clear(&r);
        }
        free(s);
    }
}

/* The kinds keep statistics apart: a position matrix over a deal's hand
   numbers, or over the few cards of a draw, would fail fair deals and
   draws, and a card x hand table cannot read a permutation.  Every
   statistic applies exactly to the kinds it declares; the permutation
   statistics declare permutations only, card-hand deals only, card-slot
   draws only. */
static void test_registry_kinds(void **state)
{
    (void)state;
    sb_shape shapes[3];
    for (size_t t = 0; sb_stat_types[t] != NULL; t++) {
        /* 8 cards, or the fewest the statistic takes (whole suits,
           honours) */
        const size_t nn = sb_stat_types[t]->n_min > 8
                              ? sb_stat_types[t]->n_min : 8;
        kind_shapes(nn, shapes);
        for (size_t k = 0; k < 3; k++) {
            char why[128];
            const sb_stat_type *st = sb_stat_types[t];
            const int want = (st->kinds & (unsigned)shapes[k].kind) != 0
                             && st->n_min <= nn && nn <= st->n_max;
            assert_int_equal(sb_stat_check(sb_stat_types[t], &shapes[k],
                                           why, sizeof why),
                             want ? SB_OK : SB_EINVAL);
            assert_int_equal(why[0] == '\0', want);
        }
    }
    const sb_stat_type *perm_only[] = { &sb_stat_position,
                                        &sb_stat_permutation,
                                        &sb_stat_fixed_points,
                                        &sb_stat_cycles };
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(perm_only[i]->kinds, SB_KIND_PERMUTATION);
    assert_int_equal(sb_stat_card_hand.kinds, SB_KIND_DEAL);
    assert_int_equal(sb_stat_card_slot.kinds, SB_KIND_DRAW);

    char why[128];
    sb_shape bridge = deal_shape(52, 4), hand5 = draw_shape(52, 5);
    sb_shape s52 = perm_shape(52);
    assert_int_equal(sb_stat_check(&sb_stat_cycles, &hand5, why, sizeof why),
                     SB_EINVAL);
    assert_string_equal(why, "'cycles' applies to permutations, not draws");
    assert_int_equal(sb_stat_check(&sb_stat_card_hand, &s52, why, sizeof why),
                     SB_EINVAL);
    assert_string_equal(why,
                        "'card-hand' applies to deals, not permutations");
    assert_int_equal(sb_stat_check(&sb_stat_card_slot, &bridge, why,
                                   sizeof why),
                     SB_EINVAL);
    assert_string_equal(why, "'card-slot' applies to draws, not deals");

    /* The defaults: for deals the card x hand table, the four
       statistics of whole hands and repeats; for draws serial dependence,
       one table and repeats. */
    const sb_stat_type *out[SB_STAT_DEFAULTS_MAX];
    assert_int_equal(sb_stat_defaults(&bridge, out, SB_STAT_DEFAULTS_MAX), 6);
    assert_ptr_equal(out[0], &sb_stat_card_hand);
    assert_ptr_equal(out[1], &sb_stat_hand_patterns);
    assert_ptr_equal(out[4], &sb_stat_same_hand_pairs);
    assert_ptr_equal(out[5], &sb_stat_collisions);
    assert_int_equal(sb_stat_defaults(&hand5, out, SB_STAT_DEFAULTS_MAX), 3);
    assert_ptr_equal(out[0], &sb_stat_serial);
    assert_ptr_equal(out[1], &sb_stat_card_slot);
    assert_ptr_equal(out[2], &sb_stat_collisions);
}

static void test_registry(void **state)
{
    (void)state;
    assert_ptr_equal(sb_stat_find("position"), &sb_stat_position);
    assert_ptr_equal(sb_stat_find("permutation"), &sb_stat_permutation);
    assert_ptr_equal(sb_stat_find("fixed-points"), &sb_stat_fixed_points);
    assert_ptr_equal(sb_stat_find("cycles"), &sb_stat_cycles);
    assert_ptr_equal(sb_stat_find("card-hand"), &sb_stat_card_hand);
    assert_ptr_equal(sb_stat_find("card-slot"), &sb_stat_card_slot);
    assert_ptr_equal(sb_stat_find("serial"), &sb_stat_serial);
    assert_ptr_equal(sb_stat_find("collisions"), &sb_stat_collisions);
    assert_null(sb_stat_find("positon"));
    assert_null(sb_stat_find(NULL));

    char why[128];
    sb_shape s52 = perm_shape(52);
    assert_int_equal(sb_stat_check(&sb_stat_permutation, &s52, why,
                                   sizeof why),
                     SB_EINVAL);
    assert_string_equal(why, "'permutation' needs n <= 10 (n is 52)");
    sb_shape deal = { SB_KIND_DEAL, 52, 52, 4 };
    assert_int_equal(sb_stat_check(&sb_stat_position, &deal, why, sizeof why),
                     SB_EINVAL);
    assert_string_equal(why,
                        "'position' applies to permutations, not deals");
    assert_int_equal(sb_stat_check(&sb_stat_position, &s52, why, sizeof why),
                     SB_OK);
    assert_string_equal(why, "");
    sb_shape big = perm_shape(5000);
    assert_int_equal(sb_stat_check(&sb_stat_position, &big, NULL, 0),
                     SB_EINVAL);

    const sb_stat_type *out[SB_STAT_DEFAULTS_MAX];
    assert_int_equal(sb_stat_defaults(&s52, out, SB_STAT_DEFAULTS_MAX), 11);
    assert_ptr_equal(out[0], &sb_stat_position);
    assert_ptr_equal(out[1], &sb_stat_fixed_points);
    assert_ptr_equal(out[2], &sb_stat_cycles);
    assert_ptr_equal(out[3], &sb_stat_rising);
    assert_ptr_equal(out[4], &sb_stat_descents);
    assert_ptr_equal(out[5], &sb_stat_inversions);
    assert_ptr_equal(out[6], &sb_stat_successions);
    assert_ptr_equal(out[7], &sb_stat_new_age_solitaire);
    assert_ptr_equal(out[8], &sb_stat_poker7);
    assert_ptr_equal(out[9], &sb_stat_serial);
    assert_ptr_equal(out[10], &sb_stat_collisions);
    /* No collisions below 15 cards (15! ~ 2^40.25), no poker7 but at 52. */
    sb_shape s10 = perm_shape(10), s1 = perm_shape(1);
    assert_int_equal(sb_stat_defaults(&s10, out, SB_STAT_DEFAULTS_MAX), 10);
    assert_ptr_equal(out[1], &sb_stat_permutation);
    assert_ptr_equal(out[9], &sb_stat_serial);
    /* One card: the four tables and serial; the order statistics need
       two cards, the solitaire four. */
    assert_int_equal(sb_stat_defaults(&s1, out, SB_STAT_DEFAULTS_MAX), 5);
    assert_int_equal(sb_stat_defaults(&s1, out, 2), 2);
    /* 5000 cards: no n x n table (position, serial: n <= 4096), no
       inversions (n <= 1024), no poker7 (52 only). */
    assert_int_equal(sb_stat_defaults(&big, out, SB_STAT_DEFAULTS_MAX), 7);
    assert_ptr_equal(out[6], &sb_stat_collisions);
    sb_shape draw = { SB_KIND_DRAW, 52, 5, 0 };
    assert_int_equal(sb_stat_defaults(&draw, out, SB_STAT_DEFAULTS_MAX), 3);
    assert_ptr_equal(out[1], &sb_stat_card_slot);
    assert_int_equal(sb_stat_defaults(&deal, out, SB_STAT_DEFAULTS_MAX), 6);
    assert_ptr_equal(out[0], &sb_stat_card_hand);
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
        cmocka_unit_test(test_cycles_add_brute_force),
        cmocka_unit_test(test_pooling),
        cmocka_unit_test(test_dist_result_pooling),
        cmocka_unit_test(test_detectable),
        cmocka_unit_test(test_detectable_words),
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
        cmocka_unit_test(test_card_hand_mean),
        cmocka_unit_test(test_card_slot_mean),
        cmocka_unit_test(test_card_hand_by_hand),
        cmocka_unit_test(test_card_slot_by_hand),
        cmocka_unit_test(test_card_slot_whole_deck),
        cmocka_unit_test(test_card_hand_biased),
        cmocka_unit_test(test_card_slot_biased),
        cmocka_unit_test(test_card_groups_not_applicable),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_registry_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
