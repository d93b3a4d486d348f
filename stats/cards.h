/*
 * cards.h - which card a number is.
 *
 * Card c of a deck is rank c mod 13 of suit c / 13: ranks 0..12 are
 * two, three, ..., ten, jack, queen, king, ace, and suits 0..3 are clubs,
 * diamonds, hearts, spades.  So card 0 is the two of clubs and card 51 the
 * ace of spades; the identity order 0..51 is a new deck sorted by suit,
 * then rank.  deal-bitmask uses the same numbering, and the statistics
 * that look at suits, ranks and honours (hand patterns, suit lengths,
 * high-card points, poker hands) read cards through these functions so
 * that they all agree.  A deck of n cards holds n / 13 whole suits.
 */
#ifndef SB_STATS_CARDS_H
#define SB_STATS_CARDS_H

#include <stddef.h>

#define SB_CARD_RANKS 13u

/* Ranks by number: SB_RANK_TEN is 8. */
enum {
    SB_RANK_TWO = 0, SB_RANK_TEN = 8, SB_RANK_JACK = 9, SB_RANK_QUEEN = 10,
    SB_RANK_KING = 11, SB_RANK_ACE = 12
};

static inline unsigned sb_card_rank(size_t card)
{
    return (unsigned)(card % SB_CARD_RANKS);
}

static inline unsigned sb_card_suit(size_t card)
{
    return (unsigned)(card / SB_CARD_RANKS);
}

/* Milton Work's high-card points: ace 4, king 3, queen 2, jack 1. */
static inline unsigned sb_card_hcp(size_t card)
{
    unsigned r = sb_card_rank(card);
    return r >= SB_RANK_JACK ? r - SB_RANK_JACK + 1 : 0;
}

#endif /* SB_STATS_CARDS_H */
