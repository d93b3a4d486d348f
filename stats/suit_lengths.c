/*
 * suit_lengths.c - 'suit-lengths': how many cards of each suit each hand
 * holds.
 *
 * What it sees: for every hand h and suit t, the distribution of the
 * length of t in h (0..13 cards) over the deals.  It catches a deal that
 * puts the cards of one suit together, or spreads them too evenly, and
 * says which hand and which suit: 'deal-random-hand'
 * (algorithms/deal_random_hand.c) deals the sorted deck card by card to
 * random open hands, so the first suit is spread like independent draws
 * (binomial, too many long and short holdings) and the last one crowds
 * into the hands that still have room.  'card-hand' cannot see it.
 *
 * The null, exactly: a hand of a fair deal is a uniform s-subset of the
 * n = 13 S cards, so the length of a suit in it is hypergeometric,
 *     P(k) = C(13, k) C(n - 13, s - k) / C(n, s),  k = 0..min(13, s)
 * (Feller 1968, II.6); for a bridge hand 3 cards 28.633%, 4 cards
 * 23.861%, 0 cards 1.279% (the table "Number of cards in a suit" of
 * bridgehands.com, checked in tests/test_deal_stats.c).  The lengths are
 * pooled from the low end until each group expects at least 5 deals.
 *
 * H x S sub-tests, none pooled with another: the lengths of one hand's
 * suits sum to s, and the lengths of one suit over the hands sum to 13,
 * so they are dependent.  Each has its own X^2 against chi-square(groups
 * - 1) and they are combined by Bonferroni, p = min(1, H S min p),
 * valid under any dependence; the worst hand and suit are named.  The
 * effect is the worst sub-test's chi-square distance per deal beyond its
 * df; the detectable effect, at fail_alpha / (H S), is stated for the
 * commonest length (3 cards of a suit, for bridge).
 *
 * Applies to deals whose n is a multiple of 13 with at least two suits
 * (n >= 26; one suit would make every length s) and H >= 2 equal hands,
 * and on request to a permutation read as 4 hands dealt in blocks
 * (stats/deal_view.h).  n <= 1040 (80 suits): H x S x (min(13, s) + 1)
 * counts, at most 2 n S.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shufflebias/status.h"
#include "stats/cards.h"
#include "stats/deal_view.h"
#include "stats/gof.h"
#include "stats/hands.h"
#include "stats/memory.h"
#include "stats/registry.h"
#include "stats/saved.h"

#define SUIT_LENGTHS_N_MAX 1040

typedef struct suit_lengths_acc {
    sb_deal_view view;   /* how a sample is read as hands */
    size_t suits;        /* S = n / 13 */
    size_t k;            /* lengths 0..min(13, s): k = min(13, s) + 1 */
    int counting;        /* 1: the lengths are counted */
    sb_card *scratch;    /* n: the hand of each card of a permutation */
    uint8_t *len;        /* S x H: suit lengths of the current deal,
                            len[t H + h] (sb_deal_view_suit_lengths) */
    uint64_t *counts;    /* counts[(t H + h) k + length] */
} suit_lengths_acc;

static void suit_lengths_free(void *acc)
{
    suit_lengths_acc *a = acc;
    if (a == NULL)
        return;
    free(a->scratch);
    free(a->len);
    free(a->counts);
    free(a);
}

static int suit_lengths_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    suit_lengths_acc *a = calloc(1, sizeof *a);
    if (a == NULL)
        return SB_ENOMEM;
    if (!sb_deal_view_init(&a->view, shape)
        || shape->n > SUIT_LENGTHS_N_MAX) {
        free(a);
        return SB_EINVAL;
    }
    const sb_deal_view *v = &a->view;
    a->suits = v->n / SB_CARD_RANKS;
    if (!v->ok || v->n % SB_CARD_RANKS != 0 || a->suits < 2) {
        *acc = a;              /* finalize says why nothing was counted */
        return SB_OK;
    }
    a->k = (v->size < SB_CARD_RANKS ? v->size : SB_CARD_RANKS) + 1;
    a->scratch = malloc(v->n * sizeof *a->scratch);
    a->len = malloc(a->suits * v->hands * sizeof *a->len);
    a->counts = calloc(v->hands * a->suits * a->k, sizeof *a->counts);
    if (!a->scratch || !a->len || !a->counts) {
        suit_lengths_free(a);
        return SB_ENOMEM;
    }
    a->counting = 1;
    *acc = a;
    return SB_OK;
}

/* The hot path: the suit lengths of every hand (one pass over the
   deck), then one count for each hand and suit. */
static void suit_lengths_add(void *acc, const sb_card *samples,
                             size_t count)
{
    suit_lengths_acc *a = acc;
    if (!a->counting)
        return;
    const size_t n = a->view.n, cells = a->suits * a->view.hands;
    const size_t k = a->k;
    for (size_t i = 0; i < count; i++, samples += n) {
        const sb_card *hand = sb_deal_view_hands(&a->view, samples,
                                                 a->scratch);
        sb_deal_view_suit_lengths(&a->view, hand, a->len);
        uint64_t *c = a->counts;
        for (size_t j = 0; j < cells; j++, c += k)
            c[a->len[j]]++;
    }
}

static int suit_lengths_merge(void *into, const void *from)
{
    suit_lengths_acc *a = into;
    const suit_lengths_acc *b = from;
    if (a->view.n != b->view.n || a->view.hands != b->view.hands
        || a->view.kind != b->view.kind || a->counting != b->counting)
        return SB_EINVAL;
    if (a->counting)
        for (size_t i = 0; i < a->view.hands * a->suits * a->k; i++)
            a->counts[i] += b->counts[i];
    return SB_OK;
}

static void length_words(char *buf, size_t len, size_t lo, size_t hi,
                         const void *ctx)
{
    (void)ctx;
    if (lo == hi)
        snprintf(buf, len, "%zu card%s", lo, lo == 1 ? "" : "s");
    else
        snprintf(buf, len, "%zu-%zu cards", lo, hi);
}

/* Sub-test t is suit t / H in hand t % H: "hand 2, hearts"; beyond the
   four suits of cards.h, "hand 2, suit 5". */
static void hand_suit_words(char *buf, size_t len, size_t t,
                            const void *ctx)
{
    static const char *const names[] = { "clubs", "diamonds", "hearts",
                                         "spades" };
    const size_t H = ((const sb_deal_view *)ctx)->hands, suit = t / H;
    if (suit < 4)
        snprintf(buf, len, "hand %zu, %s", t % H, names[suit]);
    else
        snprintf(buf, len, "hand %zu, suit %zu", t % H, suit);
}

static int suit_lengths_finalize(const void *acc, uint64_t samples,
                                 double fail_alpha, sb_result *res)
{
    const suit_lengths_acc *a = acc;
    const char *name = sb_stat_suit_lengths.name;
    const size_t n = a->view.n;
    sb_gof_begin(res, name);
    if (sb_deal_view_refuse(&a->view, name, res))
        return SB_OK;
    if (n % SB_CARD_RANKS != 0)
        return sb_gof_not_applicable(res,
            "'%s' needs whole suits of 13 cards: n = %zu is not a multiple "
            "of 13", name, n);
    if (a->suits < 2)
        return sb_gof_not_applicable(res,
            "'%s' needs at least two suits: with one, every hand is all "
            "of it", name);

    const size_t tests = a->view.hands * a->suits, k = a->k;
    double *prob = malloc(k * sizeof *prob);
    if (prob == NULL)
        return SB_ENOMEM;
    int st = SB_OK;
    for (size_t t = 0; t < tests; t++) {
        uint64_t seen = 0;
        for (size_t l = 0; l < k; l++)
            seen += a->counts[t * k + l];
        if (seen != samples)
            st = SB_EINVAL;
    }
    if (st == SB_OK)
        st = sb_hands_null_suit_length(n, SB_CARD_RANKS, a->view.size,
                                       prob);
    if (st == SB_OK) {
        char null_desc[96];
        snprintf(null_desc, sizeof null_desc,
                 "hypergeometric P(k) = C(13,k) C(%zu,%zu-k) / C(%zu,%zu)",
                 n - SB_CARD_RANKS, a->view.size, n, a->view.size);
        const sb_hands_tests t = {
            .tests = tests,
            .k = k,
            .counts = a->counts,
            .prob = prob,
            .ranges = 1,
            .first_value = 0,
            .category = length_words,
            .test = hand_suit_words,
            .ctx = &a->view,
            .one = "one suit of one hand",
            .null_desc = null_desc,
        };
        st = sb_hands_result(res, &t, samples, fail_alpha);
    }
    free(prob);
    return st;
}

/* State files (stats/saved.h): the key, then the (S H) x k counts when
   they are counted (nothing after the key when they are not).  Besides a
   wrong length or key, refused: suits of hands whose counts do not all
   sum to one total (every deal gives each suit of each hand one length),
   which finalize would refuse too. */
static uint64_t suit_lengths_key(const suit_lengths_acc *a)
{
    return sb_saved_key(sb_stat_suit_lengths.name, a->view.kind, a->view.n,
                        a->view.n, a->view.hands);
}

static size_t suit_lengths_cells(const suit_lengths_acc *a)
{
    return a->counting ? a->view.hands * a->suits * a->k : 0;
}

static int suit_lengths_save(const void *acc, uint64_t **words,
                             size_t *count)
{
    const suit_lengths_acc *a = acc;
    return sb_saved_counts(suit_lengths_key(a), a->counts,
                           suit_lengths_cells(a), words, count);
}

static int suit_lengths_load(void *acc, const uint64_t *words, size_t count)
{
    suit_lengths_acc *a = acc;
    const size_t cells = suit_lengths_cells(a);
    const uint64_t *c = sb_saved_body(words, count, suit_lengths_key(a),
                                      cells);
    uint64_t deals;
    if (c == NULL)
        return SB_EINVAL;
    if (cells == 0)
        return SB_OK;
    if (!sb_saved_lines_equal(c, a->view.hands * a->suits, a->k, a->k, 1,
                              &deals))
        return SB_EINVAL;
    memcpy(a->counts, c, cells * sizeof *c);
    return SB_OK;
}

static size_t suit_lengths_memory(const sb_shape *shape, size_t *finalize)
{
    sb_deal_view v;
    *finalize = sb_mem_finalize(0, 0);
    size_t bytes = sb_mem(sizeof(suit_lengths_acc));
    if (!sb_deal_view_init(&v, shape) || !v.ok || v.n % SB_CARD_RANKS != 0
        || v.n / SB_CARD_RANKS < 2)
        return bytes;
    const size_t suits = v.n / SB_CARD_RANKS;
    const size_t k = (v.size < SB_CARD_RANKS ? v.size : SB_CARD_RANKS) + 1;
    *finalize = sb_mem_finalize(k, suits * v.hands * k);
    return bytes + sb_mem(v.n * sizeof(sb_card)) + sb_mem(suits * v.hands)
         + sb_mem(v.hands * suits * k * sizeof(uint64_t));
}

const sb_stat_type sb_stat_suit_lengths = {
    .name = "suit-lengths",
    .sees = "how many cards of each suit each hand holds, hand by hand "
            "and suit by suit",
    .kinds = SB_KIND_DEAL | SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_DEAL,
    .n_min = 2 * SB_CARD_RANKS,
    .n_max = SUIT_LENGTHS_N_MAX,
    .alloc = suit_lengths_alloc,
    .add = suit_lengths_add,
    .merge = suit_lengths_merge,
    .finalize = suit_lengths_finalize,
    .free = suit_lengths_free,
    .save = suit_lengths_save,
    .load = suit_lengths_load,
    .memory = suit_lengths_memory,
};
