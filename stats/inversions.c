/*
 * inversions.c - 'inversions': how many pairs of cards are out of order.
 *
 * What it sees: the number of pairs of positions i < j with
 * deck[i] > deck[j], that is Kendall's tau distance from the deck to the
 * order it started in (the number of swaps of neighbours that would sort
 * it again), a histogram over 0..n(n-1)/2.  A shuffle that moves cards
 * too little leaves too few inversions, one that reverses the deck too
 * often too many.  The random-comparator sorts (sort-random-comparator)
 * are the flawed shuffles it exists to catch: with sort=insertion each
 * card moves left past a geometric number of cards, about one on
 * average, and each card passed is one inversion (the card inserted
 * started below all of them), so a 52-card deck ends with about 50
 * inversions where a uniform one has 663 +- 63.
 *
 * Counting: for n <= 64 the cards already seen are bits of one 64-bit
 * mask, and the card at position j makes j - popcount(mask below it)
 * inversions with the cards above it, O(n) per deck.  Above 64 cards a
 * Fenwick tree over the card values (Fenwick, "A new data structure for
 * cumulative frequency tables", Software Pract. Exper. 24(3), 1994) does
 * the same in O(n log n), in scratch space held by the accumulator.
 *
 * The null, exactly: P(k) = I(n,k) / n!, the Mahonian numbers (OEIS
 * A008302), the coefficients of prod_{i=1}^{n} (1 + q + ... + q^(i-1))
 * (Knuth, TAOCP vol. 3, 5.1.1), computed in doubles by
 * sb_null_inversions.  Mean n(n-1)/4, variance n(n-1)(2n+5)/72 (663 and
 * 63.4^2 for 52 cards).  The support has n(n-1)/2 + 1 values (1327 for 52
 * cards); its tails are pooled from the low end until each group expects
 * at least 5 (stats/gof.c), chi-square with groups - 1 df.  Since both
 * the null and the histogram hold that many values, n is bounded by
 * INVERSIONS_N_MAX = 1024 (523,777 values, 4 MB each, and a null of
 * order n^3 / 4 operations to compute: docs/speed.md).  The effect is the estimated chi-square distance
 * per deck, max(0, (X^2 - df) / N).
 */
#include <stdio.h>
#include <string.h>
#include "stats/histogram.h"
#include "stats/nulls.h"
#include "stats/registry.h"

#define INVERSIONS_N_MAX 1024
/* Up to this many cards, the seen cards fit one 64-bit mask. */
#define INVERSIONS_MASK_MAX 64

/* The values k = 0..n(n-1)/2 of a deck of n cards: 0 for a deck too
   large, which sb_hist_alloc refuses. */
static size_t inversions_values(size_t n)
{
    return n <= INVERSIONS_N_MAX ? sb_null_inversions_max(n) + 1 : 0;
}

/* Above 64 cards, a Fenwick tree over card values 1..n (entry 0 unused)
   as scratch for add. */
static size_t inversions_scratch(size_t n)
{
    return n > INVERSIONS_MASK_MAX ? (n + 1) * sizeof(uint32_t) : 0;
}

/* An sb_hist over k = 0..n(n-1)/2. */
static int inversions_alloc(void **acc, const sb_shape *shape)
{
    return sb_hist_alloc(acc, shape, sb_stat_inversions.name,
                         INVERSIONS_N_MAX, inversions_values(shape->n),
                         inversions_scratch(shape->n));
}

/* The bits set in x, by summing adjacent fields (Warren, "Hacker's
   Delight", 2nd ed., 5-1).  Written out rather than __builtin_popcountll:
   without a popcnt instruction enabled at build time that builtin is a
   call into libgcc, slower (docs/speed.md); compilers recognise this
   form and emit popcnt when the target has it. */
static inline size_t popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (size_t)((x * 0x0101010101010101ull) >> 56);
}

/* The card at position j makes an inversion with every card above it
   that is greater: j minus the cards above it that are smaller.  With
   repeated values (not a permutation) the count stays within 0..max: the
   term for position j is at most j. */
static size_t inversions_mask(const sb_card *deck, size_t n)
{
    uint64_t seen = 0;
    size_t inv = 0;
    for (size_t j = 0; j < n; j++) {
        const uint64_t bit = (uint64_t)1 << deck[j];
        inv += j - popcount64(seen & (bit - 1));
        seen |= bit;
    }
    return inv;
}

/* The same with a Fenwick tree: tree[i] counts the seen cards with value
   + 1 in (i - lowbit(i), i]. */
static size_t inversions_tree(const sb_card *deck, size_t n, uint32_t *tree)
{
    memset(tree, 0, (n + 1) * sizeof *tree);
    size_t inv = 0;
    for (size_t j = 0; j < n; j++) {
        size_t below = 0;      /* seen cards with value < deck[j] */
        for (size_t i = deck[j]; i > 0; i &= i - 1)
            below += tree[i];
        inv += j - below;
        for (size_t i = (size_t)deck[j] + 1; i <= n; i += i & (~i + 1))
            tree[i]++;
    }
    return inv;
}

static void inversions_add(void *acc, const sb_card *samples, size_t count)
{
    sb_hist *a = acc;
    const size_t n = a->n;
    if (a->scratch == NULL)
        for (size_t i = 0; i < count; i++, samples += n)
            a->counts[inversions_mask(samples, n)]++;
    else
        for (size_t i = 0; i < count; i++, samples += n)
            a->counts[inversions_tree(samples, n, a->scratch)]++;
}

static int inversions_finalize(const void *acc, uint64_t samples,
                               double fail_alpha, sb_result *res)
{
    const sb_hist *a = acc;
    char null_desc[96];
    snprintf(null_desc, sizeof null_desc,
             "P(k) = I(%zu,k) / %zu!, Mahonian numbers", a->n, a->n);
    const sb_hist_law law = {
        .null = sb_null_inversions,
        .one = "inversion", .many = "inversions",
        .desc = null_desc,
        .too_small = "'inversions' needs n >= 2: a deck of 1 has no "
                     "inversion",
    };
    return sb_hist_result(a, &law, samples, fail_alpha, res);
}

/* A count per number of inversions, n(n-1)/2 + 1 of them. */
static size_t inversions_memory(const sb_shape *shape, size_t *finalize)
{
    return sb_hist_memory(inversions_values(shape->n),
                          inversions_scratch(shape->n), finalize);
}

const sb_stat_type sb_stat_inversions = {
    .name = "inversions",
    .sees = "how many pairs of cards are out of order (Kendall distance "
            "to the starting order)",
    .kinds = SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_PERMUTATION,
    .n_min = 2,
    .n_max = INVERSIONS_N_MAX,
    .alloc = inversions_alloc,
    .add = inversions_add,
    .merge = sb_hist_merge,
    .finalize = inversions_finalize,
    .free = sb_hist_free,
    .save = sb_hist_save,
    .load = sb_hist_load,
    .memory = inversions_memory,
};
