/*
 * text.c - the terminal report of 'shufflebias test'.
 *
 *   statistic        value        df   p-value     p (Holm)    verdict
 *   position       51.37           4   1.9e-10     5.6e-10     FAIL
 *
 * A p-value marked '*' is already corrected across its sub-tests (the
 * hand-wise deal statistics: Bonferroni over the hands), said in a line
 * under the table.  Then what each failing statistic saw, the overall verdict and the
 * run's parameters, so that the run can be repeated from the output alone.
 */
#include "reports/render.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "shufflebias/status.h"
#include "base/rng.h"

void sb_render_count(char *buf, size_t len, uint64_t count)
{
    snprintf(buf, len, "%" PRIu64 "%s", count,
             count == UINT64_MAX ? " or more" : "");
}

void sb_render_md_cell(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (strchr("|\\`*_[]", *s))
            fprintf(f, "\\%c", *s);
        else if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '\n' || *s == '\r')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

json_t *sb_count_json(uint64_t count)
{
    return count > (uint64_t)INT64_MAX ? json_real((double)count)
                                       : json_integer((json_int_t)count);
}

void sb_render_pvalue(char *buf, size_t len, double p, int underflow)
{
    if (underflow)
        snprintf(buf, len, "< 1e-300");
    else if (p >= 1e-3)
        snprintf(buf, len, "%.4f", p);
    else
        snprintf(buf, len, "%.2g", p);
}

static void upper(char *dst, const char *src, size_t len)
{
    snprintf(dst, len, "%s", src);
    for (char *c = dst; *c; c++)
        *c = (char)toupper((unsigned char)*c);
}

static const char *verdict_words(sb_verdict v)
{
    switch (v) {
    case SB_VERDICT_PASS: return "no bias found";
    case SB_VERDICT_SUSPECT: return "inconclusive: a statistic is suspect";
    case SB_VERDICT_FAIL: return "bias found";
    case SB_VERDICT_NA: break;
    }
    return "nothing to test at this size";
}

static int render_summary(FILE *f, const sb_report *rep, int timing,
                          const char *expect);

/* What a fail resembles and its fix; what a pass could have missed. */
static void render_diagnosis(FILE *f, const sb_diagnosis *g)
{
    if (g->missed[0])
        fprintf(f, "  could have missed: %s\n", g->missed);
    if (g->state == SB_DIAGNOSIS_NONE)
        return;
    fputc('\n', f);
    if (g->state == SB_DIAGNOSIS_MATCH)
        fprintf(f, "diagnosis: resembles %s%s%s%s (score %.2f of 1; a "
                "close match from %.2f)\n", g->name, g->params[0] ? " ("
                : "", g->params, g->params[0] ? ")" : "", g->score,
                g->threshold);
    else if (g->name[0] && g->score >= g->threshold)
        /* A close score on too little evidence (sb_diagnose): no name. */
        fprintf(f, "diagnosis: no flaw named, too little seen to tell "
                "flaws apart (nearest %s, score %.2f of 1)\n", g->name,
                g->score);
    else if (g->name[0])
        fprintf(f, "diagnosis: no close match in the catalogue (nearest "
                "%s, score %.2f of 1; a close match from %.2f)\n",
                g->name, g->score, g->threshold);
    else if (g->signatures)
        fprintf(f, "diagnosis: no close match in the catalogue (no "
                "catalogued flaw's pattern points the same way)\n");
    else
        fprintf(f, "diagnosis: no close match in the catalogue (it holds "
                "no flaw of this kind and size)\n");
    if (g->looks[0])
        fprintf(f, "  bias       %s\n", g->looks);
    if (g->state != SB_DIAGNOSIS_MATCH)
        return;
    fprintf(f, "  flaw       %s\n", g->flaw);
    if (g->estimate[0])
        fprintf(f, "  estimate   %s\n", g->estimate);
    fprintf(f, "  fix        %s\n", g->advice);
    if (g->runner_up[0])
        fprintf(f, "  next       %s (score %.2f)\n", g->runner_up,
                g->runner_up_score);
}

int sb_render_text(FILE *f, const sb_report *rep)
{
    return sb_render_text_with(f, rep, NULL);
}

int sb_render_text_with(FILE *f, const sb_report *rep,
                        const sb_render_opts *o)
{
    const int timing = !(o && o->no_timing);
    /* After an input error or a plug-in's bad sample, the message and
       what was counted before it: a table of statistics that could not
       judge so few samples would only hide it (the JSON report keeps the
       whole partial report). */
    if ((rep->run.input && rep->run.input->error[0])
        || rep->run.bad_sample[0])
        return render_summary(f, rep, timing, o ? o->expect : NULL);
    fprintf(f, "%-18s %12s %8s  %-10s  %-10s  %s\n", "statistic", "value",
            "df", "p-value", "p (Holm)", "verdict");
    for (size_t i = 0; i < rep->n_results; i++) {
        const sb_result *r = &rep->results[i];
        char p[32], padj[32], v[16];
        upper(v, sb_verdict_str(r->verdict), sizeof v);
        if (!r->applicable) {
            fprintf(f, "%-18s %12s %8s  %-10s  %-10s  %s\n", r->name, "-",
                    "-", "-", "-", v);
            continue;
        }
        sb_render_pvalue(p, sizeof p, r->p_value, r->p_underflow);
        sb_render_pvalue(padj, sizeof padj, r->p_adjusted, r->p_underflow);
        /* A p-value that already combines sub-tests (a deal's hands, by
           Bonferroni) is marked, and the mark said below the table, so
           that it does not read as a raw p next to the Holm column. */
        if (r->subtests > 1) {
            const size_t used = strlen(p);
            snprintf(p + used, sizeof p - used, "*");
        }
        fprintf(f, "%-18s %12.6g %8.6g  %-10s  %-10s  %s\n", r->name,
                r->statistic, r->df, p, padj, v);
    }
    for (size_t i = 0; i < rep->n_results; i++) {
        const sb_result *r = &rep->results[i];
        if (r->applicable && r->subtests > 1)
            fprintf(f, "  * %s: p-value corrected, Bonferroni over %u "
                    "sub-tests: min(1, %u x smallest p)\n", r->name,
                    r->subtests, r->subtests);
    }
    int said = 0;
    for (size_t i = 0; i < rep->n_results; i++) {
        const sb_result *r = &rep->results[i];
        const char *what = r->applicable ? r->effect_desc : r->note;
        if ((r->verdict == SB_VERDICT_PASS && r->applicable) || !what[0])
            continue;
        if (!said++)
            fputc('\n', f);
        fprintf(f, "  %s: %s\n", r->name, what);
    }

    /* A pass says no more than what the samples could have seen. */
    said = 0;
    for (size_t i = 0; i < rep->n_results; i++) {
        const sb_result *r = &rep->results[i];
        if (r->verdict != SB_VERDICT_PASS || !r->detectable_desc[0])
            continue;
        if (!said++)
            fprintf(f, "\nwhat these samples would have caught (power 0.9 "
                    "at the fail threshold):\n");
        fprintf(f, "  %s: %s\n", r->name, r->detectable_desc);
    }

    render_diagnosis(f, &rep->diagnosis);

    if (rep->n_stages > 1) {
        fprintf(f, "\nescalation: suspect at first, re-run on fresh samples\n");
        for (size_t k = 0; k < rep->n_stages; k++) {
            const sb_stage *st = &rep->stages[k];
            char p[32], sv[16];
            upper(sv, sb_verdict_str(st->verdict), sizeof sv);
            sb_render_pvalue(p, sizeof p, st->min_p_adjusted, 0);
            fprintf(f, "  stage %zu  seed %-17" PRIu64 " samples %-11" PRIu64
                    " %-8s smallest p (Holm) %s%s%s\n", k, st->seed,
                    st->done, sv, p, st->worst ? ", " : "",
                    st->worst ? st->worst : "");
        }
    }

    return render_summary(f, rep, timing, o ? o->expect : NULL);
}

/* --expect, under the verdict: held, not held, or nothing to hold it to
   (an error, an interrupted run, a suspect result: their exit codes
   stand). */
static void render_expectation(FILE *f, const sb_report *rep,
                               const char *expect)
{
    if (!expect)
        return;
    const int held = sb_report_expectation(rep, expect);
    if (held > 0)
        fprintf(f, "  expected   %s: held\n", expect);
    else
        fprintf(f, "  expected   %s: %s (the verdict is %s)\n", expect,
                held == 0 ? "NOT HELD" : "not judged",
                sb_report_verdict(rep));
}

/* The verdict and what the run was, so that it can be made again. */
static int render_summary(FILE *f, const sb_report *rep, int timing,
                          const char *expect)
{
    const sb_run_info *run = &rep->run;
    char v[16], top[16], reason[1024];
    upper(v, sb_verdict_str(rep->verdict), sizeof v);
    upper(top, sb_report_verdict(rep), sizeof top);
    sb_report_reason(rep, reason, sizeof reason);
    if (run->input && run->input->error[0])
        fprintf(f, "verdict: %s (the input went wrong, below, after %"
                PRIu64 " good samples; --json keeps their tables)\n", top,
                run->done);
    else if (strcmp(top, v) != 0 && strcmp(top, "INCOMPLETE") == 0)
        fprintf(f, "\nverdict: %s (the run was interrupted; on the %" PRIu64
                " samples counted: %s)\n", top, run->done, v);
    else if (strcmp(top, v) != 0)
        fprintf(f, "\nverdict: %s (%s)\n", top, reason);
    else
        fprintf(f, "\nverdict: %s (%s)%s\n", v, verdict_words(rep->verdict),
                run->partial ? " - PARTIAL, the files hold fewer samples "
                               "than their runs asked" : "");
    render_expectation(f, rep, expect);
    const sb_input_info *in = run->input;
    if (in && strcmp(in->source, "exec") == 0)
        fprintf(f, "  program    %s (format %s%s)\n", in->what, in->format,
                in->one_based ? ", one-based" : "");
    else if (in)
        fprintf(f, "  input      %s (format %s%s)\n",
                strcmp(in->what, "-") == 0 ? "standard input" : in->what,
                in->format, in->one_based ? ", one-based" : "");
    else
        fprintf(f, "  algorithm  %s\n", run->algorithm);
    if (run->plugin)
        fprintf(f, "  plug-in    %s\n", run->plugin);
    if (!in)
        fprintf(f, "  params     %s\n", run->params[0] ? run->params
                                                      : "(none)");
    fprintf(f, "  kind       %s\n", sb_kind_str(run->kind));
    fprintf(f, "  n          %zu\n", run->n);
    if (run->partial && run->done < run->samples)
        fprintf(f, "  samples    %" PRIu64 " of %" PRIu64 "\n", run->done,
                run->samples);
    else
        fprintf(f, "  samples    %" PRIu64 "\n", run->done);
    if (in && strcmp(in->source, "input") == 0)
        ;   /* recorded samples: no seed, no generator of ours */
    else if (rep->n_stages > 1)
        fprintf(f, "  seed       %" PRIu64 " (the tables are stage %zu's, "
                "seed %" PRIu64 ")\n", run->seed, rep->n_stages - 1,
                rep->stages[rep->n_stages - 1].seed);
    else
        fprintf(f, "  seed       %" PRIu64 "%s\n", run->seed,
                in ? " (handed to the program as SHUFFLEBIAS_SEED)" : "");
    if (!run->rng)
        ;
    else if (run->rng_seed_bits < 64)
        fprintf(f, "  rng        %s (stream version %d; the generator was "
                "seeded with %" PRIu64 ", %u bits)\n", run->rng,
                run->stream_version, run->rng_seed, run->rng_seed_bits);
    else
        fprintf(f, "  rng        %s (stream version %d)\n", run->rng,
                run->stream_version);
    const char *order = run->rng ? sb_rng_sequential_why(run->rng) : NULL;
    if (order)
        fprintf(f, "             (%s)\n", order);
    if (run->part_end)
        fprintf(f, "  part       chunks %" PRIu64 " to %" PRIu64 " of a run "
                "of %" PRIu64 " samples (merge the parts with 'shufflebias "
                "merge')\n", run->part_first, run->part_end - 1,
                run->run_samples);
    if (run->merged_files) {
        fprintf(f, "  merged     %zu state files, seed%s", run->merged_files,
                run->n_merged_seeds == 1 ? "" : "s");
        for (size_t k = 0; k < run->n_merged_seeds; k++)
            fprintf(f, "%s%" PRIu64, k ? ", " : " ", run->merged_seeds[k]);
        fputc('\n', f);
    }
    if (run->tally_name && run->tally.samples)
        fprintf(f, "  %-10s %.4f per sample (sd %.3g, at most %" PRIu64
                "; the algorithm's own count)\n", run->tally_name,
                sb_tally_mean(&run->tally), sqrt(sb_tally_var(&run->tally)),
                run->tally.max);
    if (in && in->program[0])
        fprintf(f, "  ended      %s\n", in->program);
    if (in && in->invalid) {
        fprintf(f, "  skipped    %" PRIu64 " bad sample%s (--skip-invalid)%s\n",
                in->invalid, in->invalid == 1 ? "" : "s",
                in->invalid > in->n_listed ? "; the first ones:" : ":");
        for (size_t i = 0; i < in->n_listed; i++)
            fprintf(f, "             %s\n", in->listed[i]);
    }
    if (in && in->error[0])
        fprintf(f, "  INPUT ERROR %s\n", in->error);
    if (in && strcmp(in->source, "input") == 0
        && rep->verdict == SB_VERDICT_SUSPECT)
        fprintf(f, "  note       recorded samples cannot be drawn again: "
                "record more to settle a suspect result\n");
    fprintf(f, "  thresholds suspect below %g, fail below %g (Holm-adjusted)\n",
            run->suspect_alpha, run->fail_alpha);
    /* The rate of this session: samples resumed from a state file were
       made before it. */
    const double rate = run->seconds > 0 ? (double)(run->done - run->resumed)
                                           / run->seconds : 0.0;
    char threads[64] = "";
    if (run->ranks > 1)
        snprintf(threads, sizeof threads, " on %u ranks of %u thread%s",
                 run->ranks, run->threads, run->threads > 1 ? "s" : "");
    else if (run->threads > 1)
        snprintf(threads, sizeof threads, " on %u threads", run->threads);
    if (!run->merged_files && timing)
        fprintf(f, "  time       %.2f s (%.3g samples/s%s)%s\n",
                run->seconds, rate, threads,
                run->resumed ? ", after resuming a saved state" : "");
    return ferror(f) ? SB_EIO : SB_OK;
}
