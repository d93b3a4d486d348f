/*
 * outcome.c - what a run's report says at its top: the battery's verdict,
 * or what kept the battery from having the last word.
 *
 * Other programs read the JSON "verdict" alone, so a run that failed or
 * was interrupted must never say "pass" there: its tables still hold the
 * counts made, with each statistic's own verdict, but the top says
 * "error" or "incomplete", and "reason" says why.
 */
#include "reports/render.h"

#include <inttypes.h>
#include <string.h>

/* The run ended in error: its input or something else went wrong. */
static const char *run_error(const sb_run_info *run)
{
    if (run->input && run->input->error[0])
        return run->input->error;
    if (run->bad_sample[0])
        return run->bad_sample;
    return run->error;
}

const char *sb_report_verdict(const sb_report *rep)
{
    const sb_run_info *run = &rep->run;
    if (run_error(run))
        return "error";
    if (run->partial && !run->merged_files)
        return "incomplete";
    return sb_verdict_str(rep->verdict);
}

void sb_report_reason(const sb_report *rep, char *buf, size_t len)
{
    const sb_run_info *run = &rep->run;
    const char *error = run_error(run);
    buf[0] = '\0';
    if (error) {
        snprintf(buf, len, "%s%s", run->input && run->input->error[0]
                 ? "the input went wrong: " : "", error);
    } else if (run->partial && !run->merged_files) {
        snprintf(buf, len, "interrupted after %" PRIu64 " of %" PRIu64
                 " samples", run->done, run->samples);
    } else if (rep->verdict == SB_VERDICT_NA) {
        /* The statistics' own words, such as "needs n >= 2". */
        const char *note = "";
        for (size_t i = 0; i < rep->n_results && !note[0]; i++)
            note = rep->results[i].note;
        snprintf(buf, len, "no statistic could judge these samples%s%s",
                 note[0] ? ": " : "", note);
    }
}
