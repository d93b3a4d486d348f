/*
 * strike-out - the original pencil-and-paper Fisher-Yates.
 *
 * Write the cards in a row.  Draw k uniformly among the m cards not yet
 * struck out, count along the row to the k-th card still standing, strike
 * it out and write it down next.  Fisher and Yates's 1938 procedure, with
 * a table of random numbers in place of sb_below.  O(n^2): counting along
 * the row is the price of never moving a card.  Fair: the n! sequences of
 * choices give the n! orders once each.
 *
 * Source: R. A. Fisher and F. Yates, Statistical Tables for Biological,
 * Agricultural and Medical Research (1938), example 12; Knuth, TAOCP
 * vol. 2, 3.4.2.
 */
#include <stdlib.h>
#include <string.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"

/* One flag per card, the state: 1 once struck out. */
static int init(void **state, const sb_shuffle_args *a)
{
    *state = malloc(a->n ? a->n : 1);
    return *state ? SB_OK : SB_ENOMEM;
}

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    unsigned char *struck = state;
    memset(struck, 0, a->n);
    for (size_t t = 0, m = a->n; m > 0; t++, m--) {
        size_t k = (size_t)sb_below(src, m), c = 0;
        for (;; c++)                     /* the k-th card still standing */
            if (!struck[c] && k-- == 0)
                break;
        struck[c] = 1;
        out[t] = (sb_card)c;
    }
    return SB_OK;
}

const sb_shuffle_type sb_shuffle_strike_out = {
    .name = "strike-out",
    .summary = "pencil-and-paper Fisher-Yates: write down the k-th card not "
               "yet struck out, strike it (O(n^2))",
    .source = "Fisher and Yates, Statistical Tables (1938); Knuth TAOCP 3.4.2",
    .bias = "Each card written down is a uniform choice among those left, so "
            "every order has probability exactly 1/n!.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_UNIFORM,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .init = init,
    .free = free,
    .exact_paths = sb_paths_n_factorial,
    .run = run,
};
