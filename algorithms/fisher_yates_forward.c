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
 * The draws below(n), ..., below(2) go through sb_below_falling, as in
 * fisher-yates.
 *
 * Source: Knuth, TAOCP vol. 2, section 3.4.2 (the same Algorithm P, indices
 * reversed); Durstenfeld, CACM 7(7), 1964.
 */
#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"

/* With b cards not yet placed, position i = n - b takes the card at
   i + j.  'end' points one past the deck, so that position is end - b.  A
   swap is its own undo. */
static void step(void *end, uint64_t b, uint64_t j)
{
    sb_card *at = (sb_card *)end - b;
    sb_deck_swap(at, 0, (size_t)j);
}

/* One shuffle: what run and run_block both do (SB_DECK_RUNS). */
static inline void shuffle(sb_src *src, sb_card *out, size_t n)
{
    sb_deck_identity(out, n);
    if (n > 1)
        sb_below_falling(src, n, n - 1, step, step, out + n);
}

SB_DECK_RUNS(shuffle)

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
    .run_block = run_block,
};
