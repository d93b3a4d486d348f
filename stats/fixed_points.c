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
#include "shufflebias/status.h"
#include "stats/histogram.h"
#include "stats/nulls.h"
#include "stats/registry.h"

/* An sb_hist over k = 0..n.  Saved words of decks of n >= 2 cards with
   n - 1 fixed points are refused: the last card would have nowhere else
   to go. */
static int fixed_points_alloc(void **acc, const sb_shape *shape)
{
    int st = sb_hist_alloc(acc, shape, sb_stat_fixed_points.name,
                           SB_DECK_MAX, shape->n + 1, 0);
    if (st == SB_OK && shape->n >= 2)
        ((sb_hist *)*acc)->impossible = shape->n - 1;
    return st;
}

static void fixed_points_add(void *acc, const sb_card *samples, size_t count)
{
    sb_hist *a = acc;
    const size_t n = a->n;
    for (size_t i = 0; i < count; i++, samples += n) {
        size_t fixed = 0;
        for (size_t j = 0; j < n; j++)
            fixed += samples[j] == j;
        a->counts[fixed]++;
    }
}

static int fixed_points_finalize(const void *acc, uint64_t samples,
                                 double fail_alpha, sb_result *res)
{
    const sb_hist *a = acc;
    char null_desc[96];
    snprintf(null_desc, sizeof null_desc,
             "rencontres: P(k) = C(%zu,k) D(%zu-k) / %zu!", a->n, a->n, a->n);
    const sb_hist_law law = {
        .null = sb_null_fixed_points,
        .one = "fixed point", .many = "fixed points",
        .desc = null_desc,
        .too_small = "'fixed-points' needs n >= 2: a deck of 1 always has 1 "
                     "fixed point",
    };
    return sb_hist_result(a, &law, samples, fail_alpha, res);
}

static size_t fixed_points_memory(const sb_shape *shape, size_t *finalize)
{
    return sb_hist_memory(shape->n + 1, 0, finalize);
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
    .merge = sb_hist_merge,
    .finalize = fixed_points_finalize,
    .free = sb_hist_free,
    .save = sb_hist_save,
    .load = sb_hist_load,
    .memory = fixed_points_memory,
};
