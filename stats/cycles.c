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
#include <stdlib.h>
#include <string.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/nulls.h"
#include "stats/memory.h"
#include "stats/registry.h"
#include "stats/saved.h"

typedef struct cycles_acc {
    size_t n;               /* deck size */
    unsigned char *seen;    /* scratch for add: n flags, not a count */
    uint64_t counts[];      /* counts[k], samples with k cycles, n + 1 */
} cycles_acc;

static int cycles_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    if (shape->kind != SB_KIND_PERMUTATION || shape->len != shape->n
        || shape->n < 1 || shape->n > SB_DECK_MAX)
        return SB_EINVAL;
    const size_t n = shape->n;
    cycles_acc *a = calloc(1, sizeof *a + (n + 1) * sizeof(uint64_t) + n);
    if (a == NULL)
        return SB_ENOMEM;
    a->n = n;
    a->seen = (unsigned char *)(a->counts + n + 1);
    *acc = a;
    return SB_OK;
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

static void cycles_add_small(cycles_acc *a, const sb_card *samples,
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
    cycles_acc *a = acc;
    const size_t n = a->n;
    if (n <= 64) {
        cycles_add_small(a, samples, count);
        return;
    }
    unsigned char *seen = a->seen;
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

static int cycles_merge(void *into, const void *from)
{
    cycles_acc *a = into;
    const cycles_acc *b = from;
    if (a->n != b->n)
        return SB_EINVAL;
    for (size_t k = 0; k <= a->n; k++)
        a->counts[k] += b->counts[k];
    return SB_OK;
}

static int cycles_finalize(const void *acc, uint64_t samples,
                           double fail_alpha, sb_result *res)
{
    const cycles_acc *a = acc;
    const size_t n = a->n;
    if (n < 2) {
        sb_gof_begin(res, sb_stat_cycles.name);
        return sb_gof_not_applicable(res,
            "'cycles' needs n >= 2: a deck of 1 is always 1 cycle");
    }
    double *prob = malloc((n + 1) * sizeof *prob);
    if (prob == NULL) {
        sb_gof_begin(res, sb_stat_cycles.name);
        return SB_ENOMEM;
    }
    sb_null_cycles(n, prob);
    char null_desc[96];
    snprintf(null_desc, sizeof null_desc,
             "P(k) = c(%zu,k) / %zu!, Stirling numbers of the first kind",
             n, n);
    /* The support is 1..n: a permutation has at least one cycle. */
    int st = sb_gof_dist_result(res, sb_stat_cycles.name, a->counts + 1,
                                prob + 1, n, 1, samples, fail_alpha,
                                "cycle", "cycles", null_desc);
    free(prob);
    return st;
}

static void cycles_free(void *acc)
{
    free(acc);
}

/* State files (stats/saved.h): the key, then counts[0..n] ('seen' is
   scratch).  Refused besides a wrong length or key: a total beyond 64
   bits, and samples of no cycle (the walk from position 0 always starts
   one). */
static uint64_t cycles_key(const cycles_acc *a)
{
    return sb_saved_key(sb_stat_cycles.name, SB_KIND_PERMUTATION, a->n,
                        a->n, 0);
}

static int cycles_save(const void *acc, uint64_t **words, size_t *count)
{
    const cycles_acc *a = acc;
    return sb_saved_counts(cycles_key(a), a->counts, a->n + 1, words, count);
}

static int cycles_load(void *acc, const uint64_t *words, size_t count)
{
    cycles_acc *a = acc;
    const uint64_t *c = sb_saved_histogram(words, count, cycles_key(a),
                                           a->n + 1);
    if (c == NULL || c[0] != 0)
        return SB_EINVAL;
    memcpy(a->counts, c, (a->n + 1) * sizeof *c);
    return SB_OK;
}

static size_t cycles_memory(const sb_shape *shape, size_t *finalize)
{
    const size_t n = shape->n;
    *finalize = sb_mem_finalize(n + 1, 0);
    return sb_mem(sizeof(cycles_acc) + (n + 1) * sizeof(uint64_t) + n);
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
    .merge = cycles_merge,
    .finalize = cycles_finalize,
    .free = cycles_free,
    .save = cycles_save,
    .load = cycles_load,
    .memory = cycles_memory,
};
