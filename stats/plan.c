/*
 * plan.c - the samples a run needs to catch a stated bias (see plan.h).
 *
 * The forward computation is the statistic's own finalize, so that the
 * plan and the report can never disagree about what N samples catch; the
 * inversion is a bisection over N that keeps, as its upper end, an N at
 * which the condition was seen to hold.
 */
#include "stats/plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "shufflebias/status.h"
#include "stats/gof.h"

/* lambda*(df, alpha, power) / lambda*(df, alpha, SB_GOF_POWER). */
static int power_ratio(double df, double alpha, double power, double *ratio)
{
    if (power == SB_GOF_POWER) {
        *ratio = 1.0;
        return SB_OK;
    }
    double at, base;
    int st = sb_gof_detectable_chisq(df, alpha, power, &at);
    if (st == SB_OK)
        st = sb_gof_detectable_chisq(df, alpha, SB_GOF_POWER, &base);
    if (st != SB_OK)
        return st;
    *ratio = at / base;
    return SB_OK;
}

static int valid_effect(const sb_plan_effect *e)
{
    if (e && e->unit == SB_PLAN_RAND_BITS
        && !(e->value >= SB_FY_BITS_MIN && e->value <= SB_FY_BITS_MAX
             && e->value == floor(e->value)))
        return 0;
    return e && e->value > 0.0 && isfinite(e->value)
           && (e->unit == SB_PLAN_RELATIVE || e->unit == SB_PLAN_DISTANCE
               || e->unit == SB_PLAN_RAND_BITS)
           && e->alpha > 0.0 && e->alpha < 1.0 && e->power > e->alpha
           && e->power < 1.0;
}

/* The last power ratio computed, by df: a statistic's df changes with N
   only when pooling does, and each ratio costs two bisections. */
typedef struct ratio_cache {
    double df, ratio;         /* df 0: none yet */
} ratio_cache;

/* Whether 't' is one of the Fisher-Yates codes, whose directed subtest
   plans rand-bits=B (they share their finalize). */
static int fy_stat(const sb_stat_type *t)
{
    return t->finalize == sb_fy_finalize;
}

/* The point at N from an accumulator 'acc' of 't' on decks of n cards
   that counted nothing. */
static int point_from(const sb_stat_type *t, size_t n, const void *acc,
                      uint64_t samples, const sb_plan_effect *e,
                      ratio_cache *cache, sb_plan_point *pt)
{
    sb_result res;
    memset(pt, 0, sizeof *pt);
    memset(&res, 0, sizeof res);
    int st = t->finalize(acc, samples, e->alpha, &res);
    if (st == SB_EINVAL) {
        /* A statistic that checks its counts against the samples (every
           hand's suit lengths add up to them) refuses an empty count:
           its report is not a function of N alone. */
        snprintf(pt->note, sizeof pt->note, "it checks that its counts "
                 "add up to the samples");
        sb_result_clear(&res);
        return SB_OK;
    }
    if (st == SB_OK && res.applicable && res.detectable > 0.0) {
        pt->applicable = 1;
        pt->df = res.df;
        pt->share = res.detectable_share;
        pt->distance = res.detectable;
        pt->subtests = res.subtests;
        if (fy_stat(t))
            pt->bits = sb_fy_bits_caught(n, samples,
                                         res.subtests ? res.subtests : 1,
                                         e->alpha, e->power);
        snprintf(pt->words, sizeof pt->words, "%s", res.detectable_desc);
        if (res.df > 0.0 && res.df != cache->df) {
            st = power_ratio(res.df, e->alpha, e->power, &cache->ratio);
            cache->df = st == SB_OK ? res.df : 0.0;
        }
        if (res.df > 0.0)
            pt->distance *= cache->ratio;
    } else if (st == SB_OK) {
        snprintf(pt->note, sizeof pt->note, "%s", res.note);
    }
    sb_result_clear(&res);
    return st;
}

int sb_plan_point_at(const sb_stat_type *t, const sb_shape *shape,
                     uint64_t samples, const sb_plan_effect *e,
                     sb_plan_point *pt)
{
    if (!t || !shape || !pt || !valid_effect(e))
        return SB_EINVAL;
    void *acc = NULL;
    int st = t->alloc(&acc, shape);
    if (st != SB_OK)
        return st;
    ratio_cache cache = { 0.0, 1.0 };
    st = point_from(t, shape->n, acc, samples, e, &cache, pt);
    t->free(acc);
    return st;
}

/* The effect as a distance for a point: the relative deviation through
   the share of the cell its words name. */
static double effect_distance(const sb_plan_point *pt,
                              const sb_plan_effect *e)
{
    if (e->unit == SB_PLAN_DISTANCE)
        return e->value;
    if (e->unit == SB_PLAN_RAND_BITS)
        return 0.0;
    if (!(pt->share > 0.0 && pt->share < 1.0))
        return 0.0;
    return e->value * e->value * pt->share / (1.0 - pt->share);
}

int sb_plan_catches(const sb_plan_point *pt, const sb_plan_effect *e)
{
    if (!pt->applicable || !(pt->df > 0.0))
        return 0;
    if (e->unit == SB_PLAN_RAND_BITS)
        return pt->bits >= (unsigned)e->value;
    const double d = effect_distance(pt, e);
    return d > 0.0 && pt->distance <= d;
}

int sb_plan_bisect(sb_plan_ok_fn ok, void *ctx, uint64_t start,
                   uint64_t max, uint64_t *samples)
{
    *samples = 0;
    if (max < 1)
        return SB_OK;
    if (start < 1)
        start = 1;
    if (start > max)
        start = max;
    /* Gallop from the guess, in steps that double, until ok is false at
       lo (or lo is 0) and true at hi; then halve. */
    uint64_t lo, hi, step = start >> 16 ? start >> 16 : 1;
    int r = ok(ctx, start);
    if (r < 0)
        return -r;
    if (r) {
        hi = start;
        for (;;) {
            if (hi <= step) {
                lo = 0;
                break;
            }
            const uint64_t cand = hi - step;
            if ((r = ok(ctx, cand)) < 0)
                return -r;
            if (!r) {
                lo = cand;
                break;
            }
            hi = cand;
            step *= 2;
        }
    } else {
        lo = start;
        for (;;) {
            if (lo >= max)
                return SB_OK;          /* not even at max */
            const uint64_t cand = max - lo > step ? lo + step : max;
            if ((r = ok(ctx, cand)) < 0)
                return -r;
            if (r) {
                hi = cand;
                break;
            }
            lo = cand;
            step = step > max / 2 ? max : 2 * step;
        }
    }
    while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if ((r = ok(ctx, mid)) < 0)
            return -r;
        if (r)
            hi = mid;
        else
            lo = mid;
    }
    *samples = hi;
    return SB_OK;
}

typedef struct plan_ctx {
    const sb_stat_type *t;
    size_t n;                 /* the deck size */
    const void *acc;
    const sb_plan_effect *e;
    ratio_cache cache;
    sb_plan_point pt;         /* the last point computed */
} plan_ctx;

static int plan_ok(void *ctx, uint64_t n)
{
    plan_ctx *c = ctx;
    const int st = point_from(c->t, c->n, c->acc, n, c->e, &c->cache,
                              &c->pt);
    if (st != SB_OK)
        return -st;
    return sb_plan_catches(&c->pt, c->e);
}

/* rand-bits=B by the bits caught alone: the starting guess. */
typedef struct bits_ctx {
    size_t n, subtests;
    const sb_plan_effect *e;
} bits_ctx;

static int bits_ok(void *ctx, uint64_t n)
{
    const bits_ctx *b = ctx;
    return sb_fy_bits_caught(b->n, n, b->subtests, b->e->alpha,
                             b->e->power) >= (unsigned)b->e->value;
}

/* Why a statistic cannot be planned for 'e', from its report at some N
   where it applies; "" when it can. */
static void unplannable(const sb_stat_type *t, size_t n,
                        const sb_plan_point *pt, const sb_plan_effect *e,
                        char *why, size_t len)
{
    why[0] = '\0';
    if (e->unit == SB_PLAN_RAND_BITS && !fy_stat(t))
        snprintf(why, len, "only the Fisher-Yates codes state "
                 "rand-bits=B (what it makes of these cells is not "
                 "computed)");
    else if (e->unit == SB_PLAN_RAND_BITS
             && !(sb_fy_low_noncentrality(n, (unsigned)e->value) > 0.0))
        snprintf(why, len, "rand() %% m of %.0f bits is not biased at "
                 "n = %zu (every m divides 2^%.0f)", e->value, n,
                 e->value);
    else if (!(pt->df > 0.0))
        snprintf(why, len, "its detectable effect is not a chi-square "
                 "distance");
    else if (e->unit == SB_PLAN_RELATIVE && !(pt->share > 0.0))
        snprintf(why, len, "its detectable effect names no single cell; "
                 "state the effect as a distance (--effect distance=D)");
}

int sb_plan_stat(const sb_stat_type *t, const sb_shape *shape,
                 const sb_plan_effect *e, sb_plan_row *row)
{
    if (!t || !shape || !row || !valid_effect(e))
        return SB_EINVAL;
    memset(row, 0, sizeof *row);
    row->name = t->name;
    void *acc = NULL;
    int st = t->alloc(&acc, shape);
    if (st != SB_OK)
        return st;
    plan_ctx c = { .t = t, .n = shape->n, .acc = acc, .e = e,
                   .cache = { 0.0, 1.0 } };
    if (e->unit == SB_PLAN_RAND_BITS && !fy_stat(t)) {
        unplannable(t, shape->n, &c.pt, e, row->reason,
                    sizeof row->reason);
        t->free(acc);
        return SB_OK;
    }
    /* Find where it applies at all (a statistic may need a few samples
       per cell first), to tell a unit it cannot state from a bias too
       small to catch. */
    int seen = 0;
    uint64_t seen_n = 0;
    for (uint64_t n = 1024; n <= SB_PLAN_SAMPLES_MAX && st == SB_OK;
         n *= 32) {
        st = point_from(t, shape->n, acc, n, e, &c.cache, &c.pt);
        if (st == SB_OK && c.pt.applicable) {
            seen = 1;
            seen_n = n;
            break;
        }
    }
    if (st == SB_OK && !seen)
        snprintf(row->reason, sizeof row->reason,
                 "its report is not read off the number of samples "
                 "alone (with none counted: %s)", c.pt.note);
    if (st == SB_OK && seen)
        unplannable(t, shape->n, &c.pt, e, row->reason,
                    sizeof row->reason);
    if (st == SB_OK && !row->reason[0]) {
        /* Detectable distances fall about as 1/N: start from the N that
           would give, where the point applied. */
        const double d = effect_distance(&c.pt, e);
        const double guess = d > 0.0 ? (double)seen_n * c.pt.distance / d
                                     : (double)SB_PLAN_SAMPLES_MAX;
        uint64_t start = guess < 1.0 ? 1
                       : guess > (double)SB_PLAN_SAMPLES_MAX
                             ? SB_PLAN_SAMPLES_MAX
                             : (uint64_t)guess;
        if (e->unit == SB_PLAN_RAND_BITS) {
            /* The bits caught alone, without the finalize around them,
               say where to start. */
            bits_ctx b = { shape->n, c.pt.subtests ? c.pt.subtests : 1,
                           e };
            st = sb_plan_bisect(bits_ok, &b, seen_n, SB_PLAN_SAMPLES_MAX,
                                &start);
            if (start == 0)
                start = SB_PLAN_SAMPLES_MAX;
        }
        if (st == SB_OK)
            st = sb_plan_bisect(plan_ok, &c, start, SB_PLAN_SAMPLES_MAX,
                                &row->samples);
        if (st == SB_OK && row->samples == 0)
            snprintf(row->reason, sizeof row->reason,
                     "needs more than 2^50 samples");
    }
    if (st == SB_OK && row->samples > 0) {
        /* The point at the answer, for the plan's words. */
        st = point_from(t, shape->n, acc, row->samples, e, &c.cache,
                        &row->at);
        row->planned = st == SB_OK && sb_plan_catches(&row->at, e);
        row->distance = e->unit == SB_PLAN_RAND_BITS
                            ? sb_fy_low_noncentrality(shape->n,
                                                      (unsigned)e->value)
                            : effect_distance(&row->at, e);
    }
    t->free(acc);
    return st;
}
