/*
 * serial.c - 'serial': does one sample depend on the one before it?
 *
 * What it sees: pairs of consecutive samples.  Every other statistic looks
 * at samples one at a time, so a shuffle that keeps state between samples
 * - reshuffling the previous deck with a few swaps, dealing the next hand
 * from the same deck without shuffling the rest - can pass them all while
 * each sample follows from the last.  This one compares each sample with
 * the previous one.
 *
 * PERMUTATION.  With deck_t[j] the card at position j of sample t, the
 * relative permutation of samples t and t+1 sends each position j of
 * sample t to the position in sample t+1 of the card that was there:
 *     tau_t(j) = pos_{t+1}(deck_t[j]),   pos_{t+1} the inverse of deck_{t+1}
 * (in function notation, with sigma_t = pos_t sending a card to its
 * position, tau_t = sigma_{t+1} o sigma_t^-1).  The statistic counts the
 * n x n table of (j, tau_t(j)): "the card at position j went to position
 * i of the next deck".  The null: for independent uniform samples the
 * tau_t are themselves independent and uniform (the map from
 * (deck_1, ..., deck_m) to (tau_1, ..., tau_{m-1}, deck_m) is a bijection
 * of S_n^m, so it carries the uniform law to the uniform law), so the
 * table is exactly a position matrix over the m - 1 pairs: every row and
 * column sums to the pairs, and X^2 (n-1)/n tends to chi-square((n-1)^2)
 * (the derivation in gof.c and position.c).  It is finalized by the same
 * card x group machinery as position (sb_gof_groups_result, n groups of
 * one position), so the two agree on everything but the names.  A
 * shuffle that carries its deck over shows as a heavy diagonal ("the card
 * at position 5 stayed at position 5").  The previous sample's inverse is
 * kept in the accumulator, so 'add' allocates nothing.
 *
 * DRAW.  The overlap |H_t n H_{t+1}| of consecutive hands, as sets.  For
 * independent uniform draws of k cards from n it is hypergeometric:
 *     P(x) = C(k,x) C(n-k,k-x) / C(n,k),  max(0, 2k-n) <= x <= k
 * (W. Feller, "An Introduction to Probability Theory and Its
 * Applications", vol. 1, 3rd ed., II.6), computed by GSL's
 * gsl_ran_hypergeometric_pdf; and consecutive overlaps are independent:
 * given H_2, the overlap with H_1 has that law whatever H_2 is, and so on
 * along the chain.  A 1-D distribution, pooled and referred to chi-square
 * by sb_gof_law_result.  A game that deals the next hand from the rest of
 * the deck gives disjoint hands: "0 cards in common: 100% of pairs".  A
 * draw of the whole deck (k = n) always overlaps fully: not applicable.
 *
 * DEAL.  A deal has no positions, so there is no relative permutation;
 * what carries over from one deal to the next is which hand each card is
 * in.  The statistic counts the H x H table of (hand of card c in deal t,
 * hand of card c in deal t+1) over every card and every consecutive pair:
 * "a card of hand a went to hand b of the next deal".  Its diagonal is
 * the overlap hand by hand (cell (h, h) over the pairs is how many cards
 * seat h kept, on average), its rows are each seat followed card by card.
 *
 * The null, exactly.  With H hands of s = n/H cards, the table T_t of one
 * pair is, given deal t+1, the table of a uniformly random deal against a
 * fixed one: a contingency table with every row and column summing to s,
 * whose law is the multivariate hypergeometric of fixed margins.  Its
 * diagonal cell is hypergeometric: P(x) = C(s,x) C(n-s,s-x) / C(n,s), as
 * for draws.  That law does not depend on deal t+1, so (the chain argument
 * of draws again) T_1, ..., T_{m-1} are independent and identically
 * distributed.  For one such table (n cards, margins r = c = 1/H),
 *     Cov(T_ab, T_a'b') = n^2/(n-1) (d_aa'/H - 1/H^2) (d_bb'/H - 1/H^2),
 * the same Kronecker form as a card x group table (gof.c): Pearson's X^2
 * of the summed table, E = pairs s^2/n per cell, has mean exactly
 * n (H-1)^2 / (n-1) at every number of pairs, and X^2 (n-1)/n tends to
 * chi-square((H-1)^2).  tests/test_serial_deal.c checks the
 * hypergeometric diagonal, the covariance and that mean by enumerating
 * every pair (and triple) of deals at small n.
 *
 * Why this table and not the alternatives.  The overlap of one seat alone
 * is a 1-D law with an exact multinomial test, but it sees only that seat
 * keeping its cards; a dealer that cuts and re-deals the previous deal
 * passes whole hands to other seats and leaves the diagonal empty, which
 * the table sees as plainly as a kept hand.  The overlaps of all H seats
 * together are not independent (they share the cards), so their pooled
 * histogram has no exact chi-square.  Card by card (an n x H x H table,
 * each card's own H x H transitions) sees more patterns but spreads the
 * same evidence over n (H-1)^2 degrees of freedom, 468 for bridge against
 * 9: a dealer that carries its deal over moves most cards alike, and the
 * summed table gathers them into 9.  So: the summed H x H table, whose
 * null is exact per pair and whose reference is the same limit as
 * position's.  Applies when H >= 2 and H divides n (hands of equal size,
 * which every built-in deal has); one hand holds every card and says
 * nothing.  H x H 64-bit counts, and the previous deal is read in place
 * (pairs within one call of 'add' are contiguous).
 *
 * What else it responds to: the null is that of independent uniform
 * samples, and independence alone is not enough.  Two independent decks
 * from a biased shuffle have a relative permutation whose law is the
 * shuffle's law convolved with its inverse's, not uniform (and two
 * independent hands that favour the same cards overlap too much), so a
 * strong marginal bias shows here too, at second order: naive-swap on
 * 3 cards, 2 x 10^5 decks, gives p = 0.0014 where position gives
 * p < 1e-300.  When the per-sample statistics fail as well, read a
 * 'serial' failure as that bias first; alone, it means dependence.
 *
 * Which pairs: only consecutive samples within one call of 'add'.  The
 * runner never lets a call span two chunks (and chunks are independent
 * streams, possibly run by different threads), so pairs across calls are
 * not counted: with the runner's blocks of 64 samples, 63 pairs in 64.
 * The result's sample count is the number of pairs.
 *
 * Memory: n x n 64-bit counts for permutations (n capped at 4096, as for
 * position), k + 1 counts and n stamps for draws, H x H counts for deals.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/memory.h"
#include "stats/registry.h"
#include "stats/saved.h"

#define SERIAL_N_MAX 4096

typedef struct serial_acc {
    sb_kind kind;         /* PERMUTATION, DRAW or DEAL */
    unsigned hands;       /* DEAL: H, from the shape */
    int counting;         /* DEAL: 1 when 2 <= H and H divides n */
    size_t n;             /* deck size */
    size_t len;           /* values per sample: n, or k */
    uint64_t pairs;       /* consecutive pairs counted */
    sb_card *pos;         /* PERMUTATION: scratch, the previous sample's
                             inverse, pos[card] = position */
    uint64_t *stamp;      /* DRAW: scratch, stamp[card] == now when the card
                             was in the previous hand */
    uint64_t now;         /* DRAW: the previous hand's stamp */
    uint64_t counts[];    /* PERMUTATION: counts[i * n + j], the card at
                             position j went to position i (n * n);
                             DRAW: counts[x], pairs with x cards in common
                             (k + 1);
                             DEAL: counts[a * H + b], a card of hand a
                             went to hand b of the next deal (H * H) */
} serial_acc;

/* Equal hands of at least one card, and at least two of them. */
static int serial_deal_testable(size_t n, unsigned hands)
{
    return hands >= 2 && hands <= n && n % hands == 0;
}

static int serial_alloc_deal(void **acc, const sb_shape *shape)
{
    const int counting = serial_deal_testable(shape->n, shape->hands);
    const size_t cells = counting ? (size_t)shape->hands * shape->hands : 0;
    serial_acc *a = calloc(1, sizeof *a + cells * sizeof(uint64_t));
    if (a == NULL)
        return SB_ENOMEM;
    a->kind = SB_KIND_DEAL;
    a->n = shape->n;
    a->len = shape->len;
    a->hands = shape->hands;
    a->counting = counting;
    *acc = a;
    return SB_OK;
}

static int serial_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    const size_t n = shape->n;
    if (n < 1 || n > SERIAL_N_MAX || shape->len < 1
        || (shape->kind == SB_KIND_PERMUTATION && shape->len != n)
        || (shape->kind == SB_KIND_DRAW && shape->len > n)
        || (shape->kind == SB_KIND_DEAL && shape->len != n)
        || (shape->kind != SB_KIND_PERMUTATION && shape->kind != SB_KIND_DRAW
            && shape->kind != SB_KIND_DEAL))
        return SB_EINVAL;
    if (shape->kind == SB_KIND_DEAL)
        return serial_alloc_deal(acc, shape);
    const int perm = shape->kind == SB_KIND_PERMUTATION;
    const size_t cells = perm ? n * n : shape->len + 1;
    serial_acc *a = calloc(1, sizeof *a + cells * sizeof(uint64_t));
    if (a == NULL)
        return SB_ENOMEM;
    if (perm)
        a->pos = calloc(n, sizeof *a->pos);
    else
        a->stamp = calloc(n, sizeof *a->stamp);
    if (perm ? a->pos == NULL : a->stamp == NULL) {
        free(a);
        return SB_ENOMEM;
    }
    a->kind = shape->kind;
    a->n = n;
    a->len = shape->len;
    *acc = a;
    return SB_OK;
}

/* The hot path for permutations: for each card of the new sample, one
   increment in the row of its new position, at the column of its old
   one, and its old position replaced by the new (each card is met once,
   so it is read before it is overwritten).  Precondition: every value
   < n, no card twice (the runner validates outside input). */
static void serial_add_perm(serial_acc *a, const sb_card *s, size_t count)
{
    const size_t n = a->n;
    sb_card *pos = a->pos;
    for (size_t j = 0; j < n; j++)
        pos[s[j]] = (sb_card)j;
    s += n;
    for (size_t t = 1; t < count; t++, s += n) {
        uint64_t *row = a->counts;
        for (size_t i = 0; i < n; i++, row += n) {
            const sb_card c = s[i];
            row[pos[c]]++;
            pos[c] = (sb_card)i;
        }
    }
    a->pairs += count - 1;
}

/* Draws: mark the previous hand's cards with a stamp, count the new
   hand's marked cards, then mark it with the next stamp.  Stamps only
   grow, so nothing is ever cleared.  Precondition: every value < n, no
   card twice in a hand. */
static void serial_add_draw(serial_acc *a, const sb_card *s, size_t count)
{
    const size_t k = a->len;
    uint64_t *stamp = a->stamp;
    uint64_t now = ++a->now;
    for (size_t j = 0; j < k; j++)
        stamp[s[j]] = now;
    s += k;
    for (size_t t = 1; t < count; t++, s += k) {
        size_t common = 0;
        for (size_t j = 0; j < k; j++)
            common += stamp[s[j]] == now;
        a->counts[common]++;
        now++;
        for (size_t j = 0; j < k; j++)
            stamp[s[j]] = now;
    }
    a->now = now;
    a->pairs += count - 1;
}

/* Deals: the previous deal is the sample just before, in the same
   buffer, so each card costs one increment in the row of its old hand.
   Precondition: every value < H (the runner validates outside input). */
static void serial_add_deal(serial_acc *a, const sb_card *s, size_t count)
{
    const size_t n = a->n, h = a->hands;
    if (!a->counting)
        return;
    for (size_t t = 1; t < count; t++, s += n) {
        const sb_card *next = s + n;
        for (size_t c = 0; c < n; c++)
            a->counts[(size_t)s[c] * h + next[c]]++;
    }
    a->pairs += count - 1;
}

static void serial_add(void *acc, const sb_card *samples, size_t count)
{
    serial_acc *a = acc;
    if (count == 0)
        return;
    if (a->kind == SB_KIND_PERMUTATION)
        serial_add_perm(a, samples, count);
    else if (a->kind == SB_KIND_DRAW)
        serial_add_draw(a, samples, count);
    else
        serial_add_deal(a, samples, count);
}

static size_t serial_cells(const serial_acc *a)
{
    if (a->kind == SB_KIND_DEAL)
        return a->counting ? (size_t)a->hands * a->hands : 0;
    return a->kind == SB_KIND_PERMUTATION ? a->n * a->n : a->len + 1;
}

static int serial_merge(void *into, const void *from)
{
    serial_acc *a = into;
    const serial_acc *b = from;
    if (a->kind != b->kind || a->n != b->n || a->len != b->len
        || a->hands != b->hands)
        return SB_EINVAL;
    const size_t cells = serial_cells(a);
    for (size_t i = 0; i < cells; i++)
        a->counts[i] += b->counts[i];
    a->pairs += b->pairs;
    return SB_OK;
}

/* The relative-position table through the position machinery, then the
   largest deviation reworded: a "card" of the relative permutation is a
   position of the earlier sample. */
static int serial_finalize_perm(const serial_acc *a, double fail_alpha,
                                sb_result *res)
{
    const size_t n = a->n;
    const sb_gof_groups g = {
        .n = n,
        .counted = n,
        .size = 1,
        .counts = a->counts,
        .card_step = 1,
        .group_step = n,
        .group = "position",
        .table = "earlier position x later position",
    };
    int st = sb_gof_groups_result(res, &g, a->pairs, fail_alpha);
    if (st != SB_OK || !res->applicable)
        return st;
    res->row_label = "earlier position";
    res->col_label = "later position";
    const double e = (double)a->pairs / (double)n;
    double worst = -1.0;
    size_t worst_cell = 0;
    for (size_t c = 0; c < n * n; c++) {
        const double d = (double)a->counts[c] - e;
        if (d * d > worst) {
            worst = d * d;
            worst_cell = c;
        }
    }
    if (worst > 0.0) {
        const double rel = 100.0 * ((double)a->counts[worst_cell] - e) / e;
        char pct[32];
        sb_gof_percent(pct, sizeof pct, fabs(rel));
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "the card at position %zu went to position %zu of the "
                 "next deck: %s%% %s often than uniform",
                 worst_cell % n, worst_cell / n, pct,
                 rel < 0 ? "less" : "more");
    }
    const size_t used = strlen(res->note);
    snprintf(res->note + used, sizeof res->note - used,
             "; %" PRIu64 " consecutive pairs", a->pairs);
    return SB_OK;
}

static int serial_finalize_draw(const serial_acc *a, double fail_alpha,
                                sb_result *res)
{
    const size_t n = a->n, k = a->len;
    const size_t lo = 2 * k > n ? 2 * k - n : 0;
    double *prob = malloc((k + 1) * sizeof *prob);
    if (prob == NULL)
        return SB_ENOMEM;
    for (size_t x = lo; x <= k; x++)
        prob[x] = gsl_ran_hypergeometric_pdf((unsigned)x, (unsigned)k,
                                             (unsigned)(n - k), (unsigned)k);
    char null_desc[160];
    snprintf(null_desc, sizeof null_desc,
             "hypergeometric: P(x) = C(%zu,x) C(%zu,%zu-x) / C(%zu,%zu)",
             k, n - k, k, n, k);
    const sb_gof_law law = {
        .prob = prob + lo, .k = k - lo + 1, .first_value = (long)lo,
        .one = "card in common", .many = "cards in common",
        .desc = null_desc,
    };
    int st = sb_gof_law_result(res, sb_stat_serial.name, a->counts + lo,
                               &law, a->pairs, fail_alpha);
    free(prob);
    if (st != SB_OK || !res->applicable)
        return st;
    /* The group of largest contribution, said of pairs of hands. */
    const sb_table *t = &res->table;
    const double N = (double)a->pairs;
    double worst = -1.0;
    size_t w = 0;
    for (size_t c = 0; c < t->cols; c++) {
        const double d = t->observed[c] - t->expected[c];
        if (d * d / t->expected[c] > worst) {
            worst = d * d / t->expected[c];
            w = c;
        }
    }
    char range[48], obs[32], want[32];
    if (t->lo[w] == t->hi[w])
        snprintf(range, sizeof range, "%ld", t->lo[w]);
    else
        snprintf(range, sizeof range, "%ld-%ld", t->lo[w], t->hi[w]);
    sb_gof_percent(obs, sizeof obs, 100.0 * t->observed[w] / N);
    sb_gof_percent(want, sizeof want, 100.0 * t->expected[w] / N);
    snprintf(res->effect_desc, sizeof res->effect_desc,
             "%s %s in common with the previous hand: %s%% of pairs "
             "against %s%% expected", range,
             t->lo[w] == 1 && t->hi[w] == 1 ? "card" : "cards", obs, want);
    const size_t used = strlen(res->note);
    snprintf(res->note + used, sizeof res->note - used,
             "; %" PRIu64 " consecutive pairs", a->pairs);
    return SB_OK;
}

/* The hand x hand table: X^2 (n-1)/n against chi-square((H-1)^2), the
   null in the file's opening comment. */
static int serial_finalize_deal(const serial_acc *a, double fail_alpha,
                                sb_result *res)
{
    const size_t H = a->hands, cells = H * H;
    const double n = (double)a->n, s = n / (double)H;
    const double N = (double)a->pairs, e = N * s * s / n;
    /* A cell expecting less than one pair: no chi-square, as for the
       card x group tables. */
    if (e < 1.0)
        return sb_gof_not_applicable(res,
            "needs more samples: %" PRIu64 " consecutive pairs leave a "
            "cell of the hand x hand table expecting %.3g, fewer than one",
            a->pairs, e);
    double x2 = 0.0, worst = -1.0;
    size_t worst_cell = 0;
    for (size_t c = 0; c < cells; c++) {
        const double d = (double)a->counts[c] - e;
        const double contrib = d * d / e;
        x2 += contrib;
        if (contrib > worst) {
            worst = contrib;
            worst_cell = c;
        }
    }
    const double df = (double)((H - 1) * (H - 1));
    int st = sb_gof_chisq_result(res, x2 * (n - 1.0) / n, df, a->pairs,
                                 fail_alpha);
    if (st != SB_OK)
        return st;
    if (cells <= SB_GOF_TABLE_CELLS) {
        res->row_label = "hand";
        res->col_label = "next hand";
        st = sb_gof_table_alloc(&res->table, H, H, 0);
        if (st != SB_OK)
            return st;
        for (size_t c = 0; c < cells; c++) {
            res->table.observed[c] = (double)a->counts[c];
            res->table.expected[c] = e;
        }
    }
    snprintf(res->null_desc, sizeof res->null_desc,
             "chi-square((H-1)^2 = %.0f) for x2 (n-1)/n over hand x next "
             "hand of consecutive deals, %.4g expected per cell "
             "(hypergeometric overlap of each hand)", df, e);
    snprintf(res->note, sizeof res->note,
             "x2 scaled by (n-1)/n: each pair's table has rows and columns "
             "summing to %.0f cards, so the plain x2 (%.6g) has mean "
             "n(H-1)^2/(n-1) = %.4g; %" PRIu64 " consecutive pairs", s, x2,
             n * df / (n - 1.0), a->pairs);
    /* One cell of the table evened out along its row and column has
       chi-square distance delta^2 (n-1) / (H-1)^2 per pair for
       X^2 (n-1)/n (the card x group derivation in gof.c with the H x H
       margins), so the delta detected is (H-1) sqrt(d / (n-1)): the
       words' formula sqrt(d (1-p)/p) at p = (n-1) / (n-1 + (H-1)^2). */
    const double hm1 = (double)(H - 1);
    sb_gof_detectable_words(res, (n - 1.0) / (n - 1.0 + hm1 * hm1),
                            "the cards one hand passes to one hand of the "
                            "next deal");
    const size_t from = worst_cell / H, to = worst_cell % H;
    const double o = (double)a->counts[worst_cell];
    char obs[32], want[32];
    snprintf(obs, sizeof obs, "%.3g", o / N);
    snprintf(want, sizeof want, "%.3g", s * s / n);
    if (from == to)
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "hand %zu kept %s of its %.0f cards in the next deal, on "
                 "average, against %s expected", from, obs, s, want);
    else
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "hand %zu passed %s of its %.0f cards to hand %zu of the "
                 "next deal, on average, against %s expected", from, obs, s,
                 to, want);
    return SB_OK;
}

static int serial_finalize(const void *acc, uint64_t samples,
                           double fail_alpha, sb_result *res)
{
    const serial_acc *a = acc;
    const char *name = sb_stat_serial.name;
    sb_gof_begin(res, name);
    if (a->n < 2)
        return sb_gof_not_applicable(res,
            "'%s' needs n >= 2: one card is always in the same place", name);
    if (a->kind == SB_KIND_DEAL && a->hands < 2)
        return sb_gof_not_applicable(res,
            "'%s' on deals needs at least two hands (got %u): one hand "
            "always holds every card", name, a->hands);
    if (a->kind == SB_KIND_DEAL && !a->counting)
        return sb_gof_not_applicable(res,
            "'%s' needs hands of equal size: %u hands do not divide %zu "
            "cards", name, a->hands, a->n);
    if (a->kind == SB_KIND_DRAW && a->len == a->n)
        return sb_gof_not_applicable(res,
            "'%s' on draws compares hands as sets, and a draw of the whole "
            "deck always holds every card", name);
    if (samples == 0)
        return sb_gof_not_applicable(res, "no samples");
    if (a->pairs == 0)
        return sb_gof_not_applicable(res,
            "no two consecutive samples were counted together");
    if (a->kind == SB_KIND_DEAL)
        return serial_finalize_deal(a, fail_alpha, res);
    return a->kind == SB_KIND_PERMUTATION
               ? serial_finalize_perm(a, fail_alpha, res)
               : serial_finalize_draw(a, fail_alpha, res);
}

static void serial_free(void *acc)
{
    serial_acc *a = acc;
    if (a == NULL)
        return;
    free(a->pos);
    free(a->stamp);
    free(a);
}

/* State files (stats/saved.h): the key, the pairs, then the counts
   ('pos', 'stamp' and 'now' are scratch: no pair spans two calls of
   'add', so nothing carries over).  Besides a wrong length or key,
   refused: for permutations a table whose rows and columns do not all
   sum to the pairs (each pair moves every position once); for draws
   counts that do not sum to the pairs, or overlaps below 2k - n, which
   two hands of k cards from n cannot have; for deals a hand x hand table
   whose rows and columns do not all sum to s = n/H cards per pair. */
static uint64_t serial_key(const serial_acc *a)
{
    return sb_saved_key(sb_stat_serial.name, a->kind, a->n, a->len,
                        a->kind == SB_KIND_DEAL ? a->hands : 0);
}

static int serial_save(const void *acc, uint64_t **words, size_t *count)
{
    const serial_acc *a = acc;
    const size_t cells = serial_cells(a);
    uint64_t *body;
    int st = sb_saved_alloc(serial_key(a), 1 + cells, words, count, &body);
    if (st != SB_OK)
        return st;
    body[0] = a->pairs;
    memcpy(body + 1, a->counts, cells * sizeof *body);
    return SB_OK;
}

static int serial_load(void *acc, const uint64_t *words, size_t count)
{
    serial_acc *a = acc;
    const size_t n = a->n, cells = serial_cells(a);
    const uint64_t *w = sb_saved_body(words, count, serial_key(a), 1 + cells);
    if (w == NULL)
        return SB_EINVAL;
    const uint64_t pairs = w[0], *c = w + 1;
    uint64_t rows, cols;
    if (a->kind == SB_KIND_DEAL) {
        const size_t H = a->hands;
        if (a->counting
            && (!sb_saved_lines_equal(c, H, H, H, 1, &rows)
                || !sb_saved_lines_equal(c, H, 1, H, H, &cols)
                || rows != cols || rows != pairs * (n / H)))
            return SB_EINVAL;
        if (!a->counting && pairs != 0)
            return SB_EINVAL;
    } else if (a->kind == SB_KIND_PERMUTATION) {
        if (!sb_saved_lines_equal(c, n, n, n, 1, &rows)
            || !sb_saved_lines_equal(c, n, 1, n, n, &cols) || rows != pairs
            || cols != pairs)
            return SB_EINVAL;
    } else {
        const size_t k = a->len, lo = 2 * k > n ? 2 * k - n : 0;
        uint64_t below;
        if (!sb_saved_sum(c, cells, 1, &rows) || rows != pairs
            || !sb_saved_sum(c, lo, 1, &below) || below != 0)
            return SB_EINVAL;
    }
    a->pairs = pairs;
    memcpy(a->counts, c, cells * sizeof *c);
    return SB_OK;
}

/* n x n pairs of consecutive decks (a draw: k + 1 overlaps; a deal:
   H x H hands). */
static size_t serial_memory(const sb_shape *shape, size_t *finalize)
{
    const size_t n = shape->n;
    if (shape->kind == SB_KIND_DEAL) {
        const size_t cells = (size_t)shape->hands * shape->hands;
        *finalize = sb_mem_finalize(0, cells);
        return sb_mem(sizeof(serial_acc) + cells * sizeof(uint64_t));
    }
    const int perm = shape->kind == SB_KIND_PERMUTATION;
    const size_t cells = perm ? n * n : shape->len + 1;
    *finalize = sb_mem_finalize(perm ? n + 1 : shape->len + 1,
                                perm ? n * n : 0);
    return sb_mem(sizeof(serial_acc) + cells * sizeof(uint64_t))
         + sb_mem(n * (perm ? sizeof(sb_card) : sizeof(uint64_t)));
}

const sb_stat_type sb_stat_serial = {
    .name = "serial",
    .sees = "whether each sample depends on the one before it (relative "
            "positions of consecutive decks, overlap of consecutive hands, "
            "hand x next hand of consecutive deals)",
    .kinds = SB_KIND_PERMUTATION | SB_KIND_DRAW | SB_KIND_DEAL,
    .default_kinds = SB_KIND_PERMUTATION | SB_KIND_DRAW | SB_KIND_DEAL,
    .n_min = 1,
    .n_max = SERIAL_N_MAX,
    .alloc = serial_alloc,
    .add = serial_add,
    .merge = serial_merge,
    .finalize = serial_finalize,
    .free = serial_free,
    .save = serial_save,
    .load = serial_load,
    .memory = serial_memory,
};
