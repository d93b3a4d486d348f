/*
 * sattolo - Fisher-Yates off by one: j drawn from [0, i) instead of [0, i].
 *
 * For i = n-1 down to 1, swap the card at i with the card at a uniformly
 * drawn j in [0, i - 1].  The card at i always moves, and the result is
 * always a single n-cycle: each of the (n-1)! cyclic permutations comes up
 * with probability exactly 1/(n-1)!, every other permutation never.  As a
 * shuffle it is badly biased: no card ever stays in place (no fixed points),
 * and there is always exactly one cycle.
 *
 * Exact bias for 3 cards (2 paths, deck ABC): BCA 1/2, CAB 1/2, the other
 * four never.
 *
 * Source: S. Sattolo, "An algorithm to generate a random cyclic
 * permutation", Information Processing Letters 22(6), 1986.
 */
#include "shufflebias/shuffle.h"
#include "algorithms/deck.h"

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    (void)state;
    sb_deck_identity(out, a->n);
    for (size_t i = a->n; i-- > 1;)
        sb_deck_swap(out, i, (size_t)sb_below(src, i));
    return 0;
}

/* One branch of i for each i from n - 1 down to 1: (n - 1)! paths. */
static uint64_t paths(const sb_shuffle_args *a)
{
    return sb_paths_range(2, a->n ? a->n - 1 : 0);
}

const sb_shuffle_type sb_shuffle_sattolo = {
    .name = "sattolo",
    .summary = "Fisher-Yates with j in [0, i) instead of [0, i]: only "
               "single n-cycles, no card stays put",
    .source = "Sattolo, Information Processing Letters 22(6) 1986",
    .bias = "Drawing j below i instead of up to i makes every result a single "
            "n-cycle: no card ever stays in place, and most orders never "
            "happen.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_BIASED,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .exact_paths = paths,
    .run = run,
};
