/*
 * calibrate_tail.c - the far tail of the pooled statistics' p-values,
 * measured through the program's own code (scripts/calibrate --tail).
 *
 *   sb_calibrate_tail --list
 *   sb_calibrate_tail STAT SAMPLES REPS SEED
 *
 * For statistic STAT on 52 cards (a shuffle, a bridge deal of 4 x 13, or a
 * draw of 7 for 'serial'), each replicate draws the counts of SAMPLES
 * samples from the statistic's exact null - a multinomial over its
 * categories before any pooling - and refers them to it with the calls
 * the statistic's finalize makes for its p-value: sb_gof_pooled_begin
 * (the pooling), sb_gof_pooled_statistic (the statistic of each count vector),
 * sb_gof_chisq_p, and for the deal statistics the Bonferroni combination
 * of sb_hands_result, min(1, T p) for the largest of T statistics.  It
 * leaves out only what a p-value does not depend on (the detectable
 * effect, whose root-finding costs more than the rest together).  That it
 * is the same p-value is checked on every run: the first replicates also
 * go through the whole path - the statistic's accumulator, loaded from
 * saved words rewritten with the drawn counts, then finalized - and the
 * two p-values must agree.
 * Prints one line: the statistic, samples, replicates, seed, how many
 * p-values fell below 1e-2, 1e-3, ..., 1e-7, the smallest, and how many
 * replicates were not applicable.
 *
 * The deal statistics test each hand (or hand and suit) on its own; here
 * their hands are drawn independently.  In a real deal they are
 * dependent, which Bonferroni's bound does not care about, and in the far
 * tail the combined rate is the sum of the hands' rates either way.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/hands.h"
#include "stats/nulls.h"
#include "stats/poker.h"
#include "stats/registry.h"

#define DECK 52
#define DRAW 7
#define LEVELS 6
/* Replicates checked against the whole path. */
#define CHECKED 20

static const double level[LEVELS] = { 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7 };

/* The null of one block of counts (k values) into p. */
typedef int (*null_fn)(size_t k, double *p);

static int null_successions(size_t k, double *p)
{
    return k == DECK ? sb_null_successions(DECK, p) : SB_EINVAL;
}

static int null_fixed_points(size_t k, double *p)
{
    return k == DECK + 1 ? sb_null_fixed_points(DECK, p) : SB_EINVAL;
}

static int null_cycles(size_t k, double *p)
{
    return k == DECK + 1 ? sb_null_cycles(DECK, p) : SB_EINVAL;
}

static int null_eulerian(size_t k, double *p)
{
    return k == DECK ? sb_null_eulerian(DECK, p) : SB_EINVAL;
}

static int null_inversions(size_t k, double *p)
{
    return k == sb_null_inversions_max(DECK) + 1
               ? sb_null_inversions(DECK, p) : SB_EINVAL;
}

static int null_poker7(size_t k, double *p)
{
    uint64_t c[SB_POKER_CATEGORIES];
    if (k != SB_POKER_CATEGORIES || sb_null_poker7_counts(c) != SB_OK)
        return SB_EINVAL;
    for (size_t i = 0; i < k; i++)
        p[i] = (double)c[i] / 133784560.0;
    return SB_OK;
}

/* Overlaps 0..7 of two hands of 7 from 52. */
static int null_serial_draw(size_t k, double *p)
{
    if (k != DRAW + 1)
        return SB_EINVAL;
    for (unsigned x = 0; x <= DRAW; x++)
        p[x] = gsl_ran_hypergeometric_pdf(x, DRAW, DECK - DRAW, DRAW);
    return SB_OK;
}

static int null_hcp(size_t k, double *p)
{
    return k == sb_hands_hcp_max(DECK, 13) + 1
               ? sb_hands_null_hcp(DECK, 13, p) : SB_EINVAL;
}

static int null_suit_lengths(size_t k, double *p)
{
    return k == 14 ? sb_hands_null_suit_length(DECK, 13, 13, p)
                   : SB_EINVAL;
}

static int null_hand_patterns(size_t k, double *p)
{
    sb_patterns pat;
    int st = sb_patterns_init(&pat, 4, 13, 1000);
    if (st == SB_OK)
        st = pat.count == k ? sb_patterns_null(&pat, p) : SB_EINVAL;
    sb_patterns_free(&pat);
    return st;
}

typedef struct tail_stat {
    const char *name;
    sb_kind kind;
    size_t lead;        /* words of the body before the counts: serial's
                           pair count */
    size_t blocks;      /* count vectors in the body, each k long */
    size_t skip;        /* categories at the start left out of the test
                           (cycles: no deck has 0 cycles) */
    null_fn null;
} tail_stat;

static const tail_stat stats[] = {
    { "successions", SB_KIND_PERMUTATION, 0, 1, 0, null_successions },
    { "fixed-points", SB_KIND_PERMUTATION, 0, 1, 0, null_fixed_points },
    { "cycles", SB_KIND_PERMUTATION, 0, 1, 1, null_cycles },
    { "rising", SB_KIND_PERMUTATION, 0, 1, 0, null_eulerian },
    { "descents", SB_KIND_PERMUTATION, 0, 1, 0, null_eulerian },
    { "inversions", SB_KIND_PERMUTATION, 0, 1, 0, null_inversions },
    { "poker7", SB_KIND_PERMUTATION, 0, 1, 0, null_poker7 },
    { "serial", SB_KIND_DRAW, 1, 1, 0, null_serial_draw },
    { "hand-patterns", SB_KIND_DEAL, 0, 4, 0, null_hand_patterns },
    { "suit-lengths", SB_KIND_DEAL, 0, 16, 0, null_suit_lengths },
    { "hcp", SB_KIND_DEAL, 0, 4, 0, null_hcp },
};

#define NSTATS (sizeof stats / sizeof stats[0])

static int fail(const char *what)
{
    fprintf(stderr, "sb_calibrate_tail: %s\n", what);
    return 2;
}

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < NSTATS; i++)
            printf("%s\n", stats[i].name);
        return 0;
    }
    if (argc != 5)
        return fail("usage: sb_calibrate_tail STAT SAMPLES REPS SEED "
                    "| --list");
    const tail_stat *ts = NULL;
    for (size_t i = 0; i < NSTATS; i++)
        if (strcmp(stats[i].name, argv[1]) == 0)
            ts = &stats[i];
    const sb_stat_type *type = sb_stat_find(argv[1]);
    if (ts == NULL || type == NULL)
        return fail("unknown statistic (see --list)");
    const uint64_t samples = strtoull(argv[2], NULL, 10);
    const uint64_t reps = strtoull(argv[3], NULL, 10);
    const unsigned long seed = strtoul(argv[4], NULL, 10);
    if (samples == 0 || samples > UINT32_MAX || reps == 0)
        return fail("samples must be 1..2^32-1 and reps at least 1");

    sb_shape shape = { ts->kind, DECK, DECK, 0 };
    if (ts->kind == SB_KIND_DRAW)
        shape.len = DRAW;
    if (ts->kind == SB_KIND_DEAL)
        shape.hands = 4;
    void *acc = NULL;
    uint64_t *words = NULL;
    size_t count = 0;
    if (type->alloc(&acc, &shape) != SB_OK
        || type->save(acc, &words, &count) != SB_OK)
        return fail("the statistic refused the shape");
    /* words: the key, then the body. */
    const size_t body = count - 1;
    if (body <= ts->lead || (body - ts->lead) % ts->blocks != 0)
        return fail("unexpected saved layout");
    const size_t k = (body - ts->lead) / ts->blocks;
    double *p = malloc(k * sizeof *p);
    unsigned *draw = malloc(k * sizeof *draw);
    if (p == NULL || draw == NULL)
        return fail("out of memory");
    if (ts->null(k, p) != SB_OK)
        return fail("the null does not match the saved layout");
    double total = 0.0;
    for (size_t i = 0; i < k; i++)
        total += p[i];
    if (fabs(total - 1.0) > 1e-9)
        return fail("the null does not sum to 1");

    /* The pooling depends on the expectations only: once per run. */
    const size_t kt = k - ts->skip;
    sb_result pooled_res;
    sb_gof_begin(&pooled_res, ts->name);
    sb_gof_pooled pp;
    if (sb_gof_pooled_begin(&pp, &pooled_res, p + ts->skip, kt, samples)
            != SB_OK
        || !pooled_res.applicable)
        return fail("too few samples to pool into two groups");
    sb_table table;
    if (sb_gof_table_alloc(&table, 1, pp.groups, 1) != SB_OK)
        return fail("out of memory");

    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    uint64_t below[LEVELS] = { 0 };
    double pmin = 1.0;
    for (uint64_t r = 0; r < reps; r++) {
        if (ts->lead)
            words[1] = samples;
        double top = 0.0;
        for (size_t b = 0; b < ts->blocks; b++) {
            gsl_ran_multinomial(rng, k, (unsigned)samples, p, draw);
            uint64_t *c = words + 1 + ts->lead + b * k;
            for (size_t i = 0; i < k; i++)
                c[i] = draw[i];
            size_t wg;
            double wc;
            const double x = sb_gof_pooled_statistic(&pp, c + ts->skip, 0,
                                                     &table, 0, &wg, &wc);
            if (x > top)
                top = x;
        }
        double pv;
        int under;
        if (sb_gof_chisq_p(top, (double)(pp.groups - 1), &pv, &under)
            != SB_OK)
            return fail("no p-value");
        if (ts->blocks > 1 && !under)
            pv = fmin(1.0, (double)ts->blocks * pv);
        if (under)
            pv = 0.0;
        if (r < CHECKED) {
            /* The same counts through the whole path. */
            sb_result res;
            memset(&res, 0, sizeof res);
            if (type->load(acc, words, count) != SB_OK
                || type->finalize(acc, samples, 1e-6, &res) != SB_OK
                || !res.applicable)
                return fail("the statistic refused the counts");
            const double whole = res.p_underflow ? 0.0 : res.p_value;
            sb_result_clear(&res);
            if (fabs(whole - pv) > 1e-12 * fmax(whole, 1e-300))
                return fail("the p-value differs from the statistic's own");
        }
        for (int l = 0; l < LEVELS; l++)
            below[l] += pv < level[l];
        if (pv < pmin)
            pmin = pv;
    }
    sb_gof_pooled_end(&pp);
    sb_result_clear(&pooled_res);
    free(table.observed);
    free(table.expected);
    free(table.lo);
    free(table.hi);
    printf("%s %" PRIu64 " %" PRIu64 " %lu", ts->name, samples, reps, seed);
    for (int l = 0; l < LEVELS; l++)
        printf(" %" PRIu64, below[l]);
    printf(" %.6g 0\n", pmin);
    gsl_rng_free(rng);
    free(p);
    free(draw);
    free(words);
    type->free(acc);
    return 0;
}
