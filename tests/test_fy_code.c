/*
 * test_fy_code.c - the Fisher-Yates code (stats/fy_draws.c) and the
 * statistics 'fy-code' and 'fy-code-forward' on it.
 *
 * The code is checked against brute force: every draw sequence of 3, 4
 * and 5 cards is run through the two loops as written here (the
 * conventions of algorithms/fisher_yates.c and
 * algorithms/fisher_yates_forward.c), and the library's replay must give
 * back exactly those draws, for all n! decks: a bijection onto the
 * product of the ranges.  The nulls are checked the same way: every deck
 * once gives exactly uniform counts, and the statistics, p-values and
 * tails equal what this file computes on its own (exact convolutions of
 * the null laws).  Statistical assertions use fixed seeds and state their
 * false-alarm rate.
 */
#include "tests/sb_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include "stats/fy_draws.h"
#include "stats/registry.h"

#define SMALL_MAX 5

/* The deck backward Fisher-Yates makes from draws d[m] in 0..m-1
   (m = n..2): for i = n-1 down to 1, swap positions i and d[i+1]. */
static void deal_backward(const uint32_t *d, size_t n, sb_card *deck)
{
    for (size_t i = 0; i < n; i++)
        deck[i] = (sb_card)i;
    for (size_t i = n - 1; i >= 1; i--) {
        const sb_card t = deck[i];
        deck[i] = deck[d[i + 1]];
        deck[d[i + 1]] = t;
    }
}

/* Forward: for i = 0 up to n-2, swap positions i and i + d[n-i]. */
static void deal_forward(const uint32_t *d, size_t n, sb_card *deck)
{
    for (size_t i = 0; i < n; i++)
        deck[i] = (sb_card)i;
    for (size_t i = 0; i + 1 < n; i++) {
        const size_t j = i + d[n - i];
        const sb_card t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
}

/* The rank of a deck among the n! in lexicographic order (Lehmer). */
static size_t deck_rank(const sb_card *deck, size_t n)
{
    size_t rank = 0;
    for (size_t i = 0; i < n; i++) {
        size_t smaller = 0;
        for (size_t k = i + 1; k < n; k++)
            smaller += deck[k] < deck[i];
        rank = rank * (n - i) + smaller;
    }
    return rank;
}

static size_t factorial(size_t n)
{
    return n <= 1 ? 1 : n * factorial(n - 1);
}

/* Walk every draw sequence (mixed radix, d[m] in 0..m-1); 0 after the
   last. */
static int next_draws(uint32_t *d, size_t n)
{
    for (size_t m = 2; m <= n; m++) {
        if (++d[m] < m)
            return 1;
        d[m] = 0;
    }
    return 0;
}

/* Every sequence of draws, dealt both ways, is recovered by sb_fy_code;
   the n! decks are each reached once (so the code is a bijection onto
   the product of the ranges). */
static void test_code_bijection(void **state)
{
    (void)state;
    for (size_t n = 2; n <= SMALL_MAX; n++)
        for (int forward = 0; forward <= 1; forward++) {
            const size_t nf = factorial(n);
            unsigned char *seen = calloc(nf, 1);
            assert_non_null(seen);
            uint32_t d[SMALL_MAX + 1] = { 0 }, c[SMALL_MAX + 1];
            sb_card deck[SMALL_MAX], q[SMALL_MAX], r[SMALL_MAX];
            size_t sequences = 0;
            do {
                (forward ? deal_forward : deal_backward)(d, n, deck);
                const size_t rank = deck_rank(deck, n);
                assert_false(seen[rank]);
                seen[rank] = 1;
                sb_fy_code(deck, n, forward, q, r, c);
                for (size_t m = 2; m <= n; m++)
                    assert_int_equal(c[m], d[m]);
                sequences++;
            } while (next_draws(d, n));
            assert_int_equal(sequences, nf);
            free(seen);
        }
}

/* The n! decks (lexicographic), one after another. */
static sb_card *all_decks(size_t n)
{
    const size_t nf = factorial(n);
    sb_card *all = malloc(nf * n * sizeof *all), deck[SMALL_MAX];
    assert_non_null(all);
    for (size_t i = 0; i < n; i++)
        deck[i] = (sb_card)i;
    size_t k = 0;
    do {
        memcpy(all + k++ * n, deck, n * sizeof *deck);
    } while (next_perm(deck, n));
    assert_int_equal(k, nf);
    return all;
}

/* Every deck 5 times (at least 10 decks, so that the fit applies): each
   draw's values exactly 5 n!/m times each, every subtest at its null
   mean, p = 1 and no effect. */
static void test_every_deck_once(void **state)
{
    (void)state;
    const sb_stat_type *types[2] = { &sb_stat_fy_code,
                                     &sb_stat_fy_code_forward };
    for (size_t n = 3; n <= SMALL_MAX; n++) {
        const size_t nf = factorial(n), reps = 5;
        sb_card *one = all_decks(n);
        sb_card *all = malloc(reps * nf * n * sizeof *all);
        assert_non_null(all);
        for (size_t k = 0; k < reps; k++)
            memcpy(all + k * nf * n, one, nf * n * sizeof *one);
        free(one);
        for (size_t t = 0; t < 2; t++) {
            sb_result res;
            run_stat(types[t], n, all, reps * nf, &res);
            assert_true(res.applicable);
            assert_int_equal(res.table.rows, n - 1);
            assert_int_equal(res.table.cols, n);
            for (size_t m = 2; m <= n; m++)
                for (size_t j = 0; j < n; j++)
                    assert_true(res.table.observed[(m - 2) * n + j]
                                == (j < m ? (double)(reps * nf / m) : 0.0));
            assert_true(res.p_value == 1.0);
            assert_true(res.effect == 0.0);
            /* the fit's X^2 and the mean's z are exactly 0 */
            assert_non_null(strstr(res.note, "fit T = 0 on "));
            assert_non_null(strstr(res.note, "mean z = 0, p = 1;"));
            assert_true(res.subtests >= 3);
            sb_result_clear(&res);
        }
        free(all);
    }
}

/* ---- the tails against exact laws ------------------------------------- */

/* The exact law of S = sum_k (m_k X_k - N r_k), X_k ~ Binomial(N, r_k /
   m_k), as P(sum m_k X_k = v), v = 0..sum m_k N, by convolution. */
static double *exact_low_law(uint64_t N, const uint32_t *m,
                             const uint32_t *r, size_t terms, size_t *len)
{
    size_t top = 0;
    for (size_t k = 0; k < terms; k++)
        top += m[k] * N;
    double *law = calloc(top + 1, sizeof *law);
    double *next = calloc(top + 1, sizeof *next);
    assert_non_null(law);
    assert_non_null(next);
    law[0] = 1.0;
    size_t reach = 0;
    for (size_t k = 0; k < terms; k++) {
        memset(next, 0, (top + 1) * sizeof *next);
        const double p = (double)r[k] / (double)m[k];
        for (size_t v = 0; v <= reach; v++)
            for (unsigned x = 0; x <= N; x++)
                next[v + m[k] * x] += law[v]
                    * gsl_ran_binomial_pdf(x, p, (unsigned)N);
        reach += m[k] * N;
        double *t = law;
        law = next;
        next = t;
    }
    free(next);
    *len = top + 1;
    return law;
}

/* The low-residue subtest's tail against the exact law, for B-bit
   residues at n cards and N decks, wherever the exact tail is between
   1e-14 and 1e-2: equal to it (to rounding) where the library computes
   it exactly too (small laws), within 1% where it takes the saddlepoint
   (from 10 cards and enough decks that the law has over 65536 values). */
static void test_low_tail_exact(void **state)
{
    (void)state;
    const struct {
        size_t n;
        unsigned bits;
        uint64_t N;
        double within;
    } cases[] = {
        { 3, 8, 60, 1e-9 },       /* one term, m = 3, r = 1: span 3 */
        { 4, 9, 60, 1e-9 },       /* m = 3, r = 2 (m = 2, 4 divide 2^B) */
        { 5, 8, 30, 1e-9 },       /* m = 3 and 5 */
        { 5, 10, 400, 1e-9 },
        { 20, 8, 200, 0.01 },     /* saddlepoint */
        { 52, 15, 40, 0.01 },     /* saddlepoint */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint32_t m[64], r[64];
        size_t terms = 0, span = 0;
        double shift = 0.0;
        for (size_t mm = 2; mm <= cases[c].n; mm++) {
            const uint32_t rr = (uint32_t)((1ull << cases[c].bits) % mm);
            if (rr == 0)
                continue;
            m[terms] = (uint32_t)mm;
            r[terms++] = rr;
            shift += (double)cases[c].N * rr;
            size_t x = mm, y = span;
            while (y) {
                const size_t t = x % y;
                x = y;
                y = t;
            }
            span = x;
        }
        size_t len;
        double *law = exact_low_law(cases[c].N, m, r, terms, &len);
        double tail = 0.0;
        size_t checked = 0;
        for (size_t v = len; v-- > 0;) {
            tail += law[v];
            if (law[v] == 0.0 || tail > 1e-2 || tail < 1e-14)
                continue;
            double p;
            int under;
            assert_int_equal(sb_fy_upper_tail(cases[c].N, m, r, terms,
                                              (double)v - shift,
                                              (double)span, &p, &under),
                             SB_OK);
            assert_false(under);
            assert_close(p, tail, cases[c].within);
            checked++;
        }
        assert_true(checked > 10);
        free(law);
    }
    /* The largest value: exactly P(every draw favoured), in both
       regimes. */
    const uint32_t m[2] = { 3, 5 }, r[2] = { 1, 4 };
    double p;
    int under;
    assert_int_equal(sb_fy_upper_tail(10, m, r, 2, 10.0 * (2 + 1), 1.0, &p,
                                      &under), SB_OK);
    assert_close(p, pow(1.0 / 3.0 * 4.0 / 5.0, 10), 1e-12);
    assert_int_equal(sb_fy_upper_tail(100000, m, r, 2, 100000.0 * 3, 1.0,
                                      &p, &under), SB_OK);
    assert_true(under);
    assert_int_equal(sb_fy_upper_tail(0, m, r, 2, 1.0, 1.0, &p, &under),
                     SB_EINVAL);
}

/* The mean subtest's normal tail (with its continuity correction) is
   conservative where verdicts are read: never below the exact two-sided
   tail of S, the N-fold convolution of one deck's sum of 2j - (m-1), for
   n = 2, 3 and 5 and a few N, wherever that tail is between 1e-15 and
   1e-3.  (Nearer the middle it can be a little below: 0.30 against 1/3
   for one deck of 3 cards.) */
static void test_mean_tail_conservative(void **state)
{
    (void)state;
    const size_t ns[] = { 2, 3, 5 }, Ns[] = { 1, 4, 30, 200 };
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 4; b++) {
            const size_t n = ns[a], N = Ns[b];
            /* One deck: S ranges over -(sum (m-1)).. +; index v + top. */
            size_t top = 0;
            for (size_t m = 2; m <= n; m++)
                top += m - 1;
            double *one = calloc(2 * top + 1, sizeof *one);
            double *tmp = calloc(2 * top + 1, sizeof *tmp);
            one[top] = 1.0;
            size_t half = 0;
            for (size_t m = 2; m <= n; m++) {
                memset(tmp, 0, (2 * top + 1) * sizeof *tmp);
                for (size_t v = top - half; v <= top + half; v++)
                    for (size_t j = 0; j < m; j++)
                        tmp[v + 2 * j - (m - 1)] += one[v] / (double)m;
                half += m - 1;
                memcpy(one, tmp, (2 * top + 1) * sizeof *tmp);
            }
            const size_t wide = 2 * top * N + 1;
            double *law = calloc(wide, sizeof *law);
            double *nxt = calloc(wide, sizeof *nxt);
            law[0] = 1.0;      /* index: S + top * (decks so far) */
            for (size_t d = 0; d < N; d++) {
                memset(nxt, 0, wide * sizeof *nxt);
                for (size_t v = 0; v <= 2 * top * d; v++)
                    if (law[v] != 0.0)
                        for (size_t w = 0; w <= 2 * top; w++)
                            nxt[v + w] += law[v] * one[w];
                double *t = law;
                law = nxt;
                nxt = t;
            }
            double var = 0.0;
            for (size_t m = 2; m <= n; m++)
                var += ((double)m * m - 1.0) / 3.0;
            const double sd = sqrt((double)N * var);
            const size_t mid = top * N;
            size_t checked = 0;
            double tail = 0.0;       /* P(|S| >= s), from the top */
            for (size_t s = mid; s + 1 > 0; s--) {
                tail += law[mid + s] + (s ? law[mid - s] : 0.0);
                if (law[mid + s] == 0.0 || tail < 1e-15 || tail > 1e-3)
                    continue;
                checked++;
                const double z = fmax(0.0, (double)s - 1.0) / sd;
                const double p = gsl_cdf_chisq_Q(z * z, 1.0);
                assert_true(p >= tail * (1.0 - 1e-9));
            }
            assert_true(checked > 0 || N < 30);
            free(one);
            free(tmp);
            free(law);
            free(nxt);
        }
}

/* ---- the statistic against its own computation ------------------------ */

/* Decks of a backward (or forward) Fisher-Yates whose draw from 0..m-1
   is rand() % m with a 'bits'-bit rand(); bits 0: fair. */
static void biased_decks(uint64_t *seed, size_t n, size_t count,
                         unsigned bits, int forward, sb_card *out)
{
    uint32_t d[64];
    assert_true(n < 64);
    for (size_t k = 0; k < count; k++, out += n) {
        for (size_t m = 2; m <= n; m++)
            d[m] = bits ? (uint32_t)(xs_below(seed, (size_t)1 << bits) % m)
                        : (uint32_t)xs_below(seed, m);
        (forward ? deal_forward : deal_backward)(d, n, out);
    }
}

/* The per-draw fit's statistic for one draw of m equally likely values,
   each counted once per value (no pooling: the counts here expect 5 or
   more), computed apart from stats/gof.c: value g against values 0..g-1
   given their total, for g = m-1 down to 1, each split's exact two-sided
   likelihood-ratio p-value summed outcome by outcome from GSL's binomial
   law, turned into its chi-square(1) quantile and summed. */
static double brute_split(const double *c, size_t m)
{
    double t = 0.0, total = c[0];
    for (size_t g = 1; g < m; g++) {
        total += c[g];
        const unsigned n = (unsigned)total, x = (unsigned)c[g];
        const double pi = 1.0 / (double)(g + 1), mu = n * pi;
        const double dx = 2.0 * ((x ? x * log(x / mu) : 0.0)
                                 + (n - x ? (n - x) * log((n - x)
                                                          / (n - mu))
                                          : 0.0));
        double p = 0.0;
        for (unsigned k = 0; k <= n; k++) {
            const double dk = 2.0 * ((k ? k * log(k / mu) : 0.0)
                                     + (n - k ? (n - k) * log((n - k)
                                                              / (n - mu))
                                              : 0.0));
            if (dk >= dx - 1e-9 * (dx + 1.0))
                p += gsl_ran_binomial_pdf(k, pi, n);
        }
        if (p < 1.0 && dx > 1e-12) {
            const double z = gsl_cdf_ugaussian_Qinv(0.5 * p);
            t += z * z;
        }
    }
    return t;
}

/* The statistic's p-value and worst statistic, recomputed here from the
   decks' codes found by brute force (the draws whose deal is the deck):
   the per-draw X^2 against chi-square(n(n-1)/2) (no pooling: N >= 5n),
   the mean's two-sided normal tail with its continuity correction, the
   low residues' tails from sb_fy_upper_tail (checked above against the
   exact law), and Bonferroni over them. */
static void check_against_own(size_t n, size_t N, unsigned bits,
                              int forward, uint64_t seed)
{
    sb_card *decks = malloc(N * n * sizeof *decks);
    assert_non_null(decks);
    biased_decks(&seed, n, N, bits, forward, decks);

    /* The code of every deck by look-up among all draw sequences. */
    const size_t nf = factorial(n);
    uint32_t (*code_of)[SMALL_MAX + 1] = calloc(nf, sizeof *code_of);
    assert_non_null(code_of);
    uint32_t d[SMALL_MAX + 1] = { 0 };
    sb_card deck[SMALL_MAX];
    do {
        (forward ? deal_forward : deal_backward)(d, n, deck);
        memcpy(code_of[deck_rank(deck, n)], d, sizeof d);
    } while (next_draws(d, n));
    double c[SMALL_MAX + 1][SMALL_MAX] = { { 0 } };
    for (size_t k = 0; k < N; k++) {
        const uint32_t *cd = code_of[deck_rank(decks + k * n, n)];
        for (size_t m = 2; m <= n; m++)
            c[m][cd[m]] += 1.0;
    }

    double x2 = 0.0, s = 0.0, var = 0.0;
    for (size_t m = 2; m <= n; m++) {
        x2 += brute_split(c[m], m);
        for (size_t j = 0; j < m; j++)
            s += c[m][j] * (2.0 * (double)j - (double)(m - 1));
    }
    for (size_t m = 2; m <= n; m++)
        var += ((double)m * m - 1.0) / 3.0;
    double p_min = gsl_cdf_chisq_Q(x2, (double)(n * (n - 1) / 2));
    const double z = fmax(0.0, fabs(s) - 1.0) / sqrt((double)N * var);
    p_min = fmin(p_min, gsl_cdf_chisq_Q(z * z, 1.0));
    /* The distinct residue patterns of B = 8..32. */
    uint32_t seen[32][SMALL_MAX + 1];
    size_t kept = 0;
    for (unsigned b = SB_FY_BITS_MIN; b <= SB_FY_BITS_MAX; b++) {
        uint32_t rr[SMALL_MAX + 1] = { 0 }, tm[SMALL_MAX], tr[SMALL_MAX];
        size_t terms = 0, span = 0;
        double sb = 0.0;
        for (size_t m = 2; m <= n; m++) {
            rr[m] = (uint32_t)((1ull << b) % m);
            if (rr[m] == 0)
                continue;
            double low = 0.0;
            for (size_t j = 0; j < rr[m]; j++)
                low += c[m][j];
            sb += (double)m * low - (double)N * rr[m];
            tm[terms] = (uint32_t)m;
            tr[terms++] = rr[m];
            span = span == 0 ? m : (span % m ? 1 : span);
        }
        int dup = terms == 0;
        for (size_t k = 0; k < kept && !dup; k++)
            dup = memcmp(seen[k], rr, sizeof rr) == 0;
        if (dup)
            continue;
        memcpy(seen[kept++], rr, sizeof rr);
        double p;
        int under;
        assert_int_equal(sb_fy_upper_tail(N, tm, tr, terms, sb,
                                          (double)span, &p, &under), SB_OK);
        p_min = fmin(p_min, p);
    }
    const double T = 2.0 + (double)kept;

    sb_result res;
    run_stat(forward ? &sb_stat_fy_code_forward : &sb_stat_fy_code, n,
             decks, N, &res);
    assert_true(res.applicable);
    assert_int_equal(res.subtests, (unsigned)T);
    assert_close(res.p_value, fmin(1.0, T * p_min), 1e-9);
    sb_result_clear(&res);
    free(code_of);
    free(decks);
}

static void test_against_own(void **state)
{
    (void)state;
    for (int forward = 0; forward <= 1; forward++) {
        check_against_own(5, 400, 0, forward, 0x5eed0101ull);
        check_against_own(5, 400, 3, forward, 0x5eed0102ull);
        check_against_own(4, 1000, 4, forward, 0x5eed0103ull);
        check_against_own(3, 200, 2, forward, 0x5eed0104ull);
    }
}

/* n = 2: one draw, from 0..1, and no favoured residue (2 divides 2^B):
   the fit and the mean only. */
static void test_two_cards(void **state)
{
    (void)state;
    sb_card decks[2 * 40];
    for (size_t k = 0; k < 40; k++) {
        decks[2 * k] = (sb_card)(k < 30);      /* 30 swapped, 10 not */
        decks[2 * k + 1] = (sb_card)(k >= 30);
    }
    sb_result res;
    run_stat(&sb_stat_fy_code, 2, decks, 40, &res);
    assert_true(res.applicable);
    assert_int_equal(res.subtests, 2);
    /* The fit: 30 of 40 against Binomial(40, 1/2), its exact two-sided
       p-value 2 P(X >= 30), as the chi-square(1) quantile (9.357); the
       mean's z^2 is (|10 - 30| - 1)^2 / 40 = 9.025: the fit is the
       worst, and the result's p is 2 (subtests) times its p. */
    const double upper = gsl_cdf_binomial_Q(29, 0.5, 40);
    const double z = gsl_cdf_ugaussian_Qinv(upper);
    assert_close(res.statistic, z * z, 1e-9);
    assert_close(res.p_value, 2.0 * 2.0 * upper, 1e-9);
    sb_result_clear(&res);
    run_stat(&sb_stat_fy_code, 2, decks, 9, &res);
    assert_false(res.applicable);     /* 9 decks: 4.5 expected per value */
    sb_result_clear(&res);
}

/* Fixed seeds at 52 cards: fair decks pass (a false alarm, p < 1e-6, has
   probability at most 1e-6 for each statistic: the Bonferroni
   combination is valid), and a backward Fisher-Yates drawing rand() % m
   from 8 bits fails 'fy-code' at 2000 decks, the worst subtest being the
   low residues of B = 8 (noncentrality 0.116 per deck, so z about 15
   against the 5.7 the threshold needs: a miss has probability below
   1e-20); the forward version fails 'fy-code-forward'. */
static void test_seeded(void **state)
{
    (void)state;
    enum { N = 52, D = 2000 };
    sb_card *decks = malloc((size_t)D * N * sizeof *decks);
    assert_non_null(decks);
    uint64_t seed = 0x5eed0201ull;
    sb_result res;
    for (int forward = 0; forward <= 1; forward++) {
        const sb_stat_type *t = forward ? &sb_stat_fy_code_forward
                                        : &sb_stat_fy_code;
        biased_decks(&seed, N, D, 0, forward, decks);
        run_stat(t, N, decks, D, &res);
        assert_true(res.applicable);
        assert_true(res.p_value > 1e-6);
        assert_int_equal(res.subtests, 27);
        assert_true(strstr(res.detectable_desc, "rand() % m") != NULL);
        sb_result_clear(&res);

        biased_decks(&seed, N, D, 8, forward, decks);
        run_stat(t, N, decks, D, &res);
        assert_true(res.p_value < 1e-6);
        assert_true(res.df == 1.0);
        assert_non_null(strstr(res.effect_desc, "below 2^8 mod m"));
        sb_result_clear(&res);
    }
    free(decks);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_code_bijection),
        cmocka_unit_test(test_every_deck_once),
        cmocka_unit_test(test_low_tail_exact),
        cmocka_unit_test(test_mean_tail_conservative),
        cmocka_unit_test(test_against_own),
        cmocka_unit_test(test_two_cards),
        cmocka_unit_test(test_seeded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
