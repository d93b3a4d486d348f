/*
 * hcp.c - 'hcp': the high-card points of every hand.
 *
 * What it sees: for each hand, the distribution of its high-card points
 * over the deals, Milton Work's count (ace 4, king 3, queen 2, jack 1;
 * stats/cards.h).  A deal that lets the honours cluster, or keeps them
 * apart, shows here even when every card reaches every hand equally
 * often.  It is the statistic a bridge player feels first ("too many
 * flat 10-count hands"), and it looks at the same clustering of nearby
 * cards that 'deal-random-hand' (algorithms/deal_random_hand.c) makes,
 * through the honours of each suit, which sit next to each other in the
 * sorted deck that deal walks through.  It is the weakest of the four
 * statistics of whole deals against that one (about 8000 bridge deals,
 * where 'same-hand-pairs' needs 40): points mix the four suits and blur
 * the clustering.
 *
 * The null, exactly: a hand of a fair deal is a uniform s-subset of the
 * n cards; the deck holds m_w cards worth w points (m_w = S for S whole
 * suits: the S jacks, queens, kings and aces) and n - sum m_w spot
 * cards, so the numbers a_w of each in the hand are multivariate
 * hypergeometric and the points are sum_w w a_w.  Computed by a chain of
 * one-class hypergeometrics over the four honour ranks (stats/hands.c,
 * sb_hands_null_hcp), any n: a deck whose last suit is cut short simply
 * has fewer of its high ranks.  For a bridge hand (13 of 52) the mean is
 * 13 x 40/52 = 10 and the variance 290/17 = 17.06 (the finite-population
 * variance s sigma^2 (n-s)/(n-1) with sigma^2 = 120/52 - (40/52)^2), and
 * P(0 points) = C(36,13)/C(52,13) = 0.3639% (Wikipedia, "Contract bridge
 * probabilities", table "Probability of HCP distribution": 0.0036; the
 * tests check the whole cumulative table).  The points are pooled from
 * the low end until each group expects at least 5 deals: the rare high
 * counts share groups.
 *
 * The hands are dependent (their points sum to the deck's), so each hand
 * has its own X^2 against chi-square(groups - 1) and the H tests are
 * combined by Bonferroni, p = min(1, H min_h p_h), valid under any
 * dependence; the worst hand is named in effect_desc.  The effect is the
 * worst hand's chi-square distance per deal beyond its df; the
 * detectable effect, at fail_alpha / H, is stated for the commonest
 * count (10 points, for bridge).
 *
 * Applies to deals of H >= 2 equal hands and n >= 10 (card 9 is the
 * first jack: a smaller deck has no points to count), and on request to a
 * permutation read as 4 hands dealt in blocks (stats/deal_view.h).
 * n <= 1040: H x (points + 1) counts.
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

#define HCP_N_MAX 1040
/* The first card worth a point: the jack of clubs. */
#define HCP_N_MIN (SB_RANK_JACK + 1)

typedef struct hcp_acc {
    sb_deal_view view;   /* how a sample is read as hands */
    size_t k;            /* points 0..max: k = max + 1 */
    int counting;        /* 1: the points are counted */
    sb_card *scratch;    /* n: the hand of each card of a permutation */
    uint8_t *points;     /* n: the points of each card (no division on the
                            hot path) */
    size_t *sum;         /* H: points of each hand in the current deal */
    uint64_t *counts;    /* counts[h k + points] */
} hcp_acc;

static void hcp_free(void *acc)
{
    hcp_acc *a = acc;
    if (a == NULL)
        return;
    free(a->scratch);
    free(a->points);
    free(a->sum);
    free(a->counts);
    free(a);
}

static int hcp_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    hcp_acc *a = calloc(1, sizeof *a);
    if (a == NULL)
        return SB_ENOMEM;
    if (!sb_deal_view_init(&a->view, shape) || shape->n > HCP_N_MAX) {
        free(a);
        return SB_EINVAL;
    }
    const sb_deal_view *v = &a->view;
    if (!v->ok || v->n < HCP_N_MIN) {
        *acc = a;              /* finalize says why nothing was counted */
        return SB_OK;
    }
    a->k = sb_hands_hcp_max(v->n, v->size) + 1;
    a->scratch = malloc(v->n * sizeof *a->scratch);
    a->points = malloc(v->n * sizeof *a->points);
    a->sum = calloc(v->hands, sizeof *a->sum);
    a->counts = calloc(v->hands * a->k, sizeof *a->counts);
    if (!a->scratch || !a->points || !a->sum || !a->counts) {
        hcp_free(a);
        return SB_ENOMEM;
    }
    for (size_t c = 0; c < v->n; c++)
        a->points[c] = (uint8_t)sb_card_hcp(c);
    a->counting = 1;
    *acc = a;
    return SB_OK;
}

/* The hot path: one addition per card into its hand's sum, then one
   count per hand. */
static void hcp_add(void *acc, const sb_card *samples, size_t count)
{
    hcp_acc *a = acc;
    if (!a->counting)
        return;
    const size_t n = a->view.n, H = a->view.hands, k = a->k;
    for (size_t i = 0; i < count; i++, samples += n) {
        const sb_card *hand = sb_deal_view_hands(&a->view, samples,
                                                 a->scratch);
        for (size_t c = 0; c < n; c++)
            a->sum[hand[c]] += a->points[c];
        for (size_t h = 0; h < H; h++) {
            a->counts[h * k + a->sum[h]]++;
            a->sum[h] = 0;
        }
    }
}

static int hcp_merge(void *into, const void *from)
{
    hcp_acc *a = into;
    const hcp_acc *b = from;
    if (a->view.n != b->view.n || a->view.hands != b->view.hands
        || a->view.kind != b->view.kind || a->counting != b->counting)
        return SB_EINVAL;
    if (a->counting)
        for (size_t i = 0; i < a->view.hands * a->k; i++)
            a->counts[i] += b->counts[i];
    return SB_OK;
}

static void points_words(char *buf, size_t len, size_t lo, size_t hi,
                         const void *ctx)
{
    (void)ctx;
    if (lo == hi)
        snprintf(buf, len, "%zu HCP", lo);
    else
        snprintf(buf, len, "%zu-%zu HCP", lo, hi);
}

static void hand_words(char *buf, size_t len, size_t t, const void *ctx)
{
    (void)ctx;
    snprintf(buf, len, "hand %zu", t);
}

static int hcp_finalize(const void *acc, uint64_t samples, double fail_alpha,
                        sb_result *res)
{
    const hcp_acc *a = acc;
    const char *name = sb_stat_hcp.name;
    sb_gof_begin(res, name);
    if (sb_deal_view_refuse(&a->view, name, res))
        return SB_OK;
    if (a->view.n < HCP_N_MIN)
        return sb_gof_not_applicable(res,
            "'%s' needs n >= %d: the first jack is card %d (n is %zu)",
            name, HCP_N_MIN, HCP_N_MIN - 1, a->view.n);
    double *prob = malloc(a->k * sizeof *prob);
    if (prob == NULL)
        return SB_ENOMEM;
    int st = sb_hands_null_hcp(a->view.n, a->view.size, prob);
    if (st == SB_OK) {
        char null_desc[96];
        snprintf(null_desc, sizeof null_desc,
                 "points of %zu cards of %zu, multivariate hypergeometric",
                 a->view.size, a->view.n);
        const sb_hands_tests t = {
            .tests = a->view.hands,
            .k = a->k,
            .counts = a->counts,
            .prob = prob,
            .ranges = 1,
            .first_value = 0,
            .category = points_words,
            .test = hand_words,
            .ctx = NULL,
            .one = "one hand",
            .null_desc = null_desc,
        };
        st = sb_hands_result(res, &t, samples, fail_alpha);
    }
    free(prob);
    return st;
}

/* State files (stats/saved.h): the key, then the H x k counts when they
   are counted (nothing after the key when they are not; 'sum' is scratch,
   zero between deals).  Besides a wrong length or key, refused: hands
   whose counts do not all sum to one total (every deal gives every hand
   one count of points). */
static uint64_t hcp_key(const hcp_acc *a)
{
    return sb_saved_key(sb_stat_hcp.name, a->view.kind, a->view.n, a->view.n,
                        a->view.hands);
}

static size_t hcp_cells(const hcp_acc *a)
{
    return a->counting ? a->view.hands * a->k : 0;
}

static int hcp_save(const void *acc, uint64_t **words, size_t *count)
{
    const hcp_acc *a = acc;
    return sb_saved_counts(hcp_key(a), a->counts, hcp_cells(a), words, count);
}

static int hcp_load(void *acc, const uint64_t *words, size_t count)
{
    hcp_acc *a = acc;
    const size_t cells = hcp_cells(a);
    const uint64_t *c = sb_saved_body(words, count, hcp_key(a), cells);
    uint64_t deals;
    if (c == NULL)
        return SB_EINVAL;
    if (cells == 0)
        return SB_OK;
    if (!sb_saved_lines_equal(c, a->view.hands, a->k, a->k, 1, &deals))
        return SB_EINVAL;
    memcpy(a->counts, c, cells * sizeof *c);
    return SB_OK;
}

static size_t hcp_memory(const sb_shape *shape, size_t *finalize)
{
    sb_deal_view v;
    *finalize = sb_mem_finalize(0, 0);
    size_t bytes = sb_mem(sizeof(hcp_acc));
    if (!sb_deal_view_init(&v, shape) || !v.ok || v.n < HCP_N_MIN)
        return bytes;
    const size_t k = sb_hands_hcp_max(v.n, v.size) + 1;
    /* The null's chain: two tables of (s + 1) x k. */
    *finalize = sb_mem_finalize(k, v.hands * k)
              + 2 * sb_mem((v.size + 1) * k * sizeof(double));
    return bytes + sb_mem(v.n * sizeof(sb_card)) + sb_mem(v.n)
         + sb_mem(v.hands * sizeof(size_t))
         + sb_mem(v.hands * k * sizeof(uint64_t));
}

const sb_stat_type sb_stat_hcp = {
    .name = "hcp",
    .sees = "the high-card points of each hand (ace 4, king 3, queen 2, "
            "jack 1), hand by hand",
    .kinds = SB_KIND_DEAL | SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_DEAL,
    .n_min = HCP_N_MIN,
    .n_max = HCP_N_MAX,
    .alloc = hcp_alloc,
    .add = hcp_add,
    .merge = hcp_merge,
    .finalize = hcp_finalize,
    .free = hcp_free,
    .save = hcp_save,
    .load = hcp_load,
    .memory = hcp_memory,
};
