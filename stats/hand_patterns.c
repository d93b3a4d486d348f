/*
 * hand_patterns.c - 'hand-patterns': the suit pattern of every hand.
 *
 * What it sees: for each hand of a deal, its pattern, the suit lengths
 * sorted from longest to shortest (4-4-3-2: two four-card suits, a three
 * and a two), counted hand by hand.  A deal that clusters the cards of a
 * suit in one hand, or spreads them too evenly, shows here even when
 * every card goes to every hand equally often.  It exists for
 * 'deal-random-hand' (algorithms/deal_random_hand.c): that deal goes
 * through the sorted deck, so the cards of a suit come one after the
 * other, and it sends each to a random open hand whatever room that hand
 * has left: early suits spread like independent draws (more long and
 * short suits than a fair deal), late ones crowd into the hands that fill
 * last.  'card-hand' is blind to it (each card is in each hand with
 * probability exactly 1/H).
 *
 * The null, exactly: each hand of a fair deal is a uniform s-subset of
 * the n = 13 S cards, so the lengths l_1..l_S of its suits (in suit
 * order) have the multivariate hypergeometric probability
 *     prod_i C(13, l_i) / C(n, s),
 * and a pattern collects the A(l) = S! / prod_v (suits of length v)!
 * orders of its lengths (Feller 1968, II.6; the 39 patterns of a bridge
 * hand and their probabilities are the table "Hand pattern probabilities"
 * of Wikipedia's "Contract bridge probabilities": 4-4-3-2 21.5512%,
 * 5-3-3-2 15.5168%, 4-3-3-3 10.5361%, ..., 13-0-0-0 6.3e-12).  The
 * patterns are enumerated, not listed: any number S >= 2 of whole suits
 * and any hand size (stats/hands.c, sb_patterns_*).  Patterns are
 * numbered most balanced first (4-3-3-3, 4-4-3-2, 4-4-4-1, 5-3-3-2, ...
 * 13-0-0-0), and pooled in that order from the low end until each group
 * expects at least 5 deals, so the rare long-suit patterns share groups.
 *
 * The hands are dependent (their lengths in a suit sum to 13), so they
 * are not pooled: each hand has its own X^2 against chi-square(groups - 1)
 * and the H tests are combined by Bonferroni, p = min(1, H min_h p_h),
 * valid under any dependence; the worst hand is named in effect_desc.
 * The effect is the worst hand's chi-square distance per deal beyond its
 * df; the detectable effect, at fail_alpha / H, is stated for the most
 * common pattern of one hand ("4-4-3-2 in one hand about 4% more or less
 * often than its 21.6% rate" at 200000 deals).
 *
 * Applies to deals whose n is a multiple of 13 with at least two suits
 * (n >= 26) and H >= 2 equal hands; to a permutation read as 4 hands in
 * blocks (stats/deal_view.h) on request.  Not applicable when n is not a
 * multiple of 13 (a suit cut short has no pattern shared by the others)
 * or when there are too many patterns to count (hands of hundreds of
 * cards over many suits).  n <= 1040 (80 suits).
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

#define HAND_PATTERNS_N_MAX 1040
/* At most this many counts (hands x patterns): 16 MB. */
#define HAND_PATTERNS_CELLS (1u << 21)

typedef struct hand_patterns_acc {
    sb_deal_view view;   /* how a sample is read as hands */
    size_t suits;        /* S = n / 13 whole suits */
    int counting;        /* 1: the patterns are counted */
    sb_patterns pat;     /* numbering and null of the patterns */
    sb_card *scratch;    /* n: the hand of each card of a permutation */
    uint8_t *len;        /* S x H: suit lengths of the current deal,
                            len[t H + h] (sb_deal_view_suit_lengths) */
    uint64_t *counts;    /* H x patterns: counts[h * count + pattern] */
} hand_patterns_acc;

static void hand_patterns_free(void *acc)
{
    hand_patterns_acc *a = acc;
    if (a == NULL)
        return;
    sb_patterns_free(&a->pat);
    free(a->scratch);
    free(a->len);
    free(a->counts);
    free(a);
}

static int hand_patterns_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    hand_patterns_acc *a = calloc(1, sizeof *a);
    if (a == NULL)
        return SB_ENOMEM;
    if (!sb_deal_view_init(&a->view, shape)
        || shape->n > HAND_PATTERNS_N_MAX) {
        free(a);
        return SB_EINVAL;
    }
    const sb_deal_view *v = &a->view;
    a->suits = v->n / SB_CARD_RANKS;
    if (!v->ok || v->n % SB_CARD_RANKS != 0 || a->suits < 2) {
        *acc = a;              /* finalize says why nothing was counted */
        return SB_OK;
    }
    const size_t H = v->hands;
    int st = sb_patterns_init(&a->pat, a->suits, v->size,
                              HAND_PATTERNS_CELLS / H);
    if (st == SB_ERANGE) {
        *acc = a;
        return SB_OK;
    }
    if (st != SB_OK) {
        hand_patterns_free(a);
        return st;
    }
    a->scratch = malloc(v->n * sizeof *a->scratch);
    a->len = malloc(a->suits * H * sizeof *a->len);
    a->counts = calloc(H * a->pat.count, sizeof *a->counts);
    if (!a->scratch || !a->len || !a->counts) {
        hand_patterns_free(a);
        return SB_ENOMEM;
    }
    a->counting = 1;
    *acc = a;
    return SB_OK;
}

/* Exchange so that l[i] >= l[j], without a branch (the compiler makes
   conditional moves of it). */
#define LONGER_FIRST(l, i, j)                                               \
    do {                                                                    \
        const uint8_t x_ = (l)[i], y_ = (l)[j];                             \
        (l)[i] = x_ > y_ ? x_ : y_;                                         \
        (l)[j] = x_ > y_ ? y_ : x_;                                         \
    } while (0)

/* Sort the S lengths of one hand, longest first: for four suits an
   optimal sorting network (Knuth, TAOCP vol. 3, 5.3.4: five comparators)
   whose comparisons do not depend on the data, so nothing is
   mispredicted; otherwise insertion sort. */
static void sort_longest_first(uint8_t *l, size_t S)
{
    if (S == 4) {
        LONGER_FIRST(l, 0, 1);
        LONGER_FIRST(l, 2, 3);
        LONGER_FIRST(l, 0, 2);
        LONGER_FIRST(l, 1, 3);
        LONGER_FIRST(l, 1, 2);
        return;
    }
    for (size_t j = 1; j < S; j++) {
        const uint8_t x = l[j];
        size_t m = j;
        for (; m > 0 && l[m - 1] < x; m--)
            l[m] = l[m - 1];
        l[m] = x;
    }
}

/* The hot path: the suit lengths of every hand (one pass over the
   deck), then for each hand its S lengths gathered, sorted and numbered
   (S look-ups). */
static void hand_patterns_add(void *acc, const sb_card *samples,
                              size_t count)
{
    hand_patterns_acc *a = acc;
    if (!a->counting)
        return;
    const size_t n = a->view.n, H = a->view.hands, S = a->suits;
    const size_t patterns = a->pat.count;
    uint8_t l[HAND_PATTERNS_N_MAX / SB_CARD_RANKS];
    for (size_t i = 0; i < count; i++, samples += n) {
        const sb_card *hand = sb_deal_view_hands(&a->view, samples,
                                                 a->scratch);
        sb_deal_view_suit_lengths(&a->view, hand, a->len);
        for (size_t h = 0; h < H; h++) {
            for (size_t t = 0; t < S; t++)
                l[t] = a->len[t * H + h];
            sort_longest_first(l, S);
            a->counts[h * patterns + sb_patterns_rank(&a->pat, l)]++;
        }
    }
}

static int hand_patterns_merge(void *into, const void *from)
{
    hand_patterns_acc *a = into;
    const hand_patterns_acc *b = from;
    if (a->view.n != b->view.n || a->view.hands != b->view.hands
        || a->view.kind != b->view.kind || a->counting != b->counting)
        return SB_EINVAL;
    if (a->counting)
        for (size_t i = 0; i < a->view.hands * a->pat.count; i++)
            a->counts[i] += b->counts[i];
    return SB_OK;
}

/* Patterns lo..hi in words: "4-4-3-2", or "7-3-2-1 to 13-0-0-0". */
static void pattern_words(char *buf, size_t len, size_t lo, size_t hi,
                          const void *ctx)
{
    const sb_patterns *p = ctx;
    unsigned l[HAND_PATTERNS_N_MAX / SB_CARD_RANKS];
    char first[48], second[48];
    sb_patterns_lengths(p, lo, l);
    sb_patterns_name(l, p->suits, first, sizeof first);
    if (lo == hi) {
        snprintf(buf, len, "%s", first);
        return;
    }
    sb_patterns_lengths(p, hi, l);
    sb_patterns_name(l, p->suits, second, sizeof second);
    snprintf(buf, len, "%s to %s", first, second);
}

static void hand_words(char *buf, size_t len, size_t t, const void *ctx)
{
    (void)ctx;
    snprintf(buf, len, "hand %zu", t);
}

static int hand_patterns_finalize(const void *acc, uint64_t samples,
                                  double fail_alpha, sb_result *res)
{
    const hand_patterns_acc *a = acc;
    const char *name = sb_stat_hand_patterns.name;
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
            "'%s' needs at least two suits: with one, every hand has the "
            "same pattern", name);
    if (!a->counting)
        return sb_gof_not_applicable(res,
            "'%s' counts at most %u hands x patterns: %u hands of %zu "
            "cards over %zu suits have more", name, HAND_PATTERNS_CELLS,
            a->view.hands, a->view.size, a->suits);

    double *prob = malloc(a->pat.count * sizeof *prob);
    if (prob == NULL)
        return SB_ENOMEM;
    int st = sb_patterns_null(&a->pat, prob);
    if (st != SB_OK) {
        free(prob);
        return st;
    }
    char null_desc[96];
    snprintf(null_desc, sizeof null_desc,
             "%zu patterns, P = A(l) prod C(13,l_i) / C(%zu,%zu)",
             a->pat.count, n, a->view.size);
    const sb_hands_tests t = {
        .tests = a->view.hands,
        .k = a->pat.count,
        .counts = a->counts,
        .prob = prob,
        .ranges = 0,
        .category = pattern_words,
        .test = hand_words,
        .ctx = &a->pat,
        .one = "one hand",
        .null_desc = null_desc,
    };
    st = sb_hands_result(res, &t, samples, fail_alpha);
    free(prob);
    return st;
}

/* State files (stats/saved.h): the key, then the H x patterns counts
   when they are counted (nothing after the key when they are not; the
   pattern numbering is a function of the shape).  Besides a wrong length
   or key, refused: hands whose counts do not all sum to one total (every
   deal gives every hand one pattern). */
static uint64_t hand_patterns_key(const hand_patterns_acc *a)
{
    return sb_saved_key(sb_stat_hand_patterns.name, a->view.kind, a->view.n,
                        a->view.n, a->view.hands);
}

static size_t hand_patterns_cells(const hand_patterns_acc *a)
{
    return a->counting ? a->view.hands * a->pat.count : 0;
}

static int hand_patterns_save(const void *acc, uint64_t **words,
                              size_t *count)
{
    const hand_patterns_acc *a = acc;
    return sb_saved_counts(hand_patterns_key(a), a->counts,
                           hand_patterns_cells(a), words, count);
}

static int hand_patterns_load(void *acc, const uint64_t *words, size_t count)
{
    hand_patterns_acc *a = acc;
    const size_t cells = hand_patterns_cells(a);
    const uint64_t *c = sb_saved_body(words, count, hand_patterns_key(a),
                                      cells);
    uint64_t deals;
    if (c == NULL)
        return SB_EINVAL;
    if (cells == 0)
        return SB_OK;
    if (!sb_saved_lines_equal(c, a->view.hands, a->pat.count, a->pat.count,
                              1, &deals))
        return SB_EINVAL;
    memcpy(a->counts, c, cells * sizeof *c);
    return SB_OK;
}

/* The patterns are numbered to learn how many there are: a table of a
   few kilobytes, made and freed again. */
static size_t hand_patterns_memory(const sb_shape *shape, size_t *finalize)
{
    sb_deal_view v;
    *finalize = sb_mem_finalize(0, 0);
    size_t bytes = sb_mem(sizeof(hand_patterns_acc));
    if (!sb_deal_view_init(&v, shape) || !v.ok || v.n % SB_CARD_RANKS != 0
        || v.n / SB_CARD_RANKS < 2 || shape->n > HAND_PATTERNS_N_MAX)
        return bytes;
    const size_t suits = v.n / SB_CARD_RANKS, H = v.hands;
    sb_patterns pat;
    if (sb_patterns_init(&pat, suits, v.size, HAND_PATTERNS_CELLS / H)
        != SB_OK)
        return bytes;
    const size_t count = pat.count;
    sb_patterns_free(&pat);
    const size_t L = v.size < SB_CARD_RANKS ? v.size : SB_CARD_RANKS;
    *finalize = sb_mem_finalize(count, H * count);
    return bytes + sb_mem((suits + 1) * (L + 1) * (v.size + 1)
                          * sizeof(uint32_t))
         + sb_mem(v.n * sizeof(sb_card)) + sb_mem(suits * H)
         + sb_mem(H * count * sizeof(uint64_t));
}

const sb_stat_type sb_stat_hand_patterns = {
    .name = "hand-patterns",
    .sees = "the suit pattern of each hand (4-4-3-2, 5-3-3-2, ...), hand "
            "by hand",
    .kinds = SB_KIND_DEAL | SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_DEAL,
    .n_min = 2 * SB_CARD_RANKS,
    .n_max = HAND_PATTERNS_N_MAX,
    .alloc = hand_patterns_alloc,
    .add = hand_patterns_add,
    .merge = hand_patterns_merge,
    .finalize = hand_patterns_finalize,
    .free = hand_patterns_free,
    .save = hand_patterns_save,
    .load = hand_patterns_load,
    .memory = hand_patterns_memory,
};
