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
 * The draws below(n - 1), ..., below(1) go through sb_below_falling, as in
 * fisher-yates.
 *
 * Source: S. Sattolo, "An algorithm to generate a random cyclic
 * permutation", Information Processing Letters 22(6), 1986.
 */
#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"

/* Position i = b takes the card at j < i: never its own.  A swap is its
   own undo. */
static void step(void *deck, uint64_t b, uint64_t j)
{
    sb_deck_swap(deck, (size_t)b, (size_t)j);
}

/* One shuffle: what run and run_block both do (SB_DECK_RUNS). */
static inline void shuffle(sb_src *src, sb_card *out, size_t n)
{
    sb_deck_identity(out, n);
    if (n > 1)
        sb_below_falling(src, n - 1, n - 1, step, step, out);
}

SB_DECK_RUNS(shuffle)

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
    .run_block = run_block,
};
