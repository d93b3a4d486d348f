/*
 * outcome.c - what a run's report says at its top: the battery's verdict,
 * or what kept the battery from having the last word.
 *
 * Other programs read the JSON "verdict" alone, so a run that failed or
 * was interrupted must never say "pass" there: its tables still hold the
 * counts made, with each statistic's own verdict, but the top says
 * "error" or "incomplete", and "reason" says why.
 *
 * A command told what to expect (--expect) is held to it here too, so
 * that the reports and the exit code judge it the same way.
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

const sb_result *sb_report_worst(const sb_report *rep)
{
    const sb_result *w = NULL;
    for (size_t i = 0; i < rep->n_results; i++) {
        const sb_result *r = &rep->results[i];
        if (!r->applicable)
            continue;
        /* Holm's adjusted p-values tie often (every one at 1 in a pass of
           many statistics): the raw p-value still orders them. */
        if (!w || r->p_adjusted < w->p_adjusted
            || (r->p_adjusted == w->p_adjusted && r->p_value < w->p_value))
            w = r;
    }
    return w;
}

/* --expect: held when the top verdict is the one expected.  Only a pass
   or a fail can be held to it: an error, an interrupted run, a suspect
   result or one where nothing was judged says nothing either way, and
   its exit code (2, 130, 3) stands. */
int sb_report_expectation(const sb_report *rep, const char *expect)
{
    const char *v = sb_report_verdict(rep);
    if (!expect || (strcmp(v, "pass") != 0 && strcmp(v, "fail") != 0))
        return -1;
    return strcmp(v, expect) == 0;
}

int sb_exact_expectation(const sb_exact_report *rep, const char *expect)
{
    if (!expect || rep->partial || rep->summary_only
        || rep->verdict == SB_EXACT_INCONCLUSIVE)
        return -1;
    return strcmp(expect, rep->verdict == SB_EXACT_UNIFORM ? "uniform"
                                                           : "biased") == 0;
}

void sb_expectation_json(json_t *root, const char *expect, int held)
{
    json_object_set_new(root, "expect", expect ? json_string(expect)
                                               : json_null());
    json_object_set_new(root, "expectation_held",
                        held < 0 ? json_null() : json_boolean(held));
}
