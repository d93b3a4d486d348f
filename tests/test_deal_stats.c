/*
 * test_deal_stats.c - the statistics of whole deals: 'hand-patterns',
 * 'suit-lengths', 'hcp' and 'same-hand-pairs', and the nulls of one hand
 * they stand on (stats/hands.c).
 *
 * Every null is checked twice: against a published bridge table (source
 * in the comment) and against brute force over every hand of smaller
 * decks, counted here with no code from stats/.  The correction of
 * 'same-hand-pairs' is checked against the exact covariance of every deal
 * of small decks, and by simulation.  Statistical assertions use fixed
 * seeds and state their false-alarm rate over random seeds.
 */
#include "tests/sb_test.h"
#include "tests/sb_sample.h"

#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "base/rng.h"
#include "engine/runner.h"
#include "stats/gof.h"
#include "stats/hands.h"
#include "stats/registry.h"

/* ---- what the tests share --------------------------------------------- */

#define DECK_MAX 64

/* A fair deal of n cards into H hands, written as the hand of each card:
   a Fisher-Yates shuffle, then position p to hand p mod H (every split
   into hands of n/H is then equally likely). */
static void fair_deal(uint64_t *seed, size_t n, size_t H, sb_card *out)
{
    sb_card deck[DECK_MAX];
    assert_true(n <= DECK_MAX);
    xs_deck(seed, deck, n);
    for (size_t p = 0; p < n; p++)
        out[deck[p]] = (sb_card)(p % H);
}

/* C(n, k) exactly, for the small arguments used here (every partial
   product r (n-k+i) stays below 2^63). */
static uint64_t choose(unsigned n, unsigned k)
{
    if (k > n)
        return 0;
    uint64_t r = 1;
    for (unsigned i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

/* The points of a card by the bridge rule, written here without
   stats/cards.h: rank c mod 13, jack (9) 1 ... ace (12) 4. */
static unsigned points_of(size_t c)
{
    const unsigned r = (unsigned)(c % 13);
    return r >= 9 ? r - 8 : 0;
}

/* A published value rounded to its last printed digit: the tolerance is
   half a unit of that digit ("0.2155" -> 5e-5). */
static double printed_tolerance(const char *s)
{
    const char *dot = strchr(s, '.');
    double tol = 0.5;
    if (dot != NULL)
        for (const char *d = dot + 1; *d >= '0' && *d <= '9'; d++)
            tol /= 10.0;
    return tol;
}

/* "4-4-3-2" into lengths, longest first; returns how many. */
static size_t parse_pattern(const char *s, uint8_t *len)
{
    size_t k = 0;
    char *end;
    for (;;) {
        len[k++] = (uint8_t)strtoul(s, &end, 10);
        if (*end != '-')
            return k;
        s = end + 1;
    }
}

static sb_shape deal_shape(size_t n, unsigned H)
{
    sb_shape s = { SB_KIND_DEAL, n, n, H };
    return s;
}

/* Accumulate 'count' samples with 't' and finalize at fail_alpha 1e-6. */
static void run_shaped(const sb_stat_type *t, const sb_shape *shape,
                       const sb_card *samples, size_t count, sb_result *res)
{
    void *acc;
    assert_int_equal(t->alloc(&acc, shape), SB_OK);
    t->add(acc, samples, count);
    assert_int_equal(t->finalize(acc, count, 1e-6, res), SB_OK);
    t->free(acc);
}

/* ---- hand patterns: published and numbered ----------------------------- */

/* Wikipedia, "Contract bridge probabilities", table "Hand pattern
   probabilities": all 39 patterns of a 13-card hand from 52, each
   probability as printed (rounded to its last digit).  13-0-0-0 is
   printed as 0.000000000 (it is 4 / C(52,13) = 6.3e-12). */
static const struct {
    const char *pattern;
    const char *p;
} wiki_patterns[39] = {
    { "4-4-3-2", "0.2155" },     { "5-3-3-2", "0.1552" },
    { "5-4-3-1", "0.1293" },     { "5-4-2-2", "0.1058" },
    { "4-3-3-3", "0.1054" },     { "6-3-2-2", "0.0564" },
    { "6-4-2-1", "0.0470" },     { "6-3-3-1", "0.0345" },
    { "5-5-2-1", "0.0317" },     { "4-4-4-1", "0.0299" },
    { "7-3-2-1", "0.0188" },     { "6-4-3-0", "0.0133" },
    { "5-4-4-0", "0.0124" },     { "5-5-3-0", "0.0090" },
    { "6-5-1-1", "0.0071" },     { "6-5-2-0", "0.0065" },
    { "7-2-2-2", "0.0051" },     { "7-4-1-1", "0.0039" },
    { "7-4-2-0", "0.0036" },     { "7-3-3-0", "0.0027" },
    { "8-2-2-1", "0.0019" },     { "8-3-1-1", "0.0012" },
    { "7-5-1-0", "0.0011" },     { "8-3-2-0", "0.0011" },
    { "6-6-1-0", "0.00072" },    { "8-4-1-0", "0.00045" },
    { "9-2-1-1", "0.00018" },    { "9-3-1-0", "0.00010" },
    { "9-2-2-0", "0.000082" },   { "7-6-0-0", "0.000056" },
    { "8-5-0-0", "0.000031" },   { "10-2-1-0", "0.000011" },
    { "9-4-0-0", "0.000010" },   { "10-1-1-1", "0.000004" },
    { "10-3-0-0", "0.0000015" }, { "11-1-1-0", "0.0000002" },
    { "11-2-0-0", "0.0000001" }, { "12-1-0-0", "0.000000003" },
    { "13-0-0-0", "0.000000000" },
};

/* The 39 patterns against the table; three of them to the six digits
   the same article prints as percentages (4-4-3-2 21.5512%, 5-3-3-2
   15.5168%, 4-3-3-3 10.5361%); and 4-3-3-3 exactly, by hand: the long
   suit is one of 4, holding C(13,4) of its cards, and C(13,3) in each
   other suit, 4 x 715 x 286^3 = 66,905,856,160 hands of C(52,13) =
   635,013,559,600. */
static void test_patterns_published(void **state)
{
    (void)state;
    sb_patterns p;
    assert_int_equal(sb_patterns_init(&p, 4, 13, 1000), SB_OK);
    assert_int_equal(p.count, 39);
    double prob[39];
    assert_int_equal(sb_patterns_null(&p, prob), SB_OK);
    int seen[39] = { 0 };
    double total = 0.0;
    for (size_t i = 0; i < 39; i++) {
        uint8_t len[4];
        assert_int_equal(parse_pattern(wiki_patterns[i].pattern, len), 4);
        const size_t k = sb_patterns_rank(&p, len);
        assert_true(k < 39);
        assert_false(seen[k]);
        seen[k] = 1;
        const double want = strtod(wiki_patterns[i].p, NULL);
        assert_true(fabs(prob[k] - want)
                    <= printed_tolerance(wiki_patterns[i].p));
        total += prob[k];
    }
    assert_close(total, 1.0, 1e-14);
    const struct { const char *pattern; double pct; } six[] = {
        { "4-4-3-2", 21.5512 }, { "5-3-3-2", 15.5168 },
        { "4-3-3-3", 10.5361 },
    };
    for (size_t i = 0; i < 3; i++) {
        uint8_t len[4];
        parse_pattern(six[i].pattern, len);
        assert_true(fabs(100.0 * prob[sb_patterns_rank(&p, len)]
                         - six[i].pct) <= 5e-5);
    }
    const uint8_t flat[4] = { 4, 3, 3, 3 };
    assert_close(prob[sb_patterns_rank(&p, flat)],
                 66905856160.0 / 635013559600.0, 1e-13);
    sb_patterns_free(&p);
}

/* The numbering: most balanced first, in lexicographic order of the
   sorted lengths, for a bridge hand 4-3-3-3, 4-4-3-2, 4-4-4-1, 5-3-3-2,
   ... 13-0-0-0. */
static void test_patterns_order(void **state)
{
    (void)state;
    sb_patterns p;
    assert_int_equal(sb_patterns_init(&p, 4, 13, 1000), SB_OK);
    const char *first[] = { "4-3-3-3", "4-4-3-2", "4-4-4-1", "5-3-3-2" };
    for (size_t k = 0; k < 4; k++) {
        unsigned len[4];
        char name[32];
        assert_int_equal(sb_patterns_lengths(&p, k, len), SB_OK);
        sb_patterns_name(len, 4, name, sizeof name);
        assert_string_equal(name, first[k]);
    }
    unsigned len[4];
    char name[32];
    assert_int_equal(sb_patterns_lengths(&p, 38, len), SB_OK);
    sb_patterns_name(len, 4, name, sizeof name);
    assert_string_equal(name, "13-0-0-0");
    assert_int_equal(sb_patterns_lengths(&p, 39, len), SB_EINVAL);
    /* Too many patterns to count is said, not attempted. */
    sb_patterns big;
    assert_int_equal(sb_patterns_init(&big, 40, 260, 1000), SB_ERANGE);
    assert_true(big.count > 1000);
    assert_null(big.before);
    sb_patterns_free(&p);
}

/* Partitions of r into at most 'parts' parts of at most m, counted here by
   the plain recursion on the largest part. */
static size_t count_partitions(size_t r, size_t parts, size_t m)
{
    if (r == 0)
        return 1;
    if (parts == 0)
        return 0;
    size_t total = 0;
    for (size_t v = 1; v <= m && v <= r; v++)
        total += count_partitions(r - v, parts - 1, v);
    return total;
}

/* For every number of suits S = 1..6 and hand size s = 1..min(13 S, 24):
   as many patterns as partitions of s into at most S parts of at most 13
   (counted independently), each pattern's lengths valid (non-increasing,
   at most 13, summing to s), in strictly increasing lexicographic order,
   and numbered back to itself. */
static void test_patterns_numbering(void **state)
{
    (void)state;
    for (size_t S = 1; S <= 6; S++)
        for (size_t s = 1; s <= 13 * S && s <= 24; s++) {
            sb_patterns p;
            assert_int_equal(sb_patterns_init(&p, S, s, 100000), SB_OK);
            assert_int_equal(p.count, count_partitions(s, S, 13));
            unsigned prev[6] = { 0 }, len[6];
            for (size_t k = 0; k < p.count; k++) {
                assert_int_equal(sb_patterns_lengths(&p, k, len), SB_OK);
                uint8_t l8[6];
                size_t sum = 0;
                for (size_t i = 0; i < S; i++) {
                    assert_true(len[i] <= 13);
                    assert_true(i == 0 || len[i] <= len[i - 1]);
                    sum += len[i];
                    l8[i] = (uint8_t)len[i];
                }
                assert_int_equal(sum, s);
                assert_int_equal(sb_patterns_rank(&p, l8), k);
                if (k > 0) {
                    size_t i = 0;
                    while (i < S && len[i] == prev[i])
                        i++;
                    assert_true(i < S && len[i] > prev[i]);
                }
                memcpy(prev, len, sizeof prev);
            }
            sb_patterns_free(&p);
        }
}

/* ---- every hand of small decks ----------------------------------------- */

/* Every s-subset of 0..n-1 (lexicographic combinations), tallied by its
   points, the length of suit 0 and the sorted suit lengths (as a base-14
   key), all computed here from card numbers alone (suit c / 13). */
typedef struct brute {
    size_t n, s, suits;      /* suits: n / 13 whole suits (0: not used) */
    uint64_t total;          /* subsets seen */
    uint64_t points[64];     /* by points */
    uint64_t len0[14];       /* by the length of suit 0 */
    uint64_t *pattern;       /* by key sum_i len_i 14^i, len sorted down */
    size_t keys;
} brute;

static size_t pattern_key(const unsigned *len, size_t S)
{
    size_t key = 0;
    for (size_t i = S; i-- > 0;)
        key = key * 14 + len[i];
    return key;
}

static void brute_force(brute *b, size_t n, size_t s)
{
    memset(b, 0, sizeof *b);
    b->n = n;
    b->s = s;
    b->suits = n % 13 == 0 ? n / 13 : 0;
    b->keys = 1;
    for (size_t i = 0; i < b->suits; i++)
        b->keys *= 14;
    b->pattern = calloc(b->keys, sizeof *b->pattern);
    assert_non_null(b->pattern);
    size_t idx[16];
    assert_true(s >= 1 && s <= 16 && n <= DECK_MAX + 1);
    for (size_t i = 0; i < s; i++)
        idx[i] = i;
    for (;;) {
        unsigned pts = 0, len[8] = { 0 };
        for (size_t i = 0; i < s; i++) {
            pts += points_of(idx[i]);
            len[idx[i] / 13]++;
        }
        b->total++;
        b->points[pts]++;
        b->len0[len[0]]++;
        if (b->suits > 0) {
            /* sort down (a few values) */
            for (size_t i = 1; i < b->suits; i++)
                for (size_t j = i; j > 0 && len[j - 1] < len[j]; j--) {
                    const unsigned t = len[j];
                    len[j] = len[j - 1];
                    len[j - 1] = t;
                }
            b->pattern[pattern_key(len, b->suits)]++;
        }
        /* next combination */
        size_t i = s;
        while (i > 0 && idx[i - 1] == n - s + i - 1)
            i--;
        if (i == 0)
            break;
        idx[i - 1]++;
        for (size_t j = i; j < s; j++)
            idx[j] = idx[j - 1] + 1;
    }
}

/* The nulls of stats/hands.c against every hand of: 13 of 26 (two suits,
   10,400,600 hands), 3 of 39, 4 of 52, 5 of 65 (five suits) and 6 of 24
   (a second suit cut short after its queen: hcp only).  Each probability
   equals the brute-force count over C(n,s) to 1e-12, and the largest
   number of points seen is sb_hands_hcp_max. */
static void test_nulls_brute_force(void **state)
{
    (void)state;
    const size_t cases[][2] = { { 26, 13 }, { 39, 3 }, { 52, 4 },
                                { 65, 5 }, { 24, 6 } };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const size_t n = cases[c][0], s = cases[c][1];
        brute b;
        brute_force(&b, n, s);
        assert_int_equal(b.total, choose((unsigned)n, (unsigned)s));
        const double T = (double)b.total;

        const size_t vmax = sb_hands_hcp_max(n, s);
        assert_true(vmax < 64);
        double hcp[64];
        assert_int_equal(sb_hands_null_hcp(n, s, hcp), SB_OK);
        for (size_t v = 0; v < 64; v++) {
            if (v > vmax) {
                assert_int_equal(b.points[v], 0);
                continue;
            }
            assert_true(fabs(hcp[v] - (double)b.points[v] / T)
                        <= 1e-12 * hcp[v] + 1e-300);
        }
        assert_true(b.points[vmax] > 0);

        if (b.suits == 0) {
            free(b.pattern);
            continue;
        }
        double hyp[14];
        const size_t top = s < 13 ? s : 13;
        assert_int_equal(sb_hands_null_suit_length(n, 13, s, hyp), SB_OK);
        for (size_t k = 0; k <= top; k++)
            assert_close(hyp[k], (double)b.len0[k] / T, 1e-12);

        sb_patterns p;
        assert_int_equal(sb_patterns_init(&p, b.suits, s, 100000), SB_OK);
        double *prob = malloc(p.count * sizeof *prob);
        assert_non_null(prob);
        assert_int_equal(sb_patterns_null(&p, prob), SB_OK);
        size_t nonzero = 0;
        for (size_t key = 0; key < b.keys; key++)
            nonzero += b.pattern[key] > 0;
        assert_int_equal(nonzero, p.count);
        for (size_t k = 0; k < p.count; k++) {
            unsigned len[8];
            sb_patterns_lengths(&p, k, len);
            assert_close(prob[k],
                         (double)b.pattern[pattern_key(len, b.suits)] / T,
                         1e-12);
        }
        free(prob);
        sb_patterns_free(&p);
        free(b.pattern);
    }
}

/* ---- published bridge tables ------------------------------------------ */

/* The length of a suit in a bridge hand, Hypergeometric(52, 13, 13):
   bridgehands.com, "Probability: Number of Cards" (percent, as printed):
   0 1.279, 1 8.006, 2 20.587, 3 28.633, 4 23.861, 5 12.469, 6 4.156,
   7 0.882, 8 0.117, 9 0.009, 10 0.0004, 11 0.000009. */
static void test_suit_length_published(void **state)
{
    (void)state;
    const char *pct[12] = { "1.279", "8.006", "20.587", "28.633", "23.861",
                            "12.469", "4.156", "0.882", "0.117", "0.009",
                            "0.0004", "0.000009" };
    double p[14];
    assert_int_equal(sb_hands_null_suit_length(52, 13, 13, p), SB_OK);
    double total = 0.0;
    for (size_t k = 0; k < 14; k++)
        total += p[k];
    assert_close(total, 1.0, 1e-14);
    for (size_t k = 0; k < 12; k++)
        assert_true(fabs(100.0 * p[k] - strtod(pct[k], NULL))
                    <= printed_tolerance(pct[k]));
    /* 13 cards of one suit: 1 hand of C(52,13). */
    assert_close(p[13], 1.0 / 635013559600.0, 1e-12);
}

/* High-card points of a bridge hand.  The exact counts are computed here
   independently of the chain in stats/hands.c: a aces, k kings, q queens,
   j jacks and 13 - (a+k+q+j) of the 36 spot cards in
   C(4,a) C(4,k) C(4,q) C(4,j) C(36, 13-a-k-q-j) hands, for 4a+3k+2q+j
   points.  Then, exactly, in integers:
     - the counts add up to C(52,13);
     - the mean is 10 (40 points in 4 hands): sum v count(v) = 10 C(52,13);
     - the variance is 290/17 (the variance of a sum of 13 draws without
       replacement from the 52 card values, 13 sigma^2 (52-13)/(52-1),
       sigma^2 = 120/52 - (40/52)^2 = 4640/2704, which is 290/17):
       17 sum (v-10)^2 count(v) = 290 C(52,13);
     - 0 points: C(36,13) hands, 0.3639% (Wikipedia, "Contract bridge
       probabilities", table "Probability of HCP distribution": 0.0036).
   The chain's probabilities match the counts to 1e-13, and the whole
   published cumulative table (4 decimals, 0 to 37 points). */
static void test_hcp_published(void **state)
{
    (void)state;
    uint64_t count[38] = { 0 };
    for (unsigned a = 0; a <= 4; a++)
        for (unsigned k = 0; k <= 4; k++)
            for (unsigned q = 0; q <= 4; q++)
                for (unsigned j = 0; j <= 4; j++) {
                    const unsigned u = a + k + q + j;
                    if (u > 13)
                        continue;
                    count[4 * a + 3 * k + 2 * q + j] +=
                        choose(4, a) * choose(4, k) * choose(4, q)
                        * choose(4, j) * choose(36, 13 - u);
                }
    const uint64_t total = choose(52, 13);
    uint64_t sum = 0, first = 0, second = 0;
    for (uint64_t v = 0; v < 38; v++) {
        sum += count[v];
        first += v * count[v];
        second += (v - 10) * (v - 10) * count[v] * (v >= 10)
                  + (10 - v) * (10 - v) * count[v] * (v < 10);
    }
    assert_true(sum == total);
    assert_true(first == 10 * total);
    assert_true(17 * second == 290 * total);
    assert_true(count[0] == choose(36, 13));

    assert_int_equal(sb_hands_hcp_max(52, 13), 37);
    double p[38];
    assert_int_equal(sb_hands_null_hcp(52, 13, p), SB_OK);
    double mean = 0.0, var = 0.0;
    for (size_t v = 0; v < 38; v++) {
        assert_close(p[v], (double)count[v] / (double)total, 1e-13);
        mean += (double)v * p[v];
    }
    for (size_t v = 0; v < 38; v++)
        var += ((double)v - mean) * ((double)v - mean) * p[v];
    assert_close(mean, 10.0, 1e-13);
    assert_close(var, 290.0 / 17.0, 1e-12);
    assert_true(fabs(100.0 * p[0] - 0.3639) <= 5e-5);

    const char *cumulative[38] = {
        "0.0036", "0.0115", "0.0251", "0.0497", "0.0882", "0.1400",
        "0.2056", "0.2858", "0.3748", "0.4683", "0.5624", "0.6518",
        "0.7321", "0.8012", "0.8582", "0.9024", "0.9355", "0.9591",
        "0.9752", "0.9855", "0.9920", "0.9958", "0.9979", "0.9990",
        "0.9995", "0.9998", "0.9999", "1.0000", "1.0000", "1.0000",
        "1.0000", "1.0000", "1.0000", "1.0000", "1.0000", "1.0000",
        "1.0000", "1.0000",
    };
    double c = 0.0;
    for (size_t v = 0; v < 38; v++) {
        c += p[v];
        assert_true(fabs(c - strtod(cumulative[v], NULL))
                    <= printed_tolerance(cumulative[v]));
    }
}

/* ---- same-hand-pairs: the covariance of every deal --------------------- */

/* Every deal of n cards into H hands of s (as the hand of each card),
   passed to 'f'. */
static void every_deal(size_t n, size_t H, size_t c, size_t *fill,
                       sb_card *deal, void (*f)(const sb_card *, void *),
                       void *ctx)
{
    if (c == n) {
        f(deal, ctx);
        return;
    }
    for (size_t h = 0; h < H; h++)
        if (fill[h] < n / H) {
            fill[h]++;
            deal[c] = (sb_card)h;
            every_deal(n, H, c + 1, fill, deal, f, ctx);
            fill[h]--;
        }
}

/* The second moments of the pair indicators over every deal:
   m[i] = deals with pair i together, mm[i][j] = deals with both. */
typedef struct moments {
    size_t n, pairs;
    int64_t deals;
    int64_t m[66];
    int64_t mm[66][66];
    size_t a[66], b[66];   /* pair i is cards a[i] < b[i] */
} moments;

static void count_moments(const sb_card *deal, void *ctx)
{
    moments *M = ctx;
    size_t on[66], k = 0;
    for (size_t i = 0; i < M->pairs; i++)
        if (deal[M->a[i]] == deal[M->b[i]])
            on[k++] = i;
    M->deals++;
    for (size_t x = 0; x < k; x++) {
        M->m[on[x]]++;
        for (size_t y = 0; y < k; y++)
            M->mm[on[x]][on[y]]++;
    }
}

/* The derivation in stats/same_hand_pairs.c, checked exactly (integer
   arithmetic) over every deal of 8 cards into 2 and into 4 hands, 9 into
   3, 10 into 2 and 12 into 3 (34,650 deals).  With D deals and
   D^2 Cov = D mm - m m^T:
     - P(pair) = (s-1)/(n-1);
     - pairs sharing one card: P(both) = (s-1)(s-2)/((n-1)(n-2));
     - disjoint pairs: P(both) = p [(s-2)(s-3) + (H-1)s(s-1)]
       / ((n-2)(n-3));
     - the covariance sends every card's star (the n-1 pairs holding the
       card) to 0, and the vector w = e(0,1) - e(0,2) - e(1,3) + e(2,3),
       which is orthogonal to every star, to theta w with
       theta = (s-1)(n-s) / ((n-1)(n-3)) = p (n-s)/(n-3);
   and the statistic's scaling (n-3)/(n-s) is p / theta. */
static void test_pairs_covariance_exact(void **state)
{
    (void)state;
    const size_t shapes[][2] = { { 8, 2 }, { 8, 4 }, { 9, 3 }, { 10, 2 },
                                 { 12, 3 } };
    moments *M = malloc(sizeof *M);
    assert_non_null(M);
    for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
        const int64_t n = (int64_t)shapes[c][0], H = (int64_t)shapes[c][1];
        const int64_t s = n / H;
        memset(M, 0, sizeof *M);
        M->n = (size_t)n;
        for (size_t a = 0; a < (size_t)n; a++)
            for (size_t b = a + 1; b < (size_t)n; b++) {
                M->a[M->pairs] = a;
                M->b[M->pairs] = b;
                M->pairs++;
            }
        size_t fill[8] = { 0 };
        sb_card deal[16];
        every_deal((size_t)n, (size_t)H, 0, fill, deal, count_moments, M);
        const int64_t D = M->deals;
        const size_t P = M->pairs;
        for (size_t i = 0; i < P; i++) {
            assert_true(M->m[i] * (n - 1) == D * (s - 1));
            for (size_t j = 0; j < P; j++) {
                const int shared = (M->a[i] == M->a[j])
                                   + (M->a[i] == M->b[j])
                                   + (M->b[i] == M->a[j])
                                   + (M->b[i] == M->b[j]);
                if (shared == 1)
                    assert_true(M->mm[i][j] * (n - 1) * (n - 2)
                                == D * (s - 1) * (s - 2));
                else if (shared == 0)
                    assert_true(M->mm[i][j] * (n - 1) * (n - 2) * (n - 3)
                                == D * (s - 1)
                                       * ((s - 2) * (s - 3)
                                          + (H - 1) * s * (s - 1)));
            }
        }
        /* D^2 Cov applied to the stars and to w */
        int64_t w[66] = { 0 };
        size_t idx01 = 0, idx02 = 1, idx13 = 0, idx23 = 0;
        for (size_t i = 0; i < P; i++) {
            if (M->a[i] == 1 && M->b[i] == 3)
                idx13 = i;
            if (M->a[i] == 2 && M->b[i] == 3)
                idx23 = i;
        }
        w[idx01] = 1;
        w[idx02] = -1;
        w[idx13] = -1;
        w[idx23] = 1;
        for (size_t i = 0; i < P; i++) {
            int64_t cw = 0;
            for (size_t j = 0; j < P; j++)
                cw += (D * M->mm[i][j] - M->m[i] * M->m[j]) * w[j];
            /* cw = D^2 theta w[i] */
            assert_true(cw * (n - 1) * (n - 3)
                        == D * D * (s - 1) * (n - s) * w[i]);
        }
        for (size_t card = 0; card < (size_t)n; card++)
            for (size_t i = 0; i < P; i++) {
                int64_t cs = 0;
                for (size_t j = 0; j < P; j++)
                    if (M->a[j] == card || M->b[j] == card)
                        cs += D * M->mm[i][j] - M->m[i] * M->m[j];
                assert_true(cs == 0);
            }
    }
    free(M);
}

/* ---- same-hand-pairs: the correction by simulation --------------------- */

/* The plain X^2 of the pair counts of 'count' deals, counted here: every
   pair expects N (s-1)/(n-1). */
static double plain_pairs_x2(const sb_card *deals, size_t count, size_t n,
                             size_t H)
{
    static const size_t max = DECK_MAX * DECK_MAX;
    uint64_t *o = calloc(max, sizeof *o);
    assert_non_null(o);
    for (size_t d = 0; d < count; d++, deals += n)
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++)
                o[a * n + b] += deals[a] == deals[b];
    const double s = (double)(n / H);
    const double e = (double)count * (s - 1.0) / ((double)n - 1.0);
    double x2 = 0.0;
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++)
            x2 += ((double)o[a * n + b] - e) * ((double)o[a * n + b] - e)
                  / e;
    free(o);
    return x2;
}

/* 'reps' runs of 'per_run' fair deals (the test's own sampler).  The
   derivation says that X^2 (n-3)/(n-s) has mean df = n(n-3)/2 exactly and
   variance 2 df (1 - 1/N) exactly (every deal alone has the same X^2,
   n(n-s)/2, so the fourth moment adds nothing beyond the chi-square's; see
   the file's essay), and is close to chi-square(df).  The first three
   runs also go through the statistic, whose value must be the plain X^2
   counted here times (n-3)/(n-s), on df degrees of freedom.  Over the
   runs: the mean within 5 SD of df (SD sqrt(2 df / reps)); the sample
   variance within 5 SD of 2 df (1 - 1/N), its SD taken as that of a
   chi-square's sample variance, sqrt((8 df^2 + 48 df) / reps); the plain
   mean within 5 SD of n(n-s)/2.  Each check has a false alarm near
   5.7e-7 over random seeds (two-sided 5 SD, the averages of hundreds of
   runs being close to normal).  The test asserts that an uncorrected
   statistic would sit more than 8 SD away in the mean, and, where
   'check_var' is set, in the variance. */
static void pairs_moments(size_t n, size_t H, size_t per_run, size_t reps,
                          uint64_t seed, int check_var)
{
    const double nd = (double)n, s = (double)(n / H);
    const double df = nd * (nd - 3.0) / 2.0, scale = (nd - 3.0) / (nd - s);
    const double var = 2.0 * df * (1.0 - 1.0 / (double)per_run);
    const double sd_mean = sqrt(2.0 * df / (double)reps);
    const double sd_var = sqrt((8.0 * df * df + 48.0 * df) / (double)reps);
    assert_true(8.0 * sd_mean < fabs(df / scale - df));
    if (check_var)
        assert_true(8.0 * sd_var < fabs(var - var / (scale * scale)));

    sb_card *deals = malloc(sizeof *deals * n * per_run);
    assert_non_null(deals);
    const sb_shape sh = deal_shape(n, (unsigned)H);
    double sum = 0.0, sum2 = 0.0, plain_sum = 0.0;
    for (size_t r = 0; r < reps; r++) {
        for (size_t d = 0; d < per_run; d++)
            fair_deal(&seed, n, H, deals + d * n);
        const double x2 = plain_pairs_x2(deals, per_run, n, H);
        if (r < 3) {
            sb_result res;
            run_shaped(&sb_stat_same_hand_pairs, &sh, deals, per_run, &res);
            assert_true(res.applicable);
            assert_close(res.df, df, 0);
            assert_close(res.statistic, x2 * scale, 1e-12);
            sb_result_clear(&res);
        }
        sum += x2 * scale;
        sum2 += x2 * scale * x2 * scale;
        plain_sum += x2;
    }
    free(deals);
    const double R = (double)reps, mean = sum / R;
    const double sample_var = (sum2 - R * mean * mean) / (R - 1.0);
    assert_true(fabs(mean - df) < 5.0 * sd_mean);
    assert_true(fabs(plain_sum / R - nd * (nd - s) / 2.0)
                < 5.0 * sd_mean / scale);
    if (check_var)
        assert_true(fabs(sample_var - var) < 5.0 * sd_var);
}

/* 8 cards in 2 hands (df 20, theta/p = 4/5: an uncorrected mean 16 and
   variance 25.6 instead of 20 and 40; 4000 runs of 300 deals, SD 0.10
   for the mean and 1.0 for the variance); 12 cards in 3 hands (df 54,
   theta/p = 8/9; 5000 runs of 200, SD 0.15 and 2.3); and the bridge
   deal (df 1274, plain mean 1014, as DESIGN.md says, not 1325 = C(52,2)
   - 1; 300 runs of 100 deals, SD 2.9 for the mean; the variance is not
   checked: 300 runs cannot tell 2548 from its uncorrected 1614 by 8
   SD). */
static void test_pairs_correction_simulated(void **state)
{
    (void)state;
    pairs_moments(8, 2, 300, 4000, 0x5eedd001ull, 1);
    pairs_moments(12, 3, 200, 5000, 0x5eedd002ull, 1);
    pairs_moments(52, 4, 100, 300, 0x5eedd003ull, 0);
}

/* ---- tests hand by hand, combined -------------------------------------- */

/* The combination, recomputed here for fair bridge deals (the test's own
   sampler, 3000 deals): each sub-test's pooled statistic
   (sb_gof_pooled_statistic, checked exactly in test_gof_tail.c) over the
   groups that sb_gof_pool makes of the null's expectations (the nulls are
   checked above), the largest of them as the statistic, groups - 1 degrees of
   freedom, and p = min(1, T Q(T_max)) with T = 4 hands (hand-patterns,
   hcp) or 16 hands and suits (suit-lengths); every row of the table holds
   N deals. */
static void check_hands(const sb_stat_type *t, const sb_card *deals,
                        size_t N, const uint64_t *counts, size_t tests,
                        size_t k, const double *prob)
{
    const sb_shape sh = deal_shape(52, 4);
    sb_result r;
    run_shaped(t, &sh, deals, N, &r);
    assert_true(r.applicable);
    double *e = malloc(k * sizeof *e);
    size_t *last = malloc(k * sizeof *last), groups;
    assert_non_null(e);
    assert_non_null(last);
    for (size_t i = 0; i < k; i++)
        e[i] = (double)N * prob[i];
    assert_int_equal(sb_gof_pool(e, k, 5.0, last, &groups), SB_OK);
    sb_result pr;
    sb_gof_begin(&pr, "pooled");
    sb_gof_pooled pooled;
    assert_int_equal(sb_gof_pooled_begin(&pooled, &pr, prob, k, N), SB_OK);
    assert_int_equal(pooled.groups, groups);
    sb_table row;
    assert_int_equal(sb_gof_table_alloc(&row, 1, groups, 1), SB_OK);
    double worst = 0.0;
    for (size_t x = 0; x < tests; x++) {
        double rows = 0.0, wc;
        size_t wg;
        const double stat = sb_gof_pooled_statistic(&pooled, counts + x * k,
                                                    0, &row, 0, &wg, &wc);
        for (size_t g = 0; g < groups; g++) {
            rows += r.table.observed[x * groups + g];
            assert_close(r.table.observed[x * groups + g], row.observed[g],
                         0);
        }
        worst = fmax(worst, stat);
        assert_close(rows, (double)N, 0);
    }
    sb_gof_pooled_end(&pooled);
    sb_result_clear(&pr);
    free(row.observed);
    free(row.expected);
    free(row.lo);
    free(row.hi);
    assert_int_equal(r.table.rows, tests);
    assert_int_equal(r.table.cols, groups);
    assert_close(r.df, (double)(groups - 1), 0);
    assert_close(r.statistic, worst, 1e-12);
    const double q = gsl_cdf_chisq_Q(worst, (double)(groups - 1));
    assert_close(r.p_value, fmin(1.0, (double)tests * q), 1e-10);
    assert_non_null(strstr(r.note, "p = min(1, "));
    assert_true(r.detectable > 0.0);
    assert_true(r.detectable_desc[0] != '\0');
    assert_true(strncmp(r.effect_desc, "hand ", 5) == 0);
    free(e);
    free(last);
    sb_result_clear(&r);
}

static void test_hands_bonferroni(void **state)
{
    (void)state;
    enum { N = 3000 };
    uint64_t seed = 0x5eedd004ull;
    sb_card *deals = malloc(sizeof *deals * 52 * N);
    uint64_t *pts = calloc(4 * 38, sizeof *pts);
    uint64_t *len = calloc(16 * 14, sizeof *len);
    uint64_t *pat = calloc(4 * 39, sizeof *pat);
    assert_true(deals && pts && len && pat);
    sb_patterns p;
    assert_int_equal(sb_patterns_init(&p, 4, 13, 1000), SB_OK);
    for (size_t d = 0; d < N; d++) {
        sb_card *deal = deals + 52 * d;
        fair_deal(&seed, 52, 4, deal);
        unsigned hp[4] = { 0 }, l[4][4] = { { 0 } };
        for (size_t c = 0; c < 52; c++) {
            hp[deal[c]] += points_of(c);
            l[deal[c]][c / 13]++;
        }
        for (size_t h = 0; h < 4; h++) {
            pts[h * 38 + hp[h]]++;
            uint8_t sorted[4];
            for (size_t t = 0; t < 4; t++) {
                len[(t * 4 + h) * 14 + l[h][t]]++;   /* suit-major */
                sorted[t] = (uint8_t)l[h][t];
            }
            for (size_t i = 1; i < 4; i++)
                for (size_t j = i; j > 0 && sorted[j - 1] < sorted[j]; j--) {
                    const uint8_t x = sorted[j];
                    sorted[j] = sorted[j - 1];
                    sorted[j - 1] = x;
                }
            pat[h * 39 + sb_patterns_rank(&p, sorted)]++;
        }
    }
    double hcp[38], hyp[14], pp[39];
    assert_int_equal(sb_hands_null_hcp(52, 13, hcp), SB_OK);
    assert_int_equal(sb_hands_null_suit_length(52, 13, 13, hyp), SB_OK);
    assert_int_equal(sb_patterns_null(&p, pp), SB_OK);
    check_hands(&sb_stat_hcp, deals, N, pts, 4, 38, hcp);
    check_hands(&sb_stat_suit_lengths, deals, N, len, 16, 14, hyp);
    check_hands(&sb_stat_hand_patterns, deals, N, pat, 4, 39, pp);
    sb_patterns_free(&p);
    free(deals);
    free(pts);
    free(len);
    free(pat);
}

/* ---- the flawed deal, and a fair one ----------------------------------- */

/* One statistic over 'samples' deals of 52 cards into 4 hands of 13 by
   'alg' (the registry's own), on the default generator. */
static void run_deal(const sb_shuffle_type *alg, const sb_stat_type *stat,
                     uint64_t samples, uint64_t seed, sb_result *out)
{
    const sb_stat_type *const stats[1] = { stat };
    sb_run_config cfg = {
        .alg = alg,
        .args = { .n = 52 },
        .samples = samples,
        .seed = seed,
        .rng = SB_RNG_DEFAULT,
        .stats = stats,
        .n_stats = 1,
    };
    sb_shuffle_defaults(alg, &cfg.args);
    sb_report rep;
    char err[256];
    assert_int_equal(sb_run(&cfg, &rep, err, sizeof err), SB_OK);
    assert_int_equal(rep.n_results, 1);
    *out = rep.results[0];
    memset(&out->table, 0, sizeof out->table);   /* released with rep */
    sb_report_release(&rep);
}

/* deal-random-hand, 4 hands of 13.  Over 20 seeds, the smallest number of
   deals that gave p < 1e-6 for all 20: same-hand-pairs 40 (5 of 20 at
   20), suit-lengths 70, hand-patterns 100, hcp 8000 (17 of 20 at 5000).
   Here at 5 times those or more, where the p-values seen were below
   1e-30: same-hand-pairs 200 deals (its worst pair is the last two
   cards, together in about 73% of deals against 23.5%), suit-lengths and
   hand-patterns 400, hcp 40000.  card-hand passes 40000 of them (p >=
   1e-6): each card is in each hand with probability exactly 1/4, so its
   X^2 has the fair mean; it has no power here beyond a change of spread,
   and a false alarm of about 1e-6. */
static void test_random_hand_caught(void **state)
{
    (void)state;
    const struct {
        const sb_stat_type *stat;
        uint64_t samples;
        const char *effect;
    } cases[] = {
        { &sb_stat_same_hand_pairs, 200, "cards 50 and 51 in one hand: " },
        { &sb_stat_suit_lengths, 400, "hand " },
        { &sb_stat_hand_patterns, 400, "hand " },
        { &sb_stat_hcp, 40000, "hand " },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_result r;
        run_deal(&sb_shuffle_deal_random_hand, cases[i].stat,
                 cases[i].samples, 0x5eedd005ull + i, &r);
        assert_true(r.applicable);
        assert_true(r.p_value < 1e-6);
        assert_true(r.effect > r.detectable);
        assert_true(strncmp(r.effect_desc, cases[i].effect,
                            strlen(cases[i].effect)) == 0);
    }
    sb_result r;
    run_deal(&sb_shuffle_deal_random_hand, &sb_stat_card_hand, 40000,
             0x5eedd009ull, &r);
    assert_true(r.applicable);
    assert_true(r.p_value >= 1e-6);
}

/* deal-fisher-yates, 4 hands of 13, 20000 deals: each of the four passes
   (p >= 1e-6; each p-value is valid, the combined ones conservative, so
   the false alarm is at most 4e-6 over random seeds). */
static void test_fair_deal_passes(void **state)
{
    (void)state;
    const sb_stat_type *stats[] = { &sb_stat_hand_patterns,
                                    &sb_stat_suit_lengths, &sb_stat_hcp,
                                    &sb_stat_same_hand_pairs };
    for (size_t i = 0; i < 4; i++) {
        sb_result r;
        run_deal(&sb_shuffle_deal_fisher_yates, stats[i], 20000,
                 0x5eedd010ull + i, &r);
        assert_true(r.applicable);
        assert_true(r.p_value >= 1e-6);
        assert_int_equal(r.p_underflow, 0);
        assert_true(r.effect_desc[0] != '\0');
        assert_true(r.null_desc[0] != '\0');
    }
}

/* ---- permutations dealt in blocks -------------------------------------- */

/* A permutation of 52 cards read as 4 hands dealt in blocks (position j to
   hand j / 13) gives each statistic exactly the counts of the deal
   written out here, card by card; a permutation of 50 cards cannot be
   read so. */
static void test_permutation_blocks(void **state)
{
    (void)state;
    enum { N = 500 };
    uint64_t seed = 0x5eedd011ull;
    sb_card *perms = malloc(sizeof *perms * 52 * N);
    sb_card *deals = malloc(sizeof *deals * 52 * N);
    assert_true(perms && deals);
    for (size_t d = 0; d < N; d++) {
        sb_card *deck = perms + 52 * d;
        xs_deck(&seed, deck, 52);
        for (size_t j = 0; j < 52; j++)
            deals[52 * d + deck[j]] = (sb_card)(j / 13);
    }
    const sb_stat_type *stats[] = { &sb_stat_hand_patterns,
                                    &sb_stat_suit_lengths, &sb_stat_hcp,
                                    &sb_stat_same_hand_pairs };
    const sb_shape perm = { SB_KIND_PERMUTATION, 52, 52, 0 };
    const sb_shape deal = deal_shape(52, 4);
    for (size_t i = 0; i < 4; i++) {
        sb_result rp, rd;
        assert_int_equal(sb_stat_check(stats[i], &perm, NULL, 0), SB_OK);
        assert_int_equal(stats[i]->default_kinds, SB_KIND_DEAL);
        run_shaped(stats[i], &perm, perms, N, &rp);
        run_shaped(stats[i], &deal, deals, N, &rd);
        assert_true(rp.applicable);
        assert_true(rp.statistic == rd.statistic);
        assert_int_equal(rp.table.rows, rd.table.rows);
        assert_int_equal(rp.table.cols, rd.table.cols);
        assert_memory_equal(rp.table.observed, rd.table.observed,
                            rp.table.rows * rp.table.cols * sizeof(double));
        sb_result_clear(&rp);
        sb_result_clear(&rd);

        const sb_shape p50 = { SB_KIND_PERMUTATION, 50, 50, 0 };
        run_shaped(stats[i], &p50, perms, 1, &rp);
        assert_false(rp.applicable);
        assert_non_null(strstr(rp.note,
                               "reads a permutation as 4 hands dealt in "
                               "blocks: n must be a multiple of 4 (n is "
                               "50)"));
        sb_result_clear(&rp);
    }
    free(perms);
    free(deals);
}

/* ---- what cannot be tested ---------------------------------------------- */

static void test_not_applicable(void **state)
{
    (void)state;
    sb_card *zeros = calloc(1040, sizeof *zeros);
    assert_non_null(zeros);
    const struct {
        const sb_stat_type *t;
        sb_shape sh;
        const char *note;
    } cases[] = {
        { &sb_stat_hand_patterns, { SB_KIND_DEAL, 50, 50, 2 },
          "'hand-patterns' needs whole suits of 13 cards: n = 50 is not a "
          "multiple of 13" },
        { &sb_stat_suit_lengths, { SB_KIND_DEAL, 50, 50, 2 },
          "'suit-lengths' needs whole suits of 13 cards: n = 50 is not a "
          "multiple of 13" },
        { &sb_stat_hand_patterns, { SB_KIND_DEAL, 13, 13, 1 },
          "'hand-patterns' needs at least two hands (got 1)" },
        { &sb_stat_hcp, { SB_KIND_DEAL, 52, 52, 3 },
          "'hcp' needs hands of equal size: 3 hands do not divide 52 "
          "cards" },
        { &sb_stat_hcp, { SB_KIND_DEAL, 8, 8, 2 },
          "'hcp' needs n >= 10: the first jack is card 9 (n is 8)" },
        { &sb_stat_suit_lengths, { SB_KIND_DEAL, 13, 13, 13 },
          "'suit-lengths' needs at least two suits: with one, every hand "
          "is all of it" },
        { &sb_stat_same_hand_pairs, { SB_KIND_DEAL, 12, 12, 12 },
          "'same-hand-pairs' needs hands of at least two cards (hands of "
          "1 share no pair)" },
        { &sb_stat_hand_patterns, { SB_KIND_DEAL, 1040, 1040, 2 },
          "'hand-patterns' counts at most 2097152 hands x patterns: 2 "
          "hands of 520 cards over 80 suits have more" },
        { &sb_stat_same_hand_pairs, { SB_KIND_DEAL, 8, 8, 2 },
          "no samples" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        void *acc;
        sb_result r;
        const size_t count = strcmp(cases[i].note, "no samples") ? 1 : 0;
        assert_int_equal(cases[i].t->alloc(&acc, &cases[i].sh), SB_OK);
        cases[i].t->add(acc, zeros, count);
        assert_int_equal(cases[i].t->finalize(acc, count, 1e-6, &r), SB_OK);
        assert_false(r.applicable);
        assert_string_equal(r.note, cases[i].note);
        assert_int_equal(r.table.cols, 0);
        sb_result_clear(&r);
        cases[i].t->free(acc);
    }
    /* Shapes no sample can have are refused when allocating. */
    void *acc;
    const sb_shape draw = { SB_KIND_DRAW, 52, 5, 0 };
    const sb_shape big = { SB_KIND_DEAL, 4096, 4096, 4 };
    assert_int_equal(sb_stat_hcp.alloc(&acc, &draw), SB_EINVAL);
    assert_int_equal(sb_stat_same_hand_pairs.alloc(&acc, &big), SB_EINVAL);
    free(zeros);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_patterns_published),
        cmocka_unit_test(test_patterns_order),
        cmocka_unit_test(test_patterns_numbering),
        cmocka_unit_test(test_nulls_brute_force),
        cmocka_unit_test(test_suit_length_published),
        cmocka_unit_test(test_hcp_published),
        cmocka_unit_test(test_pairs_covariance_exact),
        cmocka_unit_test(test_pairs_correction_simulated),
        cmocka_unit_test(test_hands_bonferroni),
        cmocka_unit_test(test_random_hand_caught),
        cmocka_unit_test(test_fair_deal_passes),
        cmocka_unit_test(test_permutation_blocks),
        cmocka_unit_test(test_not_applicable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
