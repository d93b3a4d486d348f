/*
 * permutation.c - 'permutation': how often each whole order of the deck
 * comes out, for decks of at most 10 cards.
 *
 * What it sees: the n! counts of the orders, each order indexed by its
 * lexicographic rank (Lehmer code, stats/nulls.c).  This is the complete
 * picture for a small deck: any bias of a shuffle, whatever its pattern,
 * shows here (the naive swap's 4/27 against 5/27 for 3 cards, a missing
 * order of Sattolo's algorithm, a seed too short to reach every order).
 *
 * The null, exactly: every order has probability 1/n!, so with N samples
 * each of the k = n! cells expects N/k.  Two regimes, as TestU01's smultin
 * (L'Ecuyer, Simard and Wegenkittl, "Sparse serial tests of uniformity for
 * random number generators", SIAM J. Sci. Comput. 2002):
 *  - dense, N/k >= 5: Pearson's X^2 against chi-square(k - 1);
 *  - sparse, N/k < 5: never pooled (every cell is alike: pooling would only
 *    throw information away).  Then X^2 = k (N + 2R) / N - N, where R is
 *    the number of pairs of samples that came out in the same order: the
 *    test is a test of R.  R is a sum of C(N, 2) pairwise independent
 *    indicators of probability 1/k, so its mean is C(N, 2)/k and its
 *    variance C(N, 2)(1/k)(1 - 1/k) exactly - X^2's exact mean k - 1 and
 *    variance 2 (k - 1)(1 - 1/N).
 *      * When N <= k/4 (and k >= 120), R is referred to Poisson(C(N,2)/k)
 *        with its upper tail P(X >= r): the birthday-problem limit, in which pairs
 *        of repeats sharing a sample (triples) are rare enough (their
 *        extra skewness is 2N/k of the Poisson's).  A normal tail would
 *        be far off here: with N = 1000 draws from 10! orders, two
 *        repeats would read as p = 3e-7 although they happen 1% of the
 *        time.
 *      * When the repeats expected, C(N,2)/k, are 1000 or more, R is
 *        nearly normal (skewness below 0.05) and X^2 is referred to the
 *        normal with its exact moments.
 *      * In between (only for n <= 7: there the two ranges leave a gap)
 *        neither approximation is trusted, and the statistic says so and
 *        asks for more samples rather than guess.
 * The note says which was used.  The result keeps the k counts at every
 * n, each order a column with its rank as its range (lo = hi = rank): up
 * to 10! = 3,628,800 of them, 116 MB of table beside the 29 MB of counts
 * at 10 cards, counted in the run's budget (permutation_memory).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/nulls.h"
#include "stats/memory.h"
#include "stats/registry.h"
#include "stats/saved.h"

#define PERMUTATION_N_MAX 10

typedef struct permutation_acc {
    size_t n;             /* deck size */
    size_t k;             /* n!, the number of cells */
    uint64_t counts[];    /* counts[rank], k of them */
} permutation_acc;

static int permutation_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    if (shape->kind != SB_KIND_PERMUTATION || shape->len != shape->n
        || shape->n < 1 || shape->n > PERMUTATION_N_MAX)
        return SB_EINVAL;
    const size_t k = (size_t)sb_null_factorial(shape->n);
    permutation_acc *a = calloc(1, sizeof *a + k * sizeof(uint64_t));
    if (a == NULL)
        return SB_ENOMEM;
    a->n = shape->n;
    a->k = k;
    *acc = a;
    return SB_OK;
}

/* Precondition: every sample is a permutation of 0..n-1. */
static void permutation_add(void *acc, const sb_card *samples, size_t count)
{
    permutation_acc *a = acc;
    const size_t n = a->n;
    for (size_t i = 0; i < count; i++, samples += n)
        a->counts[sb_null_perm_rank(samples, n)]++;
}

static int permutation_merge(void *into, const void *from)
{
    permutation_acc *a = into;
    const permutation_acc *b = from;
    if (a->n != b->n)
        return SB_EINVAL;
    for (size_t i = 0; i < a->k; i++)
        a->counts[i] += b->counts[i];
    return SB_OK;
}

static int permutation_finalize(const void *acc, uint64_t samples,
                                double fail_alpha, sb_result *res)
{
    const permutation_acc *a = acc;
    const size_t n = a->n, k = a->k;
    sb_gof_begin(res, sb_stat_permutation.name);
    if (n < 2)
        return sb_gof_not_applicable(res,
            "'permutation' needs n >= 2: a deck of 1 has one order");
    if (samples < 2)
        return sb_gof_not_applicable(res,
            "'permutation' needs at least 2 samples");

    const double N = (double)samples;
    const double e = N / (double)k;
    const double df = (double)(k - 1);
    double x2 = 0.0, worst = -1.0;
    size_t worst_rank = 0;
    for (size_t r = 0; r < k; r++) {
        const double d = (double)a->counts[r] - e;
        const double c = d * d / e;
        x2 += c;
        if (c > worst) {
            worst = c;
            worst_rank = r;
        }
    }

    /* Repeated pairs R: an exact integer, sum over orders of C(count, 2). */
    uint64_t repeats = 0;
    for (size_t r = 0; r < k; r++)
        repeats += a->counts[r] * (a->counts[r] - (a->counts[r] > 0)) / 2;
    const double pairs_expected = N * (N - 1.0) / 2.0 / (double)k;
    enum { DENSE, POISSON, NORMAL } regime = DENSE;
    int st;
    if (e >= SB_GOF_MIN_EXPECTED) {
        st = sb_gof_chisq_result(res, x2, df, samples, fail_alpha);
    } else if (k >= 120 && N <= (double)k / 4.0) {
        regime = POISSON;
        st = sb_gof_poisson_result(res, repeats, pairs_expected);
        res->effect = fmax(0.0, (x2 - df) / N);
    } else if (pairs_expected >= 1000.0) {
        regime = NORMAL;
        st = sb_gof_sparse_result(res, x2, df, samples, fail_alpha);
    } else {
        return sb_gof_not_applicable(res,
            "%.0f samples over %zu orders is too sparse for a chi-square "
            "and too dense for a count of repeats: use at least %.0f "
            "samples (or at most %.0f)", N, k,
            ceil(sqrt(2000.0 * (double)k)), floor((double)k / 4.0));
    }
    if (st != SB_OK)
        return st;

    /* Column r is the order of rank r (sb_null_perm_unrank): renderers
       unrank it themselves rather than keep n! names here. */
    res->col_label = "order";
    /* No table of nothing: an accumulator that counted nothing but is
       told N samples (the plan of --effect) keeps none. */
    uint64_t counted = 0;
    for (size_t r = 0; r < k && counted == 0; r++)
        counted = a->counts[r];
    if (counted > 0) {
        st = sb_gof_table_alloc(&res->table, 1, k, 1);
        if (st != SB_OK)
            return st;
        for (size_t r = 0; r < k; r++) {
            res->table.observed[r] = (double)a->counts[r];
            res->table.expected[r] = e;
            res->table.lo[r] = res->table.hi[r] = (long)r;
        }
    }

    if (regime != POISSON)
        sb_gof_detectable_words(res, 1.0 / (double)k, "one order");
    if (regime == POISSON) {
        snprintf(res->null_desc, sizeof res->null_desc,
                 "uniform over %zu! = %zu orders; repeated pairs against "
                 "Poisson(%.6g), upper tail", n, k, pairs_expected);
        snprintf(res->note, sizeof res->note,
                 "very sparse: %.3g expected per order; statistic = pairs "
                 "of samples in the same order (%.6g expected)", e,
                 pairs_expected);
    } else if (regime == NORMAL) {
        snprintf(res->null_desc, sizeof res->null_desc,
                 "uniform over %zu! = %zu orders; x2 against the normal "
                 "with mean %zu and variance %.6g", n, k, k - 1,
                 2.0 * df * (1.0 - 1.0 / N));
        snprintf(res->note, sizeof res->note,
                 "sparse: %.3g expected per order, below %g; not pooled, x2 "
                 "referred to its exact mean k-1 and variance "
                 "2(k-1)(1-1/N) (normal tail)", e, SB_GOF_MIN_EXPECTED);
    } else {
        snprintf(res->null_desc, sizeof res->null_desc,
                 "uniform over %zu! = %zu orders; chi-square(%zu)", n, k,
                 k - 1);
        snprintf(res->note, sizeof res->note,
                 "%.4g expected per order: x2 against chi-square(k-1)", e);
    }
    if (worst > 0.0) {
        sb_card perm[PERMUTATION_N_MAX];
        char order[PERMUTATION_N_MAX + 1];
        /* Cards as letters, A on top of the start deck, as the literature
           writes the orders of small decks (ABC, ACB, ...). */
        sb_null_perm_unrank(worst_rank, n, perm);
        for (size_t j = 0; j < n; j++)
            order[j] = (char)('A' + perm[j]);
        order[n] = '\0';
        const double rel = 100.0 * ((double)a->counts[worst_rank] - e) / e;
        char pct[32];
        sb_gof_percent(pct, sizeof pct, fabs(rel));
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "order %s: %s%% %s often than uniform", order, pct,
                 rel < 0 ? "less" : "more");
    } else {
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "every order exactly as often as uniform");
    }
    return SB_OK;
}

static void permutation_free(void *acc)
{
    free(acc);
}

/* State files (stats/saved.h): the key, then counts[0..n!-1].  Refused:
   a wrong length or key, a total beyond 64 bits. */
static uint64_t permutation_key(const permutation_acc *a)
{
    return sb_saved_key(sb_stat_permutation.name, SB_KIND_PERMUTATION, a->n,
                        a->n, 0);
}

static int permutation_save(const void *acc, uint64_t **words, size_t *count)
{
    const permutation_acc *a = acc;
    return sb_saved_counts(permutation_key(a), a->counts, a->k, words, count);
}

static int permutation_load(void *acc, const uint64_t *words, size_t count)
{
    permutation_acc *a = acc;
    const uint64_t *c = sb_saved_histogram(words, count, permutation_key(a),
                                           a->k);
    if (c == NULL)
        return SB_EINVAL;
    memcpy(a->counts, c, a->k * sizeof *c);
    return SB_OK;
}

/* A count per order, n! of them; finalize copies them into its table
   (never pooled), with a range per order. */
static size_t permutation_memory(const sb_shape *shape, size_t *finalize)
{
    const size_t k = shape->n <= PERMUTATION_N_MAX
                   ? (size_t)sb_null_factorial(shape->n) : 1;
    *finalize = sb_mem_finalize(0, k) + 2 * sb_mem(k * sizeof(long));
    return sb_mem(sizeof(permutation_acc) + k * sizeof(uint64_t));
}

const sb_stat_type sb_stat_permutation = {
    .name = "permutation",
    .sees = "how often each whole order of a small deck comes out (n! "
            "counts)",
    .kinds = SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_PERMUTATION,
    .n_min = 1,
    .n_max = PERMUTATION_N_MAX,
    .alloc = permutation_alloc,
    .add = permutation_add,
    .merge = permutation_merge,
    .finalize = permutation_finalize,
    .free = permutation_free,
    .save = permutation_save,
    .load = permutation_load,
    .memory = permutation_memory,
};
