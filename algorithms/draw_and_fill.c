/*
 * draw-and-fill - pick from the unpicked cards, fill the hole with the last.
 *
 * Keep the unpicked cards in an array A (at first the whole deck) and the
 * shuffled deck in X.  Draw r uniformly among the m unpicked cards, append
 * A[r] to X, move the last unpicked card A[m-1] into the hole at r, and
 * shrink m.  This is the "fill the hole" form of the Fisher-Yates-Knuth-
 * Durstenfeld shuffle written with a second array: each card of X is a
 * uniform choice among those left, so the n! sequences of draws give the
 * n! orders once each.  Fair.
 *
 * Source: Fisher and Yates, Statistical Tables (1938), in the array form
 * of Durstenfeld, CACM 7(7), 1964; Knuth, TAOCP vol. 2, 3.4.2.
 */
#include <stdlib.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    sb_card *unpicked = state;
    sb_deck_identity(unpicked, a->n);
    for (size_t t = 0, m = a->n; m > 0; t++, m--) {
        const size_t r = (size_t)sb_below(src, m);
        out[t] = unpicked[r];
        unpicked[r] = unpicked[m - 1];
    }
    return SB_OK;
}

const sb_shuffle_type sb_shuffle_draw_and_fill = {
    .name = "draw-and-fill",
    .summary = "draw a random unpicked card into a second array and fill "
               "its hole with the last unpicked card",
    .source = "Fisher and Yates (1938) as arrays; Durstenfeld, CACM 7(7) 1964",
    .bias = "Each card drawn is a uniform choice among those left, so every "
            "order has probability exactly 1/n!.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_UNIFORM,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .init = sb_deck_state_alloc,
    .free = free,
    .exact_paths = sb_paths_n_factorial,
    .run = run,
};
