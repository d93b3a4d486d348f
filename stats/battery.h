/*
 * battery.h - from several results to one verdict.
 *
 * The tests of a battery look at the same samples, so their p-values are
 * dependent in unknown ways.  Holm's step-down correction (Holm, "A simple
 * sequentially rejective multiple test procedure", Scand. J. Statist. 1979)
 * controls the family-wise error rate under any dependence; the verdicts
 * are then read off the adjusted p-values with stated thresholds.
 * sb_report_results does the whole of it for a run's counts: finalize
 * each statistic, correct, judge.
 */
#ifndef SB_BATTERY_H
#define SB_BATTERY_H

#include <stddef.h>
#include <stdint.h>
#include "shufflebias/report.h"
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

/* Fill rep->results from the accumulators 'acc' of 'stats' over 'done'
   samples: finalize each (the detectable effects at the fail threshold
   one statistic faces in Holm's worst case), Holm's correction, the
   verdicts, and the thresholds in rep->run.  The rest of rep->run is the
   caller's.  SB_OK, or a status with a one-line reason in 'err' naming
   the statistic (then rep holds no results). */
int sb_report_results(sb_report *rep, const sb_stat_type *const *stats,
                      size_t n_stats, void *const *acc, uint64_t done,
                      char *err, size_t len);

/* Release the results of 'rep' (sb_report_results, sb_run) and leave it
   with none; the rest of 'rep' is untouched. */
void sb_report_release(sb_report *rep);

#endif /* SB_BATTERY_H */
