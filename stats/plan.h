/*
 * plan.h - sample-size planning: how many samples a run needs so that a
 * bias of a stated size is caught with a stated power at the fail
 * threshold.
 *
 * The plan inverts the detectable effect that every report prints (the
 * 'detectable' field of sb_result: the noncentrality per sample that a
 * statistic catches with power 0.9 at the fail threshold).  To stay the
 * same figure as the report's, it is read from the statistic's own
 * finalize, run on an accumulator that has counted nothing but is told N
 * samples: the detectable effect of a chi-square statistic depends on N,
 * the shape and the threshold, never on what was counted.  A statistic
 * whose report needs more than N (serial counts pairs of consecutive
 * samples; suit-lengths refuses counts that do not add up to the
 * samples) is not planned, and says why.  The samples needed are then found
 * by bisection over N, and the N returned always satisfies the condition
 * when checked the same way (the report at N will say so).
 *
 * An effect is stated in one of two units, the words of the report's
 * detectable lines:
 *  - a chi-square distance per sample D: sum (p_i - p0_i)^2 / p0_i over
 *    the statistic's cells, the 'detectable' figure itself; a statistic
 *    catches D when its detectable effect is at most D;
 *  - a relative deviation delta of one cell: the cell the report's words
 *    name ("one card in one position: 5% more or less often than its
 *    rate") comes out a relative delta more or less often than its null
 *    share p, the other cells making up the difference in proportion.
 *    That is the distance delta^2 p / (1 - p) (sb_gof_detectable_words),
 *    with the p of that statistic's cell: the same delta is a different
 *    distance for each statistic.
 *  - a generator of B bits reduced with % m (rand-bits=B): a
 *    Fisher-Yates whose draw from 0..m-1 is rand() % m, rand() of B bits,
 *    the words of the Fisher-Yates codes' detectable line ("rand() % m
 *    from a generator of B bits or fewer").  Planned by 'fy-code' and
 *    'fy-code-forward' only, through their directed low-residue subtest
 *    and its exact noncentrality against that very alternative
 *    (sb_fy_bits_caught, the function the line is computed with, at the
 *    plan's power): the fewest N at which the line says B bits or more.
 *    The other statistics see that alternative only through the law it
 *    makes of their cells, which no formula here gives: not planned.
 * A statistic whose detectable effect is not a chi-square distance
 * ('collisions': a number of reachable samples) cannot be planned, nor,
 * for a relative deviation, one whose words name no single cell.
 *
 * A distance is planned by the Fisher-Yates codes' per-draw fit, their
 * omnibus part, and not by their directed subtests (the mean, the low
 * residues): a distance says how far, not in which direction, and only
 * the omnibus part catches every pattern at that distance.
 *
 * At power 0.9 the plan is exactly the report's figure.  At another
 * power P, the figure is scaled by lambda*(df, alpha, P) / lambda*(df,
 * alpha, 0.9), the ratio of the chi-square(df) noncentralities caught
 * with powers P and 0.9 at the battery's threshold alpha: exact for the
 * statistics referred to one chi-square at alpha, an approximation for
 * those that divide alpha among sub-tests or use the sparse normal law
 * (the ratio moves little with alpha and df).
 */
#ifndef SB_STATS_PLAN_H
#define SB_STATS_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include "shufflebias/stat.h"
#include "stats/fy_draws.h"

/* The largest sample count a plan will propose. */
#define SB_PLAN_SAMPLES_MAX (UINT64_C(1) << 50)

typedef enum sb_plan_unit {
    SB_PLAN_RELATIVE = 0,   /* a relative deviation of one cell */
    SB_PLAN_DISTANCE = 1,   /* a chi-square distance per sample */
    SB_PLAN_RAND_BITS = 2   /* rand() % m on B bits, B = value */
} sb_plan_unit;

typedef struct sb_plan_effect {
    sb_plan_unit unit;
    double value;           /* > 0: 0.05 is 5% for SB_PLAN_RELATIVE;
                               a whole B in SB_FY_BITS_MIN..SB_FY_BITS_MAX
                               for SB_PLAN_RAND_BITS */
    double power;           /* in (0, 1), at least alpha */
    double alpha;           /* the threshold one statistic faces: the
                               fail level over the statistics run, as
                               sb_report_results computes it */
} sb_plan_effect;

/* What one statistic's report would say at N samples. */
typedef struct sb_plan_point {
    int applicable;         /* 0: the statistic says "not applicable" */
    double distance;        /* the detectable distance per sample at the
                               plan's power */
    double share;           /* the p of the cell the words name, or 0 */
    double df;
    unsigned subtests;      /* the report's subtests (0 or 1: one test) */
    unsigned bits;          /* the Fisher-Yates codes: the largest B up to
                               which rand() % m of B bits is caught at the
                               plan's power (sb_fy_bits_caught); else 0 */
    char words[200];        /* the report's detectable line (power 0.9) */
    char note[512];         /* when not applicable: the reason */
} sb_plan_point;

/* One statistic's plan. */
typedef struct sb_plan_row {
    const char *name;
    int planned;            /* 0: see 'reason' */
    uint64_t samples;       /* the fewest samples found that catch the
                               effect (bisection; checked at this N) */
    double distance;        /* the effect as a distance for this
                               statistic (delta^2 p / (1 - p) for a
                               relative effect; for rand-bits=B, the
                               directed subtest's noncentrality per
                               sample) */
    sb_plan_point at;       /* the report at 'samples' */
    char reason[640];       /* why not planned */
} sb_plan_row;

/* The report's detectable effect of statistic 't' on samples of 'shape'
   after N samples, at power e->power and threshold e->alpha.
   Returns SB_OK, SB_EINVAL, SB_ENOMEM or SB_ERANGE. */
int sb_plan_point_at(const sb_stat_type *t, const sb_shape *shape,
                     uint64_t samples, const sb_plan_effect *e,
                     sb_plan_point *pt);

/* Plan one statistic: the fewest samples (found by doubling then
   bisection over N, up to SB_PLAN_SAMPLES_MAX) at which its report's
   detectable effect at e->power is at most the effect 'e'.
   row->planned is 0, with a reason, when it cannot be planned (see
   above) or needs more than SB_PLAN_SAMPLES_MAX samples.
   Returns SB_OK, SB_EINVAL, SB_ENOMEM or SB_ERANGE. */
int sb_plan_stat(const sb_stat_type *t, const sb_shape *shape,
                 const sb_plan_effect *e, sb_plan_row *row);

/* Whether a report point catches the effect: applicable, and its
   distance at most the effect's distance for it (for rand-bits=B: its
   'bits' at least B). */
int sb_plan_catches(const sb_plan_point *pt, const sb_plan_effect *e);

/* A smallest N in 1..max with ok(ctx, N) true: from the guess 'start',
   steps that double down (or up) until ok changes, then bisection.  The
   N returned is one at which ok was seen true, whatever ok does
   elsewhere (the smallest when ok is monotone); when ok is false for
   every N tried up to 'max', *samples is 0.  ok returns 1, 0, or minus a
   status to stop with.  Returns SB_OK or that status. */
typedef int (*sb_plan_ok_fn)(void *ctx, uint64_t n);
int sb_plan_bisect(sb_plan_ok_fn ok, void *ctx, uint64_t start,
                   uint64_t max, uint64_t *samples);

#endif /* SB_STATS_PLAN_H */
