/*
 * fixed_points.c - 'fixed-points': how many cards stay where they were.
 *
 * What it sees: for each sample, the number of positions j with
 * deck[j] == j (the card that started at j is still there), counted as a
 * histogram over 0..n.  A shuffle that leaves cards in place too often (too
 * few riffles, a swap that may pick its own position too rarely or too
 * often) shows here; Sattolo's algorithm, which never leaves a card in
 * place, shows as "0 fixed points: 100% of decks".
 *
 * The null, exactly: the rencontres distribution,
 *   P(k) = C(n,k) D(n-k) / n! = (1/k!) sum_{j=0}^{n-k} (-1)^j / j!
 * (Riordan 1958; OEIS A008290), computed by sb_null_fixed_points.  It tends
 * to Poisson(1), and its upper categories expect little: they are pooled
 * from the low end until each group expects at least 5 (stats/gof.c), and
 * chi-square has groups - 1 degrees of freedom.
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

typedef struct fixed_points_acc {
    size_t n;             /* deck size */
    uint64_t counts[];    /* counts[k], samples with k fixed points, n + 1 */
} fixed_points_acc;

static int fixed_points_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    if (shape->kind != SB_KIND_PERMUTATION || shape->len != shape->n
        || shape->n < 1 || shape->n > SB_DECK_MAX)
        return SB_EINVAL;
    fixed_points_acc *a = calloc(1, sizeof *a
                                    + (shape->n + 1) * sizeof(uint64_t));
    if (a == NULL)
        return SB_ENOMEM;
    a->n = shape->n;
    *acc = a;
    return SB_OK;
}

static void fixed_points_add(void *acc, const sb_card *samples, size_t count)
{
    fixed_points_acc *a = acc;
    const size_t n = a->n;
    for (size_t i = 0; i < count; i++, samples += n) {
        size_t fixed = 0;
        for (size_t j = 0; j < n; j++)
            fixed += samples[j] == j;
        a->counts[fixed]++;
    }
}

static int fixed_points_merge(void *into, const void *from)
{
    fixed_points_acc *a = into;
    const fixed_points_acc *b = from;
    if (a->n != b->n)
        return SB_EINVAL;
    for (size_t k = 0; k <= a->n; k++)
        a->counts[k] += b->counts[k];
    return SB_OK;
}

static int fixed_points_finalize(const void *acc, uint64_t samples,
                                 double fail_alpha, sb_result *res)
{
    const fixed_points_acc *a = acc;
    const size_t n = a->n;
    if (n < 2) {
        sb_gof_begin(res, sb_stat_fixed_points.name);
        return sb_gof_not_applicable(res,
            "'fixed-points' needs n >= 2: a deck of 1 always has 1 fixed "
            "point");
    }
    double *prob = malloc((n + 1) * sizeof *prob);
    if (prob == NULL) {
        sb_gof_begin(res, sb_stat_fixed_points.name);
        return SB_ENOMEM;
    }
    sb_null_fixed_points(n, prob);
    char null_desc[96];
    snprintf(null_desc, sizeof null_desc,
             "rencontres: P(k) = C(%zu,k) D(%zu-k) / %zu!", n, n, n);
    int st = sb_gof_dist_result(res, sb_stat_fixed_points.name, a->counts,
                                prob, n + 1, 0, samples, fail_alpha,
                                "fixed point", "fixed points", null_desc);
    free(prob);
    return st;
}

static void fixed_points_free(void *acc)
{
    free(acc);
}

/* State files (stats/saved.h): the key, then counts[0..n].  Refused
   besides a wrong length or key: a total beyond 64 bits, and decks of
   n >= 2 cards with n - 1 fixed points (the last card would have nowhere
   else to go). */
static uint64_t fixed_points_key(const fixed_points_acc *a)
{
    return sb_saved_key(sb_stat_fixed_points.name, SB_KIND_PERMUTATION, a->n,
                        a->n, 0);
}

static int fixed_points_save(const void *acc, uint64_t **words, size_t *count)
{
    const fixed_points_acc *a = acc;
    return sb_saved_counts(fixed_points_key(a), a->counts, a->n + 1, words,
                           count);
}

static int fixed_points_load(void *acc, const uint64_t *words, size_t count)
{
    fixed_points_acc *a = acc;
    const uint64_t *c = sb_saved_histogram(words, count, fixed_points_key(a),
                                           a->n + 1);
    if (c == NULL || (a->n >= 2 && c[a->n - 1] != 0))
        return SB_EINVAL;
    memcpy(a->counts, c, (a->n + 1) * sizeof *c);
    return SB_OK;
}

static size_t fixed_points_memory(const sb_shape *shape, size_t *finalize)
{
    *finalize = sb_mem_finalize(shape->n + 1, 0);
    return sb_mem(sizeof(fixed_points_acc)
                  + (shape->n + 1) * sizeof(uint64_t));
}

const sb_stat_type sb_stat_fixed_points = {
    .name = "fixed-points",
    .sees = "how many cards end where they started",
    .kinds = SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_PERMUTATION,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .alloc = fixed_points_alloc,
    .add = fixed_points_add,
    .merge = fixed_points_merge,
    .finalize = fixed_points_finalize,
    .free = fixed_points_free,
    .save = fixed_points_save,
    .load = fixed_points_load,
    .memory = fixed_points_memory,
};
