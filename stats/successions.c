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
#include <stdlib.h>
#include <string.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/nulls.h"
#include "stats/memory.h"
#include "stats/registry.h"
#include "stats/saved.h"

typedef struct successions_acc {
    size_t n;               /* deck size */
    uint64_t counts[];      /* counts[k], samples with k successions, n */
} successions_acc;

static int successions_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    if (shape->kind != SB_KIND_PERMUTATION || shape->len != shape->n
        || shape->n < 1 || shape->n > SB_DECK_MAX)
        return SB_EINVAL;
    successions_acc *a = calloc(1, sizeof *a
                                   + shape->n * sizeof(uint64_t));
    if (a == NULL)
        return SB_ENOMEM;
    a->n = shape->n;
    *acc = a;
    return SB_OK;
}

static void successions_add(void *acc, const sb_card *samples, size_t count)
{
    successions_acc *a = acc;
    const size_t n = a->n;
    for (size_t i = 0; i < count; i++, samples += n) {
        size_t k = 0;
        for (size_t j = 0; j + 1 < n; j++)
            k += samples[j + 1] == samples[j] + 1;
        a->counts[k]++;
    }
}

static int successions_merge(void *into, const void *from)
{
    successions_acc *a = into;
    const successions_acc *b = from;
    if (a->n != b->n)
        return SB_EINVAL;
    for (size_t k = 0; k < a->n; k++)
        a->counts[k] += b->counts[k];
    return SB_OK;
}

static int successions_finalize(const void *acc, uint64_t samples,
                                double fail_alpha, sb_result *res)
{
    const successions_acc *a = acc;
    const size_t n = a->n;
    if (n < 2) {
        sb_gof_begin(res, sb_stat_successions.name);
        return sb_gof_not_applicable(res,
            "'successions' needs n >= 2: a deck of 1 has no pair of "
            "neighbours");
    }
    double *prob = malloc(n * sizeof *prob);
    if (prob == NULL) {
        sb_gof_begin(res, sb_stat_successions.name);
        return SB_ENOMEM;
    }
    sb_null_successions(n, prob);
    char null_desc[128];
    snprintf(null_desc, sizeof null_desc,
             "P(k) = C(%zu,k) a(%zu-k) / %zu!, a = OEIS A000255", n - 1,
             n - 1, n);
    int st = sb_gof_dist_result(res, sb_stat_successions.name, a->counts,
                                prob, n, 0, samples, fail_alpha,
                                "succession", "successions", null_desc);
    free(prob);
    return st;
}

static void successions_free(void *acc)
{
    free(acc);
}

/* State files (stats/saved.h): the key, then counts[0..n-1].  Refused:
   a wrong length or key, a total beyond 64 bits. */
static uint64_t successions_key(const successions_acc *a)
{
    return sb_saved_key(sb_stat_successions.name, SB_KIND_PERMUTATION, a->n,
                        a->n, 0);
}

static int successions_save(const void *acc, uint64_t **words, size_t *count)
{
    const successions_acc *a = acc;
    return sb_saved_counts(successions_key(a), a->counts, a->n, words, count);
}

static int successions_load(void *acc, const uint64_t *words, size_t count)
{
    successions_acc *a = acc;
    const uint64_t *c = sb_saved_histogram(words, count, successions_key(a),
                                           a->n);
    if (c == NULL)
        return SB_EINVAL;
    memcpy(a->counts, c, a->n * sizeof *c);
    return SB_OK;
}

static size_t successions_memory(const sb_shape *shape, size_t *finalize)
{
    *finalize = sb_mem_finalize(shape->n, 0);
    return sb_mem(sizeof(successions_acc) + shape->n * sizeof(uint64_t));
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
    .merge = successions_merge,
    .finalize = successions_finalize,
    .free = successions_free,
    .save = successions_save,
    .load = successions_load,
    .memory = successions_memory,
};
