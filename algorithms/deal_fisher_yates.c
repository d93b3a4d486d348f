/*
 * deal-fisher-yates - shuffle, then deal round the table.
 *
 * Shuffle the deck with Durstenfeld's Fisher-Yates, then deal it as a
 * dealer does: the card at position p goes to hand p mod H.  Every order
 * of the deck has probability 1/n!, and each deal (a split of the cards
 * into hands of s = n/H) is the image of exactly (s!)^H orders, so every
 * deal has probability (s!)^H / n!: uniform.  Fair.
 *
 * The shuffle's draws go through sb_below_falling, as in fisher-yates.
 *
 * Source: Durstenfeld, CACM 7(7), 1964; dealing as at the card table.
 */
#include <stdlib.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deal.h"
#include "algorithms/deck.h"

/* Durstenfeld's step, as in fisher-yates: position b - 1 takes the card
   at j <= b - 1.  A swap is its own undo. */
static void step(void *deck, uint64_t b, uint64_t j)
{
    sb_deck_swap(deck, (size_t)b - 1, (size_t)j);
}

/* One deal: what run and run_block both do, so they cannot differ.  Hand
   h gets positions h, h + H, h + 2H, ... (p mod H = h, without a
   division). */
static inline void deal(sb_src *src, sb_card *deck, size_t n, size_t hands,
                        sb_card *out)
{
    sb_deck_identity(deck, n);
    if (n > 1)
        sb_below_falling(src, n, n - 1, step, step, deck);
    for (size_t h = 0; h < hands; h++)
        for (size_t p = h; p < n; p += hands)
            out[deck[p]] = (sb_card)h;
}

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    deal(src, state, a->n, sb_deal_hands(a), out);
    return SB_OK;
}

static int run_block(void *state, const sb_shuffle_args *a, sb_src *src,
                     sb_card *out, size_t count)
{
    const size_t hands = sb_deal_hands(a);
    for (size_t s = 0; s < count; s++)
        deal(src, state, a->n, hands, out + s * a->n);
    return SB_OK;
}

const sb_shuffle_type sb_shuffle_deal_fisher_yates = {
    .name = "deal-fisher-yates",
    .summary = "shuffle with Fisher-Yates, then deal round the table: "
               "position p to hand p mod H",
    .source = "Durstenfeld, CACM 7(7) 1964; dealing at the card table",
    .bias = "Every deal is the image of the same number of equally likely "
            "orders, so every deal is equally likely.",
    SB_DEAL_FIELDS,
    .check = sb_deal_check,
    .literature = SB_LIT_UNIFORM,
    .init = sb_deck_state_alloc,
    .free = free,
    .exact_paths = sb_paths_n_factorial,
    .run = run,
    .run_block = run_block,
};
