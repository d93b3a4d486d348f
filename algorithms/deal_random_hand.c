/*
 * deal-random-hand - give each card to a random hand that is not full.
 *
 * Go through the sorted deck; for each card pick a hand at random and, if
 * it is already full, pick again.  The retry loop ends in a hand chosen
 * uniformly among those not yet full, which is how it is written here (one
 * draw, so that exact mode sees a finite tree): the same distribution as
 * the loop, and the same as the ACBL's published BASIC routine, which
 * chose a random hand among the partially filled ones.
 *
 * The flaw: a fair deal gives card c to hand h with probability equal to
 * the share of empty slots h has left; this gives it the same chance for
 * every open hand, however few slots it has.  Hands that fill early make
 * the late cards cluster in the others.  For 2 hands of 2 cards (deals
 * written hand of card 0, 1, 2, 3): AABB and BBAA 1/4 each, ABAB, ABBA,
 * BAAB, BABA 1/8 each, where a fair deal gives 1/6 to all six.  Each card
 * still lands in each hand with probability 1/H by symmetry, so a
 * card-by-hand count cannot see it; the suit patterns and same-hand pairs
 * can.  Biased.
 *
 * Source: the random-pile deal of a programmer's blog post on dealing
 * without sorting; the ACBL's 1980s BASIC shuffle-deal routine, as
 * described in the bridge-dealing article among this project's sources.
 */
#include <stdlib.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deal.h"

/* Cards dealt so far to each hand. */
static int init(void **state, const sb_shuffle_args *a)
{
    *state = malloc(sb_deal_hands(a) * sizeof(size_t));
    return *state ? SB_OK : SB_ENOMEM;
}

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    size_t *held = state;
    const size_t hands = sb_deal_hands(a), size = sb_deal_hand_size(a);
    for (size_t h = 0; h < hands; h++)
        held[h] = 0;
    size_t open = hands;                 /* hands not yet full */
    for (size_t c = 0; c < a->n; c++) {
        size_t r = open > 1 ? (size_t)sb_below(src, open) : 0, h = 0;
        for (;; h++)                     /* the r-th open hand */
            if (held[h] < size && r-- == 0)
                break;
        out[c] = (sb_card)h;
        if (++held[h] == size)
            open--;
    }
    return SB_OK;
}

const sb_shuffle_type sb_shuffle_deal_random_hand = {
    .name = "deal-random-hand",
    .summary = "give each card of the sorted deck to a random hand, again "
               "while that hand is full",
    .source = "the random-pile deal; the ACBL's 1980s BASIC routine",
    .bias = "Every open hand is equally likely whatever room it has left, so "
            "late cards cluster in the hands that fill last: suit patterns and"
            " pairs of cards in one hand are skewed.",
    SB_DEAL_FIELDS,
    .check = sb_deal_check,
    .literature = SB_LIT_BIASED,
    .init = init,
    .free = free,
    .run = run,
};
