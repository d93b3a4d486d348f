/*
 * battery.h - from several results to one verdict.
 *
 * The tests of a battery look at the same samples, so their p-values are
 * dependent in unknown ways.  Holm's step-down correction (Holm, "A simple
 * sequentially rejective multiple test procedure", Scand. J. Statist. 1979)
 * controls the family-wise error rate under any dependence; the verdicts
 * are then read off the adjusted p-values with stated thresholds.
 */
#ifndef SB_BATTERY_H
#define SB_BATTERY_H

#include <stddef.h>
#include "shufflebias/stat.h"

/* Verdict thresholds on Holm-adjusted p-values: below SB_FAIL_ALPHA a
   result fails, below SB_SUSPECT_ALPHA it is suspect (and is re-run with
   more samples before anyone is told it failed). */
#define SB_SUSPECT_ALPHA 1e-3
#define SB_FAIL_ALPHA 1e-6

/* Holm-adjust the p-values of the applicable results among r[0..m-1]:
   with the k applicable p-values sorted, p_(1) <= ... <= p_(k) (ties in
   array order), p_adjusted of the j-th is max_{i <= j} min(1,
   (k - i + 1) p_(i)).  Not-applicable results get p_adjusted = 1 and
   verdict SB_VERDICT_NA.  Nothing is allocated: O(m^2) on a few dozen
   results. */
void sb_battery_holm(sb_result *r, size_t m);

/* Set the verdict of each applicable result from its p_adjusted: FAIL when
   below 'fail_alpha', SUSPECT when below 'suspect_alpha', else PASS; NA for
   the others.  Returns the overall verdict, the worst among applicable
   results (SB_VERDICT_NA when none is applicable). */
sb_verdict sb_battery_verdicts(sb_result *r, size_t m, double suspect_alpha,
                               double fail_alpha);

#endif /* SB_BATTERY_H */
