/*
 * card_hand.c - 'card-hand': which hand each card is dealt to.
 *
 * What it sees: the n x H table of how often card c went to hand h, over
 * deals of n cards into H hands of s = n/H cards each.  A fair deal puts
 * every card in every hand with probability s/n = 1/H, so each cell
 * expects E = N/H.  It catches a deal that sends some cards to some hands
 * too often: dealing round the table or in blocks from a deck shuffled too
 * little, or a 'rand() % m' pick of the hand for each card.
 *
 * The null, exactly: every card is in one hand and every hand holds s
 * cards in every deal, so both margins of the table are fixed and the
 * plain Pearson X^2 is not chi-square((n-1)(H-1)).  In one uniform deal
 * the indicators X_ch (card c in hand h) have, on the card side, the
 * covariance (n/(n-1)) (I - J/n) (two cards compete for the same seats:
 * -1/(n-1) between different cards), and on the hand side the multinomial
 * diag(p) - p p^T with p_h = 1/H.  Standardized by the expectations, the
 * table's covariance is n/(n-1) times a projection of rank (n-1)(H-1), so
 * X^2 (n-1)/n tends to chi-square((n-1)(H-1)) and the plain X^2 has mean
 * n(H-1) exactly (DESIGN.md, "Statistics: facts to build on").  The
 * derivation in full, shared with 'card-slot', is in gof.c, which turns
 * this table into the result; tests/test_card_groups.c checks both means by
 * simulation.  For a bridge deal (52 cards, 4 hands) that is
 * chi-square(153) for the scaled value, mean 156 for the plain one.
 *
 * Applies when n >= 2, H >= 2 and H divides n (hands of equal size); else
 * the result is not applicable, saying why.  Never pooled, like position.
 *
 * Memory: n x H 64-bit counts, n capped at 4096 as for position.
 */
#include <stdlib.h>
#include <string.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/memory.h"
#include "stats/registry.h"
#include "stats/saved.h"

#define CARD_HAND_N_MAX 4096

typedef struct card_hand_acc {
    size_t n;             /* deck size */
    unsigned hands;       /* H, from the shape */
    int counting;         /* 1 when 2 <= H and H divides n: 'counts' is
                             there and the deals are counted; else the
                             result will say why nothing was */
    uint64_t counts[];    /* counts[card * H + hand], n * H of them */
} card_hand_acc;

/* Equal hands of at least one card, and at least two of them: the only
   deals this table can test. */
static int card_hand_testable(size_t n, unsigned hands)
{
    return hands >= 2 && hands <= n && n % hands == 0;
}

static int card_hand_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    if (shape->kind != SB_KIND_DEAL || shape->len != shape->n
        || shape->n < 1 || shape->n > CARD_HAND_N_MAX)
        return SB_EINVAL;
    const int counting = card_hand_testable(shape->n, shape->hands);
    const size_t cells = counting ? shape->n * shape->hands : 0;
    card_hand_acc *a = calloc(1, sizeof *a + cells * sizeof(uint64_t));
    if (a == NULL)
        return SB_ENOMEM;
    a->n = shape->n;
    a->hands = shape->hands;
    a->counting = counting;
    *acc = a;
    return SB_OK;
}

/* The hot path: one increment per card, the row pointer stepping by H as
   position's steps by n.  Precondition: every value < H (the runner
   validates external input before it gets here). */
static void card_hand_add(void *acc, const sb_card *samples, size_t count)
{
    card_hand_acc *a = acc;
    if (!a->counting)
        return;
    const size_t n = a->n, h = a->hands;
    for (size_t i = 0; i < count; i++, samples += n) {
        uint64_t *row = a->counts;
        for (size_t c = 0; c < n; c++, row += h)
            row[samples[c]]++;
    }
}

static int card_hand_merge(void *into, const void *from)
{
    card_hand_acc *a = into;
    const card_hand_acc *b = from;
    if (a->n != b->n || a->hands != b->hands)
        return SB_EINVAL;
    if (a->counting)
        for (size_t i = 0; i < a->n * a->hands; i++)
            a->counts[i] += b->counts[i];
    return SB_OK;
}

static int card_hand_finalize(const void *acc, uint64_t samples,
                              double fail_alpha, sb_result *res)
{
    const card_hand_acc *a = acc;
    const char *name = sb_stat_card_hand.name;
    sb_gof_begin(res, name);
    if (a->n < 2)
        return sb_gof_not_applicable(res,
            "'%s' needs n >= 2 (n is %zu)", name, a->n);
    if (a->hands < 2)
        return sb_gof_not_applicable(res,
            "'%s' needs at least two hands (got %u)", name, a->hands);
    if (!a->counting)
        return sb_gof_not_applicable(res,
            "'%s' needs hands of equal size: %u hands do not divide %zu "
            "cards", name, a->hands, a->n);
    const sb_gof_groups g = {
        .n = a->n,
        .counted = a->hands,
        .size = a->n / a->hands,
        .counts = a->counts,
        .card_step = a->hands,
        .group_step = 1,
        .group = "hand",
        .rest = NULL,
        .table = "card x hand",
    };
    return sb_gof_groups_result(res, &g, samples, fail_alpha);
}

static void card_hand_free(void *acc)
{
    free(acc);
}

/* State files (stats/saved.h): the key, then the n x H counts when the
   deals are counted (nothing after the key when they are not).  Besides a
   wrong length or key, refused: cards that were not all dealt the same
   number of times, and a hand that did not get n/H cards per deal (its
   column summing to n/H times a card's total). */
static uint64_t card_hand_key(const card_hand_acc *a)
{
    return sb_saved_key(sb_stat_card_hand.name, SB_KIND_DEAL, a->n, a->n,
                        a->hands);
}

static size_t card_hand_cells(const card_hand_acc *a)
{
    return a->counting ? a->n * a->hands : 0;
}

static int card_hand_save(const void *acc, uint64_t **words, size_t *count)
{
    const card_hand_acc *a = acc;
    return sb_saved_counts(card_hand_key(a), a->counts, card_hand_cells(a),
                           words, count);
}

static int card_hand_load(void *acc, const uint64_t *words, size_t count)
{
    card_hand_acc *a = acc;
    const size_t cells = card_hand_cells(a);
    const uint64_t *c = sb_saved_body(words, count, card_hand_key(a), cells);
    if (c == NULL)
        return SB_EINVAL;
    if (cells == 0)
        return SB_OK;
    const size_t n = a->n, h = a->hands;
    uint64_t deals, in_hand;
    if (!sb_saved_lines_equal(c, n, h, h, 1, &deals)
        || !sb_saved_lines_equal(c, h, 1, n, h, &in_hand)
        || deals > UINT64_MAX / (n / h) || in_hand != deals * (n / h))
        return SB_EINVAL;
    memcpy(a->counts, c, cells * sizeof *c);
    return SB_OK;
}

static size_t card_hand_memory(const sb_shape *shape, size_t *finalize)
{
    const size_t cells = shape->n * shape->hands;
    *finalize = sb_mem_finalize(shape->hands, cells);
    return sb_mem(sizeof(card_hand_acc) + cells * sizeof(uint64_t));
}

const sb_stat_type sb_stat_card_hand = {
    .name = "card-hand",
    .sees = "how often each card is dealt to each hand (card x hand "
            "counts)",
    .kinds = SB_KIND_DEAL,
    .default_kinds = SB_KIND_DEAL,
    .n_min = 1,
    .n_max = CARD_HAND_N_MAX,
    .alloc = card_hand_alloc,
    .add = card_hand_add,
    .merge = card_hand_merge,
    .finalize = card_hand_finalize,
    .free = card_hand_free,
    .save = card_hand_save,
    .load = card_hand_load,
    .memory = card_hand_memory,
};
