/*
 * cycles.c - 'cycles': how many cycles the permutation has.
 *
 * What it sees: for each sample, the number of cycles of j -> deck[j]
 * (the same as for its inverse), counted as a histogram over 0..n.  This
 * is the test that catches Sattolo's algorithm where uniformity was meant
 * (the off-by-one 'below(i)' instead of 'below(i + 1)' in Fisher-Yates):
 * Sattolo produces only single n-cycles, which a uniform shuffle produces
 * with probability 1/n.
 *
 * The null, exactly: P(k cycles) = c(n,k) / n!, the unsigned Stirling
 * numbers of the first kind (Knuth, TAOCP vol. 1, 1.2.6; OEIS A132393),
 * computed by sb_null_cycles with the recurrence on probabilities
 *   P_n(k) = ((n-1)/n) P_{n-1}(k) + (1/n) P_{n-1}(k-1).
 * The count is about normal with mean H_n (4.54 for 52 cards), so both
 * tails expect little: they are pooled from the low end until each group
 * expects at least 5 (stats/gof.c), chi-square with groups - 1 df.
 */
#include <stdio.h>
#include <string.h>
#include "shufflebias/status.h"
#include "stats/histogram.h"
#include "stats/nulls.h"
#include "stats/registry.h"

/* An sb_hist over k = 0..n, its scratch 'seen' for add (n flags, not
   counts).  Saved words of decks of no cycle are refused: the walk from
   position 0 always starts one. */
static int cycles_alloc(void **acc, const sb_shape *shape)
{
    int st = sb_hist_alloc(acc, shape, sb_stat_cycles.name, SB_DECK_MAX,
                           shape->n + 1, shape->n);
    if (st == SB_OK)
        ((sb_hist *)*acc)->impossible = 0;
    return st;
}

/* Walk each cycle once from its first unseen element.  Every walk stops
   on a seen element, so even a sample with repeated values cannot loop or
   count more than n cycles.  Precondition: every value < n. */
/* Decks of at most 64 cards.  The positions not yet on a cycle are the
   bits of one word, so a cycle starts at the lowest bit left and nothing
   is cleared between decks.  Following a cycle is a chain of dependent
   loads, so LANES decks are followed side by side: each step takes one
   position off every deck (n steps in all), and the chains overlap in
   the processor instead of waiting on one another. */
#define LANES 4

static void cycles_add_small(sb_hist *a, const sb_card *samples,
                             size_t count)
{
    const size_t n = a->n;
    const uint64_t all = n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
    size_t i = 0;
    for (; i + LANES <= count; i += LANES) {
        const sb_card *s[LANES];
        uint64_t left[LANES];
        unsigned c[LANES], start[LANES];
        size_t cycles[LANES];
        for (int k = 0; k < LANES; k++) {
            s[k] = samples + (i + (size_t)k) * n;
            left[k] = all;
            c[k] = start[k] = 0;
            cycles[k] = 0;
        }
        for (size_t step = 0; step < n; step++)
            for (int k = 0; k < LANES; k++) {
                left[k] &= ~((uint64_t)1 << c[k]);
                c[k] = s[k][c[k]];
                if (c[k] == start[k]) {       /* a cycle closed */
                    cycles[k]++;
                    if (left[k])
                        c[k] = start[k] = (unsigned)__builtin_ctzll(left[k]);
                }
            }
        for (int k = 0; k < LANES; k++)
            a->counts[cycles[k]]++;
    }
    for (samples += i * n; i < count; i++, samples += n) {
        uint64_t left = all;
        size_t cycles = 0;
        while (left) {
            const unsigned start = (unsigned)__builtin_ctzll(left);
            unsigned c = start;
            do {
                left &= ~((uint64_t)1 << c);
                c = samples[c];
            } while (c != start);
            cycles++;
        }
        a->counts[cycles]++;
    }
}

static void cycles_add(void *acc, const sb_card *samples, size_t count)
{
    sb_hist *a = acc;
    const size_t n = a->n;
    if (n <= 64) {
        cycles_add_small(a, samples, count);
        return;
    }
    unsigned char *seen = a->scratch;
    for (size_t i = 0; i < count; i++, samples += n) {
        memset(seen, 0, n);
        size_t cycles = 0;
        for (size_t j = 0; j < n; j++) {
            if (seen[j])
                continue;
            cycles++;
            for (size_t c = j; !seen[c]; c = samples[c])
                seen[c] = 1;
        }
        a->counts[cycles]++;
    }
}

static int cycles_finalize(const void *acc, uint64_t samples,
                           double fail_alpha, sb_result *res)
{
    const sb_hist *a = acc;
    char null_desc[96];
    snprintf(null_desc, sizeof null_desc,
             "P(k) = c(%zu,k) / %zu!, Stirling numbers of the first kind",
             a->n, a->n);
    /* The support is 1..n: a permutation has at least one cycle. */
    const sb_hist_law law = {
        .null = sb_null_cycles, .skip = 1,
        .one = "cycle", .many = "cycles",
        .desc = null_desc,
        .too_small = "'cycles' needs n >= 2: a deck of 1 is always 1 cycle",
    };
    return sb_hist_result(a, &law, samples, fail_alpha, res);
}

static size_t cycles_memory(const sb_shape *shape, size_t *finalize)
{
    return sb_hist_memory(shape->n + 1, shape->n, finalize);
}

const sb_stat_type sb_stat_cycles = {
    .name = "cycles",
    .sees = "how many cycles each permutation has",
    .kinds = SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_PERMUTATION,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .alloc = cycles_alloc,
    .add = cycles_add,
    .merge = sb_hist_merge,
    .finalize = cycles_finalize,
    .free = sb_hist_free,
    .save = sb_hist_save,
    .load = sb_hist_load,
    .memory = cycles_memory,
};
