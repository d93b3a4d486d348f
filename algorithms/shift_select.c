/*
 * shift-select - take a random card out, close the gap by shifting.
 *
 * With m cards still to place (at first all n), draw r uniformly in
 * [0, m), take the card at r out, shift every later card left by one to
 * close the gap, and put the card taken at position m - 1, just behind the
 * cards still to place.  The deck fills from the back, in place, without a
 * second array - at the cost of O(n^2) moves.  Fair: each position from
 * the back gets a uniform choice among the cards left, and the n!
 * sequences of draws give n! different orders.
 *
 * Source: the shuffle a programmer wrote before inventing the random-pile
 * deal ('deal-random-hand'): pick at random, move every later number left
 * by one.  That version wrote the picks into a second array from the
 * front, which is draw for draw the same as 'strike-out'; here the pick
 * goes behind the cards left, so no second array is needed.
 */
#include <string.h>

#include "shufflebias/shuffle.h"
#include "algorithms/deck.h"

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    (void)state;
    sb_deck_identity(out, a->n);
    for (size_t m = a->n; m > 1; m--) {
        const size_t r = (size_t)sb_below(src, m);
        const sb_card picked = out[r];
        memmove(out + r, out + r + 1, (m - 1 - r) * sizeof *out);
        out[m - 1] = picked;
    }
    return 0;
}

const sb_shuffle_type sb_shuffle_shift_select = {
    .name = "shift-select",
    .summary = "take a random card out, shift the later cards left to close "
               "the gap, place it at the back (O(n^2))",
    .source = "the hand-written shuffle before the random-pile deal; "
              "Fisher and Yates (1938)",
    .bias = "Each position, from the back, takes a uniform choice among the "
            "cards left, so every order has probability exactly 1/n!.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_UNIFORM,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .exact_paths = sb_paths_n_factorial,
    .run = run,
};
