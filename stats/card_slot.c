/*
 * card_slot.c - 'card-slot': which card is drawn first, second, ...
 *
 * What it sees: draws of the first k cards of a shuffled n-card deck, as
 * the n x (k+1) table of how often card c was drawn in slot j (j < k),
 * plus a last column, "not drawn", counting the samples in which card c
 * was not among the k (N minus the card's drawn counts, so it is derived,
 * not counted).  A fair draw puts every card in every slot with
 * probability 1/n and leaves it out with probability (n-k)/n: a slot cell
 * expects N/n, a not-drawn cell N(n-k)/n.  It catches a draw that
 * favours some cards in some slots (a partial shuffle with an off-by-one,
 * a 'rand() % m' pick of each card) and one that draws some cards too
 * rarely at all.  The position matrix cannot stand in for it: the unused
 * tail of a partial shuffle need not be uniform even when the draw is.
 *
 * The null, exactly: one uniform draw puts the n cards into k groups of
 * one card (the slots) and one of n - k (the rest).  Every card is in one
 * group and every group holds a fixed number of cards, so both margins
 * are fixed and the plain Pearson X^2 is not chi-square((n-1)k).  As for
 * card x hand, the indicators' covariance is (n/(n-1)) (I - J/n) on the
 * card side times the multinomial diag(p) - p p^T on the group side
 * (p_j = 1/n for a slot, (n-k)/n for the rest), and standardized it is
 * n/(n-1) times a projection of rank (n-1)k: X^2 (n-1)/n tends to
 * chi-square((n-1)k) and the plain X^2 has mean nk exactly.  When k = n
 * the not-drawn column is always empty and is left out: the table is then
 * the position matrix, chi-square((n-1)^2).  The derivation in full,
 * shared with 'card-hand', is in gof.c, which turns this table into the
 * result; tests/test_card_groups.c checks both means by simulation.
 *
 * Applies when n >= 2 and k >= 1; else the result is not applicable,
 * saying why.  Never pooled, like position.
 *
 * Memory: n x k 64-bit counts (the not-drawn column is derived), n capped
 * at 4096 as for position.
 */
#include <stdlib.h>
#include <string.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/memory.h"
#include "stats/registry.h"
#include "stats/saved.h"

#define CARD_SLOT_N_MAX 4096

typedef struct card_slot_acc {
    size_t n;             /* deck size */
    size_t k;             /* cards drawn per sample, k <= n */
    uint64_t counts[];    /* counts[slot * n + card], k * n of them
                             (the transpose of the result's table) */
} card_slot_acc;

static int card_slot_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    if (shape->kind != SB_KIND_DRAW || shape->len > shape->n
        || shape->n < 1 || shape->n > CARD_SLOT_N_MAX)
        return SB_EINVAL;
    card_slot_acc *a = calloc(1, sizeof *a
                                 + shape->len * shape->n * sizeof(uint64_t));
    if (a == NULL)
        return SB_ENOMEM;
    a->n = shape->n;
    a->k = shape->len;
    *acc = a;
    return SB_OK;
}

/* The hot path: one increment per card drawn, slot-major so that the row
   pointer steps by n and the card indexes it, as in position.
   Precondition: every value < n, no card twice in a sample (the runner
   validates external input before it gets here). */
static void card_slot_add(void *acc, const sb_card *samples, size_t count)
{
    card_slot_acc *a = acc;
    const size_t n = a->n, k = a->k;
    for (size_t i = 0; i < count; i++, samples += k) {
        uint64_t *row = a->counts;
        for (size_t j = 0; j < k; j++, row += n)
            row[samples[j]]++;
    }
}

static int card_slot_merge(void *into, const void *from)
{
    card_slot_acc *a = into;
    const card_slot_acc *b = from;
    if (a->n != b->n || a->k != b->k)
        return SB_EINVAL;
    for (size_t i = 0; i < a->k * a->n; i++)
        a->counts[i] += b->counts[i];
    return SB_OK;
}

static int card_slot_finalize(const void *acc, uint64_t samples,
                              double fail_alpha, sb_result *res)
{
    const card_slot_acc *a = acc;
    const char *name = sb_stat_card_slot.name;
    sb_gof_begin(res, name);
    if (a->n < 2)
        return sb_gof_not_applicable(res, "'%s' needs n >= 2 (n is %zu)",
                                     name, a->n);
    if (a->k < 1)
        return sb_gof_not_applicable(res,
            "'%s' needs draws of at least one card", name);
    const sb_gof_groups g = {
        .n = a->n,
        .counted = a->k,
        .size = 1,
        .counts = a->counts,
        .card_step = 1,
        .group_step = a->n,
        .group = "slot",
        .rest = "not drawn",
        .table = a->k < a->n ? "card x slot and not drawn" : "card x slot",
    };
    return sb_gof_groups_result(res, &g, samples, fail_alpha);
}

static void card_slot_free(void *acc)
{
    free(acc);
}

/* State files (stats/saved.h): the key, then the k x n counts as they
   are kept.  Besides a wrong length or key, refused: slots that were not
   all filled the same number of times (one card each per draw), and a
   card drawn more often than there were draws (at most once per draw). */
static uint64_t card_slot_key(const card_slot_acc *a)
{
    return sb_saved_key(sb_stat_card_slot.name, SB_KIND_DRAW, a->n, a->k, 0);
}

static int card_slot_save(const void *acc, uint64_t **words, size_t *count)
{
    const card_slot_acc *a = acc;
    return sb_saved_counts(card_slot_key(a), a->counts, a->k * a->n, words,
                           count);
}

static int card_slot_load(void *acc, const uint64_t *words, size_t count)
{
    card_slot_acc *a = acc;
    const size_t n = a->n, k = a->k;
    const uint64_t *c = sb_saved_body(words, count, card_slot_key(a), k * n);
    uint64_t draws;
    if (c == NULL || !sb_saved_lines_equal(c, k, n, n, 1, &draws))
        return SB_EINVAL;
    for (size_t card = 0; k > 0 && card < n; card++) {
        uint64_t drawn;
        if (!sb_saved_sum(c + card, k, n, &drawn) || drawn > draws)
            return SB_EINVAL;
    }
    memcpy(a->counts, c, k * n * sizeof *c);
    return SB_OK;
}

static size_t card_slot_memory(const sb_shape *shape, size_t *finalize)
{
    const size_t cells = shape->len * shape->n;
    /* The table has a column more, the cards not drawn, unless every card
       is drawn. */
    *finalize = sb_mem_finalize(shape->len, cells + (shape->len < shape->n
                                                     ? shape->n : 0));
    return sb_mem(sizeof(card_slot_acc) + cells * sizeof(uint64_t));
}

const sb_stat_type sb_stat_card_slot = {
    .name = "card-slot",
    .sees = "how often each card is drawn first, second, ... or not at "
            "all (card x slot counts)",
    .kinds = SB_KIND_DRAW,
    .default_kinds = SB_KIND_DRAW,
    .n_min = 1,
    .n_max = CARD_SLOT_N_MAX,
    .alloc = card_slot_alloc,
    .add = card_slot_add,
    .merge = card_slot_merge,
    .finalize = card_slot_finalize,
    .free = card_slot_free,
    .save = card_slot_save,
    .load = card_slot_load,
    .memory = card_slot_memory,
};
