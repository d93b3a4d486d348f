/*
 * collisions.c - 'collisions': the birthday test among the sampled decks.
 *
 * What it sees: how many samples repeat an earlier one exactly.  A source
 * that can reach only S' of the S possible samples repeats itself about
 * N^2 / 2S' times in N samples, however uniform each sample looks alone.
 * This is the test that catches a shuffle seeded with 32 bits (the
 * 'reseed32:NAME' source, a program seeding from the clock before every
 * deal): at most 2^32 decks can ever appear, where 52 cards have
 * 52! ~ 2^225.6 orders.  No per-position or per-card table can see that;
 * only repeats can.  With S' = 2^32 the test fails on a single repeat, and
 * N = 1.4 x 10^5 decks expect N^2 / 2^33 = 2.28 of them: power
 * 1 - e^-2.28 = 0.90 (DESIGN.md, "Statistics: facts to build on").  A
 * good source gives none: 10^9 decks of 52 cards expect 6 x 10^-51.
 *
 * The samples, and S, the number of distinct ones possible:
 *   PERMUTATION  the deck order, S = n!;
 *   DRAW         the k cards drawn, in order, S = n! / (n-k)!;
 *   DEAL         the hand of every card, S = n! / (s!)^H for H hands of
 *                s = n/H cards (the multinomial; unequal hands are not
 *                tested).  For a bridge deal S = 5.36 x 10^28.
 * S is computed in log space (gsl_sf_lnfact), so any deck size works.
 *
 * Fingerprints (stats/fingerprints.h).  Each sample is hashed to 128
 * bits, so that a false repeat has probability 2^-128 per pair of
 * samples, and only the fingerprints whose top j bits are 0 are kept, a
 * fraction f = 2^-j, j rising whenever more than 2^21 distinct ones would
 * be kept: the repeats among kept samples are counted exactly and
 * estimate f times the repeats of the whole run, in at most 80 MiB per
 * thread, and what is kept depends on the samples only, so that chunks,
 * threads and merges in any order count the same.  At the cap, f N ~ 2^21
 * samples are kept, and the test still sees sources of up to about
 * f N^2 / 4.6 = 2^21 N / 4.6 reachable samples: 2^48 at N = 10^9.
 *
 * The null.  With N samples uniform over S possible ones, the number of
 * repeats R = N - (distinct samples) has the exact mean
 *   E R = N - S (1 - (1 - 1/S)^N) = sum_{j>=2} (-1)^j C(N,j) / S^(j-1)
 * (the occupancy problem: N. L. Johnson and S. Kotz, "Urn Models and
 * Their Application", 1977, ch. 3), computed here by that series, whose
 * terms shrink by N/S.  Among kept samples the mean is f E R: each
 * possible sample is kept with probability f, independently of how often
 * it was drawn.  R is nearly Poisson: its variance is E R (1 - about
 * 4N/3S) (the occupancy variance, same source), slightly below the
 * Poisson's, so the Poisson upper tail is slightly conservative.  The
 * p-value is the Poisson upper tail P(X >= r), a valid p-value, so that
 * the battery's 1e-6 bound holds (a mid-p can reject a true null up to
 * twice as often as its level); discrete = 1, with P(X > r) and P(X >= r)
 * in p_lower and p_upper for randomized calibration checks.  No
 * pooling.
 *
 * Applies when S >= 2^40 (so n >= 15: 15! = 2^40.25) and N <= S / 2^10
 * (the Poisson law then errs by a relative 10^-3 at most in its variance).
 * A smaller S has repeats from any source; there a test of each sample's
 * frequency is the right one ('permutation', n <= 10).
 *
 * Effect: observed repeats over expected (0 without repeats).  Detectable:
 * the largest number S' of equally likely reachable samples that would be
 * caught with power 0.9 at the fail threshold, in words ("a source with
 * fewer than 2^41.3 reachable decks"), and as a number its chi-square
 * distance from uniform, S/S' - 1 (the equivalent of a noncentrality per
 * sample), capped at DBL_MAX.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include "shufflebias/status.h"
#include "stats/fingerprints.h"
#include "stats/gof.h"
#include "stats/memory.h"
#include "stats/registry.h"
#include "stats/saved.h"

/* Applicability: S >= 2^MIN_LOG2_S and N <= S / 2^MAX_LOG2_LOAD. */
#define MIN_LOG2_S 40.0
#define MAX_LOG2_LOAD 10.0
/* The smallest n with n! >= 2^40. */
#define COLLISIONS_N_MIN 15
#define LN2 0.69314718055994530942

typedef struct collisions_acc {
    sb_kind kind;           /* the shape, compared by merge */
    size_t n, len;
    unsigned hands;
    sb_fingerprints *fp;    /* the samples' fingerprints */
} collisions_acc;

static int collisions_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    if (shape->n < 1 || shape->n > SB_DECK_MAX || shape->len < 1
        || (shape->kind == SB_KIND_DRAW ? shape->len > shape->n
                                        : shape->len != shape->n))
        return SB_EINVAL;
    collisions_acc *a = calloc(1, sizeof *a);
    if (a == NULL)
        return SB_ENOMEM;
    a->kind = shape->kind;
    a->n = shape->n;
    a->len = shape->len;
    a->hands = shape->hands;
    a->fp = sb_fingerprints_alloc(shape->len);
    if (a->fp == NULL) {
        free(a);
        return SB_ENOMEM;
    }
    *acc = a;
    return SB_OK;
}

/* Precondition: every value fits the shape (< n, or < H for a deal), as
   the runner checks for outside input. */
static void collisions_add(void *acc, const sb_card *samples, size_t count)
{
    collisions_acc *a = acc;
    sb_fingerprints_add(a->fp, samples, count);
}

static int collisions_merge(void *into, const void *from)
{
    collisions_acc *a = into;
    const collisions_acc *b = from;
    if (a->kind != b->kind || a->n != b->n || a->len != b->len
        || a->hands != b->hands)
        return SB_EINVAL;
    return sb_fingerprints_merge(a->fp, b->fp);
}

/* ---- finalize --------------------------------------------------------- */

/* The samples in words, plural and singular. */
static const char *samples_word(sb_kind kind, int plural)
{
    switch (kind) {
    case SB_KIND_PERMUTATION: return plural ? "decks" : "deck";
    case SB_KIND_DRAW: return plural ? "hands" : "hand";
    case SB_KIND_DEAL: return plural ? "deals" : "deal";
    }
    return plural ? "samples" : "sample";
}

/* log S, the natural log of the number of distinct possible samples. */
static double log_possible(const collisions_acc *a)
{
    const double lnfact_n = gsl_sf_lnfact((unsigned)a->n);
    switch (a->kind) {
    case SB_KIND_DRAW:
        return lnfact_n - gsl_sf_lnfact((unsigned)(a->n - a->len));
    case SB_KIND_DEAL:
        return lnfact_n
               - (double)a->hands * gsl_sf_lnfact((unsigned)(a->n / a->hands));
    case SB_KIND_PERMUTATION:
        break;
    }
    return lnfact_n;
}

/* log E R for N samples over S = exp(log_s) possible ones:
   E R = C(N,2)/S (1 - (N-2)/(3S) + (N-2)(N-3)/(12 S^2) - ...), each term
   the previous times -(N-j)/((j+1) S). */
static double log_expected_repeats(double N, double log_s)
{
    const double inv_s = exp(-log_s);   /* 0 when S is beyond the doubles */
    double term = 1.0, sum = 1.0;
    for (double j = 2.0; j < N; j += 1.0) {
        term *= -(N - j) * inv_s / (j + 1.0);
        sum += term;
        if (fabs(term) < 1e-17 * sum)
            break;
    }
    return log(N) + log(N - 1.0) - LN2 - log_s + log(sum);
}

/* P(X >= x) for X ~ Poisson(mu), computed without the underflow floor,
   for the search of the critical count. */
static double at_least(double x, double mu)
{
    return gsl_cdf_poisson_Q((unsigned)x, mu)
           + gsl_ran_poisson_pdf((unsigned)x, mu);
}

/* The smallest count c >= 1 whose p-value P(X >= c) under Poisson(mu0) is
   at most
   'alpha': the test rejects exactly when the repeats reach c.  mu0 = 0
   stands for a mean below the double range: one repeat is then enough. */
static int critical_count(double mu0, double alpha, double *c)
{
    if (mu0 <= 0.0) {
        *c = 1.0;
        return SB_OK;
    }
    double lo = 0.0, hi = 1.0, p;
    while ((p = at_least(hi, mu0)) > alpha) {
        if (isnan(p) || hi > (double)UINT32_MAX / 2)
            return SB_ERANGE;
        lo = hi;
        hi *= 2.0;
    }
    if (isnan(p))
        return SB_ERANGE;
    while (hi - lo > 1.0) {     /* at_least(lo) > alpha >= at_least(hi) */
        const double mid = floor(0.5 * (lo + hi));
        p = at_least(mid, mu0);
        if (isnan(p))
            return SB_ERANGE;
        if (p > alpha)
            lo = mid;
        else
            hi = mid;
    }
    *c = hi;
    return SB_OK;
}

/* The Poisson mean mu1 at which P(X >= c) = power, by bisection (that
   probability increases with the mean). */
static int power_mean(double c, double power, double *mu1)
{
    double lo = 0.0, hi = c + 10.0 * sqrt(c) + 10.0, q;
    while ((q = gsl_cdf_poisson_Q((unsigned)(c - 1.0), hi)) < power) {
        if (isnan(q) || hi > 1e15)
            return SB_ERANGE;
        lo = hi;
        hi *= 2.0;
    }
    for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; it++) {
        const double mid = 0.5 * (lo + hi);
        q = gsl_cdf_poisson_Q((unsigned)(c - 1.0), mid);
        if (isnan(q))
            return SB_ERANGE;
        if (q >= power)
            hi = mid;
        else
            lo = mid;
    }
    *mu1 = 0.5 * (lo + hi);
    return SB_OK;
}

/* p-values of 'r' repeats against Poisson(mu) (mu = 0: below the double
   range): P(X >= r) in p_value (the p-value verdicts are taken from: a
   mid-p could reject a true null up to twice as often as its level says)
   and the interval P(X > r), P(X >= r) in p_lower, p_upper. */
static int fill_p(sb_result *res, uint64_t r, double mu)
{
    res->discrete = 1;
    if (r == 0) {
        res->p_lower = -expm1(-mu);
        res->p_upper = 1.0;
        res->p_value = 1.0;
        res->p_underflow = 0;
        return SB_OK;
    }
    if (mu <= 0.0) {
        /* P(X >= r) <= mu < 1e-300 */
        res->p_value = res->p_lower = res->p_upper = 0.0;
        res->p_underflow = 1;
        return SB_OK;
    }
    if (r > UINT32_MAX) {
        /* Beyond GSL's counts: so far above the mean that the normal
           approximation's zero is as good as any. */
        int st = sb_gof_normal_p(((double)r - mu) / sqrt(mu), &res->p_value,
                                 &res->p_underflow);
        res->p_lower = res->p_upper = res->p_value;
        return st;
    }
    res->p_lower = gsl_cdf_poisson_Q((unsigned)r, mu);
    res->p_upper = res->p_lower + gsl_ran_poisson_pdf((unsigned)r, mu);
    if (isnan(res->p_lower) || isnan(res->p_upper))
        return SB_ERANGE;
    res->p_upper = fmin(1.0, res->p_upper);
    res->p_underflow = res->p_upper < SB_GOF_P_FLOOR;
    res->p_value = res->p_underflow ? 0.0 : res->p_upper;
    return SB_OK;
}

static int collisions_finalize(const void *acc, uint64_t samples,
                               double fail_alpha, sb_result *res)
{
    const collisions_acc *a = acc;
    const char *name = sb_stat_collisions.name;
    const char *many = samples_word(a->kind, 1);
    sb_gof_begin(res, name);
    if (samples == 0)
        return sb_gof_not_applicable(res, "no samples");
    /* A table that could not grow kept fewer fingerprints than the rule
       says, and which ones depends on the order of the samples: no
       answer rather than one that a rerun could contradict. */
    if (sb_fingerprints_starved(a->fp))
        return SB_ENOMEM;
    if (a->kind == SB_KIND_DEAL
        && (a->hands < 2 || a->n % a->hands != 0))
        return sb_gof_not_applicable(res,
            "'%s' needs deals into at least two hands of equal size "
            "(%u hands of %zu cards)", name, a->hands, a->n);
    const double log_s = log_possible(a);
    const double log2_s = log_s / LN2;
    if (log2_s < MIN_LOG2_S)
        return sb_gof_not_applicable(res,
            "only 2^%.1f possible %s (fewer than 2^%.0f): repeats are "
            "expected from any source; a test of each sample's frequency "
            "is the right one ('permutation', n <= 10)", log2_s, many,
            MIN_LOG2_S);
    if (samples < 2)
        return sb_gof_not_applicable(res,
                                     "'%s' needs at least two samples", name);
    const double N = (double)samples;
    if (log2(N) > log2_s - MAX_LOG2_LOAD)
        return sb_gof_not_applicable(res,
            "%" PRIu64 " samples are more than 2^-%.0f of the 2^%.1f "
            "possible %s: the Poisson law of repeats no longer holds",
            samples, MAX_LOG2_LOAD, log2_s, many);

    /* Kept repeats, and their null mean f E R. */
    const uint64_t repeats = sb_fingerprints_repeats(a->fp);
    const unsigned j = sb_fingerprints_level(a->fp);
    const double log_f = -(double)j * LN2;
    const double log_mu = log_f + log_expected_repeats(N, log_s);
    const double mu = log_mu < log(SB_GOF_P_FLOOR) ? 0.0 : exp(log_mu);
    int st = fill_p(res, repeats, mu);
    if (st != SB_OK)
        return st;
    res->statistic = (double)repeats;
    res->df = 0.0;
    /* Repeats beyond those expected, in the units of 'detectable': a
       source of S' reachable samples gives S/S' times the repeats, so
       R/mu - 1 estimates S/S' - 1. */
    if (repeats == 0)
        res->effect = 0.0;
    else
        res->effect = fmax(0.0, (double)repeats / mu - 1.0); /* +inf: mu 0 */
    if (!(res->effect <= DBL_MAX))
        res->effect = DBL_MAX;

    /* Detectable: the mean mu1 caught with power 0.9, and the reachable
       samples S' = f C(N,2) / mu1 that give it. */
    double c, mu1;
    st = critical_count(mu, fail_alpha, &c);
    if (st == SB_OK)
        st = power_mean(c, SB_GOF_POWER, &mu1);
    if (st != SB_OK)
        return st;
    const double log_s1 = log_f + log(N) + log(N - 1.0) - LN2 - log(mu1);
    res->detectable = log_s1 < log_s ? expm1(log_s - log_s1) : 0.0;
    if (!(res->detectable <= DBL_MAX))
        res->detectable = DBL_MAX;
    snprintf(res->detectable_desc, sizeof res->detectable_desc,
             "a source with fewer than 2^%.1f reachable %s (of 2^%.1f "
             "possible)", log_s1 / LN2, many, log2_s);

    st = sb_gof_table_alloc(&res->table, 1, 1, 0);
    if (st != SB_OK)
        return st;
    res->table.observed[0] = (double)repeats;
    res->table.expected[0] = mu;
    st = sb_gof_names(res, 1);
    if (st == SB_OK)
        st = sb_gof_name(res->labels, 0, "repeats");
    if (st != SB_OK)
        return st;

    char kept[64] = "", want[48];
    if (j > 0)
        snprintf(kept, sizeof kept, " among the 2^-%u of %s kept", j, many);
    if (mu < 1e6)
        snprintf(want, sizeof want, "%.2f", mu);
    else
        snprintf(want, sizeof want, "%.4g", mu);
    snprintf(res->effect_desc, sizeof res->effect_desc,
             "%" PRIu64 " repeated %s against %s expected%s", repeats,
             repeats == 1 ? samples_word(a->kind, 0) : many, want, kept);

    snprintf(res->null_desc, sizeof res->null_desc,
             "repeats ~ Poisson(%.4g) = f E R, N = %" PRIu64 " samples of "
             "2^%.1f possible %s, f = 2^-%u kept", mu, samples, log2_s,
             many, j);
    /* Expected false repeats: f C(N,2) pairs' worth at 2^-128 each. */
    const double log2_false = (log_f + log(N) + log(N - 1.0) - LN2)
                              / LN2 - 128.0;
    char which[64] = "every sample";
    if (j > 0)
        snprintf(which, sizeof which,
                 "the fingerprints whose top %u bits are 0", j);
    snprintf(res->note, sizeof res->note,
             "%zu distinct %s kept (%s); 128-bit fingerprints: 2^%.0f false "
             "repeats expected; Poisson upper tail",
             sb_fingerprints_distinct(a->fp), many, which, log2_false);
    return SB_OK;
}

static void collisions_free(void *acc)
{
    collisions_acc *a = acc;
    if (a == NULL)
        return;
    sb_fingerprints_free(a->fp);
    free(a);
}

/* ---- state files ------------------------------------------------------

   The words (stats/saved.h): the key, then the fingerprints' words
   (sb_fingerprints_save), which 'load' checks (sb_fingerprints_load).  The
   key covers the hash keys' seed too: fingerprints made with other keys
   could not be merged with these. */
static uint64_t collisions_key(const collisions_acc *a)
{
    return sb_saved_mix(sb_saved_key(sb_stat_collisions.name, a->kind, a->n,
                                     a->len, a->hands),
                        SB_FINGERPRINTS_SEED);
}

static int collisions_save(const void *acc, uint64_t **words, size_t *count)
{
    const collisions_acc *a = acc;
    uint64_t *body;
    int st = sb_saved_alloc(collisions_key(a), sb_fingerprints_words(a->fp),
                            words, count, &body);
    if (st == SB_OK)
        sb_fingerprints_save(a->fp, body);
    return st;
}

static int collisions_load(void *acc, const uint64_t *words, size_t count)
{
    collisions_acc *a = acc;
    if (words == NULL || count < 1 || words[0] != collisions_key(a))
        return SB_EINVAL;
    return sb_fingerprints_load(a->fp, words + 1, count - 1);
}

/* The most a table ever holds (120 MiB), whatever the shape. */
static size_t collisions_memory(const sb_shape *shape, size_t *finalize)
{
    *finalize = sb_mem_finalize(0, 1);
    return sb_mem(sizeof(collisions_acc))
         + sb_fingerprints_memory(shape->len);
}

const sb_stat_type sb_stat_collisions = {
    .name = "collisions",
    .sees = "how many samples repeat an earlier one exactly (the birthday "
            "test: too few reachable decks)",
    .kinds = SB_KIND_PERMUTATION | SB_KIND_DRAW | SB_KIND_DEAL,
    .default_kinds = SB_KIND_PERMUTATION | SB_KIND_DRAW | SB_KIND_DEAL,
    .n_min = COLLISIONS_N_MIN,
    .n_max = SB_DECK_MAX,
    .alloc = collisions_alloc,
    .add = collisions_add,
    .merge = collisions_merge,
    .finalize = collisions_finalize,
    .free = collisions_free,
    .save = collisions_save,
    .load = collisions_load,
    .memory = collisions_memory,
};
