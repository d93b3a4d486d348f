/*
 * naive-swap - swap every card with a card anywhere in the deck.
 *
 * For i = 0, 1, ..., n-1 in that order, swap the card at i with the card at
 * a uniformly drawn j in [0, n).  Biased: there are n^n equally likely
 * sequences of draws and n! permutations, and n! does not divide n^n for
 * n >= 3, so some permutations must come up more often than others.
 *
 * Exact bias for 3 cards (27 paths, deck ABC): ABC 4, ACB 5, BAC 5, BCA 5,
 * CAB 4, CBA 4 (out of 27).  Walking i from the back instead gives
 * 4, 5, 5, 4, 5, 4 - the order of the loop matters.
 *
 * Source: the "simple shuffle" of many blog posts and interview answers;
 * analysed by Jeff Atwood, "The Danger of Naivete" (2007).
 */
#include "shufflebias/markov.h"
#include "shufflebias/shuffle.h"
#include "algorithms/deck.h"

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    (void)state;
    sb_deck_identity(out, a->n);
    for (size_t i = 0; i < a->n; i++)
        sb_deck_swap(out, i, (size_t)sb_below(src, a->n));
    return 0;
}

/* n draws of n branches: n^n paths. */
static uint64_t paths(const sb_shuffle_args *a)
{
    return sb_paths_pow(a->n, a->n);
}

const sb_shuffle_type sb_shuffle_naive_swap = {
    .name = "naive-swap",
    .summary = "for each i from the front, swap i with a random j in "
               "[0, n): n^n paths for n! orders",
    .source = "common mistake; Atwood, \"The Danger of Naivete\" (2007)",
    .bias = "Its n^n equally likely paths cannot split evenly over the n! "
            "orders (27 paths over 6 orders for 3 cards), so some orders come "
            "up more often.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_BIASED,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .exact_paths = paths,
    .run = run,
};

/* Markov in its deck: step i swaps i with a drawn j. */
static size_t steps(const sb_shuffle_args *a)
{
    return a->n;
}

static int step(void *state, const sb_shuffle_args *a, size_t i, sb_src *src,
                sb_card *deck)
{
    (void)state;
    sb_deck_swap(deck, i, (size_t)sb_below(src, a->n));
    return 0;
}

const sb_markov sb_markov_naive_swap = {
    .type = &sb_shuffle_naive_swap,
    .steps = steps,
    .step = step,
};
