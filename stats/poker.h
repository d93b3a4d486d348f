/*
 * poker.h - the category of a poker hand, from its rank and suit sets.
 *
 * The nine categories of the best five-card hand, in increasing order:
 * high card, one pair, two pair, three of a kind, straight, flush, full
 * house, four of a kind, straight flush (a royal flush is the ace-high
 * straight flush, not a category of its own).  The ace plays high
 * (10-J-Q-K-A) and low (A-2-3-4-5) in straights; suits have no order.
 *
 * Cards are numbered as stats/cards.h says.  A hand is read into four
 * rank sets, 13-bit masks with bit r for rank r: 'm1' the ranks held at
 * least once, 'm2' at least twice, 'm3' three times, 'm4' four times.
 * Adding a card of rank bit b moves its rank up one set, without a
 * count or a branch (m4 |= m3 & b; m3 |= m2 & b; m2 |= m1 & b; m1 |= b),
 * and the category then follows from the sets alone: no sorting.  Why
 * the rank-only category (sb_poker_rank_category) is enough without a
 * flush: quads and full houses need no suit, and a straight among the
 * ranks held is a straight whatever the suits.  A flush changes the
 * answer only where it beats the rank-only category: a straight flush
 * when the suited ranks themselves hold a five-card run, else a flush
 * unless the ranks already make a full house or four of a kind (which
 * cannot happen with seven cards: five cards of one suit leave two, and
 * no rank then reaches three cards with another at two, but the rule is
 * kept general so that it is right for any hand size).
 *
 * Used by the 'poker7' statistic on every sample and by its exact null
 * (stats/nulls.c), so the two agree by construction; tests/test_games.c
 * checks both against an independent evaluator and published counts.
 */
#ifndef SB_STATS_POKER_H
#define SB_STATS_POKER_H

#include <stddef.h>
#include "shufflebias/rng.h"
#include "stats/cards.h"

enum sb_poker_category {
    SB_POKER_HIGH_CARD = 0,
    SB_POKER_PAIR = 1,
    SB_POKER_TWO_PAIR = 2,
    SB_POKER_TRIPS = 3,
    SB_POKER_STRAIGHT = 4,
    SB_POKER_FLUSH = 5,
    SB_POKER_FULL_HOUSE = 6,
    SB_POKER_QUADS = 7,
    SB_POKER_STRAIGHT_FLUSH = 8,
    SB_POKER_CATEGORIES = 9
};

/* The category's name in words: "full house". */
static inline const char *sb_poker_name(unsigned category)
{
    static const char *const names[SB_POKER_CATEGORIES] = {
        "high card", "one pair", "two pair", "three of a kind", "straight",
        "flush", "full house", "four of a kind", "straight flush"
    };
    return category < SB_POKER_CATEGORIES ? names[category] : "?";
}

/* 1 when the rank set 'ranks' holds five consecutive ranks, the ace also
   counting below the two.  Shifting the set up one place and putting the
   ace into bit 0 lines A-2-3-4-5 up like any other run. */
static inline int sb_poker_straight(unsigned ranks)
{
    const unsigned m = (ranks << 1) | ((ranks >> SB_RANK_ACE) & 1u);
    return (m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4)) != 0;
}

/* The category from the rank sets alone, flushes aside (see above).
   (x & (x - 1)) != 0 says "two or more ranks in x". */
static inline unsigned sb_poker_rank_category(unsigned m1, unsigned m2,
                                              unsigned m3, unsigned m4)
{
    if (m4)
        return SB_POKER_QUADS;
    if (m3 && ((m3 & (m3 - 1u)) || (m2 & ~m3)))
        return SB_POKER_FULL_HOUSE;
    if (sb_poker_straight(m1))
        return SB_POKER_STRAIGHT;
    if (m3)
        return SB_POKER_TRIPS;
    if (m2)
        return (m2 & (m2 - 1u)) ? SB_POKER_TWO_PAIR : SB_POKER_PAIR;
    return SB_POKER_HIGH_CARD;
}

/* The category once a flush is known: 'suited' is the rank set of the
   suit holding five or more cards, 'rank_cat' the rank-only category. */
static inline unsigned sb_poker_flush_category(unsigned suited,
                                               unsigned rank_cat)
{
    if (sb_poker_straight(suited))
        return SB_POKER_STRAIGHT_FLUSH;
    if (rank_cat == SB_POKER_QUADS || rank_cat == SB_POKER_FULL_HOUSE)
        return rank_cat;
    return SB_POKER_FLUSH;
}

/* The category of the best five-card hand among the 'k' distinct cards
   'cards' (5 <= k <= 9, every card < 52: with ten cards two suits could
   hold five each, and only the first would be looked at).  O(k), no
   sorting. */
static inline unsigned sb_poker_category(const sb_card *cards, size_t k)
{
    unsigned m1 = 0, m2 = 0, m3 = 0, m4 = 0;
    unsigned suited[4] = { 0, 0, 0, 0 }, in_suit[4] = { 0, 0, 0, 0 };
    for (size_t i = 0; i < k; i++) {
        const unsigned b = 1u << sb_card_rank(cards[i]);
        const unsigned s = sb_card_suit(cards[i]);
        m4 |= m3 & b;
        m3 |= m2 & b;
        m2 |= m1 & b;
        m1 |= b;
        suited[s] |= b;
        in_suit[s]++;
    }
    const unsigned rank_cat = sb_poker_rank_category(m1, m2, m3, m4);
    for (unsigned s = 0; s < 4; s++)
        if (in_suit[s] >= 5)
            return sb_poker_flush_category(suited[s], rank_cat);
    return rank_cat;
}

#endif /* SB_STATS_POKER_H */
