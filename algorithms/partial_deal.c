/*
 * partial-deal - shuffle only the cards dealt, and keep the deck.
 *
 * A game that deals k cards from an n-card deck need not shuffle all n:
 * run the first k steps of a front-to-back Fisher-Yates (swap position i
 * with a uniform j in [i, n-1], for i = 0..k-1) and deal positions 0..k-1.
 * The trick tested here goes one step further and keeps the partially
 * shuffled deck for the next hand instead of starting again from a fresh
 * deck.  That is sound: whatever order the deck is in, k steps of
 * Fisher-Yates draw the k cards uniformly without replacement (the first
 * is uniform over all n cards, the second over the n - 1 left, ...), so
 * every hand is an independent uniform ordered draw of k cards from n.
 * Fair.  (A reused deck that was not reshuffled at the front - dealing
 * the next k cards instead - would not be.)
 *
 * Kind DRAW: the sample is the k cards dealt, in the order drawn.  The deck
 * lives in the state; 'reset' returns it to the identity at the start of
 * every chunk and every enumerated path, so chunks stay reproducible.
 * Exact mode therefore sees one hand from a fresh deck (n!/(n-k)! paths);
 * the reuse shows only across samples, which the sampling statistics see.
 *
 * The k draws below(n), ..., below(n - k + 1) of a hand go through
 * sb_below_falling, as in fisher-yates.
 *
 * Source: the partial Fisher-Yates shuffle (Knuth, TAOCP vol. 2, 3.4.2,
 * Algorithm P stopped early); "shuffle only what you deal" is common
 * advice for card-game servers.
 */
#include <stdio.h>
#include <stdlib.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"

enum { P_K };

static const sb_param_def params[] = {
    [P_K] = { "k", "cards dealt per hand (at most n)", 7, 1, SB_DECK_MAX,
              NULL },
};

static void reset(void *state, const sb_shuffle_args *a)
{
    sb_deck_identity(state, a->n);
}

/* With b cards not yet dealt, position i = n - b takes the card at i + j.
   'end' points one past the deck, so that position is end - b.  A swap is
   its own undo. */
static void step(void *end, uint64_t b, uint64_t j)
{
    sb_card *at = (sb_card *)end - b;
    sb_deck_swap(at, 0, (size_t)j);
}

/* One hand of k cards from the kept deck: what run and run_block both do,
   so they cannot differ.  The hand is read off the deck once its k
   positions are settled. */
static inline void deal(sb_src *src, sb_card *deck, size_t n, size_t k,
                        sb_card *out)
{
    sb_below_falling(src, n, k, step, step, deck + n);
    for (size_t i = 0; i < k; i++)
        out[i] = deck[i];
}

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    deal(src, state, a->n, (size_t)a->param[P_K], out);
    return SB_OK;
}

static int run_block(void *state, const sb_shuffle_args *a, sb_src *src,
                     sb_card *out, size_t count)
{
    const size_t k = (size_t)a->param[P_K];
    for (size_t s = 0; s < count; s++)
        deal(src, state, a->n, k, out + s * k);
    return SB_OK;
}

static size_t sample_len(const sb_shuffle_args *a)
{
    return (size_t)a->param[P_K];
}

static int check(const sb_shuffle_args *a, char *why, size_t len)
{
    if ((size_t)a->param[P_K] <= a->n)
        return SB_OK;
    snprintf(why, len, "deals k = %ld cards from n = %zu: k must be at "
             "most n (--param k=%zu, or a larger --n)",
             a->param[P_K], a->n, a->n);
    return SB_EINVAL;
}

/* Fewer cards than the default hand: deal all but one, so that a hand is
   still a choice among several (n - 1 cards of n; all of one card). */
static void fit(sb_shuffle_args *a)
{
    if ((size_t)a->param[P_K] > a->n)
        a->param[P_K] = a->n > 1 ? (long)a->n - 1 : 1;
}

/* n - i branches for each i below k: n!/(n-k)! paths. */
static uint64_t paths(const sb_shuffle_args *a)
{
    return sb_paths_range(a->n - (size_t)a->param[P_K] + 1, a->n);
}

const sb_shuffle_type sb_shuffle_partial_deal = {
    .name = "partial-deal",
    .summary = "deal k cards by shuffling only the first k positions, and "
               "keep the deck for the next hand",
    .source = "partial Fisher-Yates (Knuth TAOCP 3.4.2); card-server practice",
    .bias = "Whatever order the kept deck is in, k Fisher-Yates steps draw k "
            "cards uniformly without replacement, so every hand is uniform "
            "and independent of the last.",
    .kind = SB_KIND_DRAW,
    .literature = SB_LIT_UNIFORM,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .check = check,
    .fit = fit,
    .sample_len = sample_len,
    .init = sb_deck_state_alloc,
    .reset = reset,
    .free = free,
    .exact_paths = paths,
    .run = run,
    .run_block = run_block,
};
