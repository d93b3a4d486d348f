/*
 * successions.c - 'successions': how often card c is directly followed by
 * card c+1.
 *
 * What it sees: the number of positions j with deck[j+1] == deck[j] + 1,
 * a histogram over 0..n-1.  Two cards that were neighbours in the
 * starting order and are neighbours, in the same order, after shuffling
 * have stuck together: a packet that fell as one through every riffle, a
 * block that a cut moved whole.  A uniform deck of 52 has about one such
 * pair (the law tends to Poisson(1)); a person's riffle, whose thumbs let
 * go of packets of several cards, leaves many more after seven passes.
 * 'human-packet' is the flawed shuffle this test exists to catch: each of
 * its passes keeps two neighbours of the same hand together unless a
 * packet boundary falls between them (packets of mean size 2.25, so more
 * than half the time).  Over 10^5 decks of 52 after its default 7
 * passes (seed 1) it shows 2.14 successions per deck against the uniform
 * (n-1)/n = 0.98, and only 13% of decks without one against 37.5%: the
 * chi-square distance is about 2 per deck, seen with a few hundred decks.
 *
 * The null, exactly: P(k) = S(n,k) / n!, with
 *   S(n,k) = C(n-1,k) a(n-1-k),  a(m) = m a(m-1) + (m-1) a(m-2),
 *   a(0) = a(1) = 1
 * (OEIS A010027, "permutations of [n] by number of consecutive ascending
 * pairs", and A000255; David, Kendall and Barton, "Symmetric Function and
 * Allied Tables", 1966, p. 263), derived by inclusion-exclusion in
 * stats/nulls.c and computed in doubles by sb_null_successions as
 * P(k) = q(n-1-k) (n-k) / (n k!), q(m) = a(m) / (m+1)!.  The upper
 * categories expect little: they are pooled from the low end until each
 * group expects at least 5 (stats/gof.c), chi-square with groups - 1 df.
 * The effect is the estimated chi-square distance per deck,
 * max(0, (X^2 - df) / N).
 */
#include <stdio.h>
#include "stats/histogram.h"
#include "stats/nulls.h"
#include "stats/registry.h"

/* An sb_hist over k = 0..n-1. */
static int successions_alloc(void **acc, const sb_shape *shape)
{
    return sb_hist_alloc(acc, shape, sb_stat_successions.name, SB_DECK_MAX,
                         shape->n, 0);
}

static void successions_add(void *acc, const sb_card *samples, size_t count)
{
    sb_hist *a = acc;
    const size_t n = a->n;
    for (size_t i = 0; i < count; i++, samples += n) {
        size_t k = 0;
        for (size_t j = 0; j + 1 < n; j++)
            k += samples[j + 1] == samples[j] + 1;
        a->counts[k]++;
    }
}

static int successions_finalize(const void *acc, uint64_t samples,
                                double fail_alpha, sb_result *res)
{
    const sb_hist *a = acc;
    char null_desc[128];
    snprintf(null_desc, sizeof null_desc,
             "P(k) = C(%zu,k) a(%zu-k) / %zu!, a = OEIS A000255", a->n - 1,
             a->n - 1, a->n);
    const sb_hist_law law = {
        .null = sb_null_successions,
        .one = "succession", .many = "successions",
        .desc = null_desc,
        .too_small = "'successions' needs n >= 2: a deck of 1 has no pair "
                     "of neighbours",
    };
    return sb_hist_result(a, &law, samples, fail_alpha, res);
}

static size_t successions_memory(const sb_shape *shape, size_t *finalize)
{
    return sb_hist_memory(shape->n, 0, finalize);
}

const sb_stat_type sb_stat_successions = {
    .name = "successions",
    .sees = "how many cards are directly followed by the next card of the "
            "starting order (packets that stuck together)",
    .kinds = SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_PERMUTATION,
    .n_min = 2,
    .n_max = SB_DECK_MAX,
    .alloc = successions_alloc,
    .add = successions_add,
    .merge = sb_hist_merge,
    .finalize = successions_finalize,
    .free = sb_hist_free,
    .save = sb_hist_save,
    .load = sb_hist_load,
    .memory = successions_memory,
};
