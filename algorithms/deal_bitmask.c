/*
 * deal-bitmask - shuffle and deal in one loop, hands kept as bitmasks.
 *
 * The PowerBASIC routine "ShuffleAndDeal" published with the bridge-deal
 * article: for each round, for each hand in turn, draw a random card among
 * the N+1 not yet dealt (RND(0, N)), set its bit in the hand's mask for its
 * suit (bit = rank within the suit), move the last undealt card into the
 * hole and decrement N.  Keeping one 13-bit mask per hand and suit means
 * the hands come out sorted, with no sorting step.  It is Fisher-Yates's
 * draw-and-fill with the cards handed out as they are drawn, so every deal
 * is equally likely.  Fair.
 *
 * Generalised to any hands x hand-size: suits of 13 cards (card c is rank
 * c mod 13 of suit c / 13), as many suits as the deck needs.
 *
 * Source: the bridge-dealing article among this project's sources
 * ("ShuffleAndDeal", PowerBASIC), after the ACBL's flawed routine.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deal.h"
#include "algorithms/deck.h"

#define SUIT 13u   /* cards per suit: ranks 0..12 in each 16-bit mask */
/* Masks (hands x suits) a deal may keep: 2 MiB.  The routine is built for
   a few hands; thousands of one-card hands would clear and read millions
   of masks for every deal. */
#define MASKS_MAX (1u << 20)

typedef struct deal_state {
    sb_card *undealt;     /* the cards not yet dealt, n */
    uint16_t *mask;       /* mask[hand * suits + suit], bit = rank */
    size_t suits;
} deal_state;

static void release(void *state)
{
    deal_state *s = state;
    if (!s)
        return;
    free(s->undealt);
    free(s->mask);
    free(s);
}

static int init(void **state, const sb_shuffle_args *a)
{
    deal_state *s = calloc(1, sizeof *s);
    *state = s;
    if (!s)
        return SB_ENOMEM;
    s->suits = (a->n + SUIT - 1) / SUIT;
    s->undealt = malloc((a->n ? a->n : 1) * sizeof *s->undealt);
    s->mask = malloc((sb_deal_hands(a) * s->suits + 1) * sizeof *s->mask);
    if (!s->undealt || !s->mask) {
        release(s);
        *state = NULL;
        return SB_ENOMEM;
    }
    return SB_OK;
}

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    deal_state *s = state;
    const size_t hands = sb_deal_hands(a), size = sb_deal_hand_size(a);
    for (size_t c = 0; c < a->n; c++)
        s->undealt[c] = (sb_card)c;
    for (size_t i = 0; i < hands * s->suits; i++)
        s->mask[i] = 0;
    size_t left = a->n;
    for (size_t round = 0; round < size; round++)
        for (size_t h = 0; h < hands; h++, left--) {
            const size_t r = (size_t)sb_below(src, left);
            const sb_card card = s->undealt[r];
            s->mask[h * s->suits + card / SUIT] |= (uint16_t)(1u << (card % SUIT));
            s->undealt[r] = s->undealt[left - 1];
        }
    /* Read the hands off the masks: card -> hand. */
    for (size_t h = 0; h < hands; h++)
        for (size_t suit = 0; suit < s->suits; suit++)
            for (unsigned rank = 0; rank < SUIT; rank++)
                if (s->mask[h * s->suits + suit] >> rank & 1u)
                    out[suit * SUIT + rank] = (sb_card)h;
    return SB_OK;
}

static int check(const sb_shuffle_args *a, char *why, size_t len)
{
    if (sb_deal_check(a, why, len) != SB_OK)
        return SB_EINVAL;
    const size_t suits = (a->n + SUIT - 1) / SUIT, hands = sb_deal_hands(a);
    if (hands * suits <= MASKS_MAX)
        return SB_OK;
    snprintf(why, len, "keeps one mask per hand and suit: %zu hands x %zu "
             "suits is over %u (deal-fisher-yates has no such limit)",
             hands, suits, MASKS_MAX);
    return SB_EINVAL;
}

const sb_shuffle_type sb_shuffle_deal_bitmask = {
    .name = "deal-bitmask",
    .summary = "shuffle and deal in one loop, each hand kept as one bitmask "
               "per suit so hands come out sorted",
    .source = "PowerBASIC \"ShuffleAndDeal\", in the bridge-dealing article",
    .bias = "Each card dealt is a uniform choice among those left, so every "
            "deal is equally likely.",
    SB_DEAL_FIELDS,
    .check = check,
    .literature = SB_LIT_UNIFORM,
    .init = init,
    .free = release,
    .exact_paths = sb_paths_n_factorial,
    .run = run,
};
