/*
 * fisher-yates - Durstenfeld's shuffle, from the back.
 *
 * For i = n-1 down to 1, swap the card at i with the card at a uniformly
 * drawn j in [0, i].  Each of the n! sequences of draws (n * (n-1) * ... * 2)
 * gives a different permutation, so every permutation has probability
 * exactly 1/n!.  Fair.
 *
 * Source: R. Durstenfeld, "Algorithm 235: Random permutation", CACM 7(7),
 * 1964; Knuth, TAOCP vol. 2, section 3.4.2, Algorithm P.
 */
#include "shufflebias/shuffle.h"
#include "algorithms/deck.h"

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    (void)state;
    sb_deck_identity(out, a->n);
    for (size_t i = a->n; i-- > 1;)
        sb_deck_swap(out, i, (size_t)sb_below(src, i + 1));
    return 0;
}

const sb_shuffle_type sb_shuffle_fisher_yates = {
    .name = "fisher-yates",
    .summary = "Durstenfeld's in-place shuffle from the back: swap i with "
               "a random j in [0, i]",
    .source = "Durstenfeld, CACM 7(7) 1964, Algorithm 235; Knuth TAOCP 3.4.2 P",
    .bias = "Each of the n! sequences of draws gives a different order, so "
            "every order has probability exactly 1/n!.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_UNIFORM,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .exact_paths = sb_paths_n_factorial,
    .run = run,
};
