/*
 * fisher-yates-forward - the same shuffle, from the front.
 *
 * For i = 0 up to n-2, swap the card at i with the card at a uniformly drawn
 * j in [i, n-1].  Position i is settled with a uniform choice among the
 * n - i cards not yet placed, so the n * (n-1) * ... * 2 = n! sequences of
 * draws give n! different orders, each with probability exactly 1/n!.
 * Fair: the mirror image of Durstenfeld's loop, and the form many
 * textbooks print.
 *
 * Source: Knuth, TAOCP vol. 2, section 3.4.2 (the same Algorithm P, indices
 * reversed); Durstenfeld, CACM 7(7), 1964.
 */
#include "shufflebias/shuffle.h"
#include "algorithms/deck.h"

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    (void)state;
    sb_deck_identity(out, a->n);
    for (size_t i = 0; i + 1 < a->n; i++)
        sb_deck_swap(out, i, i + (size_t)sb_below(src, a->n - i));
    return 0;
}

const sb_shuffle_type sb_shuffle_fisher_yates_forward = {
    .name = "fisher-yates-forward",
    .summary = "Fisher-Yates from the front: swap i with a random j in "
               "[i, n-1]",
    .source = "Knuth TAOCP 3.4.2 (Algorithm P, indices reversed)",
    .bias = "Each position takes a uniform choice among the cards not yet "
            "placed, so every order has probability exactly 1/n!.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_UNIFORM,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .exact_paths = sb_paths_n_factorial,
    .run = run,
};
