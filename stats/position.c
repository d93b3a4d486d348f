/*
 * position.c - 'position': where each card ends up.
 *
 * What it sees: the n x n table of how often card c ended at position j
 * (GSL's randist/test.c test_shuffle in full size).  A fair shuffle puts
 * every card at every position with probability 1/n, so each cell expects
 * E = N/n.  It catches any bias in where cards go: the naive swap, a
 * too-short riffle, a 'rand() % n' draw, a sort with a bad comparator.
 *
 * The null, exactly: Pearson's X^2 = sum (O - E)^2 / E over the n^2 cells.
 * Every row and every column sums to N (each card is somewhere, each
 * position holds one card), so X^2 is not chi-square((n-1)^2): each cell
 * count is Binomial(N, 1/n), E[(O - E)^2 / E] = 1 - 1/n, and the plain X^2
 * has mean n(n-1) exactly.  More: the permutation matrix of one uniform
 * sample has covariance (1/(n-1)) (I - J/n) (x) (I - J/n), where J is the
 * all-ones n x n matrix and (I - J/n) (x) (I - J/n) a projection of rank
 * (n-1)^2; so (O - E)/sqrt(E) tends to a normal vector with covariance
 * n/(n-1) times that projection, and X^2 (n-1)/n tends to
 * chi-square((n-1)^2).  That scaled value is the statistic reported
 * (DESIGN.md, "Statistics: facts to build on"; the two means are checked
 * by simulation in tests/test_position.c).
 *
 * Never pooled: the degrees of freedom come from the margins, and merging
 * cells of such a table would break them.  When E < 5 the test is still
 * run, and the note says the approximation is rough.
 *
 * Memory: n^2 64-bit counts per accumulator, so n is capped at 4096
 * (128 MiB); the n x n matrix is copied into the result at every n, as
 * doubles, observed and expected (256 MiB at 4096 cards, counted in the
 * run's budget by position_memory), so that the reports can draw it, list
 * it and write it whole.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/memory.h"
#include "stats/registry.h"
#include "stats/saved.h"

#define POSITION_N_MAX 4096

typedef struct position_acc {
    size_t n;             /* deck size */
    uint64_t counts[];    /* counts[position * n + card], n * n of them
                             (the transpose of the result's table) */
} position_acc;

static int position_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    if (shape->kind != SB_KIND_PERMUTATION || shape->len != shape->n
        || shape->n < 1 || shape->n > POSITION_N_MAX)
        return SB_EINVAL;
    position_acc *a = calloc(1, sizeof *a
                                + shape->n * shape->n * sizeof(uint64_t));
    if (a == NULL)
        return SB_ENOMEM;
    a->n = shape->n;
    *acc = a;
    return SB_OK;
}

/* The hot path: one increment per card.  Position-major, so the row
   pointer steps by n and the card indexes it, with no multiplication:
   faster than card-major (docs/speed.md).  Precondition: every value < n
   (the runner validates external input before it gets here). */
static void position_add(void *acc, const sb_card *samples, size_t count)
{
    position_acc *a = acc;
    const size_t n = a->n;
    for (size_t i = 0; i < count; i++, samples += n) {
        uint64_t *row = a->counts;
        for (size_t j = 0; j < n; j++, row += n)
            row[samples[j]]++;
    }
}

static int position_merge(void *into, const void *from)
{
    position_acc *a = into;
    const position_acc *b = from;
    if (a->n != b->n)
        return SB_EINVAL;
    for (size_t i = 0; i < a->n * a->n; i++)
        a->counts[i] += b->counts[i];
    return SB_OK;
}

static int position_finalize(const void *acc, uint64_t samples,
                             double fail_alpha, sb_result *res)
{
    const position_acc *a = acc;
    const size_t n = a->n;
    sb_gof_begin(res, sb_stat_position.name);
    if (n < 2)
        return sb_gof_not_applicable(res,
            "'position' needs n >= 2: one card is always at position 0");
    if (samples == 0)
        return sb_gof_not_applicable(res, "no samples");
    /* Fewer samples than cards leave every cell expecting less than one:
       X^2 is then no chi-square (at one sample it is df whatever the
       deck), and a pass would say nothing. */
    if (samples < n)
        return sb_gof_not_applicable(res,
            "'position' needs at least n = %zu samples, so that each card "
            "is expected once in each position (has %" PRIu64 ")", n,
            samples);

    const double N = (double)samples;
    const double e = N / (double)n;
    double x2 = 0.0, worst = -1.0;
    size_t worst_cell = 0;
    for (size_t i = 0; i < n * n; i++) {
        const double d = (double)a->counts[i] - e;
        const double c = d * d / e;
        x2 += c;
        if (c > worst) {
            worst = c;
            worst_cell = i;
        }
    }
    const double scale = (double)(n - 1) / (double)n;
    const double df = (double)(n - 1) * (double)(n - 1);
    int st = sb_gof_chisq_result(res, x2 * scale, df, samples, fail_alpha);
    if (st != SB_OK)
        return st;

    sb_gof_detectable_words(res, 1.0 / (double)n, "one card in one position");

    res->row_label = "card";
    res->col_label = "position";
    /* The matrix, unless it is one of nothing: an accumulator that
       counted nothing but is told N samples (what the plan of --effect
       asks of it) would only spend its memory.  Position 0 holds a card
       of every sample counted. */
    uint64_t at_0 = 0;
    for (size_t card = 0; card < n; card++)
        at_0 += a->counts[card];
    if (at_0 > 0) {
        st = sb_gof_table_alloc(&res->table, n, n, 0);
        if (st != SB_OK)
            return st;
        for (size_t pos = 0; pos < n; pos++)
            for (size_t card = 0; card < n; card++) {
                res->table.observed[card * n + pos] =
                    (double)a->counts[pos * n + card];
                res->table.expected[card * n + pos] = e;
            }
    }

    snprintf(res->null_desc, sizeof res->null_desc,
             "chi-square((n-1)^2 = %.0f) for x2 (n-1)/n over card x "
             "position, %.4g expected per cell", df, e);
    char sparse[96] = "";
    if (e < SB_GOF_MIN_EXPECTED)
        snprintf(sparse, sizeof sparse, "; only %.3g expected per cell: "
                 "chi-square approximation rough", e);
    snprintf(res->note, sizeof res->note,
             "x2 scaled by (n-1)/n: rows and columns all sum to N, so the "
             "plain x2 (%.6g) has mean n(n-1) = %.0f%s", x2,
             (double)n * (double)(n - 1), sparse);

    if (worst > 0.0) {
        const double o = (double)a->counts[worst_cell];
        const double rel = 100.0 * (o - e) / e;
        char pct[32];
        sb_gof_percent(pct, sizeof pct, fabs(rel));
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "card %zu at position %zu: %s%% %s often than uniform",
                 worst_cell % n, worst_cell / n, pct,
                 rel < 0 ? "less" : "more");
    } else {
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "every card at every position exactly as often as "
                 "uniform");
    }
    return SB_OK;
}

static void position_free(void *acc)
{
    free(acc);
}

/* State files (stats/saved.h): the key, then the n x n counts as they
   are kept.  Besides a wrong length or key, a table whose positions and
   cards do not all sum to one total is refused: each sample puts one card
   at each position and each card at one position. */
static uint64_t position_key(const position_acc *a)
{
    return sb_saved_key(sb_stat_position.name, SB_KIND_PERMUTATION, a->n,
                        a->n, 0);
}

static int position_save(const void *acc, uint64_t **words, size_t *count)
{
    const position_acc *a = acc;
    return sb_saved_counts(position_key(a), a->counts, a->n * a->n, words,
                           count);
}

static int position_load(void *acc, const uint64_t *words, size_t count)
{
    position_acc *a = acc;
    const size_t n = a->n;
    const uint64_t *c = sb_saved_body(words, count, position_key(a), n * n);
    uint64_t by_position, by_card;
    if (c == NULL || !sb_saved_lines_equal(c, n, n, n, 1, &by_position)
        || !sb_saved_lines_equal(c, n, 1, n, n, &by_card)
        || by_position != by_card)
        return SB_EINVAL;
    memcpy(a->counts, c, n * n * sizeof *c);
    return SB_OK;
}

/* The n x n counts; finalize's copy of them for renderers. */
static size_t position_memory(const sb_shape *shape, size_t *finalize)
{
    const size_t n = shape->n;
    *finalize = sb_mem_finalize(0, n * n);
    return sb_mem(sizeof(position_acc) + n * n * sizeof(uint64_t));
}

const sb_stat_type sb_stat_position = {
    .name = "position",
    .sees = "how often each card ends at each position (card x position "
            "counts)",
    .kinds = SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_PERMUTATION,
    .n_min = 1,
    .n_max = POSITION_N_MAX,
    .alloc = position_alloc,
    .add = position_add,
    .merge = position_merge,
    .finalize = position_finalize,
    .free = position_free,
    .save = position_save,
    .load = position_load,
    .memory = position_memory,
};
