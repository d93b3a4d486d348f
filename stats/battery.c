/*
 * battery.c - Holm's correction and the verdicts.
 *
 * Holm's step-down procedure rejects the j-th smallest of k p-values when
 * every p_(i), i <= j, is below alpha / (k - i + 1); its adjusted p-values
 * (Wright, "Adjusted p-values for simultaneous inference", Biometrics 1992)
 * are max_{i <= j} min(1, (k - i + 1) p_(i)), so a result is rejected at
 * level alpha exactly when its adjusted p-value is below alpha.  Only
 * applicable results count in k: a test that was not run does not dilute
 * the others.
 */
#include "stats/battery.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "shufflebias/status.h"

/* The order of the step-down: by p-value, ties by position. */
static int before(const sb_result *r, size_t a, size_t b)
{
    return r[a].p_value < r[b].p_value
           || (r[a].p_value == r[b].p_value && a < b);
}

/* Selects the results in increasing order one at a time (no allocation:
   the battery is a few dozen results at most), keeping the running max. */
void sb_battery_holm(sb_result *r, size_t m)
{
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
        r[i].p_adjusted = 1.0;
        if (r[i].applicable)
            k++;
        else
            r[i].verdict = SB_VERDICT_NA;
    }
    double running = 0.0;
    size_t prev = SIZE_MAX;
    for (size_t j = 1; j <= k; j++) {
        size_t best = SIZE_MAX;
        for (size_t i = 0; i < m; i++) {
            if (!r[i].applicable || (prev != SIZE_MAX && !before(r, prev, i)))
                continue;
            if (best == SIZE_MAX || before(r, i, best))
                best = i;
        }
        if (best == SIZE_MAX)
            break;   /* only a NaN p-value left: it keeps p_adjusted = 1 */
        double t = (double)(k - j + 1) * r[best].p_value;
        if (t > 1.0)
            t = 1.0;
        if (t > running)
            running = t;
        r[best].p_adjusted = running;
        prev = best;
    }
}

sb_verdict sb_battery_verdicts(sb_result *r, size_t m, double suspect_alpha,
                               double fail_alpha)
{
    sb_verdict overall = SB_VERDICT_NA;
    for (size_t i = 0; i < m; i++) {
        if (!r[i].applicable) {
            r[i].verdict = SB_VERDICT_NA;
            continue;
        }
        if (r[i].p_adjusted < fail_alpha)
            r[i].verdict = SB_VERDICT_FAIL;
        else if (r[i].p_adjusted < suspect_alpha)
            r[i].verdict = SB_VERDICT_SUSPECT;
        else
            r[i].verdict = SB_VERDICT_PASS;
        if (overall == SB_VERDICT_NA || r[i].verdict > overall)
            overall = r[i].verdict;
    }
    return overall;
}

int sb_report_results(sb_report *rep, const sb_stat_type *const *stats,
                      size_t n_stats, void *const *acc, uint64_t done,
                      char *err, size_t len)
{
    rep->results = calloc(n_stats ? n_stats : 1, sizeof *rep->results);
    if (!rep->results) {
        snprintf(err, len, "out of memory finalizing the run");
        return SB_ENOMEM;
    }
    rep->n_results = n_stats;
    rep->run.suspect_alpha = SB_SUSPECT_ALPHA;
    rep->run.fail_alpha = SB_FAIL_ALPHA;
    /* The detectable effect is computed at the fail threshold a single
       statistic faces in the worst case of Holm's procedure. */
    const double alpha = SB_FAIL_ALPHA / (double)(n_stats ? n_stats : 1);
    for (size_t i = 0; i < n_stats; i++) {
        int rc = stats[i]->finalize(acc[i], done, alpha, &rep->results[i]);
        if (rc != SB_OK) {
            snprintf(err, len, "statistic '%s' could not be computed: %s",
                     stats[i]->name, sb_status_str(rc));
            sb_report_release(rep);
            return rc;
        }
    }
    sb_battery_holm(rep->results, rep->n_results);
    rep->verdict = sb_battery_verdicts(rep->results, rep->n_results,
                                       SB_SUSPECT_ALPHA, SB_FAIL_ALPHA);
    return SB_OK;
}

void sb_report_release(sb_report *rep)
{
    for (size_t i = 0; i < rep->n_results; i++)
        sb_result_clear(&rep->results[i]);
    free(rep->results);
    rep->results = NULL;
    rep->n_results = 0;
}
