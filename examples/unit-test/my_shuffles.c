/*
 * my_shuffles.c - the shuffles under test.  They draw only through
 * sb_below (<shufflebias/rng.h>), so that shufflebias can seed them,
 * make them again and, at a small n, walk every draw they can make.  In a
 * game, the same functions would be handed a source of the game's own
 * (or be written with a generator in mind and wrapped like this).
 */
#include <shufflebias/rng.h>
#include <shufflebias/status.h>

#include "my_shuffles.h"

static void swap(sb_card *deck, size_t i, size_t j)
{
    sb_card t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
}

static int fair(void *state, const sb_shuffle_args *a, sb_src *src,
                sb_card *out)
{
    (void)state;
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)i;
    for (size_t i = a->n - 1; i > 0; i--)
        swap(out, i, (size_t)sb_below(src, i + 1));
    return SB_OK;
}

static int swap_any(void *state, const sb_shuffle_args *a, sb_src *src,
                    sb_card *out)
{
    (void)state;
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)i;
    for (size_t i = 0; i < a->n; i++)
        swap(out, i, (size_t)sb_below(src, a->n));
    return SB_OK;
}

const sb_shuffle_type my_fair_shuffle = {
    .name = "my-fair-shuffle",
    .summary = "Durstenfeld's shuffle: swap i with a uniform j <= i",
    .source = "Knuth, TAOCP vol. 2, 3.4.2, Algorithm P",
    .bias = "none: every order comes from exactly one sequence of draws",
    .kind = SB_KIND_PERMUTATION,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .run = fair,
};

const sb_shuffle_type my_swap_any = {
    .name = "my-swap-any",
    .summary = "swap every card with a uniform card of the whole deck",
    .source = "the classic mistake",
    .bias = "n^n draw sequences cannot split evenly over n! orders",
    .kind = SB_KIND_PERMUTATION,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .run = swap_any,
};
