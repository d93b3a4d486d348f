/*
 * fisher-yates - Durstenfeld's shuffle, from the back.
 *
 * For i = n-1 down to 1, swap the card at i with the card at a uniformly
 * drawn j in [0, i].  Each of the n! sequences of draws (n * (n-1) * ... * 2)
 * gives a different permutation, so every permutation has probability
 * exactly 1/n!.  Fair.
 *
 * The draws below(n), below(n - 1), ..., below(2) go through
 * sb_below_falling: one at a time on every source but the fast generator,
 * where one word serves several.
 *
 * Source: R. Durstenfeld, "Algorithm 235: Random permutation", CACM 7(7),
 * 1964; Knuth, TAOCP vol. 2, section 3.4.2, Algorithm P.
 */
#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"

/* With b cards not yet settled, the last of them (position b - 1) takes
   the card at j <= b - 1.  A swap is its own undo. */
static void step(void *deck, uint64_t b, uint64_t j)
{
    sb_deck_swap(deck, (size_t)b - 1, (size_t)j);
}

/* One shuffle: what run and run_block both do (SB_DECK_RUNS). */
static inline void shuffle(sb_src *src, sb_card *out, size_t n)
{
    sb_deck_identity(out, n);
    if (n > 1)
        sb_below_falling(src, n, n - 1, step, step, out);
}

SB_DECK_RUNS(shuffle)

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
    .run_block = run_block,
};
