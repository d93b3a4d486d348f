/*
 * descents.c - 'descents': how often a card is followed by a lower one.
 *
 * What it sees: the number of positions j with deck[j] > deck[j+1], a
 * histogram over 0..n-1.  A deck that is still close to sorted (cards
 * moved only a little from where they started) has few descents; a deck
 * close to reversed has many.  The random-comparator sorts leave decks
 * close to sorted: 'sort-random-comparator' with sort=insertion moves each
 * card past a geometric number of its neighbours (each comparison a fair
 * coin), so most adjacent pairs stay in order, and this test sees it at
 * once.  It also sees too few riffles.  k GSR riffles are one a-shuffle,
 * a = 2^k (Bayer & Diaconis 1992): every position j of the new deck gets
 * an independent uniform digit D_j in 0..a-1, and packet i of consecutive
 * cards fills the positions of digit i in order, so deck[j] > deck[j+1]
 * exactly when D_j > D_{j+1}.  The descents are then those of a string of
 * uniform digits, with mean (n-1)(a-1)/(2a): 23.9 after 4 riffles of 52
 * cards and 25.30 after 7, against 25.5 (tests/test_order_stats.c checks
 * the whole law).  With 10^5 decks, 7 riffles give X^2 near 940 on 17 df.
 *
 * It is not the same statistic as 'rising': rising sequences are 1 +
 * the descents of the inverse permutation (where the cards are, rather
 * than which card is where).  The two have the same null law, since
 * pi -> pi^-1 is a bijection, but a shuffle can bias one and not the
 * other: the GSR riffle's law depends on the inverse's descents alone.
 *
 * The null, exactly: P(d) = A(n, d) / n!, the Eulerian numbers (OEIS
 * A008292; Graham, Knuth and Patashnik, "Concrete Mathematics", 6.2),
 * computed by sb_null_eulerian.  The count is about normal with mean
 * (n-1)/2 and variance (n+1)/12, so both tails are pooled from the low end
 * until each group expects at least 5 (stats/gof.c), chi-square with
 * groups - 1 df; the effect is the estimated chi-square distance per deck,
 * max(0, (X^2 - df) / N).
 */
#include <stdio.h>
#include "stats/histogram.h"
#include "stats/nulls.h"
#include "stats/registry.h"

/* An sb_hist over d = 0..n-1. */
static int descents_alloc(void **acc, const sb_shape *shape)
{
    return sb_hist_alloc(acc, shape, sb_stat_descents.name, SB_DECK_MAX,
                         shape->n, 0);
}

static void descents_add(void *acc, const sb_card *samples, size_t count)
{
    sb_hist *a = acc;
    const size_t n = a->n;
    for (size_t i = 0; i < count; i++, samples += n) {
        size_t d = 0;
        for (size_t j = 0; j + 1 < n; j++)
            d += samples[j] > samples[j + 1];
        a->counts[d]++;
    }
}

static int descents_finalize(const void *acc, uint64_t samples,
                             double fail_alpha, sb_result *res)
{
    const sb_hist *a = acc;
    char null_desc[96];
    snprintf(null_desc, sizeof null_desc,
             "P(d) = A(%zu,d) / %zu!, Eulerian numbers", a->n, a->n);
    const sb_hist_law law = {
        .null = sb_null_eulerian, .one = "descent", .many = "descents",
        .desc = null_desc,
        .too_small = "'descents' needs n >= 2: a deck of 1 has no descent",
    };
    return sb_hist_result(a, &law, samples, fail_alpha, res);
}

static size_t descents_memory(const sb_shape *shape, size_t *finalize)
{
    return sb_hist_memory(shape->n, 0, finalize);
}

const sb_stat_type sb_stat_descents = {
    .name = "descents",
    .sees = "how many cards are followed by a lower card",
    .kinds = SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_PERMUTATION,
    .n_min = 2,
    .n_max = SB_DECK_MAX,
    .alloc = descents_alloc,
    .add = descents_add,
    .merge = sb_hist_merge,
    .finalize = descents_finalize,
    .free = sb_hist_free,
    .save = sb_hist_save,
    .load = sb_hist_load,
    .memory = descents_memory,
};
