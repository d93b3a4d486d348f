/*
 * deal.h - what the deals share: their two parameters, the check that
 * hands x hand-size is the deck size, and the sizes they fit to.
 *
 * A deal's sample (kind DEAL) is out[c] = the hand of card c, for every
 * card of the deck; every hand holds exactly 'hand-size' cards.
 */
#ifndef SB_ALGORITHMS_DEAL_H
#define SB_ALGORITHMS_DEAL_H

#include <stddef.h>
#include "shufflebias/shuffle.h"
#include "base/draws.h"           /* the draws, inlined */

enum { SB_DEAL_HANDS, SB_DEAL_HAND_SIZE, SB_DEAL_N_PARAMS };

/* hands (default 4) and hand-size (default 13): bridge. */
extern const sb_param_def sb_deal_params[SB_DEAL_N_PARAMS];

/* The type fields every deal shares: parameters, fit, hands.  Each deal
   sets .check itself (sb_deal_check, or its own that calls it). */
#define SB_DEAL_FIELDS                                                      \
    .kind = SB_KIND_DEAL, .n_min = 1, .n_max = SB_DECK_MAX,                 \
    .params = sb_deal_params, .n_params = SB_DEAL_N_PARAMS,                 \
    .fit = sb_deal_fit, .hands = sb_deal_hands

/* SB_OK when hands x hand-size = n, else SB_EINVAL and the reason. */
int sb_deal_check(const sb_shuffle_args *a, char *why, size_t len);

/* Hands that suit a->n: two hands of n/2 for an even n >= 4 (the smallest
   deal where the order of dealing matters), else n hands of one card. */
void sb_deal_fit(sb_shuffle_args *a);

unsigned sb_deal_hands(const sb_shuffle_args *a);

static inline size_t sb_deal_hand_size(const sb_shuffle_args *a)
{
    return (size_t)a->param[SB_DEAL_HAND_SIZE];
}

#endif /* SB_ALGORITHMS_DEAL_H */
