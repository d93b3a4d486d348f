/*
 * test_collisions.c - the statistics that look across samples:
 * 'collisions' (repeated samples, the birthday test) and 'serial'
 * (dependence between consecutive samples).
 *
 * Counts are checked against brute force written here, exact nulls
 * against published values or brute force, and the merge of 'collisions'
 * across its memory cap against one accumulator fed everything.
 * Statistical assertions use fixed seeds and state their false-alarm (or
 * miss) rate over random seeds.
 */
#include "sb_test.h"
#include "tests/sb_sample.h"
#include "tests/sb_runs.h"

#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>

#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "base/rng.h"
#include "engine/runner.h"
#include "stats/registry.h"

/* ---- helpers ---------------------------------------------------------- */

static sb_shape shape_of(sb_kind kind, size_t n, size_t len, unsigned hands)
{
    sb_shape s = { kind, n, len, hands };
    return s;
}

/* Count 'count' samples in one call, finalize as if 'samples' had been
   seen (equal to count unless a test asks for the null at another N). */
static void run_stat(const sb_stat_type *t, const sb_shape *shape,
                     const sb_card *s, size_t count, uint64_t samples,
                     double alpha, sb_result *res)
{
    void *acc;
    assert_int_equal(t->alloc(&acc, shape), SB_OK);
    if (count > 0)
        t->add(acc, s, count);
    assert_int_equal(t->finalize(acc, samples, alpha, res), SB_OK);
    t->free(acc);
}

/* ---- collisions: counting --------------------------------------------- */

/* Decks of 52 cards compared as byte strings, for sorting. */
static int cmp_deck52(const void *x, const void *y)
{
    return memcmp(x, y, 52 * sizeof(sb_card));
}

/* Repeats are counted exactly: 8000 decks of 52 cards picked from a pool
   of 3000 random ones, against the repeats found by sorting the decks
   (N minus the distinct decks).  The same when fed in blocks of 64, as
   the runner does.  And the pool itself, 3000 distinct decks: none. */
static void test_collisions_counts_repeats(void **state)
{
    (void)state;
    enum { N = 52, POOL = 3000, COUNT = 8000 };
    uint64_t seed = 0xc011de01ull;
    sb_card *pool = malloc(sizeof *pool * N * POOL);
    sb_card *s = malloc(sizeof *s * N * COUNT);
    sb_card *sorted = malloc(sizeof *sorted * N * COUNT);
    assert_non_null(pool);
    assert_non_null(s);
    assert_non_null(sorted);
    for (size_t i = 0; i < POOL; i++)
        xs_deck(&seed, pool + i * N, N);
    for (size_t i = 0; i < COUNT; i++)
        memcpy(s + i * N, pool + xs_below(&seed, POOL) * N,
               N * sizeof *s);
    memcpy(sorted, s, sizeof *s * N * COUNT);
    qsort(sorted, COUNT, N * sizeof *sorted, cmp_deck52);
    size_t distinct = 1;
    for (size_t i = 1; i < COUNT; i++)
        distinct += cmp_deck52(sorted + (i - 1) * N, sorted + i * N) != 0;
    const sb_shape sh = shape_of(SB_KIND_PERMUTATION, N, N, 0);

    sb_result r;
    run_stat(&sb_stat_collisions, &sh, s, COUNT, COUNT, 1e-6, &r);
    assert_true(r.applicable);
    assert_true(r.discrete);
    assert_true(r.statistic == (double)(COUNT - distinct));
    assert_true(COUNT - distinct > 4000);
    assert_true(r.p_underflow);
    assert_non_null(strstr(r.effect_desc, "repeated decks against 0.00"));
    sb_result_clear(&r);

    void *acc;
    assert_int_equal(sb_stat_collisions.alloc(&acc, &sh), SB_OK);
    for (size_t i = 0; i < COUNT; i += 64)
        sb_stat_collisions.add(acc, s + i * N,
                               COUNT - i < 64 ? COUNT - i : 64);
    assert_int_equal(sb_stat_collisions.finalize(acc, COUNT, 1e-6, &r),
                     SB_OK);
    assert_true(r.statistic == (double)(COUNT - distinct));
    sb_result_clear(&r);
    sb_stat_collisions.free(acc);

    /* No repeats: the p-value P(X >= 0) is 1, and the interval
       [P(X > 0), P(X >= 0)] is [0, 1]. */
    run_stat(&sb_stat_collisions, &sh, pool, POOL, POOL, 1e-6, &r);
    assert_true(r.statistic == 0.0);
    assert_close(r.p_value, 1.0, 1e-12);
    assert_true(r.p_lower < 1e-50 && r.p_upper == 1.0);
    assert_true(r.effect == 0.0);
    sb_result_clear(&r);
    free(pool);
    free(s);
    free(sorted);
}

/* Samples that differ in a few values only are never taken for one
   another, for each kind: all orders of the last 8 of 16 cards (8! =
   40320 decks), all ways to split 16 cards between the first two hands of
   a bridge deal (C(16,8) = 12870 deals), and 40000 draws of 3 of 65535
   cards differing in one or two values.  Fed once: no repeats.  Fed twice:
   exactly one repeat per sample. */
static void test_collisions_structured(void **state)
{
    (void)state;
    /* decks */
    enum { PERMS = 40320, DEALS = 12870, DRAWS = 40000 };
    sb_card *decks = malloc(sizeof *decks * 16 * PERMS);
    assert_non_null(decks);
    sb_card deck[16];
    for (size_t i = 0; i < 16; i++)
        deck[i] = (sb_card)i;
    size_t count = 0;
    do
        memcpy(decks + 16 * count++, deck, sizeof deck);
    while (next_perm(deck + 8, 8));
    assert_int_equal(count, PERMS);

    /* deals: cards 0..7 and 13..20 split 8 and 8 between hands 0 and 1,
       every other card in its suit's hand */
    sb_card *deals = malloc(sizeof *deals * 52 * DEALS);
    assert_non_null(deals);
    count = 0;
    for (unsigned mask = 0; mask < (1u << 16); mask++) {
        if (__builtin_popcount(mask) != 8)
            continue;
        sb_card *d = deals + 52 * count++;
        for (size_t c = 0; c < 52; c++)
            d[c] = (sb_card)(c / 13);
        for (unsigned b = 0; b < 16; b++) {
            const size_t card = b < 8 ? b : 13 + (b - 8);
            d[card] = (mask >> b) & 1u ? 0 : 1;
        }
    }
    assert_int_equal(count, DEALS);

    /* draws: (i, 300 j + 7, 65534), i < 200, j < 200: three different
       cards in every draw */
    sb_card *draws = malloc(sizeof *draws * 3 * DRAWS);
    assert_non_null(draws);
    count = 0;
    for (size_t i = 0; i < 200; i++)
        for (size_t j = 0; j < 200; j++) {
            sb_card *d = draws + 3 * count++;
            d[0] = (sb_card)i;
            d[1] = (sb_card)(300 * j + 7);
            d[2] = 65534;
        }

    const struct {
        sb_shape shape;
        const sb_card *s;
        size_t count;
    } cases[] = {
        { shape_of(SB_KIND_PERMUTATION, 16, 16, 0), decks, PERMS },
        { shape_of(SB_KIND_DEAL, 52, 52, 4), deals, DEALS },
        { shape_of(SB_KIND_DRAW, 65535, 3, 0), draws, DRAWS },
    };
    for (size_t k = 0; k < 3; k++) {
        const sb_stat_type *t = &sb_stat_collisions;
        const size_t len = cases[k].shape.len, m = cases[k].count;
        void *acc;
        sb_result r;
        assert_int_equal(t->alloc(&acc, &cases[k].shape), SB_OK);
        t->add(acc, cases[k].s, m);
        assert_int_equal(t->finalize(acc, m, 1e-6, &r), SB_OK);
        assert_true(r.applicable);
        assert_true(r.statistic == 0.0);
        sb_result_clear(&r);
        /* again, in two calls split in the middle of nothing special */
        t->add(acc, cases[k].s, 1000);
        t->add(acc, cases[k].s + 1000 * len, m - 1000);
        assert_int_equal(t->finalize(acc, 2 * m, 1e-6, &r), SB_OK);
        assert_true(r.applicable);
        assert_true(r.statistic == (double)m);
        sb_result_clear(&r);
        t->free(acc);
    }
    free(decks);
    free(deals);
    free(draws);
}

/* ---- collisions: the null --------------------------------------------- */

/* The expected repeats among N samples, read from the result's table. */
static double null_mean(const sb_shape *sh, uint64_t samples)
{
    sb_result r;
    run_stat(&sb_stat_collisions, sh, NULL, 0, samples, 1e-6, &r);
    assert_true(r.applicable);
    assert_int_equal(r.table.rows * r.table.cols, 1);
    const double mu = r.table.expected[0];
    sb_result_clear(&r);
    return mu;
}

/* The mean of the repeats, f E R, for each kind, against S from its
   published value: where N/S is tiny, E R = C(N,2)/S to 1e-12; at
   N = 2^30 decks of 15 cards (N/S = 8.2e-4) against the closed form
   N - S (1 - (1 - 1/S)^N) of the occupancy problem (Johnson and Kotz,
   "Urn Models", 1977, ch. 3), computed in long double, where C(N,2)/S
   alone is off by 2.7e-4. */
static void test_collisions_null_mean(void **state)
{
    (void)state;
    const double N = 1e6, pairs = N * (N - 1.0) / 2.0;
    /* 20! = 2432902008176640000 (OEIS A000142) */
    const sb_shape p20 = shape_of(SB_KIND_PERMUTATION, 20, 20, 0);
    assert_close(null_mean(&p20, 1000000), pairs / 2432902008176640000.0,
                 1e-9);
    /* 10 cards drawn in order from 52: 52 x 51 x ... x 43 */
    uint64_t s10 = 1;
    for (uint64_t c = 43; c <= 52; c++)
        s10 *= c;
    const sb_shape d10 = shape_of(SB_KIND_DRAW, 52, 10, 0);
    assert_close(null_mean(&d10, 1000000), pairs / (double)s10, 1e-9);
    /* bridge deals: 52! / (13!)^4 = 53,644,737,765,488,792,839,237,440,000
       (Wikipedia, "Contract bridge probabilities") */
    const sb_shape bridge = shape_of(SB_KIND_DEAL, 52, 52, 4);
    assert_close(null_mean(&bridge, 1000000),
                 pairs / 53644737765488792839237440000.0, 1e-9);

    /* 15! = 1307674368000 (OEIS A000142) */
    const long double S = 1307674368000.0L, Nl = 1073741824.0L;
    const long double er = Nl + S * expm1l(Nl * log1pl(-1.0L / S));
    const sb_shape p15 = shape_of(SB_KIND_PERMUTATION, 15, 15, 0);
    const double mu = null_mean(&p15, 1073741824u);
    assert_close(mu, (double)er, 1e-9);
    assert_false(fabs(mu - (double)(Nl * (Nl - 1) / 2 / S)) < 1e-4 * mu);
}

/* Where the test does not apply, and why: fewer than 2^40 possible
   samples, more than 2^-10 of them sampled, unequal hands, one sample,
   none; and below 15 cards the registry refuses it outright. */
static void test_collisions_not_applicable(void **state)
{
    (void)state;
    sb_result r;
    const sb_shape hand5 = shape_of(SB_KIND_DRAW, 52, 5, 0);
    run_stat(&sb_stat_collisions, &hand5, NULL, 0, 1000, 1e-6, &r);
    assert_false(r.applicable);
    assert_non_null(strstr(r.note, "only 2^28.2 possible hands"));
    assert_non_null(strstr(r.note, "'permutation'"));
    sb_result_clear(&r);

    /* 15! / 2^10 = 1.28e9 */
    const sb_shape p15 = shape_of(SB_KIND_PERMUTATION, 15, 15, 0);
    run_stat(&sb_stat_collisions, &p15, NULL, 0, 1200000000u, 1e-6, &r);
    assert_true(r.applicable);
    sb_result_clear(&r);
    run_stat(&sb_stat_collisions, &p15, NULL, 0, 1300000000u, 1e-6, &r);
    assert_false(r.applicable);
    assert_non_null(strstr(r.note, "Poisson law"));
    sb_result_clear(&r);

    const sb_shape three = shape_of(SB_KIND_DEAL, 52, 52, 3);
    run_stat(&sb_stat_collisions, &three, NULL, 0, 1000, 1e-6, &r);
    assert_false(r.applicable);
    sb_result_clear(&r);

    const sb_shape p52 = shape_of(SB_KIND_PERMUTATION, 52, 52, 0);
    run_stat(&sb_stat_collisions, &p52, NULL, 0, 1, 1e-6, &r);
    assert_false(r.applicable);
    sb_result_clear(&r);
    run_stat(&sb_stat_collisions, &p52, NULL, 0, 0, 1e-6, &r);
    assert_false(r.applicable);
    sb_result_clear(&r);

    char why[128];
    const sb_shape p14 = shape_of(SB_KIND_PERMUTATION, 14, 14, 0);
    assert_int_equal(sb_stat_check(&sb_stat_collisions, &p14, why, sizeof why),
                     SB_EINVAL);
    assert_string_equal(why, "'collisions' needs n >= 15 (n is 14)");
    assert_int_equal(sb_stat_check(&sb_stat_collisions, &p15, NULL, 0), SB_OK);
}

/* The detectable effect.  At N = 1.4 x 10^5 decks of 52, the null mean
   is ~0, one repeat fails, and power 0.9 needs a mean of ln 10: a source
   of S' = C(N,2) / ln 10 = 2^32.0 reachable decks, the 32-bit seed of
   DESIGN.md.  'detectable' is 52!/S' - 1 (52! = 8.0658e67, OEIS A000142).
   And where the null mean is large (2^29 decks of 15 cards, mean 1.1e5),
   the critical count and the mean that reaches it with probability 0.9
   are found again here by a plain scan with GSL's Poisson functions. */
static void test_collisions_detectable(void **state)
{
    (void)state;
    sb_result r;
    const sb_shape p52 = shape_of(SB_KIND_PERMUTATION, 52, 52, 0);
    const double N = 140000.0, alpha = 1e-6;
    run_stat(&sb_stat_collisions, &p52, NULL, 0, 140000, alpha, &r);
    assert_true(r.applicable);
    const double s1 = N * (N - 1.0) / 2.0 / log(10.0);
    assert_close(log2(s1), 32.0, 2e-3);
    assert_non_null(strstr(r.detectable_desc,
                           "fewer than 2^32.0 reachable decks"));
    assert_close(log(r.detectable), log(8.0658175170943878571660636856e67)
                 - log(s1), 1e-9);
    sb_result_clear(&r);

    const sb_shape p15 = shape_of(SB_KIND_PERMUTATION, 15, 15, 0);
    const double S = 1307674368000.0, M = 536870912.0;
    run_stat(&sb_stat_collisions, &p15, NULL, 0, 536870912u, alpha, &r);
    assert_true(r.applicable);
    const double mu0 = r.table.expected[0];
    /* the smallest c whose p-value P(X >= c) is at most alpha */
    unsigned c = (unsigned)mu0;
    while (gsl_cdf_poisson_Q(c, mu0) + gsl_ran_poisson_pdf(c, mu0) > alpha)
        c++;
    /* S/S' = detectable + 1, and the mean of the repeats from S' decks */
    const double mu1 = M * (M - 1.0) / 2.0 * (r.detectable + 1.0) / S;
    assert_close(gsl_cdf_poisson_Q(c - 1, mu1), 0.9, 1e-6);
    assert_true(mu1 > mu0 + 5.0 * sqrt(mu0));
    sb_result_clear(&r);
}

/* ---- collisions: merging across the memory cap ------------------------ */

/* Draws of 4 values from 65535, sample i made from a pool index r:
   (r mod 65535, r div 65535, 11, 13), one-to-one in r. */
enum { MERGE_POOL = 8000000, MERGE_SAMPLES = 3200000, MERGE_BLOCK = 4096 };

typedef struct merge_source {
    uint64_t seed;        /* the generator of pool indices */
    uint64_t made;        /* samples made so far */
} merge_source;

static size_t merge_next(merge_source *m, sb_card *out, size_t want,
                         uint32_t *r_out)
{
    size_t k = 0;
    for (; k < want && m->made < MERGE_SAMPLES; k++, m->made++) {
        const uint32_t r = (uint32_t)xs_below(&m->seed, MERGE_POOL);
        out[4 * k] = (sb_card)(r % 65535);
        out[4 * k + 1] = (sb_card)(r / 65535);
        out[4 * k + 2] = 11;
        out[4 * k + 3] = 13;
        if (r_out)
            r_out[k] = r;
    }
    return k;
}

/* Feed the samples [from, to) of the stream to 'acc', in calls of 'call'
   samples. */
static void merge_feed(void *acc, merge_source *m, uint64_t to, size_t call,
                       sb_card *buf)
{
    while (m->made < to) {
        const uint64_t left = to - m->made;
        const size_t want = left < call ? (size_t)left : call;
        const size_t got = merge_next(m, buf, want, NULL);
        sb_stat_collisions.add(acc, buf, got);
    }
}

static void assert_same_result(const sb_result *a, const sb_result *b)
{
    assert_true(a->statistic == b->statistic);
    assert_true(a->p_value == b->p_value);
    assert_true(a->p_lower == b->p_lower);
    assert_true(a->p_upper == b->p_upper);
    assert_true(a->effect == b->effect);
    assert_true(a->detectable == b->detectable);
    assert_true(a->table.expected[0] == b->table.expected[0]);
    assert_string_equal(a->note, b->note);
    assert_string_equal(a->effect_desc, b->effect_desc);
    assert_string_equal(a->null_desc, b->null_desc);
}

/* 3.2 x 10^6 draws from a pool of 8 x 10^6 have about 2.64 x 10^6
   distinct ones, more than the cap of 2^21 = 2.10 x 10^6: the accumulator
   must halve its kept fraction.  One accumulator fed everything in calls
   of 64 gives exactly the result of (a) two parts, the larger over the cap on its own, merged
   into the smaller; (b) two halves each under the cap whose union is over
   it; (c) three parts of uneven sizes, merged in another order.  The kept
   repeats are about f times all the repeats, found by counting every pool
   index: each distinct sample is kept or not as a whole, pairwise
   independently (the fingerprint is strongly universal), so the kept
   repeats have variance f (1-f) sum (c - 1)^2 over the distinct samples
   drawn c >= 1 times; 6 standard deviations are allowed (false alarm about
   2e-9 for a normal count; pairwise independence alone bounds it by
   1/36), and at most 2^21 distinct samples may be kept. */
static void test_collisions_merge_any_order(void **state)
{
    (void)state;
    const sb_shape sh = shape_of(SB_KIND_DRAW, 65535, 4, 0);
    const sb_stat_type *t = &sb_stat_collisions;
    const uint64_t seed = 0xc011de02ull;
    sb_card *buf = malloc(sizeof *buf * 4 * MERGE_BLOCK);
    uint32_t *rs = malloc(sizeof *rs * MERGE_BLOCK);
    uint8_t *seen = calloc(MERGE_POOL, 1);
    assert_non_null(buf);
    assert_non_null(rs);
    assert_non_null(seen);

    /* One accumulator, calls of 64; the brute-force count alongside. */
    void *one;
    assert_int_equal(t->alloc(&one, &sh), SB_OK);
    merge_source m = { seed, 0 };
    size_t got;
    while ((got = merge_next(&m, buf, MERGE_BLOCK, rs)) > 0) {
        for (size_t i = 0; i < got; i += 64)
            t->add(one, buf + 4 * i, got - i < 64 ? got - i : 64);
        for (size_t i = 0; i < got; i++)
            if (seen[rs[i]] < 255)
                seen[rs[i]]++;
    }
    uint64_t distinct = 0;
    double var_sum = 0.0;
    for (size_t r = 0; r < MERGE_POOL; r++)
        if (seen[r]) {
            assert_true(seen[r] < 255);
            distinct++;
            var_sum += (double)(seen[r] - 1) * (seen[r] - 1);
        }
    free(seen);
    const double all_repeats = (double)(MERGE_SAMPLES - distinct);
    assert_true(distinct > (1u << 21) + 400000);
    sb_result want;
    assert_int_equal(t->finalize(one, MERGE_SAMPLES, 1e-6, &want), SB_OK);
    t->free(one);
    assert_true(want.applicable);
    unsigned j = 0;
    size_t kept = 0;
    const char *among = strstr(want.effect_desc, "among the 2^-");
    assert_non_null(among);
    assert_int_equal(sscanf(among, "among the 2^-%u", &j), 1);
    assert_true(j >= 1);
    assert_int_equal(sscanf(want.note, "%zu distinct", &kept), 1);
    assert_true(kept <= (1u << 21));
    const double f = ldexp(1.0, -(int)j);
    assert_true(fabs(want.statistic - f * all_repeats)
                <= 6.0 * sqrt(f * (1.0 - f) * var_sum));

    /* Splits: part boundaries in samples, the samples per call, whether
       each part alone went over the cap (-1: not checked), then the merge
       order as pairs (into, from). */
    static const struct {
        size_t parts;
        uint64_t end[3];
        size_t call[3];
        int over[3];
        size_t order[2][2];
    } splits[] = {
        { 2, { 500000, MERGE_SAMPLES }, { 64, 1000 }, { 0, 1, -1 },
          { { 0, 1 } } },
        { 2, { 1600000, MERGE_SAMPLES }, { 333, 64 }, { 0, 0, -1 },
          { { 1, 0 } } },
        { 3, { 2500000, 2700000, MERGE_SAMPLES }, { 4096, 7, 64 },
          { -1, 0, 0 }, { { 1, 2 }, { 1, 0 } } },
    };
    for (size_t k = 0; k < sizeof splits / sizeof splits[0]; k++) {
        void *part[3] = { NULL, NULL, NULL };
        merge_source src = { seed, 0 };
        for (size_t p = 0; p < splits[k].parts; p++) {
            assert_int_equal(t->alloc(&part[p], &sh), SB_OK);
            merge_feed(part[p], &src, splits[k].end[p], splits[k].call[p],
                       buf);
            if (splits[k].over[p] < 0)
                continue;
            const uint64_t begin = p ? splits[k].end[p - 1] : 0;
            sb_result rp;
            assert_int_equal(t->finalize(part[p], splits[k].end[p] - begin,
                                         1e-6, &rp), SB_OK);
            assert_int_equal(strstr(rp.effect_desc, "among") != NULL,
                             splits[k].over[p]);
            sb_result_clear(&rp);
        }
        size_t last = 0;
        for (size_t o = 0; o + 1 < splits[k].parts; o++) {
            const size_t into = splits[k].order[o][0];
            const size_t from = splits[k].order[o][1];
            assert_int_equal(t->merge(part[into], part[from]), SB_OK);
            t->free(part[from]);
            part[from] = NULL;
            last = into;
        }
        sb_result got_r;
        assert_int_equal(t->finalize(part[last], MERGE_SAMPLES, 1e-6,
                                     &got_r), SB_OK);
        assert_same_result(&want, &got_r);
        sb_result_clear(&got_r);
        t->free(part[last]);
    }
    sb_result_clear(&want);
    free(buf);
    free(rs);
}

/* A bijection of the 32-bit words (each step is invertible), so that
   distinct i give distinct draws scattered over the table. */
static uint32_t mix32(uint32_t x)
{
    x *= 0x9e3779b1u;
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    return x;
}

/* The table loses no fingerprint as it grows from 2^12 slots to 2^22 and
   drops half of what it keeps: 3 x 10^6 distinct draws of 4 of 65535
   cards (more than the cap of 2^21, so the kept fraction halves),
   scattered by a bijection, are fed twice, in blocks of 64.  Every draw
   kept is then seen exactly twice, so the repeats equal the draws kept.
   A fingerprint the table could no longer find would come back as a new
   one, without a repeat.  (With draws in order instead of scattered, a
   sweep that left survivors where they were went unnoticed: neighbours in
   the table were dropped or kept together.) */
static void test_collisions_table_keeps_all(void **state)
{
    (void)state;
    enum { DISTINCT = 3000000, BLOCK = 64 };
    const sb_shape sh = shape_of(SB_KIND_DRAW, 65535, 4, 0);
    const sb_stat_type *t = &sb_stat_collisions;
    void *acc;
    assert_int_equal(t->alloc(&acc, &sh), SB_OK);
    sb_card buf[4 * BLOCK];
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < DISTINCT; i += BLOCK) {
            const uint32_t b = DISTINCT - i < BLOCK ? DISTINCT - i : BLOCK;
            for (uint32_t k = 0; k < b; k++) {
                const uint32_t v = mix32(i + k);
                buf[4 * k] = (sb_card)(v & 0x7fff);
                buf[4 * k + 1] = (sb_card)((v >> 15) & 0x7fff);
                buf[4 * k + 2] = (sb_card)(v >> 30);
                buf[4 * k + 3] = 9;
            }
            t->add(acc, buf, b);
        }
    sb_result r;
    assert_int_equal(t->finalize(acc, 2 * (uint64_t)DISTINCT, 1e-6, &r),
                     SB_OK);
    size_t kept = 0;
    unsigned j = 0;
    assert_int_equal(sscanf(r.note, "%zu distinct", &kept), 1);
    const char *among = strstr(r.effect_desc, "among the 2^-");
    assert_non_null(among);
    assert_int_equal(sscanf(among, "among the 2^-%u", &j), 1);
    /* f = 1/2 keeps about 1.5 x 10^6 of the 3 x 10^6, with a standard
       deviation of 866 (the fingerprints are pairwise independent), under
       the cap.  Keys and input are fixed, so the count is too: 6 standard
       deviations only say that it is the count of a fraction of 1/2. */
    assert_int_equal(j, 1);
    assert_true(fabs((double)kept - 1.5e6) < 6.0 * 866.0);
    assert_true(kept <= (1u << 21));
    assert_true(r.statistic == (double)kept);
    sb_result_clear(&r);
    t->free(acc);
}

/* A probe run that wraps past the end of the table survives a drop.
   Three fingerprints whose slot bits say 4094, of the 4096 slots a new
   accumulator has, are loaded in this order: E1 = {hi 1} at 4094, E2 =
   {hi 2^63} at 4095, E3 = {hi 2} wraps to slot 0.  Merging an accumulator
   that keeps a fraction 1/2 (j = 1) drops E2, whose top bit is set, and
   must move E3 back to 4095, where the merged copy of E3 then finds it:
   two entries, E3 counted twice.  A sweep that left E3 at slot 0 (as one
   started at slot 0 without checking that it was empty would) could no
   longer find it, and would count the merged copy as a third entry. */
static void test_collisions_drop_wraps(void **state)
{
    (void)state;
    const sb_stat_type *t = &sb_stat_collisions;
    const sb_shape sh = shape_of(SB_KIND_DRAW, 65535, 4, 0);
    void *a, *b;
    assert_int_equal(t->alloc(&a, &sh), SB_OK);
    assert_int_equal(t->alloc(&b, &sh), SB_OK);
    uint64_t *w;
    size_t count;
    assert_int_equal(t->save(a, &w, &count), SB_OK);
    const uint64_t key = w[0];      /* the words: key, j, starved, entries,
                                       then (hi, lo, count) triples */
    free(w);
    const uint64_t home = 4094, slots = 4096;
    const uint64_t wa[] = { key, 0, 0, 3,
                            1, home, 1,
                            1ull << 63, home + slots, 1,
                            2, home + 2 * slots, 1 };
    const uint64_t wb[] = { key, 1, 0, 1,
                            2, home + 2 * slots, 1 };
    assert_int_equal(t->load(a, wa, sizeof wa / sizeof wa[0]), SB_OK);
    assert_int_equal(t->load(b, wb, sizeof wb / sizeof wb[0]), SB_OK);
    assert_int_equal(t->merge(a, b), SB_OK);
    assert_int_equal(t->save(a, &w, &count), SB_OK);
    const uint64_t want[] = { key, 1, 0, 2,
                              1, home, 1,
                              2, home + 2 * slots, 2 };
    assert_int_equal(count, sizeof want / sizeof want[0]);
    assert_memory_equal(w, want, sizeof want);
    free(w);
    t->free(a);
    t->free(b);
}

/* ---- collisions: the flaw it exists for ------------------------------- */

/* fisher-yates re-seeded with 32 bits before every deck (reseed32:mt19937)
   reaches at most 2^32 decks: 3 x 10^5 decks expect N^2 / 2^33 = 10.5
   repeats where a good source expects 10^-57.  It fails; it would pass
   only if no repeat occurred, probability e^-10.5 = 2.8e-5 over seeds. */
static void test_collisions_catches_reseed32(void **state)
{
    (void)state;
    const sb_stat_type *stats[] = { &sb_stat_collisions };
    sb_report rep;
    sb_test_run(&sb_shuffle_fisher_yates, NULL, 52, 300000, 11,
                "reseed32:mt19937", stats, 1, &rep);
    const sb_result *r = &rep.results[0];
    assert_true(r->applicable);
    assert_true(r->statistic >= 1.0);
    assert_true(r->p_value < 1e-6);
    assert_int_equal(rep.verdict, SB_VERDICT_FAIL);
    assert_non_null(strstr(r->effect_desc, "repeated deck"));
    sb_report_release(&rep);
}

/* Fair sources: fisher-yates on the fast generator at 10^6 decks, and
   gsl-shuffle on mt19937 (one stream per run, seeded once) at 2 x 10^5.
   A repeat among N uniform decks of 52 has probability about
   C(N,2)/52! = 6e-57: none, so the p-value P(X >= 0) is 1.  (A false
   fingerprint repeat has probability 2^-128 per pair.) */
static void test_collisions_fair_passes(void **state)
{
    (void)state;
    const sb_stat_type *stats[] = { &sb_stat_collisions };
    sb_report rep;
    sb_test_run(&sb_shuffle_fisher_yates, NULL, 52, 1000000, 12,
                SB_RNG_DEFAULT, stats, 1, &rep);
    assert_true(rep.results[0].applicable);
    assert_true(rep.results[0].statistic == 0.0);
    assert_close(rep.results[0].p_value, 1.0, 1e-12);
    assert_int_equal(rep.verdict, SB_VERDICT_PASS);
    sb_report_release(&rep);

    sb_test_run(&sb_shuffle_gsl_shuffle, NULL, 52, 200000, 13, "mt19937",
                stats, 1, &rep);
    assert_true(rep.results[0].statistic == 0.0);
    assert_int_equal(rep.verdict, SB_VERDICT_PASS);
    sb_report_release(&rep);
}

/* ---- serial: counting ------------------------------------------------- */

/* The relative-position table of 200 random 5-card decks against brute
   force: for each consecutive pair, the card at position j of the first
   is looked for in the second.  The statistic is the position matrix's,
   X^2 (n-1)/n with E = pairs/n, recomputed here, on (n-1)^2 = 16 df. */
static void test_serial_perm_table(void **state)
{
    (void)state;
    enum { N = 5, COUNT = 200 };
    uint64_t seed = 0x5e41a101ull;
    sb_card s[N * COUNT];
    for (size_t i = 0; i < COUNT; i++)
        xs_deck(&seed, s + i * N, N);
    uint64_t m[N][N] = { { 0 } };
    for (size_t t = 0; t + 1 < COUNT; t++)
        for (size_t j = 0; j < N; j++)
            for (size_t i = 0; i < N; i++)
                if (s[(t + 1) * N + i] == s[t * N + j])
                    m[j][i]++;
    const sb_shape sh = shape_of(SB_KIND_PERMUTATION, N, N, 0);
    sb_result r;
    run_stat(&sb_stat_serial, &sh, s, COUNT, COUNT, 1e-6, &r);
    assert_true(r.applicable);
    assert_int_equal(r.table.rows, N);
    assert_int_equal(r.table.cols, N);
    const double e = (COUNT - 1) / (double)N;
    double x2 = 0.0;
    for (size_t j = 0; j < N; j++)
        for (size_t i = 0; i < N; i++) {
            assert_true(r.table.observed[j * N + i] == (double)m[j][i]);
            assert_true(r.table.expected[j * N + i] == e);
            x2 += ((double)m[j][i] - e) * ((double)m[j][i] - e) / e;
        }
    assert_close(r.statistic, x2 * (N - 1) / N, 1e-12);
    assert_true(r.df == 16.0);
    assert_non_null(strstr(r.effect_desc, "of the next deck"));
    assert_non_null(strstr(r.note, "199 consecutive pairs"));
    sb_result_clear(&r);
}

/* The overlap of consecutive 3-card hands from 7 cards.  The null against
   brute force over all 35 x 35 ordered pairs of 3-card sets: 140, 630,
   420 and 35 of the 1225 pairs share 0, 1, 2, 3 cards.  The observed
   overlaps of 20000 random draws against the test's own count. */
static void test_serial_draw_overlap(void **state)
{
    (void)state;
    enum { N = 7, K = 3, COUNT = 20000 };
    uint64_t brute[K + 1] = { 0 }, total = 0;
    for (unsigned a = 0; a < (1u << N); a++)
        for (unsigned b = 0; b < (1u << N); b++)
            if (__builtin_popcount(a) == K && __builtin_popcount(b) == K) {
                brute[__builtin_popcount(a & b)]++;
                total++;
            }
    assert_int_equal(total, 1225);
    assert_int_equal(brute[0], 140);
    assert_int_equal(brute[3], 35);

    uint64_t seed = 0x5e41a102ull;
    sb_card *s = malloc(sizeof *s * K * COUNT);
    assert_non_null(s);
    sb_card deck[N];
    uint64_t seen[K + 1] = { 0 };
    for (size_t i = 0; i < COUNT; i++) {
        xs_deck(&seed, deck, N);
        memcpy(s + i * K, deck, sizeof *s * K);
        if (i > 0) {
            size_t common = 0;
            for (size_t x = 0; x < K; x++)
                for (size_t y = 0; y < K; y++)
                    common += s[i * K + x] == s[(i - 1) * K + y];
            seen[common]++;
        }
    }
    const sb_shape sh = shape_of(SB_KIND_DRAW, N, K, 0);
    sb_result r;
    run_stat(&sb_stat_serial, &sh, s, COUNT, COUNT, 1e-6, &r);
    assert_true(r.applicable);
    assert_int_equal(r.table.cols, K + 1);     /* no pooling */
    for (size_t x = 0; x <= K; x++) {
        assert_int_equal(r.table.lo[x], (long)x);
        assert_true(r.table.observed[x] == (double)seen[x]);
        assert_close(r.table.expected[x] / (COUNT - 1),
                     (double)brute[x] / (double)total, 1e-12);
    }
    assert_true(r.df == 3.0);
    assert_true(r.p_value > 1e-3);   /* fair: false alarm 1e-3 */
    sb_result_clear(&r);
    free(s);
}

/* Only pairs within one call are counted: 10 decks in one call give 9
   pairs, in calls of 5 and 5 give 8, and two accumulators fed 5 each,
   merged, give exactly those 8.  Calls of one sample give no pairs: not
   applicable.  Nor are a draw of the whole deck, one card, or deals. */
static void test_serial_pairs_and_limits(void **state)
{
    (void)state;
    enum { N = 6, COUNT = 10 };
    uint64_t seed = 0x5e41a103ull;
    sb_card s[N * COUNT];
    for (size_t i = 0; i < COUNT; i++)
        xs_deck(&seed, s + i * N, N);
    const sb_shape sh = shape_of(SB_KIND_PERMUTATION, N, N, 0);
    const sb_stat_type *t = &sb_stat_serial;
    void *a, *b, *c;
    assert_int_equal(t->alloc(&a, &sh), SB_OK);
    assert_int_equal(t->alloc(&b, &sh), SB_OK);
    assert_int_equal(t->alloc(&c, &sh), SB_OK);
    t->add(a, s, COUNT);
    t->add(b, s, 5);
    t->add(b, s + 5 * N, 5);
    t->add(c, s + 5 * N, 5);
    sb_result ra, rb, rc;
    assert_int_equal(t->finalize(a, COUNT, 1e-6, &ra), SB_OK);
    double sum = 0.0;
    for (size_t i = 0; i < N * N; i++)
        sum += ra.table.observed[i];
    assert_true(sum == 9.0 * N);
    assert_int_equal(t->finalize(b, COUNT, 1e-6, &rb), SB_OK);
    sum = 0.0;
    for (size_t i = 0; i < N * N; i++)
        sum += rb.table.observed[i];
    assert_true(sum == 8.0 * N);
    void *d;
    assert_int_equal(t->alloc(&d, &sh), SB_OK);
    t->add(d, s, 5);
    assert_int_equal(t->merge(d, c), SB_OK);
    assert_int_equal(t->finalize(d, COUNT, 1e-6, &rc), SB_OK);
    assert_memory_equal(rb.table.observed, rc.table.observed,
                        N * N * sizeof(double));
    assert_true(rb.statistic == rc.statistic);
    sb_result_clear(&ra);
    sb_result_clear(&rb);
    sb_result_clear(&rc);
    t->free(a);
    t->free(b);
    t->free(c);
    t->free(d);

    /* one sample per call */
    assert_int_equal(t->alloc(&a, &sh), SB_OK);
    for (size_t i = 0; i < COUNT; i++)
        t->add(a, s + i * N, 1);
    assert_int_equal(t->finalize(a, COUNT, 1e-6, &ra), SB_OK);
    assert_false(ra.applicable);
    sb_result_clear(&ra);
    t->free(a);

    const sb_shape whole = shape_of(SB_KIND_DRAW, N, N, 0);
    run_stat(t, &whole, s, COUNT, COUNT, 1e-6, &ra);
    assert_false(ra.applicable);
    sb_result_clear(&ra);
    const sb_shape one = shape_of(SB_KIND_PERMUTATION, 1, 1, 0);
    const sb_card zero[3] = { 0, 0, 0 };
    run_stat(t, &one, zero, 3, 3, 1e-6, &ra);
    assert_false(ra.applicable);
    sb_result_clear(&ra);

    /* Deals are no longer refused (tests/test_serial_deal.c). */
    char why[128];
    const sb_shape deal = shape_of(SB_KIND_DEAL, 52, 52, 4);
    assert_int_equal(sb_stat_check(t, &deal, why, sizeof why), SB_OK);
}

/* ---- serial: flawed and fair ------------------------------------------ */

/* A test-only shuffle that keeps its deck: the first deck of a chunk is a
   full Fisher-Yates, every later one the previous deck with three random
   transpositions.  Each deck alone is exactly uniform (a uniform deck
   times any independent permutation is uniform); consecutive decks share
   most positions. */
typedef struct few_swaps_state {
    int fresh;            /* 1 at the start of a chunk */
    sb_card deck[];       /* the previous deck */
} few_swaps_state;

static int few_swaps_init(void **state, const sb_shuffle_args *a)
{
    *state = calloc(1, sizeof(few_swaps_state) + a->n * sizeof(sb_card));
    return *state ? SB_OK : SB_ENOMEM;
}

static void few_swaps_reset(void *state, const sb_shuffle_args *a)
{
    (void)a;
    ((few_swaps_state *)state)->fresh = 1;
}

static void few_swaps_free(void *state)
{
    free(state);
}

static void swap_cards(sb_card *d, size_t i, size_t j)
{
    sb_card t = d[i];
    d[i] = d[j];
    d[j] = t;
}

static int few_swaps_run(void *state, const sb_shuffle_args *a, sb_src *src,
                         sb_card *out)
{
    few_swaps_state *st = state;
    const size_t n = a->n;
    if (st->fresh) {
        src_fisher_yates(src, st->deck, n);
        st->fresh = 0;
    } else {
        for (int k = 0; k < 3; k++)
            swap_cards(st->deck, (size_t)sb_below(src, n),
                       (size_t)sb_below(src, n));
    }
    memcpy(out, st->deck, n * sizeof *out);
    return SB_OK;
}

static const sb_shuffle_type few_swaps = {
    .name = "few-swaps",
    .summary = "the previous deck with three random transpositions",
    .source = "test only",
    .bias = "each deck uniform, consecutive decks nearly equal",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_BIASED,
    .n_min = 2,
    .n_max = SB_DECK_MAX,
    .init = few_swaps_init,
    .reset = few_swaps_reset,
    .free = few_swaps_free,
    .run = few_swaps_run,
};

/* A test-only draw that deals the next 5 cards of one shuffled deck, and
   shuffles again (a full Fisher-Yates) only when fewer than 5 are left:
   each hand alone is a uniform ordered draw, but consecutive hands from
   one deck share no card. */
enum { NEXT_HAND_K = 5 };

typedef struct next_hand_state {
    size_t next;          /* the next position to deal; n: shuffle first */
    sb_card deck[];
} next_hand_state;

static int next_hand_init(void **state, const sb_shuffle_args *a)
{
    *state = calloc(1, sizeof(next_hand_state) + a->n * sizeof(sb_card));
    return *state ? SB_OK : SB_ENOMEM;
}

static void next_hand_reset(void *state, const sb_shuffle_args *a)
{
    ((next_hand_state *)state)->next = a->n;
}

static int next_hand_run(void *state, const sb_shuffle_args *a, sb_src *src,
                         sb_card *out)
{
    next_hand_state *st = state;
    const size_t n = a->n;
    if (st->next + NEXT_HAND_K > n) {
        src_fisher_yates(src, st->deck, n);
        st->next = 0;
    }
    memcpy(out, st->deck + st->next, NEXT_HAND_K * sizeof *out);
    st->next += NEXT_HAND_K;
    return SB_OK;
}

static size_t next_hand_len(const sb_shuffle_args *a)
{
    (void)a;
    return NEXT_HAND_K;
}

static const sb_shuffle_type next_hand = {
    .name = "next-hand",
    .summary = "deal the next 5 cards of one shuffled deck",
    .source = "test only",
    .bias = "each hand uniform, consecutive hands disjoint",
    .kind = SB_KIND_DRAW,
    .literature = SB_LIT_BIASED,
    .n_min = NEXT_HAND_K,
    .n_max = SB_DECK_MAX,
    .sample_len = next_hand_len,
    .init = next_hand_init,
    .reset = next_hand_reset,
    .free = few_swaps_free,
    .run = next_hand_run,
};

/* Both flawed shuffles fail 'serial' by far (p below 1e-300 at the fixed
   seed: about 46 of 52 cards keep their position from one deck to the
   next, and nine consecutive hands in ten share no card where 59% would,
   so that 1 card in common, 33% expected, is rare),
   while the per-sample table passes the draw: each hand is uniform, so
   card-slot at p > 1e-3 (its false alarm over seeds; the hands of one
   deck are drawn without replacement, which only narrows its counts). */
static void test_serial_catches_carried_state(void **state)
{
    (void)state;
    const sb_stat_type *perm_stats[] = { &sb_stat_serial };
    sb_report rep;
    sb_test_run(&few_swaps, NULL, 52, 20000, 21, SB_RNG_DEFAULT, perm_stats, 1,
                &rep);
    assert_true(rep.results[0].p_underflow);
    assert_int_equal(rep.verdict, SB_VERDICT_FAIL);
    sb_report_release(&rep);

    const sb_stat_type *draw_stats[] = { &sb_stat_serial,
                                         &sb_stat_card_slot };
    sb_test_run(&next_hand, NULL, 52, 20000, 22, SB_RNG_DEFAULT, draw_stats, 2,
                &rep);
    assert_true(rep.results[0].p_underflow);
    assert_non_null(strstr(rep.results[0].effect_desc,
                           "in common with the previous hand"));
    assert_true(rep.results[1].p_value > 1e-3);
    assert_int_equal(rep.verdict, SB_VERDICT_FAIL);
    sb_report_release(&rep);
}

/* Fair shuffles pass: fisher-yates (permutations) and partial-deal (a
   draw that keeps its deck but reshuffles what it deals) at 10^5 samples,
   fixed seeds; each p > 1e-3, a false alarm of 1e-3 per check over seeds
   (the null of both is exact for independent samples, see serial.c). */
static void test_serial_fair_passes(void **state)
{
    (void)state;
    const sb_stat_type *stats[] = { &sb_stat_serial };
    sb_report rep;
    sb_test_run(&sb_shuffle_fisher_yates, NULL, 52, 100000, 31, SB_RNG_DEFAULT,
                stats, 1, &rep);
    assert_true(rep.results[0].applicable);
    assert_true(rep.results[0].p_value > 1e-3);
    sb_report_release(&rep);

    sb_test_run(&sb_shuffle_partial_deal, NULL, 52, 100000, 32, SB_RNG_DEFAULT,
                stats, 1, &rep);
    assert_true(rep.results[0].applicable);
    assert_true(rep.results[0].p_value > 1e-3);
    sb_report_release(&rep);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collisions_counts_repeats),
        cmocka_unit_test(test_collisions_structured),
        cmocka_unit_test(test_collisions_null_mean),
        cmocka_unit_test(test_collisions_not_applicable),
        cmocka_unit_test(test_collisions_detectable),
        cmocka_unit_test(test_collisions_merge_any_order),
        cmocka_unit_test(test_collisions_table_keeps_all),
        cmocka_unit_test(test_collisions_drop_wraps),
        cmocka_unit_test(test_collisions_catches_reseed32),
        cmocka_unit_test(test_collisions_fair_passes),
        cmocka_unit_test(test_serial_perm_table),
        cmocka_unit_test(test_serial_draw_overlap),
        cmocka_unit_test(test_serial_pairs_and_limits),
        cmocka_unit_test(test_serial_catches_carried_state),
        cmocka_unit_test(test_serial_fair_passes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
