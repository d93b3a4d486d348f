/*
 * json.c - the JSON report of 'shufflebias test' (DESIGN.md, "test" keys).
 *
 * The keys other programs read are never renamed: algorithm, n, samples,
 * seed, rng, stream_version, verdict (and its reason), partial, tests[]
 * (name, statistic, df, p_value, p_adjusted, verdict).  A p-value below
 * the double range is written as 0 with "p_value_bound": "< 1e-300".
 * Timing sits under its own key, "timing", so that two runs compare equal
 * without it.
 */
#include "reports/render.h"

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "reports/tables.h"
#include "shufflebias/status.h"

/* "name=value,..." back into an object; values that are integers become
   numbers, the rest (enumerated choices) stay strings. */
json_t *sb_params_json(const char *params)
{
    json_t *o = json_object();
    char buf[256];
    snprintf(buf, sizeof buf, "%s", params);
    for (char *item = buf; item && *item;) {
        char *next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        char *eq = strchr(item, '=');
        if (eq) {
            *eq = '\0';
            char *end;
            long long v = strtoll(eq + 1, &end, 10);
            json_object_set_new(o, item, *end || end == eq + 1
                                ? json_string(eq + 1) : json_integer(v));
        }
        item = next;
    }
    return o;
}

/* A count as an integer when it is one (every observed count is), else
   a number. */
static json_t *count_value(double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        return json_integer((json_int_t)v);
    return json_real(v);
}

/* A number that may be NaN (a ratio where nothing is expected): null. */
static json_t *real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *strings_or_null(char *const *names, size_t count)
{
    if (!names)
        return NULL;
    json_t *a = json_array();
    for (size_t i = 0; i < count; i++)
        json_array_append_new(a, json_string(names[i] ? names[i] : ""));
    return a;
}

/* One cell of a summarized table, with its column's name when the
   columns have names (an order of 'permutation'). */
static json_t *cell_object(const sb_result *r, size_t n, size_t cell)
{
    const sb_table *t = &r->table;
    if (cell == SIZE_MAX)
        return json_null();
    json_t *j = json_pack("{s:I, s:I, s:o, s:f, s:o, s:o}",
                          "row", (json_int_t)(cell / t->cols),
                          "col", (json_int_t)(cell % t->cols),
                          "observed", count_value(t->observed[cell]),
                          "expected", t->expected[cell],
                          "ratio", real_or_null(sb_tables_ratio(t, cell)),
                          "residual",
                          real_or_null(sb_tables_residual(t, cell)));
    char name[160];
    sb_tables_col_name(r, n, cell % t->cols, name, sizeof name);
    if (j && name[0])
        json_object_set_new(j, "label", json_string(name));
    return j;
}

/* ---- Tables too large for a tree ----------------------------------------

   A table listed whole (--full-tables) can hold millions of cells: 16.8
   million for position at 4096 cards, where Jansson would spend some 40
   bytes a value on a tree of them.  Such an array stands in the tree as a
   placeholder string, MARK then its kind and the address of its result,
   and sb_render_reports_json writes it cell by cell as it writes the
   tree, in the same layout as Jansson's: the cells never become a tree.
   Only a result of the reports being written is ever read (an address is
   checked against them), so a string that happens to look like a
   placeholder is written as it is. */
#define MARK "\001sb-table:"
#define STREAM_OBSERVED 'o'
#define STREAM_EXPECTED 'e'
#define STREAM_LABELS 'l'
#define STREAM_LO 'a'
#define STREAM_HI 'b'

static json_t *stream_placeholder(const sb_result *r, char kind)
{
    char s[64];
    snprintf(s, sizeof s, MARK "%c:%" PRIxPTR, kind, (uintptr_t)r);
    return json_string(s);
}

/* The table behind a statistic's figures (docs: "JSON reports"): its
   shape, what its rows and columns are, the name of each column where it
   has one (a pooled group, an order), and every cell's observed and
   expected counts - or, for a table of more than SB_RENDER_CELLS_MAX
   cells without full_tables, a summary with "cells_listed": false.  null
   when the statistic kept no table. */
static json_t *table_object(const sb_result *r, size_t n, uint64_t samples,
                            const sb_render_opts *o)
{
    const sb_table *t = &r->table;
    if (!r->applicable || t->rows == 0 || t->cols == 0 || !t->observed
        || !t->expected)
        return json_null();
    const size_t cells = t->rows * t->cols;
    const int listed = o->full_tables || cells <= SB_RENDER_CELLS_MAX;
    /* Arrays of more than SB_RENDER_CELLS_MAX values: streamed when
       listed; a summary leaves out the names and ranges of that many
       columns (each cell it lists has its own). */
    const int streamed = cells > SB_RENDER_CELLS_MAX;
    const int wide = t->cols > SB_RENDER_CELLS_MAX;
    json_t *j = json_object();
    json_object_set_new(j, "rows", json_integer((json_int_t)t->rows));
    json_object_set_new(j, "cols", json_integer((json_int_t)t->cols));
    json_object_set_new(j, "row_label", r->row_label
                        ? json_string(r->row_label) : json_null());
    json_object_set_new(j, "col_label", r->col_label
                        ? json_string(r->col_label) : json_null());
    json_object_set_new(j, "samples", json_integer((json_int_t)samples));
    json_object_set_new(j, "cells_listed", json_boolean(listed));
    json_t *rows = strings_or_null(r->row_names, t->rows);
    if (rows)
        json_object_set_new(j, "row_names", rows);
    int named = r->labels != NULL || t->lo != NULL;
    char name[160];
    if (!named && r->col_label && t->cols > 0) {
        sb_tables_col_name(r, n, 0, name, sizeof name);
        named = name[0] != '\0';
    }
    if (named && wide) {
        if (listed)
            json_object_set_new(j, "labels",
                                stream_placeholder(r, STREAM_LABELS));
    } else if (named) {
        json_t *labels = json_array();
        for (size_t c = 0; c < t->cols; c++) {
            sb_tables_col_name(r, n, c, name, sizeof name);
            json_array_append_new(labels, json_string(name));
        }
        json_object_set_new(j, "labels", labels);
    }
    if (t->lo && t->hi && wide) {
        if (listed) {
            json_object_set_new(j, "lo", stream_placeholder(r, STREAM_LO));
            json_object_set_new(j, "hi", stream_placeholder(r, STREAM_HI));
        }
    } else if (t->lo && t->hi) {
        /* Every row has the same groups: the first row's ranges. */
        json_t *lo = json_array(), *hi = json_array();
        for (size_t c = 0; c < t->cols; c++) {
            json_array_append_new(lo, json_integer(t->lo[c]));
            json_array_append_new(hi, json_integer(t->hi[c]));
        }
        json_object_set_new(j, "lo", lo);
        json_object_set_new(j, "hi", hi);
    }
    const int constant = sb_tables_expected_constant(t);
    json_object_set_new(j, "expected_constant", json_boolean(constant));
    if (constant)
        json_object_set_new(j, "expected", json_real(t->expected[0]));
    if (!listed) {
        double total = 0.0;
        for (size_t i = 0; i < cells; i++)
            total += t->observed[i];
        json_object_set_new(j, "observed_total", count_value(total));
        sb_tables_extremes x;
        sb_tables_extremes_find(t, &x);
        json_object_set_new(j, "ratio_min", cell_object(r, n, x.ratio_min));
        json_object_set_new(j, "ratio_max", cell_object(r, n, x.ratio_max));
        json_object_set_new(j, "residual_min",
                            cell_object(r, n, x.residual_min));
        json_object_set_new(j, "residual_max",
                            cell_object(r, n, x.residual_max));
        json_t *dev = json_array();
        for (size_t k = 0; k < x.n_top; k++)
            json_array_append_new(dev, cell_object(r, n, x.top[k]));
        json_object_set_new(j, "largest_deviations", dev);
        return j;
    }
    if (streamed) {
        if (!constant)
            json_object_set_new(j, "expected",
                                stream_placeholder(r, STREAM_EXPECTED));
        json_object_set_new(j, "observed",
                            stream_placeholder(r, STREAM_OBSERVED));
        return j;
    }
    json_t *obs = json_array();
    json_t *exp = constant ? NULL : json_array();
    for (size_t i = 0; i < t->rows; i++) {
        json_t *ro = json_array(), *re = constant ? NULL : json_array();
        for (size_t c = 0; c < t->cols; c++) {
            json_array_append_new(ro,
                                  count_value(t->observed[i * t->cols + c]));
            if (re)
                json_array_append_new(re,
                                      json_real(t->expected[i * t->cols + c]));
        }
        json_array_append_new(obs, ro);
        if (exp)
            json_array_append_new(exp, re);
    }
    if (exp)
        json_object_set_new(j, "expected", exp);
    json_object_set_new(j, "observed", obs);
    return j;
}

static json_t *result_object(const sb_result *r)
{
    json_t *t = json_object();
    json_object_set_new(t, "name", json_string(r->name));
    json_object_set_new(t, "verdict", json_string(sb_verdict_str(r->verdict)));
    if (!r->applicable) {
        json_object_set_new(t, "statistic", json_null());
        json_object_set_new(t, "df", json_null());
        json_object_set_new(t, "p_value", json_null());
        json_object_set_new(t, "p_adjusted", json_null());
        json_object_set_new(t, "note", json_string(r->note));
        return t;
    }
    json_object_set_new(t, "statistic", json_real(r->statistic));
    json_object_set_new(t, "df", json_real(r->df));
    json_object_set_new(t, "p_value", json_real(r->p_value));
    json_object_set_new(t, "p_adjusted", json_real(r->p_adjusted));
    if (r->p_underflow)
        json_object_set_new(t, "p_value_bound", json_string("< 1e-300"));
    if (r->discrete)
        json_object_set_new(t, "p_interval",
                            json_pack("[f, f]", r->p_lower, r->p_upper));
    if (r->subtests > 1) {
        json_object_set_new(t, "combination", json_string("bonferroni"));
        json_object_set_new(t, "subtests", json_integer(r->subtests));
        /* The same p-value under a name that says it is corrected
           (p_value is kept for readers that know it). */
        json_object_set_new(t, "p_value_corrected", json_real(r->p_value));
    }
    json_object_set_new(t, "null", json_string(r->null_desc));
    json_object_set_new(t, "note", json_string(r->note));
    json_object_set_new(t, "effect", json_real(r->effect));
    json_object_set_new(t, "effect_description", json_string(r->effect_desc));
    json_object_set_new(t, "detectable", json_real(r->detectable));
    if (r->detectable_desc[0])
        json_object_set_new(t, "detectable_description",
                            json_string(r->detectable_desc));
    return t;
}

/* Where samples made outside came from, and what went wrong. */
static json_t *input_object(const sb_input_info *in)
{
    json_t *o = json_object();
    json_object_set_new(o, "source", json_string(in->source));
    json_object_set_new(o, strcmp(in->source, "exec") == 0 ? "command"
                                                          : "path",
                        json_string(in->what));
    json_object_set_new(o, "format", json_string(in->format));
    json_object_set_new(o, "one_based", json_boolean(in->one_based));
    json_object_set_new(o, "invalid_skipped",
                        json_integer((json_int_t)in->invalid));
    json_t *listed = json_array();
    for (size_t i = 0; i < in->n_listed; i++)
        json_array_append_new(listed, json_string(in->listed[i]));
    json_object_set_new(o, "invalid", listed);
    if (in->program[0])
        json_object_set_new(o, "program_end", json_string(in->program));
    json_object_set_new(o, "error", in->error[0] ? json_string(in->error)
                                                 : json_null());
    return o;
}

/* What a fail resembles (null when no diagnosis was made): the flaw, its
   score and the fix, or "no close match" with the nearest. */
static json_t *diagnosis_object(const sb_diagnosis *g)
{
    if (g->state == SB_DIAGNOSIS_NONE)
        return json_null();
    json_t *o = json_object();
    const int match = g->state == SB_DIAGNOSIS_MATCH;
    json_object_set_new(o, "match", json_boolean(match));
    json_object_set_new(o, "name", match ? json_string(g->name)
                                         : json_string("no close match"));
    json_object_set_new(o, "nearest", g->name[0] ? json_string(g->name)
                                                 : json_null());
    json_object_set_new(o, "params", sb_params_json(g->params));
    json_object_set_new(o, "score", json_real(g->score));
    json_object_set_new(o, "threshold", json_real(g->threshold));
    json_object_set_new(o, "scale", json_real(g->scale));
    json_object_set_new(o, "bias", json_string(g->looks));
    json_object_set_new(o, "flaw", match ? json_string(g->flaw)
                                         : json_null());
    json_object_set_new(o, "estimate", match && g->estimate[0]
                                       ? json_string(g->estimate)
                                       : json_null());
    json_object_set_new(o, "advice", match ? json_string(g->advice)
                                           : json_null());
    json_object_set_new(o, "runner_up", g->runner_up[0]
                        ? json_pack("{s:s, s:f}", "name", g->runner_up,
                                    "score", g->runner_up_score)
                        : json_null());
    json_object_set_new(o, "signatures", json_integer(g->signatures));
    json_object_set_new(o, "signature_samples",
                        json_integer((json_int_t)g->signature_samples));
    return o;
}

json_t *sb_report_json(const sb_report *rep)
{
    return sb_report_json_with(rep, NULL);
}

json_t *sb_report_json_with(const sb_report *rep, const sb_render_opts *o)
{
    const sb_render_opts defaults = SB_RENDER_OPTS_DEFAULT;
    if (!o)
        o = &defaults;
    const sb_run_info *run = &rep->run;
    json_t *root = json_object();
    if (!root)
        return NULL;
    json_object_set_new(root, "command", json_string("test"));
    json_object_set_new(root, "algorithm", json_string(run->algorithm));
    json_object_set_new(root, "source", json_string(
        run->input ? run->input->source : run->plugin ? "plugin"
                                                      : "algorithm"));
    if (run->plugin)
        json_object_set_new(root, "plugin", json_string(run->plugin));
    if (run->input)
        json_object_set_new(root, "input", input_object(run->input));
    if (run->bad_sample[0])
        json_object_set_new(root, "bad_sample", json_string(run->bad_sample));
    json_object_set_new(root, "params", sb_params_json(run->params));
    json_object_set_new(root, "kind", json_string(sb_kind_str(run->kind)));
    if (run->literature)
        json_object_set_new(root, "literature", json_string(run->literature));
    json_object_set_new(root, "n", json_integer((json_int_t)run->n));
    json_object_set_new(root, "samples", json_integer((json_int_t)run->done));
    /* What was asked: the first stage's samples when the run escalated
       (the tables are then the last stage's: see "tables" below). */
    json_object_set_new(root, "samples_requested", json_integer(
        (json_int_t)(rep->n_stages && !run->part_end ? rep->stages[0].samples
                                                      : run->samples)));
    /* Recorded samples have no seed; a program was handed one. */
    const int recorded = run->input && strcmp(run->input->source, "input") == 0;
    json_object_set_new(root, "seed", recorded ? json_null()
                              : json_integer((json_int_t)run->seed));
    if (run->rng) {
        json_object_set_new(root, "rng", json_string(run->rng));
        json_object_set_new(root, "rng_seed",
                            json_integer((json_int_t)run->rng_seed));
        json_object_set_new(root, "rng_seed_bits",
                            json_integer(run->rng_seed_bits));
        /* A source that is one stream, made in order on one thread, and
           why (src/base/rng.h). */
        const char *order = sb_rng_sequential_why(run->rng);
        if (order)
            json_object_set_new(root, "rng_sequential", json_string(order));
    } else {
        json_object_set_new(root, "rng", json_null());
    }
    json_object_set_new(root, "stream_version",
                        json_integer(run->stream_version));
    if (run->part_end) {
        /* One part of a run split between machines (--part). */
        json_object_set_new(root, "part", json_pack(
            "{s:I, s:I, s:I}", "first_chunk", (json_int_t)run->part_first,
            "end_chunk", (json_int_t)run->part_end, "run_samples",
            (json_int_t)run->run_samples));
    }
    if (run->merged_files) {
        /* Merged from state files: with several seeds, "seed" above is
           only the first file's. */
        json_t *seeds = json_array();
        for (size_t k = 0; k < run->n_merged_seeds; k++)
            json_array_append_new(seeds, json_integer(
                (json_int_t)run->merged_seeds[k]));
        json_object_set_new(root, "merged", json_pack(
            "{s:I, s:o}", "files", (json_int_t)run->merged_files,
            "seeds", seeds));
    }
    /* "error" or "incomplete" when the battery did not have the last
       word, with the reason (reports/outcome.c); the tests below keep
       their own verdicts. */
    char reason[1024];
    sb_report_reason(rep, reason, sizeof reason);
    json_object_set_new(root, "verdict",
                        json_string(sb_report_verdict(rep)));
    json_object_set_new(root, "reason", reason[0] ? json_string(reason)
                                                  : json_null());
    /* What the command was told to expect (--expect), and whether the
       verdict above is it: the keys of the commands that take it. */
    if (o->expectation)
        sb_expectation_json(root, o->expect,
                            sb_report_expectation(rep, o->expect));
    json_object_set_new(root, "partial", json_boolean(run->partial));
    if (run->tally_name && run->tally.samples) {
        /* What the algorithm itself counted, e.g. riffle passes used. */
        const sb_tally *t = &run->tally;
        json_object_set_new(root, "tally", json_pack(
            "{s:s, s:I, s:I, s:I, s:I, s:f, s:f}", "name", run->tally_name,
            "samples", (json_int_t)t->samples, "sum", (json_int_t)t->sum,
            "sum_sq", (json_int_t)t->sum_sq, "max", (json_int_t)t->max,
            "mean", sb_tally_mean(t), "sd", sqrt(sb_tally_var(t))));
    }
    if (rep->n_stages > 0) {
        /* Every stage of the escalation; "tests" are the last one's. */
        json_t *stages = json_array();
        for (size_t k = 0; k < rep->n_stages; k++) {
            const sb_stage *st = &rep->stages[k];
            json_t *o = json_pack("{s:I, s:I, s:I, s:s, s:f}",
                                  "seed", (json_int_t)st->seed,
                                  "samples", (json_int_t)st->done,
                                  "samples_requested",
                                  (json_int_t)st->samples,
                                  "verdict", sb_verdict_str(st->verdict),
                                  "min_p_adjusted", st->min_p_adjusted);
            if (st->worst)
                json_object_set_new(o, "worst", json_string(st->worst));
            json_array_append_new(stages, o);
        }
        json_object_set_new(root, "stages", stages);
        /* The stage the tests below come from, so that its seed and
           samples (with --escalate 0) remake them on their own. */
        const sb_stage *last = &rep->stages[rep->n_stages - 1];
        json_object_set_new(root, "tables", json_pack(
            "{s:I, s:I, s:I}", "stage", (json_int_t)(rep->n_stages - 1),
            "seed", (json_int_t)last->seed, "samples",
            (json_int_t)last->done));
        json_object_set_new(root, "samples_total",
                            json_integer((json_int_t)run->samples_total));
    }
    json_t *th = json_object();
    json_object_set_new(th, "suspect", json_real(run->suspect_alpha));
    json_object_set_new(th, "fail", json_real(run->fail_alpha));
    json_object_set_new(th, "correction", json_string("holm"));
    json_object_set_new(th, "power", json_real(0.9));
    json_object_set_new(root, "thresholds", th);
    /* The samples the tables counted: the last stage's. */
    const uint64_t counted = rep->n_stages
                             ? rep->stages[rep->n_stages - 1].done
                             : run->done;
    json_t *tests = json_array();
    for (size_t i = 0; i < rep->n_results; i++) {
        json_t *t = result_object(&rep->results[i]);
        json_object_set_new(t, "table", table_object(&rep->results[i], run->n,
                                                     counted, o));
        json_array_append_new(tests, t);
    }
    json_object_set_new(root, "tests", tests);
    json_object_set_new(root, "diagnosis", diagnosis_object(&rep->diagnosis));
    if (rep->diagnosis.missed[0])
        json_object_set_new(root, "missed",
                            json_string(rep->diagnosis.missed));
    if (o->no_timing)
        return root;     /* nothing below is the same on every machine */
    if (run->memory_budget) {
        /* What the run's tables were estimated to need, on the threads it
           ran on, within which budget (src/engine/budget.h). */
        json_t *mem = json_pack("{s:I, s:I, s:i}",
                                "budget", (json_int_t)run->memory_budget,
                                "estimate", (json_int_t)run->memory_estimate,
                                "threads", (int)run->threads);
        if (run->threads_wanted)
            json_object_set_new(mem, "threads_wanted",
                                json_integer(run->threads_wanted));
        json_object_set_new(root, "memory", mem);
    }
    /* The processes that shared the run (an MPI job's ranks): how it was
       made, like its threads, not what it found. */
    json_object_set_new(root, "ranks",
                        json_integer(run->ranks ? run->ranks : 1));
    json_t *timing = json_object();
    json_object_set_new(timing, "seconds", json_real(run->seconds));
    json_object_set_new(timing, "threads", json_integer(run->threads));
    json_object_set_new(timing, "samples_per_second",
                        json_real(run->seconds > 0
                                  ? (double)(run->done - run->resumed)
                                    / run->seconds : 0.0));
    if (rep->diagnosis.state != SB_DIAGNOSIS_NONE)
        json_object_set_new(timing, "diagnosis_seconds",
                            json_real(rep->diagnosis.seconds));
    if (run->resumed)
        json_object_set_new(timing, "samples_resumed",
                            json_integer((json_int_t)run->resumed));
    if (run->ranks > 1) {
        /* The merge of the ranks' counts at the end (docs/scale.md). */
        json_object_set_new(timing, "reduce_seconds",
                            json_real(run->reduce_seconds));
        json_object_set_new(timing, "reduce_bytes",
                            json_integer((json_int_t)run->reduce_bytes));
    }
    json_object_set_new(root, "timing", timing);
    return root;
}

int sb_render_json_value(FILE *f, json_t *root)
{
    if (!root)
        return SB_ENOMEM;
    int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (rc != 0)
        return SB_EIO;
    fputc('\n', f);
    return ferror(f) ? SB_EIO : SB_OK;
}

/* ---- Writing a tree with placeholders ---------------------------------- */

/* What the callback of json_dump_callback keeps between its calls. */
typedef struct stream {
    FILE *f;
    const sb_report *reps;     /* whose results placeholders may name */
    size_t m;
    size_t indent;             /* the spaces that open the current line */
    int line_start;            /* 1: nothing but spaces on it yet */
    /* A placeholder as Jansson writes it comes in four calls: its opening
       quote, "\u0001", the rest of its text, its closing quote.  'state'
       counts those seen; what they wrote is held back in 'held' until it
       is known to be one. */
    int state;
    char held[96];
    size_t held_len;
    json_t *real, *string;     /* reused to format a value as Jansson does */
} stream;

static void stream_raw(stream *s, const char *text, size_t len)
{
    fwrite(text, 1, len, s->f);
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') {
            s->indent = 0;
            s->line_start = 1;
        } else if (s->line_start && text[i] == ' ') {
            s->indent++;
        } else {
            s->line_start = 0;
        }
    }
}

static void stream_newline(stream *s, size_t indent)
{
    static const char spaces[] = "\n                                ";
    fwrite(spaces, 1, 1, s->f);
    for (size_t left = indent; left > 0;) {
        const size_t k = left < sizeof spaces - 2 ? left : sizeof spaces - 2;
        fwrite(spaces + 1, 1, k, s->f);
        left -= k;
    }
}

/* A value through Jansson's own formatting (a real's digits, a string's
   escapes). */
static void stream_value(stream *s, json_t *v)
{
    char buf[1024];
    const size_t len = json_dumpb(v, buf, sizeof buf, JSON_ENCODE_ANY);
    if (len > 0 && len <= sizeof buf)
        fwrite(buf, 1, len, s->f);
    else
        fputs("null", s->f);
}

static void stream_count(stream *s, double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0) {
        /* As Jansson writes an integer, without printf's time. */
        char digits[24];
        size_t k = sizeof digits;
        uint64_t u = (uint64_t)fabs(v);
        do {
            digits[--k] = (char)('0' + u % 10);
            u /= 10;
        } while (u);
        if (v < 0)
            digits[--k] = '-';
        fwrite(digits + k, 1, sizeof digits - k, s->f);
    } else {
        json_real_set(s->real, v);
        stream_value(s, s->real);
    }
}

/* The result a placeholder names, if it is one of the reports'. */
static const sb_result *stream_result(const stream *s, const char *text,
                                      size_t len, char *kind, size_t *n)
{
    char buf[64];
    const size_t mark = sizeof MARK - 2;      /* without "\001" */
    if (len >= sizeof buf || len < mark + 3
        || memcmp(text, MARK + 1, mark) != 0)
        return NULL;
    memcpy(buf, text, len);
    buf[len] = '\0';
    *kind = buf[mark];
    char *end;
    const uintptr_t at = (uintptr_t)strtoumax(buf + mark + 2, &end, 16);
    if (buf[mark + 1] != ':' || *end)
        return NULL;
    for (size_t i = 0; i < s->m; i++)
        for (size_t j = 0; j < s->reps[i].n_results; j++)
            if ((uintptr_t)&s->reps[i].results[j] == at) {
                *n = s->reps[i].run.n;
                return &s->reps[i].results[j];
            }
    return NULL;
}

/* The array a placeholder stands for, laid out as Jansson lays out an
   array at this indentation (two spaces a level). */
static void stream_array(stream *s, const sb_result *r, char kind, size_t n)
{
    const sb_table *t = &r->table;
    const size_t at = s->indent;
    fputc('[', s->f);
    if (kind == STREAM_OBSERVED || kind == STREAM_EXPECTED) {
        const double *v = kind == STREAM_OBSERVED ? t->observed
                                                  : t->expected;
        for (size_t i = 0; i < t->rows; i++) {
            stream_newline(s, at + 2);
            fputc('[', s->f);
            for (size_t c = 0; c < t->cols; c++) {
                stream_newline(s, at + 4);
                if (kind == STREAM_OBSERVED) {
                    stream_count(s, v[i * t->cols + c]);
                } else {
                    json_real_set(s->real, v[i * t->cols + c]);
                    stream_value(s, s->real);
                }
                if (c + 1 < t->cols)
                    fputc(',', s->f);
            }
            stream_newline(s, at + 2);
            fputc(']', s->f);
            if (i + 1 < t->rows)
                fputc(',', s->f);
        }
    } else {
        char name[160];
        for (size_t c = 0; c < t->cols; c++) {
            stream_newline(s, at + 2);
            if (kind == STREAM_LABELS) {
                sb_tables_col_name(r, n, c, name, sizeof name);
                json_string_set(s->string, name);
                stream_value(s, s->string);
            } else {
                fprintf(s->f, "%ld", kind == STREAM_LO ? t->lo[c]
                                                       : t->hi[c]);
            }
            if (c + 1 < t->cols)
                fputc(',', s->f);
        }
    }
    stream_newline(s, at);
    fputc(']', s->f);
    s->line_start = 0;
}

static int stream_chunk(const char *buffer, size_t size, void *data)
{
    stream *s = data;
    for (;;) {
        int took = 0;
        if (s->state == 0 && size == 1 && buffer[0] == '"')
            took = 1;
        else if (s->state == 1 && size == 6 && memcmp(buffer, "\\u0001", 6)
                 == 0)
            took = 1;
        else if (s->state == 2 && size < sizeof s->held - s->held_len - 1)
            took = 1;
        if (took) {
            memcpy(s->held + s->held_len, buffer, size);
            s->held_len += size;
            s->state++;
            return ferror(s->f) ? -1 : 0;
        }
        if (s->state == 3 && size == 1 && buffer[0] == '"') {
            /* The text between "\u0001" and this quote. */
            char kind = 0;
            size_t n = 0;
            const sb_result *r = stream_result(s, s->held + 7,
                                               s->held_len - 7, &kind, &n);
            const sb_table *t = r ? &r->table : NULL;
            const int ok = t && t->observed && t->expected
                && (kind == STREAM_OBSERVED || kind == STREAM_EXPECTED
                    || kind == STREAM_LABELS
                    || ((kind == STREAM_LO || kind == STREAM_HI) && t->lo
                        && t->hi));
            if (ok)
                stream_array(s, r, kind, n);
            else {
                stream_raw(s, s->held, s->held_len);
                stream_raw(s, buffer, size);
            }
            s->state = 0;
            s->held_len = 0;
            return ferror(s->f) ? -1 : 0;
        }
        if (s->state == 0) {
            stream_raw(s, buffer, size);
            return ferror(s->f) ? -1 : 0;
        }
        /* Not a placeholder after all: what was held, then this chunk
           afresh. */
        stream_raw(s, s->held, s->held_len);
        s->state = 0;
        s->held_len = 0;
    }
}

int sb_render_reports_json(FILE *f, json_t *root, const sb_report *reps,
                           size_t m)
{
    if (!root)
        return SB_ENOMEM;
    stream s = { .f = f, .reps = reps, .m = m, .line_start = 1,
                 .real = json_real(0), .string = json_string("") };
    int rc = SB_ENOMEM;
    if (s.real && s.string) {
        rc = json_dump_callback(root, stream_chunk, &s,
                                JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0
             ? SB_EIO : SB_OK;
        if (rc == SB_OK && s.held_len > 0)
            stream_raw(&s, s.held, s.held_len);
    }
    json_decref(s.real);
    json_decref(s.string);
    json_decref(root);
    if (rc != SB_OK)
        return rc;
    fputc('\n', f);
    return ferror(f) ? SB_EIO : SB_OK;
}

int sb_render_json(FILE *f, const sb_report *rep)
{
    return sb_render_json_value(f, sb_report_json(rep));
}

int sb_render_json_with(FILE *f, const sb_report *rep,
                        const sb_render_opts *o)
{
    return sb_render_reports_json(f, sb_report_json_with(rep, o), rep, 1);
}
