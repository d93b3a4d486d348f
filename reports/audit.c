/*
 * audit.c - the summary of an audit: every built-in shuffle tested with the
 * same n, samples, seed and source, one row each, next to what the
 * literature says of it.
 */
#include "reports/render.h"

#include <inttypes.h>
#include <string.h>

#include "shufflebias/status.h"

/* What the verdict means next to the literature's word. */
static const char *agreement(const sb_report *rep)
{
    const int biased = rep->run.literature
                       && strcmp(rep->run.literature, "biased") == 0;
    switch (rep->verdict) {
    case SB_VERDICT_FAIL:
        return biased ? "bias found, as expected" : "UNEXPECTED: bias found";
    case SB_VERDICT_SUSPECT:
        return "inconclusive";
    case SB_VERDICT_PASS:
        /* Too small for this many samples, or of a kind the statistics
           run cannot see at all (deal-random-hand against a card x hand
           count alone: every card reaches every hand with probability
           exactly 1/H). */
        return biased ? "bias not seen by these statistics at this size"
                      : "no bias found, as expected";
    case SB_VERDICT_NA:
        break;
    }
    return "nothing to test";
}

static void row_fields(const sb_report *rep, char *stat, size_t slen,
                       char *p, size_t plen)
{
    const sb_result *w = sb_report_worst(rep);
    snprintf(stat, slen, "%s", w ? w->name : "-");
    if (w)
        sb_render_pvalue(p, plen, w->p_adjusted, w->p_underflow);
    else
        snprintf(p, plen, "-");
}

static void header_line(FILE *f, const sb_report *reps, size_t m,
                        const char *bullet)
{
    if (m == 0)
        return;
    const sb_run_info *run = &reps[0].run;
    fprintf(f, "%sn = %zu, %" PRIu64 " samples each, seed %" PRIu64
            ", rng %s (stream version %d); suspect below %g, fail below %g "
            "(Holm-adjusted)\n", bullet, run->n, run->samples, run->seed,
            run->rng, run->stream_version, run->suspect_alpha,
            run->fail_alpha);
}

int sb_render_audit_text(FILE *f, const sb_report *reps, size_t m)
{
    header_line(f, reps, m, "");
    fprintf(f, "\n%-28s %-10s %-8s %-14s %-10s  %s\n", "algorithm",
            "literature", "verdict", "lowest p from", "p (Holm)", "meaning");
    for (size_t i = 0; i < m; i++) {
        char stat[64], p[32];
        row_fields(&reps[i], stat, sizeof stat, p, sizeof p);
        fprintf(f, "%-28s %-10s %-8s %-14s %-10s  %s\n", reps[i].run.algorithm,
                reps[i].run.literature ? reps[i].run.literature : "-",
                sb_report_verdict(&reps[i]), stat, p,
                agreement(&reps[i]));
    }
    return ferror(f) ? SB_EIO : SB_OK;
}

int sb_render_audit_markdown(FILE *f, const sb_report *reps, size_t m)
{
    fprintf(f, "# shufflebias audit of the built-in shuffles\n\n");
    header_line(f, reps, m, "");
    fprintf(f, "\n| algorithm | params | literature | verdict | lowest p from "
            "| p (Holm) | meaning |\n|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < m; i++) {
        char stat[64], p[32];
        row_fields(&reps[i], stat, sizeof stat, p, sizeof p);
        fprintf(f, "| `%s` | %s | %s | **%s** | %s | %s | %s |\n",
                reps[i].run.algorithm,
                reps[i].run.params[0] ? reps[i].run.params : "",
                reps[i].run.literature ? reps[i].run.literature : "-",
                sb_report_verdict(&reps[i]), stat, p, agreement(&reps[i]));
    }
    for (size_t i = 0; i < m; i++) {
        const sb_report *rep = &reps[i];
        fprintf(f, "\n## `%s`\n\n| statistic | value | df | p-value | "
                "p (Holm) | verdict | what it saw |\n|---|---|---|---|---|---|"
                "---|\n", rep->run.algorithm);
        for (size_t k = 0; k < rep->n_results; k++) {
            const sb_result *r = &rep->results[k];
            char p[32], padj[32];
            if (!r->applicable) {
                fprintf(f, "| %s | - | - | - | - | n/a | %s |\n", r->name,
                        r->note);
                continue;
            }
            sb_render_pvalue(p, sizeof p, r->p_value, r->p_underflow);
            sb_render_pvalue(padj, sizeof padj, r->p_adjusted, r->p_underflow);
            if (r->subtests > 1) {     /* already corrected: say so */
                const size_t used = strlen(p);
                snprintf(p + used, sizeof p - used, " (Bonferroni over %u)",
                         r->subtests);
            }
            fprintf(f, "| %s | %.6g | %.6g | %s | %s | %s | %s |\n", r->name,
                    r->statistic, r->df, p, padj, sb_verdict_str(r->verdict),
                    r->effect_desc);
        }
        const sb_diagnosis *g = &rep->diagnosis;
        if (g->state == SB_DIAGNOSIS_MATCH)
            fprintf(f, "\n**Diagnosis**: resembles `%s`%s%s%s (score %.2f of "
                    "1; a close match from %.2f). Flaw: %s%s%s. Fix: %s.\n", g->name,
                    g->params[0] ? " (" : "", g->params,
                    g->params[0] ? ")" : "", g->score, g->threshold, g->flaw,
                    g->estimate[0] ? "; the data suggest " : "", g->estimate,
                    g->advice);
        else if (g->state == SB_DIAGNOSIS_NO_MATCH)
            fprintf(f, "\n**Diagnosis**: no close match in the catalogue%s%s"
                    "%s (score %.2f of 1; a close match from %.2f).\n",
                    g->name[0] ? " (nearest `" : "", g->name,
                    g->name[0] ? "`)" : "", g->score, g->threshold);
    }
    return ferror(f) ? SB_EIO : SB_OK;
}

int sb_render_audit_json(FILE *f, const sb_report *reps, size_t m)
{
    return sb_render_audit_json_with(f, reps, m, NULL);
}

int sb_render_audit_json_with(FILE *f, const sb_report *reps, size_t m,
                              const sb_render_opts *o)
{
    json_t *root = json_object(), *runs = json_array();
    if (!root || !runs)
        return SB_ENOMEM;
    json_object_set_new(root, "command", json_string("audit"));
    for (size_t i = 0; i < m; i++)
        json_array_append_new(runs, sb_report_json_with(&reps[i], o));
    json_object_set_new(root, "runs", runs);
    return sb_render_reports_json(f, root, reps, m);
}
