/*
 * rising.c - 'rising': how many rising sequences the deck has.
 *
 * What it sees: a rising sequence is a maximal run of consecutive card
 * values c, c+1, ..., c+m that appear in the deck in that order (not
 * necessarily next to each other).  Cut a sorted deck in two and riffle
 * the halves together: the result is two rising sequences interleaved;
 * every further riffle can at most double their number.  The count is
 *   r = 1 + #{c < n-1 : card c+1 lies above card c},
 * that is 1 + the descents of the inverse permutation (Bayer & Diaconis,
 * "Trailing the dovetail shuffle to its lair", Ann. Appl. Probab. 2(2),
 * 1992).  It is counted as a histogram over r = 1..n, from the positions
 * of the cards (one O(n) pass to invert the deck, one to compare).
 *
 * Why this statistic: it is sufficient for the Gilbert-Shannon-Reeds
 * riffle.  After k riffles of a sorted deck of n cards,
 *   P(pi) = C(2^k + n - r, n) / 2^(kn),  r = rising sequences of pi
 * (Bayer & Diaconis 1992, Theorem 1), so everything k riffles leave
 * behind is in r; a test on r loses nothing against that alternative.
 * Its chi-square distance from uniform per deck, sum over r of
 * (P_k(r) - P(r))^2 / P(r) with P_k(r) = A(n,r-1) C(2^k + n - r, n) /
 * 2^(kn), is for 52 cards 1.04 after 7 riffles, 0.199 after 8, 0.0465
 * after 9, 0.0115 after 10, 2.85e-3 after 11, 7.1e-4 after 12, 1.78e-4
 * after 13 and 4.45e-5 after 14 (a quarter per riffle).  With 10^6
 * decks the noncentrality is 178 at 13 riffles and 44.5 at 14, against
 * about 74 needed to fail with power 0.9 in the default battery of 52
 * cards (1e-6 shared by 11 tests, about 19 df): 'rising' sees 13 riffles
 * reliably and 14 only now and then.  The position matrix, with its 2601
 * df, needs a noncentrality near 500 and stops seeing riffles after 10
 * (10^6 decks, seed 1: it fails 10 riffles at p = 1.3e-13 and passes 11
 * at p = 0.008).  The flawed shuffle it exists to catch is 'riffle' at
 * any practical number of passes, and any other shuffle built from too
 * few interleavings (human-packet).
 *
 * The null, exactly: P(r) = A(n, r-1) / n!, the Eulerian numbers (OEIS
 * A008292), computed by sb_null_eulerian with a recurrence on
 * probabilities.  The count is about normal with mean (n+1)/2 and
 * variance (n+1)/12 (26.5 and 4.42 for 52 cards), so both tails expect
 * little: categories are pooled from the low end until each group expects
 * at least 5 (stats/gof.c), chi-square with groups - 1 df.  The effect is
 * the estimated chi-square distance per deck, max(0, (X^2 - df) / N), the
 * very quantity tabled above for the riffle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/nulls.h"
#include "stats/memory.h"
#include "stats/registry.h"
#include "stats/saved.h"

typedef struct rising_acc {
    size_t n;               /* deck size */
    sb_card *pos;           /* scratch for add: pos[c] = position of card c */
    uint64_t counts[];      /* counts[r-1], samples with r rising
                               sequences, n of them */
} rising_acc;

static int rising_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    if (shape->kind != SB_KIND_PERMUTATION || shape->len != shape->n
        || shape->n < 1 || shape->n > SB_DECK_MAX)
        return SB_EINVAL;
    const size_t n = shape->n;
    rising_acc *a = calloc(1, sizeof *a + n * sizeof(uint64_t)
                              + n * sizeof(sb_card));
    if (a == NULL)
        return SB_ENOMEM;
    a->n = n;
    a->pos = (sb_card *)(a->counts + n);
    *acc = a;
    return SB_OK;
}

/* Invert, then count the cards c whose successor c+1 lies above them.
   Positions fit an sb_card (n <= SB_DECK_MAX).  A sample with repeated
   values leaves stale entries in 'pos' but still counts at most n - 1.
   Precondition: every value < n. */
static void rising_add(void *acc, const sb_card *samples, size_t count)
{
    rising_acc *a = acc;
    const size_t n = a->n;
    sb_card *pos = a->pos;
    for (size_t i = 0; i < count; i++, samples += n) {
        for (size_t j = 0; j < n; j++)
            pos[samples[j]] = (sb_card)j;
        size_t d = 0;
        for (size_t c = 0; c + 1 < n; c++)
            d += pos[c + 1] < pos[c];
        a->counts[d]++;
    }
}

static int rising_merge(void *into, const void *from)
{
    rising_acc *a = into;
    const rising_acc *b = from;
    if (a->n != b->n)
        return SB_EINVAL;
    for (size_t k = 0; k < a->n; k++)
        a->counts[k] += b->counts[k];
    return SB_OK;
}

static int rising_finalize(const void *acc, uint64_t samples,
                           double fail_alpha, sb_result *res)
{
    const rising_acc *a = acc;
    const size_t n = a->n;
    if (n < 2) {
        sb_gof_begin(res, sb_stat_rising.name);
        return sb_gof_not_applicable(res,
            "'rising' needs n >= 2: a deck of 1 is always 1 rising "
            "sequence");
    }
    double *prob = malloc(n * sizeof *prob);
    if (prob == NULL) {
        sb_gof_begin(res, sb_stat_rising.name);
        return SB_ENOMEM;
    }
    sb_null_eulerian(n, prob);
    char null_desc[96];
    snprintf(null_desc, sizeof null_desc,
             "P(r) = A(%zu,r-1) / %zu!, Eulerian numbers", n, n);
    /* The support is 1..n: counts[r-1] and prob[r-1]. */
    int st = sb_gof_dist_result(res, sb_stat_rising.name, a->counts, prob,
                                n, 1, samples, fail_alpha,
                                "rising sequence", "rising sequences",
                                null_desc);
    free(prob);
    return st;
}

static void rising_free(void *acc)
{
    free(acc);
}

/* State files (stats/saved.h): the key, then counts[0..n-1] ('pos' is
   scratch).  Refused: a wrong length or key, a total beyond 64 bits. */
static uint64_t rising_key(const rising_acc *a)
{
    return sb_saved_key(sb_stat_rising.name, SB_KIND_PERMUTATION, a->n,
                        a->n, 0);
}

static int rising_save(const void *acc, uint64_t **words, size_t *count)
{
    const rising_acc *a = acc;
    return sb_saved_counts(rising_key(a), a->counts, a->n, words, count);
}

static int rising_load(void *acc, const uint64_t *words, size_t count)
{
    rising_acc *a = acc;
    const uint64_t *c = sb_saved_histogram(words, count, rising_key(a), a->n);
    if (c == NULL)
        return SB_EINVAL;
    memcpy(a->counts, c, a->n * sizeof *c);
    return SB_OK;
}

static size_t rising_memory(const sb_shape *shape, size_t *finalize)
{
    const size_t n = shape->n;
    *finalize = sb_mem_finalize(n, 0);
    return sb_mem(sizeof(rising_acc) + n * sizeof(uint64_t)
                  + n * sizeof(sb_card));
}

const sb_stat_type sb_stat_rising = {
    .name = "rising",
    .sees = "how many rising sequences each permutation has (runs of "
            "consecutive cards in order, what riffles leave)",
    .kinds = SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_PERMUTATION,
    .n_min = 2,
    .n_max = SB_DECK_MAX,
    .alloc = rising_alloc,
    .add = rising_add,
    .merge = rising_merge,
    .finalize = rising_finalize,
    .free = rising_free,
    .save = rising_save,
    .load = rising_load,
    .memory = rising_memory,
};
