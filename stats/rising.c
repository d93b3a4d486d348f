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
#include "stats/histogram.h"
#include "stats/nulls.h"
#include "stats/registry.h"

/* An sb_hist over r - 1 = 0..n-1, its scratch 'pos' for add: pos[c],
   the position of card c. */
static int rising_alloc(void **acc, const sb_shape *shape)
{
    return sb_hist_alloc(acc, shape, sb_stat_rising.name, SB_DECK_MAX,
                         shape->n, shape->n * sizeof(sb_card));
}

/* Invert, then count the cards c whose successor c+1 lies above them.
   Positions fit an sb_card (n <= SB_DECK_MAX).  A sample with repeated
   values leaves stale entries in 'pos' but still counts at most n - 1.
   Precondition: every value < n. */
static void rising_add(void *acc, const sb_card *samples, size_t count)
{
    sb_hist *a = acc;
    const size_t n = a->n;
    sb_card *pos = a->scratch;
    for (size_t i = 0; i < count; i++, samples += n) {
        for (size_t j = 0; j < n; j++)
            pos[samples[j]] = (sb_card)j;
        size_t d = 0;
        for (size_t c = 0; c + 1 < n; c++)
            d += pos[c + 1] < pos[c];
        a->counts[d]++;
    }
}

static int rising_finalize(const void *acc, uint64_t samples,
                           double fail_alpha, sb_result *res)
{
    const sb_hist *a = acc;
    char null_desc[96];
    snprintf(null_desc, sizeof null_desc,
             "P(r) = A(%zu,r-1) / %zu!, Eulerian numbers", a->n, a->n);
    /* The support is 1..n: counts[r-1] and prob[r-1]. */
    const sb_hist_law law = {
        .null = sb_null_eulerian, .base = 1,
        .one = "rising sequence", .many = "rising sequences",
        .desc = null_desc,
        .too_small = "'rising' needs n >= 2: a deck of 1 is always 1 rising "
                     "sequence",
    };
    return sb_hist_result(a, &law, samples, fail_alpha, res);
}

static size_t rising_memory(const sb_shape *shape, size_t *finalize)
{
    return sb_hist_memory(shape->n, shape->n * sizeof(sb_card), finalize);
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
    .merge = sb_hist_merge,
    .finalize = rising_finalize,
    .free = sb_hist_free,
    .save = sb_hist_save,
    .load = sb_hist_load,
    .memory = rising_memory,
};
