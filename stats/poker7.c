/*
 * poker7.c - 'poker7': the best poker hand among the top seven cards.
 *
 * What it sees: for each 52-card deck, the category of the best five-card
 * hand that can be made from deck[0..6], the seven cards a stud or
 * hold'em player would see: high card, one pair, two pair, three of a
 * kind, straight, flush, full house, four of a kind, straight flush (the
 * royal flush included; the ace plays high and low).  Cards are read as
 * stats/cards.h numbers them (card c is rank c % 13 of suit c / 13), so
 * the identity deck is sorted by suit, then rank, like a new deck.
 *
 * Why a game: a shuffle that leaves the top of a sorted deck too orderly
 * deals runs of one suit and of consecutive ranks, which the categories
 * amplify: straight flushes, flushes and straights come far too often.
 * It exists to catch too few riffles: 'human-packet' with passes=2 deals
 * a straight flush in 29% of decks (against 0.031%), and 'riffle' with
 * passes=4, a deck still far from uniform but whose top seven cards come
 * from up to 16 packets spread through the deck, deals straights 5.5% of
 * the time against 4.62%, seen at 10^5 decks (tests/test_games.c).
 *
 * The null, exactly: the number of the C(52,7) = 133,784,560 seven-card
 * hands in each category, computed by sb_null_poker7_counts (stats/
 * nulls.c: rank-count vectors, then the flush hands moved to their true
 * category) - 23,294,460 high card, 58,627,800 one pair, 31,433,400 two
 * pair, 6,461,620 three of a kind, 6,180,020 straight, 4,047,644 flush,
 * 3,473,184 full house, 224,848 four of a kind, 41,584 straight flush
 * (B. Alspach, "7-card poker hands", 2000; Wikipedia, "Poker
 * probability", 7-card hands).  On a uniform deck the top seven cards are
 * a uniform 7-subset, so P(category) = count / C(52,7).  The rarest
 * categories (four of a kind 0.168%, straight flush 0.0311%) are pooled
 * from the low end until each group expects at least 5 (stats/gof.c),
 * so below about 16,000 decks the straight flushes join the quads;
 * chi-square has groups - 1 degrees of freedom (8 unpooled).  The null is
 * computed at every finalize (its cost: docs/speed.md).
 *
 * The effect is the chi-square distance per deck, named by its largest
 * contributor in words: "straight flush: 29.3% of decks against 0.0311%
 * expected", or "four of a kind to straight flush: ..." for a pooled
 * group.
 *
 * Per sample: seven cards read into rank and suit bit sets
 * (stats/poker.h), no sorting, no division but the constant % 13 and / 13
 * (multiplications once compiled).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/nulls.h"
#include "stats/poker.h"
#include "stats/memory.h"
#include "stats/registry.h"
#include "stats/saved.h"

/* The deck it applies to, and the cards it looks at. */
#define POKER7_N 52
#define POKER7_CARDS 7

/* C(52,7): the seven-card hands. */
#define POKER7_HANDS 133784560.0

typedef struct poker7_acc {
    uint64_t counts[SB_POKER_CATEGORIES];   /* decks by category */
} poker7_acc;

static int poker7_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    if (shape->kind != SB_KIND_PERMUTATION || shape->n != POKER7_N
        || shape->len != POKER7_N)
        return SB_EINVAL;
    poker7_acc *a = calloc(1, sizeof *a);
    if (a == NULL)
        return SB_ENOMEM;
    *acc = a;
    return SB_OK;
}

static void poker7_add(void *acc, const sb_card *samples, size_t count)
{
    poker7_acc *a = acc;
    for (size_t i = 0; i < count; i++, samples += POKER7_N)
        a->counts[sb_poker_category(samples, POKER7_CARDS)]++;
}

static int poker7_merge(void *into, const void *from)
{
    poker7_acc *a = into;
    const poker7_acc *b = from;
    for (size_t k = 0; k < SB_POKER_CATEGORIES; k++)
        a->counts[k] += b->counts[k];
    return SB_OK;
}

static int poker7_finalize(const void *acc, uint64_t samples,
                           double fail_alpha, sb_result *res)
{
    const poker7_acc *a = acc;
    uint64_t hands[SB_POKER_CATEGORIES];
    double prob[SB_POKER_CATEGORIES];
    sb_null_poker7_counts(hands);
    for (size_t k = 0; k < SB_POKER_CATEGORIES; k++)
        prob[k] = (double)hands[k] / POKER7_HANDS;
    const char *names[SB_POKER_CATEGORIES];
    for (unsigned k = 0; k < SB_POKER_CATEGORIES; k++)
        names[k] = sb_poker_name(k);
    const sb_gof_law law = {
        .prob = prob, .k = SB_POKER_CATEGORIES, .names = names,
        .desc = "best hand of the top 7 cards, exact counts over C(52,7) = "
                "133784560 hands",
    };
    return sb_gof_law_result(res, sb_stat_poker7.name, a->counts, &law,
                             samples, fail_alpha);
}

static void poker7_free(void *acc)
{
    free(acc);
}

/* State files (stats/saved.h): the key, then the counts by category.
   Refused: a wrong length or key, a total beyond 64 bits. */
static uint64_t poker7_key(void)
{
    return sb_saved_key(sb_stat_poker7.name, SB_KIND_PERMUTATION, POKER7_N,
                        POKER7_N, 0);
}

static int poker7_save(const void *acc, uint64_t **words, size_t *count)
{
    const poker7_acc *a = acc;
    return sb_saved_counts(poker7_key(), a->counts, SB_POKER_CATEGORIES,
                           words, count);
}

static int poker7_load(void *acc, const uint64_t *words, size_t count)
{
    poker7_acc *a = acc;
    const uint64_t *c = sb_saved_histogram(words, count, poker7_key(),
                                           SB_POKER_CATEGORIES);
    if (c == NULL)
        return SB_EINVAL;
    memcpy(a->counts, c, SB_POKER_CATEGORIES * sizeof *c);
    return SB_OK;
}

static size_t poker7_memory(const sb_shape *shape, size_t *finalize)
{
    *finalize = sb_mem_finalize(shape->n, 0);
    return sb_mem(sizeof(poker7_acc));
}

const sb_stat_type sb_stat_poker7 = {
    .name = "poker7",
    .sees = "the best poker hand among the top seven cards of a 52-card "
            "deck",
    .kinds = SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_PERMUTATION,
    .n_min = POKER7_N,
    .n_max = POKER7_N,
    .alloc = poker7_alloc,
    .add = poker7_add,
    .merge = poker7_merge,
    .finalize = poker7_finalize,
    .free = poker7_free,
    .save = poker7_save,
    .load = poker7_load,
    .memory = poker7_memory,
};
