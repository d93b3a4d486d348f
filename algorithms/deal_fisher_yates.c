/*
 * deal-fisher-yates - shuffle, then deal round the table.
 *
 * Shuffle the deck with Durstenfeld's Fisher-Yates, then deal it as a
 * dealer does: the card at position p goes to hand p mod H.  Every order
 * of the deck has probability 1/n!, and each deal (a split of the cards
 * into hands of s = n/H) is the image of exactly (s!)^H orders, so every
 * deal has probability (s!)^H / n!: uniform.  Fair.
 *
 * Source: Durstenfeld, CACM 7(7), 1964; dealing as at the card table.
 */
#include <stdlib.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deal.h"
#include "algorithms/deck.h"

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    sb_card *deck = state;
    const size_t hands = sb_deal_hands(a);
    sb_deck_identity(deck, a->n);
    for (size_t i = a->n; i-- > 1;)
        sb_deck_swap(deck, i, (size_t)sb_below(src, i + 1));
    for (size_t p = 0; p < a->n; p++)
        out[deck[p]] = (sb_card)(p % hands);
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
};
