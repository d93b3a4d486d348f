/*
 * deal_view.h - a sample read as hands, for the statistics of whole deals
 * ('hand-patterns', 'suit-lengths', 'hcp', 'same-hand-pairs').
 *
 * A DEAL sample is already out[c] = the hand of card c (H hands of
 * s = n/H cards).  A PERMUTATION is read as a deck "dealt in blocks" to
 * four hands: position j goes to hand j / (n/4), so that the four
 * statistics can also look at a shuffle, on request (--tests): a fair
 * shuffle makes every split of the deck into four blocks equally likely,
 * which is exactly a fair deal.  They are not in a permutation's default
 * battery, which has its own tables.  A permutation is read this way only
 * when 4 divides n.
 *
 * The conversion is written once, here, and inlined into every 'add': one
 * pass over the deck, the hand number stepping block by block (no
 * division on the hot path).
 */
#ifndef SB_STATS_DEAL_VIEW_H
#define SB_STATS_DEAL_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "shufflebias/stat.h"
#include "stats/cards.h"
#include "stats/gof.h"

/* The hands a permutation is dealt into, in blocks. */
#define SB_DEAL_VIEW_BLOCK_HANDS 4u

typedef struct sb_deal_view {
    sb_kind kind;        /* SB_KIND_DEAL or SB_KIND_PERMUTATION */
    size_t n;            /* cards */
    unsigned hands;      /* H: from the shape for a deal, 4 for a
                            permutation */
    size_t size;         /* s = n / H when 'ok', else 0 */
    int ok;              /* 1: at least two hands of equal size of at
                            least one card, so the sample can be read */
} sb_deal_view;

/* The view of samples of shape 'shape' (kind DEAL or PERMUTATION, whole
   samples of n values).  Returns 0 for any other shape (the caller's
   alloc then refuses it); else 1, with view->ok telling whether the
   hands can be read at all (finalize says why not with
   sb_deal_view_refuse). */
static inline int sb_deal_view_init(sb_deal_view *v, const sb_shape *shape)
{
    v->kind = shape->kind;
    v->n = shape->n;
    v->hands = 0;
    v->size = 0;
    v->ok = 0;
    if ((shape->kind != SB_KIND_DEAL && shape->kind != SB_KIND_PERMUTATION)
        || shape->len != shape->n || shape->n < 1)
        return 0;
    v->hands = shape->kind == SB_KIND_DEAL ? shape->hands
                                           : SB_DEAL_VIEW_BLOCK_HANDS;
    if (v->hands >= 2 && v->hands <= v->n && v->n % v->hands == 0) {
        v->size = v->n / v->hands;
        v->ok = 1;
    }
    return 1;
}

/* Mark 'res' (begun) not applicable when the view cannot be read: a
   permutation whose n is not a multiple of 4, fewer than two hands, or
   hands of unequal size.  Returns 1 when it did (the caller returns
   SB_OK), 0 when the view is fine. */
static inline int sb_deal_view_refuse(const sb_deal_view *v,
                                      const char *name, sb_result *res)
{
    if (v->ok)
        return 0;
    if (v->kind == SB_KIND_PERMUTATION)
        sb_gof_not_applicable(res,
            "'%s' reads a permutation as 4 hands dealt in blocks: n must "
            "be a multiple of 4 (n is %zu)", name, v->n);
    else if (v->hands < 2)
        sb_gof_not_applicable(res,
            "'%s' needs at least two hands (got %u)", name, v->hands);
    else
        sb_gof_not_applicable(res,
            "'%s' needs hands of equal size: %u hands do not divide %zu "
            "cards", name, v->hands, v->n);
    return 1;
}

/* The hand of every card of one sample: the sample itself for a deal;
   for a permutation, 'scratch' (n values) filled from the blocks and
   returned.  Preconditions: v->ok; a deal's values are below v->hands
   (the runner validates outside input). */
static inline const sb_card *sb_deal_view_hands(const sb_deal_view *v,
                                                const sb_card *sample,
                                                sb_card *scratch)
{
    if (v->kind == SB_KIND_DEAL)
        return sample;
    const size_t s = v->size;
    for (unsigned h = 0; h < v->hands; h++, sample += s)
        for (size_t j = 0; j < s; j++)
            scratch[sample[j]] = (sb_card)h;
    return scratch;
}

/* The length of every suit in every hand of one deal read by
   sb_deal_view_hands: len[t H + h] = cards of suit t (cards 13 t ..
   13 t + 12, stats/cards.h) in hand h, for the n / 13 whole suits of
   the deck (len holds (n / 13) H values; a length is at most 13).
   Suit-major, so that the hot loop steps through one suit's column with
   no multiplication; O(n + S H) per deal, 52 + 16 for a bridge deal. */
static inline void sb_deal_view_suit_lengths(const sb_deal_view *v,
                                             const sb_card *hand,
                                             uint8_t *len)
{
    const size_t H = v->hands, whole = v->n - v->n % SB_CARD_RANKS;
    memset(len, 0, whole / SB_CARD_RANKS * H);
    for (size_t c0 = 0; c0 < whole; c0 += SB_CARD_RANKS, len += H)
        for (size_t c = c0; c < c0 + SB_CARD_RANKS; c++)
            len[hand[c]]++;
}

#endif /* SB_STATS_DEAL_VIEW_H */
