/*
 * same_hand_pairs.c - 'same-hand-pairs': how often two cards share a hand.
 *
 * What it sees: for every pair of cards a < b, the number of deals in
 * which a and b went to the same hand: C(n,2) cells.  A fair deal puts any
 * two cards in one hand with probability p = (s-1)/(n-1) (12/51 = 23.5%
 * for bridge: once a is placed, b is one of the s-1 other cards of a's
 * hand among the n-1 places left), whichever cards they are.  A deal
 * that keeps neighbours of the sorted deck together or apart shows here,
 * and so does any deal that makes whole hands too alike, even when every
 * card reaches every hand exactly as often as it should.  It exists for
 * 'deal-random-hand' (algorithms/deal_random_hand.c): it walks the sorted
 * deck sending each card to a random open hand, so the last cards crowd
 * into the hands that fill last (the last two cards of a bridge deal
 * share a hand far more often than 23.5%), while 'card-hand' sees every
 * card in every hand with probability exactly 1/H.
 *
 * The null, exactly.  Let Y_ab be 1 when a and b share a hand in one
 * uniform deal of n cards into H hands of s.  By symmetry the covariance
 * of two indicators depends only on how many cards their pairs share:
 *     v  = Var Y_ab = p (1 - p),
 *     c1 = Cov(Y_ab, Y_ac) = P(a, b, c in one hand) - p^2
 *        = (s-1)(s-2) / ((n-1)(n-2)) - p^2,
 *     c2 = Cov(Y_ab, Y_cd) = p P(c ~ d | a ~ b) - p^2, with
 *        P(c ~ d | a ~ b) = [(s-2)(s-3) + (H-1) s (s-1)] / ((n-2)(n-3))
 *     (given a and b together, c and d are two of the other n-2 cards,
 *     spread over the s-2 places left in a's hand and the (H-1) s of the
 *     other hands: both in a's hand, or both in one of the others).
 * So the covariance of the C(n,2) indicators is v I + c1 A1 + c2 A2,
 * where A1 joins pairs sharing one card and A2 disjoint pairs: a matrix of
 * the Johnson scheme J(n,2), whose three eigenspaces are the constants
 * (dimension 1), the "card sums" (n-1) and the rest, of dimension
 * n(n-3)/2 (Delsarte, "An algebraic approach to the association schemes
 * of coding theory", Philips Res. Rep. Suppl. 10, 1973; A1 is the
 * triangular graph, eigenvalues 2(n-2), n-4, -2; A2 = J - I - A1,
 * eigenvalues C(n-2,2), -(n-3), 1).  The eigenvalues of the covariance:
 *     constants:  v + 2(n-2) c1 + C(n-2,2) c2 = 0,
 *     card sums:  v + (n-4) c1 - (n-3) c2 = 0,
 *     the rest:   theta = v - 2 c1 + c2.
 * The first two are 0 because the tallies are tied: in every deal each
 * card has exactly s-1 partners (and all the pairs together number
 * H C(s,2)).  Then theta is the trace over the dimension of the rest,
 *     theta = C(n,2) p (1-p) / (n(n-3)/2) = p (n-s) / (n-3),
 * (1 - p = (n-s)/(n-1)); the two expressions agree for every n, H, s
 * (tests/test_deal_stats.c checks c1, c2, theta and the zero eigenvalues
 * against brute force over every deal of small decks).  Over N deals the
 * cells O_ab have covariance N times that, so with E = N p the plain
 * Pearson X^2 = sum (O - E)^2 / E has mean exactly n(n-s)/2 and tends to
 * theta/p times a chi-square(n(n-3)/2):
 *     X^2 (n-3)/(n-s)  ->  chi-square(n(n-3)/2).
 * Its variance is known exactly too: X^2 = |Z_1 + ... + Z_N|^2 / N for
 * the deals' standardized vectors Z_d, and |Z_d|^2 (one deal's own X^2)
 * is the same n(n-s)/2 for every deal, so the fourth moment adds nothing
 * and the scaled value has variance 2 df (1 - 1/N), as a chi-square but
 * for the last factor (the same as TestU01's sparse multinomial X^2).
 * For a bridge deal, p = 4/17, theta/p = 39/49: the plain X^2 has mean
 * 1014 (not 1325 = C(52,2) - 1, nor 1274 = its df), and X^2 49/39 is
 * referred to chi-square(1274).  The test checks the mean and the
 * variance of the scaled value by simulation.
 *
 * It needs theta > 0 and p > 0: at least two hands (H = 1 puts every
 * pair together) of at least two cards (s = 1 puts none), so n >= 4;
 * deals of unequal hands are not applicable.  The cells are never pooled
 * (the degrees of freedom come from the ties).  With E below 5 per pair
 * the note says the approximation is rough.  The effect is the scaled
 * X^2's distance per deal beyond its df, and the detectable effect is
 * stated as the root-mean-square relative error of the pairs' rates that
 * the test would see (0.2% for bridge at 200000 deals).
 *
 * Applies to deals, and on request to a permutation read as 4 hands dealt
 * in blocks (stats/deal_view.h).  Memory: C(n,2) 64-bit counts, n capped
 * at 2048 (16 MB).  The hot path is not O(n): a deal has H C(s,2) pairs
 * in hands, 312 for bridge, each one increment.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shufflebias/status.h"
#include "stats/deal_view.h"
#include "stats/gof.h"
#include "stats/memory.h"
#include "stats/registry.h"
#include "stats/saved.h"

#define PAIRS_N_MAX 2048

typedef struct pairs_acc {
    sb_deal_view view;   /* how a sample is read as hands */
    int counting;        /* 1: the pairs are counted */
    sb_card *scratch;    /* n: the hand of each card of a permutation */
    size_t *fill;        /* H: cards placed in each hand's list so far */
    sb_card *members;    /* H x s: the cards of each hand, increasing */
    size_t *row;         /* n: row[a] + b is the cell of the pair a < b,
                            an index computed modulo SIZE_MAX + 1 (row[0]
                            is "minus one": unsigned wrap-around is
                            defined; a pointer's would not be) */
    uint64_t *counts;    /* C(n,2) cells, pair (a, b) at row[a] + b */
} pairs_acc;

static void pairs_free(void *acc)
{
    pairs_acc *a = acc;
    if (a == NULL)
        return;
    free(a->scratch);
    free(a->fill);
    free(a->members);
    free(a->row);
    free(a->counts);
    free(a);
}

static int pairs_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    pairs_acc *a = calloc(1, sizeof *a);
    if (a == NULL)
        return SB_ENOMEM;
    if (!sb_deal_view_init(&a->view, shape) || shape->n > PAIRS_N_MAX) {
        free(a);
        return SB_EINVAL;
    }
    const sb_deal_view *v = &a->view;
    if (!v->ok || v->size < 2) {
        *acc = a;              /* finalize says why nothing was counted */
        return SB_OK;
    }
    const size_t n = v->n, cells = n * (n - 1) / 2;
    a->scratch = malloc(n * sizeof *a->scratch);
    a->fill = calloc(v->hands, sizeof *a->fill);
    a->members = malloc(n * sizeof *a->members);
    a->row = malloc(n * sizeof *a->row);
    a->counts = calloc(cells, sizeof *a->counts);
    if (!a->scratch || !a->fill || !a->members || !a->row || !a->counts) {
        pairs_free(a);
        return SB_ENOMEM;
    }
    /* Row a starts after the n-1 + n-2 + ... + n-a cells of rows 0..a-1,
       and holds b = a+1..n-1: cell start(a) + b - (a + 1). */
    for (size_t r = 0; r < n; r++)
        a->row[r] = r * (n - 1) - r * (r - 1) / 2 - (r + 1);
    a->counting = 1;
    *acc = a;
    return SB_OK;
}

/* The hot path: list each hand's cards in increasing order (one pass over
   the deck), then count every pair of each list. */
static void pairs_add(void *acc, const sb_card *samples, size_t count)
{
    pairs_acc *a = acc;
    if (!a->counting)
        return;
    const size_t n = a->view.n, H = a->view.hands, s = a->view.size;
    for (size_t i = 0; i < count; i++, samples += n) {
        const sb_card *hand = sb_deal_view_hands(&a->view, samples,
                                                 a->scratch);
        memset(a->fill, 0, H * sizeof *a->fill);
        for (size_t c = 0; c < n; c++) {
            const sb_card h = hand[c];
            a->members[h * s + a->fill[h]++] = (sb_card)c;
        }
        for (const sb_card *m = a->members; m < a->members + n; m += s)
            for (size_t x = 0; x + 1 < s; x++) {
                const size_t base = a->row[m[x]];
                for (size_t y = x + 1; y < s; y++)
                    a->counts[base + m[y]]++;
            }
    }
}

static int pairs_merge(void *into, const void *from)
{
    pairs_acc *a = into;
    const pairs_acc *b = from;
    if (a->view.n != b->view.n || a->view.hands != b->view.hands
        || a->view.kind != b->view.kind || a->counting != b->counting)
        return SB_EINVAL;
    if (a->counting)
        for (size_t i = 0; i < a->view.n * (a->view.n - 1) / 2; i++)
            a->counts[i] += b->counts[i];
    return SB_OK;
}

static int pairs_finalize(const void *acc, uint64_t samples,
                          double fail_alpha, sb_result *res)
{
    const pairs_acc *a = acc;
    const char *name = sb_stat_same_hand_pairs.name;
    sb_gof_begin(res, name);
    if (sb_deal_view_refuse(&a->view, name, res))
        return SB_OK;
    if (!a->counting)
        return sb_gof_not_applicable(res,
            "'%s' needs hands of at least two cards (hands of %zu share "
            "no pair)", name, a->view.size);
    if (samples == 0)
        return sb_gof_not_applicable(res, "no samples");

    const size_t n = a->view.n, s = a->view.size;
    const double N = (double)samples, nd = (double)n, sd = (double)s;
    const double p = (sd - 1.0) / (nd - 1.0), e = N * p;
    double x2 = 0.0, worst = -1.0;
    size_t worst_a = 0, worst_b = 1;
    for (size_t x = 0; x + 1 < n; x++)
        for (size_t y = x + 1; y < n; y++) {
            const uint64_t o = a->counts[a->row[x] + y];
            if (o > samples)
                return SB_EINVAL;
            const double d = (double)o - e, c = d * d / e;
            x2 += c;
            if (c > worst) {
                worst = c;
                worst_a = x;
                worst_b = y;
            }
        }
    const double scale = (nd - 3.0) / (nd - sd);
    const double df = nd * (nd - 3.0) / 2.0;
    int st = sb_gof_chisq_result(res, x2 * scale, df, samples, fail_alpha);
    if (st != SB_OK)
        return st;

    if (n <= SB_GOF_TABLE_CELLS / n) {
        /* n x n, symmetric; the diagonal is N: a card always shares its
           own hand. */
        res->row_label = res->col_label = "card";
        st = sb_gof_table_alloc(&res->table, n, n, 0);
        if (st != SB_OK)
            return st;
        for (size_t x = 0; x < n; x++) {
            res->table.observed[x * n + x] = N;
            res->table.expected[x * n + x] = N;
            for (size_t y = x + 1; y < n; y++) {
                const double o = (double)a->counts[a->row[x] + y];
                res->table.observed[x * n + y] = o;
                res->table.observed[y * n + x] = o;
                res->table.expected[x * n + y] = e;
                res->table.expected[y * n + x] = e;
            }
        }
    }

    char pct[32], rough[80] = "", omitted[64] = "";
    sb_gof_percent(pct, sizeof pct, 100.0 * p);
    snprintf(res->null_desc, sizeof res->null_desc,
             "chi-square(n(n-3)/2 = %.0f) for x2 (n-3)/(n-s) over %.0f "
             "card pairs, each together %s%% of deals", df,
             nd * (nd - 1.0) / 2.0, pct);
    if (e < SB_GOF_MIN_EXPECTED)
        snprintf(rough, sizeof rough, "; only %.3g expected per pair: "
                 "chi-square approximation rough", e);
    if (res->table.cols == 0)
        snprintf(omitted, sizeof omitted, "; table not kept above %u "
                 "cells", SB_GOF_TABLE_CELLS);
    snprintf(res->note, sizeof res->note,
             "x2 scaled by (n-3)/(n-s): every card has s-1 partners in "
             "every deal, so the plain x2 (%.6g) has mean n(n-s)/2 = %.0f%s%s",
             x2, nd * (nd - sd) / 2.0, rough, omitted);

    if (worst > 0.0) {
        const double o = (double)a->counts[a->row[worst_a] + worst_b];
        char obs[32];
        sb_gof_percent(obs, sizeof obs, 100.0 * o / N);
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "cards %zu and %zu in one hand: %s%% of deals against %s%% "
                 "expected", worst_a, worst_b, obs, pct);
    } else {
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "every pair in one hand exactly as often as expected");
    }
    /* The detectable noncentrality per deal is for the scaled value; in
       the plain X^2 it is (n-s)/(n-3) times larger, and a relative
       deviation r of every pair's rate (root mean square) makes it
       C(n,2) r^2 p. */
    if (res->detectable > 0.0) {
        const double plain = res->detectable / scale;
        const double r = sqrt(plain / (nd * (nd - 1.0) / 2.0 * p));
        char rel[32];
        sb_gof_percent(rel, sizeof rel, 100.0 * r);
        snprintf(res->detectable_desc, sizeof res->detectable_desc,
                 "the pairs of cards in one hand %s%% more or less often "
                 "than their %s%% rate (root mean square over the pairs)",
                 rel, pct);
    }
    return SB_OK;
}

/* State files (stats/saved.h): the key, then the C(n,2) counts when they
   are counted (nothing after the key when they are not).  Besides a wrong
   length or key, refused: cards whose pair counts do not all sum to one
   total, a total that is not s - 1 partners per deal, and a pair counted
   in more deals than that makes (finalize would refuse it too). */
static uint64_t pairs_key(const pairs_acc *a)
{
    return sb_saved_key(sb_stat_same_hand_pairs.name, a->view.kind,
                        a->view.n, a->view.n, a->view.hands);
}

static size_t pairs_cells(const pairs_acc *a)
{
    return a->counting ? a->view.n * (a->view.n - 1) / 2 : 0;
}

static int pairs_save(const void *acc, uint64_t **words, size_t *count)
{
    const pairs_acc *a = acc;
    return sb_saved_counts(pairs_key(a), a->counts, pairs_cells(a), words,
                           count);
}

/* Whether the counts 'c' (laid out as a->counts) give every card the
   same number of partners, s - 1 per deal, and no pair more than the
   deals. */
static int pairs_consistent(const pairs_acc *a, const uint64_t *c)
{
    const size_t n = a->view.n, partners = a->view.size - 1;
    uint64_t first = 0;
    for (size_t x = 0; x < n; x++) {
        uint64_t sum = 0;
        for (size_t y = 0; y < n; y++) {
            if (y == x)
                continue;
            const uint64_t o = x < y ? c[a->row[x] + y] : c[a->row[y] + x];
            if (o > UINT64_MAX - sum)
                return 0;
            sum += o;
        }
        if (x > 0 && sum != first)
            return 0;
        first = sum;
    }
    if (first % partners != 0)
        return 0;
    const uint64_t deals = first / partners;
    for (size_t i = 0; i < pairs_cells(a); i++)
        if (c[i] > deals)
            return 0;
    return 1;
}

static int pairs_load(void *acc, const uint64_t *words, size_t count)
{
    pairs_acc *a = acc;
    const size_t cells = pairs_cells(a);
    const uint64_t *c = sb_saved_body(words, count, pairs_key(a), cells);
    if (c == NULL)
        return SB_EINVAL;
    if (cells == 0)
        return SB_OK;
    if (!pairs_consistent(a, c))
        return SB_EINVAL;
    memcpy(a->counts, c, cells * sizeof *c);
    return SB_OK;
}

/* A count per pair of cards, n(n-1)/2 of them. */
static size_t pairs_memory(const sb_shape *shape, size_t *finalize)
{
    sb_deal_view v;
    *finalize = sb_mem_finalize(0, 0);
    size_t bytes = sb_mem(sizeof(pairs_acc));
    if (!sb_deal_view_init(&v, shape) || !v.ok || v.size < 2)
        return bytes;
    const size_t n = v.n;
    *finalize = sb_mem_finalize(n, n * n);
    return bytes + 2 * sb_mem(n * sizeof(sb_card))
         + sb_mem(v.hands * sizeof(size_t)) + sb_mem(n * sizeof(size_t))
         + sb_mem(n * (n - 1) / 2 * sizeof(uint64_t));
}

const sb_stat_type sb_stat_same_hand_pairs = {
    .name = "same-hand-pairs",
    .sees = "how often each pair of cards is dealt to the same hand",
    .kinds = SB_KIND_DEAL | SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_DEAL,
    .n_min = 4,
    .n_max = PAIRS_N_MAX,
    .alloc = pairs_alloc,
    .add = pairs_add,
    .merge = pairs_merge,
    .finalize = pairs_finalize,
    .free = pairs_free,
    .save = pairs_save,
    .load = pairs_load,
    .memory = pairs_memory,
};
