/*
 * deal-weighted-hand - give each card to a hand with odds by its room.
 *
 * The one-line fix of 'deal-random-hand': go through the sorted deck and
 * give each card to hand h with probability (empty slots of h) / (cards
 * left).  That is exactly the chance a fair deal gives: the next card of a
 * shuffled deck lands in h in that proportion.  Multiplying along the deck,
 * a deal with hands of size s has probability
 * prod over cards of (slots left) / (cards left) = (s!)^H / n!, the same
 * for every deal.  Fair.  For 2 hands of 2 cards, each of the 6 deals has
 * probability 1/6.
 *
 * Source: the correction of the random-pile deal; the same as drawing the
 * hand assignment as a multivariate hypergeometric sequence.
 */
#include <stdint.h>
#include <stdlib.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deal.h"

/* Empty slots of each hand: the weights of the next draw. */
static int init(void **state, const sb_shuffle_args *a)
{
    *state = malloc(sb_deal_hands(a) * sizeof(uint64_t));
    return *state ? SB_OK : SB_ENOMEM;
}

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    uint64_t *room = state;
    const size_t hands = sb_deal_hands(a);
    for (size_t h = 0; h < hands; h++)
        room[h] = (uint64_t)sb_deal_hand_size(a);
    for (size_t c = 0; c < a->n; c++) {
        const size_t h = sb_weighted(src, room, hands);
        out[c] = (sb_card)h;
        room[h]--;
    }
    return SB_OK;
}

const sb_shuffle_type sb_shuffle_deal_weighted_hand = {
    .name = "deal-weighted-hand",
    .summary = "give each card of the sorted deck to a hand with probability "
               "proportional to its empty slots",
    .source = "the fix of the random-pile deal",
    .bias = "Each card goes to a hand with exactly the chance a shuffled "
            "deck gives, so every deal is equally likely.",
    SB_DEAL_FIELDS,
    .check = sb_deal_check,
    .literature = SB_LIT_UNIFORM,
    .init = init,
    .free = free,
    .run = run,
};
