/*
 * html_test.c - the HTML page of one run ('test', 'merge') and of an
 * audit: the verdict, the facts needed to run it again, the statistics,
 * and the pictures of their tables (reports/svg.c draws them).
 *
 * What each table becomes:
 *  - a matrix (no value ranges: position, card-hand, serial, card-slot,
 *    same-hand-pairs, fy-code) a heatmap of observed / expected per cell;
 *    the card x position one (or, for a deal, the card x hand one) heads
 *    the page, the others sit in their statistic's box;
 *  - a one-dimensional table (categories over value ranges: fixed points,
 *    cycles, hand patterns, ...) a chart of observed against expected, one
 *    per row (a deal's hands), with intervals of +-3 sd of a binomial count
 *    around the expected one;
 *  - a single cell (collisions) a sentence: repeats seen against expected.
 *
 * Size.  A cell is about a hundred bytes of SVG, so the pictures are
 * bounded: a heatmap of more cells than the page allows is drawn in
 * square blocks of cells (each block's observed and expected summed: its
 * ratio is the ratio of the sums), a chart of more categories than it
 * allows merges neighbouring ones; the page says so under the picture.
 * An audit shares one budget among its runs and draws only the charts of
 * statistics that did not pass, so that a 52-card audit stays under
 * 2 MB (docs/reports.md).
 */
#include "reports/render.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/svg.h"
#include "shufflebias/status.h"
#include "shufflebias/version.h"

/* Cells of all the heatmaps of a single run's page together (a 52-card
   run's four 52 x 52 matrices keep every cell), each given an equal
   share; larger matrices are drawn in blocks, so that the page stays
   bounded whatever the deck. */
#define HTML_CELLS_ONE 16384u
/* The fewest cells one heatmap of such a page is given. */
#define HTML_CELLS_ONE_MIN 1024u
/* Cells of all the heatmaps of an audit together. */
#define HTML_CELLS_AUDIT 13000u
/* The fewest cells a heatmap of an audit may be given. */
#define HTML_CELLS_AUDIT_MIN 256u
/* Categories of one chart. */
#define HTML_BARS_ONE 64u
#define HTML_BARS_AUDIT 32u
/* Rows of a one-dimensional table drawn (the ones furthest from their
   expected counts). */
#define HTML_BAR_ROWS 4u
/* The interval around an expected count, in standard deviations. */
#define HTML_Z 3.0

typedef struct page {
    const sb_render_opts *o;
    int audit;              /* an audit's section: terse */
    size_t cells_max;       /* cells of one heatmap */
    size_t bars_max;        /* categories of one chart */
} page;

/* ---- small pieces ------------------------------------------------------ */

/* The CSS class of a verdict word. */
static const char *verdict_class(const char *v)
{
    static const char *const known[] = {"pass", "suspect", "fail", "error",
                                        "incomplete"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(v, known[i]) == 0)
            return known[i];
    return "na";
}

/* The verdict of a run as data-verdict holds it: pass, suspect, fail,
   n/a, error or incomplete. */
static const char *run_verdict(const sb_report *rep)
{
    const char *v = sb_report_verdict(rep);
    return strcmp(v, "not applicable") == 0 ? "n/a" : v;
}

/* The CSS class of a statistic's verdict. */
static const char *stat_class(sb_verdict v)
{
    return v == SB_VERDICT_NA ? "na" : sb_verdict_str(v);
}

static void verdict_span(FILE *f, const char *v, const char *cls)
{
    fprintf(f, "<span class=\"verdict v-%s\">", cls);
    for (const char *c = v; *c; c++)
        fputc(toupper((unsigned char)*c), f);
    fputs("</span>", f);
}

/* An id from a name: letters, digits and '-' kept, anything else '-'. */
static void id_part(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc(isalnum((unsigned char)*s) || *s == '-' || *s == '_'
              ? *s : '-', f);
}

/* The run's section id, "run-fisher-yates". */
static void run_id(FILE *f, const sb_report *rep)
{
    fputs("run-", f);
    id_part(f, rep->run.algorithm ? rep->run.algorithm : "");
}

static void pvalue(FILE *f, double p, int underflow)
{
    char b[32];
    sb_render_pvalue(b, sizeof b, p, underflow);
    sb_html_escape(f, b);
}

/* What a matrix's rows and columns are. */
static void matrix_labels(const sb_result *r, const sb_report *rep,
                          const char **row, const char **col)
{
    const char *n = r->name;
    *row = "row";
    *col = "column";
    if (r->row_label && r->col_label) {
        *row = r->row_label;
        *col = r->col_label;
    } else if (strcmp(n, "position") == 0) {
        *row = "card";
        *col = "position";
    } else if (strcmp(n, "card-hand") == 0) {
        *row = "card";
        *col = "hand";
    } else if (strcmp(n, "card-slot") == 0) {
        *row = "card";
        *col = "slot";
    } else if (strcmp(n, "same-hand-pairs") == 0) {
        *row = "card";
        *col = "card";
    } else if (strcmp(n, "serial") == 0) {
        const int hands = r->table.rows != rep->run.n;
        *row = hands ? "hand" : "position";
        *col = hands ? "next hand" : "next position";
    } else if (strncmp(n, "fy-code", 7) == 0) {
        *row = "step";
        *col = "draw";
    }
}

/* A table drawn as a matrix: rows that are not sub-tests of their own
   (a deal's hands, each with its law), and no value ranges. */
static int is_matrix(const sb_result *r)
{
    const sb_table *t = &r->table;
    return t->observed && t->expected && !t->lo && !r->row_names
           && t->rows > 1 && t->cols > 1;
}

/* The matrix that heads the page: card x position, or card x hand. */
static const sb_result *main_matrix(const sb_report *rep)
{
    static const char *const names[] = {"position", "card-hand",
                                        "card-slot"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        for (size_t i = 0; i < rep->n_results; i++) {
            const sb_result *r = &rep->results[i];
            if (strcmp(r->name, names[k]) == 0 && is_matrix(r))
                return r;
        }
    return NULL;
}

/* ---- heatmaps ------------------------------------------------------------ */

/* A matrix in blocks of block x block cells (1: every cell). */
typedef struct grid {
    size_t rows, cols;          /* after blocks */
    size_t src_rows, src_cols;
    size_t block;
    double *obs, *exp, *ratio;
    const char *row_label, *col_label;
    char *const *col_names;     /* a name per column, or NULL */
    int terse;                  /* tooltips without the counts */
} grid;

static void grid_free(grid *g)
{
    free(g->obs);
    free(g->exp);
    free(g->ratio);
}

/* The side of the blocks that bring a rows x cols table to at most
   'cells_max' cells. */
static size_t block_side(size_t rows, size_t cols, size_t cells_max)
{
    size_t b = 1;
    while (((rows + b - 1) / b) * ((cols + b - 1) / b) > cells_max)
        b++;
    return b;
}

/* A heatmap's cell side: an audit's are small. */
static double cell_px(const page *pg, size_t rows)
{
    return pg->audit ? (rows > 26 ? 0 : 12) : 0;
}

static int grid_make(grid *g, const sb_table *t, size_t cells_max)
{
    const size_t b = block_side(t->rows, t->cols, cells_max);
    g->block = b;
    g->src_rows = t->rows;
    g->src_cols = t->cols;
    g->rows = (t->rows + b - 1) / b;
    g->cols = (t->cols + b - 1) / b;
    const size_t cells = g->rows * g->cols;
    g->obs = calloc(cells, sizeof *g->obs);
    g->exp = calloc(cells, sizeof *g->exp);
    g->ratio = calloc(cells, sizeof *g->ratio);
    if (!g->obs || !g->exp || !g->ratio) {
        grid_free(g);
        return SB_ENOMEM;
    }
    for (size_t r = 0; r < t->rows; r++)
        for (size_t c = 0; c < t->cols; c++) {
            const size_t k = (r / b) * g->cols + c / b;
            g->obs[k] += t->observed[r * t->cols + c];
            g->exp[k] += t->expected[r * t->cols + c];
        }
    for (size_t k = 0; k < cells; k++)
        g->ratio[k] = g->exp[k] > 0 ? g->obs[k] / g->exp[k] : NAN;
    return SB_OK;
}

/* "card 3" or "cards 0-3" (rows or columns i of a grid). */
static int span_words(char *buf, size_t len, const char *label, size_t i,
                      size_t block, size_t last)
{
    if (block == 1)
        return snprintf(buf, len, "%s %zu", label, i);
    size_t lo = i * block, hi = lo + block - 1;
    if (hi > last)
        hi = last;
    return snprintf(buf, len, "%ss %zu-%zu", label, lo, hi);
}

static void grid_tip(const void *ctx, size_t r, size_t c, char *buf,
                     size_t len)
{
    const grid *g = ctx;
    const size_t k = r * g->cols + c;
    char rw[64], cw[64];
    span_words(rw, sizeof rw, g->row_label, r, g->block, g->src_rows - 1);
    if (g->block == 1 && g->col_names && g->col_names[c])
        snprintf(cw, sizeof cw, "%s", g->col_names[c]);
    else
        span_words(cw, sizeof cw, g->col_label, c, g->block,
                   g->src_cols - 1);
    if (isnan(g->ratio[k]))
        snprintf(buf, len, "%s, %s: none expected", rw, cw);
    else if (g->terse)
        snprintf(buf, len, "%s, %s: %.4g", rw, cw, g->ratio[k]);
    else
        snprintf(buf, len, "%s, %s: observed %.0f, expected %.6g, ratio "
                 "%.4g", rw, cw, g->obs[k], g->exp[k], g->ratio[k]);
}

/* The smallest expected count of a grid's cells. */
static double grid_min_expected(const grid *g)
{
    double m = INFINITY;
    for (size_t k = 0; k < g->rows * g->cols; k++)
        if (g->exp[k] > 0 && g->exp[k] < m)
            m = g->exp[k];
    return m;
}

/* A heatmap of 'r''s matrix, with a line under it on its scale. */
static int heatmap(FILE *f, const page *pg, const sb_report *rep,
                   const sb_result *r, const char *id)
{
    grid g;
    int st = grid_make(&g, &r->table, pg->cells_max);
    if (st != SB_OK)
        return st;
    matrix_labels(r, rep, &g.row_label, &g.col_label);
    g.col_names = r->labels;
    g.terse = pg->audit;
    /* The noise of a fair run stays pale: a cell's ratio wanders by about
       1/sqrt(E) (a count of mean E), and the largest of thousands of
       cells by some 3.5 times that, so the scale reaches its darkest no
       nearer to 1 than 10 such deviations, nor than 5%.  A ratio of 0 (a
       cell never seen, as Sattolo's diagonal) would make it infinite: at
       most 4. */
    const double e = grid_min_expected(&g);
    double floor = isfinite(e) ? 1 + 10 / sqrt(e) : 1.1;
    if (floor < 1.05)
        floor = 1.05;
    const double span = sb_svg_span(g.ratio, g.rows * g.cols, floor, 4);
    const sb_heatmap h = {
        .rows = g.rows, .cols = g.cols, .ratio = g.ratio, .tip = grid_tip,
        .ctx = &g, .row_label = g.row_label, .col_label = g.col_label,
        .span = span, .cell = cell_px(pg, g.rows),
        .legend = 1, .id = id, .block = g.block,
    };
    fputs("<figure>\n", f);
    st = sb_svg_heatmap(f, &h);
    fputs("<figcaption class=\"note\">Each cell: how often this ", f);
    sb_html_escape(f, g.row_label);
    fputs(" met this ", f);
    sb_html_escape(f, g.col_label);
    fprintf(f, ", over how often a uniform shuffle would (ratio 1: white; "
            "red: too often, blue: too rarely).  The scale ends at %.3g and "
            "1/%.3g", span, span);
    if (g.block > 1)
        fprintf(f, "; summarized: the %zu x %zu table is drawn in blocks "
                "of %zu x %zu cells, each the ratio of its sums", g.src_rows,
                g.src_cols, g.block, g.block);
    fputs(".</figcaption>\n</figure>\n", f);
    grid_free(&g);
    if (st == SB_OK && ferror(f))
        st = SB_EIO;
    return st;
}

/* ---- charts -------------------------------------------------------------- */

/* One row of a one-dimensional table as a chart, neighbouring categories
   merged down to pg->bars_max. */
static int chart_row(FILE *f, const page *pg, const sb_report *rep,
                     const sb_result *r, size_t row, const char *x_label)
{
    const sb_table *t = &r->table;
    const size_t k = t->cols;
    const size_t per = (k + pg->bars_max - 1) / pg->bars_max;
    const size_t m = (k + per - 1) / per;
    double *obs = calloc(m, sizeof *obs), *exp = calloc(m, sizeof *exp);
    char *names = calloc(m, 48);
    const char **labels = calloc(m, sizeof *labels);
    int st = SB_ENOMEM;
    if (obs && exp && names && labels) {
        for (size_t i = 0; i < k; i++) {
            obs[i / per] += t->observed[row * k + i];
            exp[i / per] += t->expected[row * k + i];
        }
        for (size_t j = 0; j < m; j++) {
            char *b = names + 48 * j;
            labels[j] = b;
            const size_t first = j * per;
            const size_t last = (j + 1) * per - 1 < k ? (j + 1) * per - 1
                                                      : k - 1;
            if (r->labels && r->labels[first] && r->labels[last]) {
                if (first == last)
                    snprintf(b, 48, "%s", r->labels[first]);
                else
                    snprintf(b, 48, "%.21s..%.21s", r->labels[first],
                             r->labels[last]);
                continue;
            }
            if (!t->lo) {
                if (per == 1)
                    snprintf(b, 48, "%zu", j);
                else
                    snprintf(b, 48, "%zu-%zu", j * per,
                             (j + 1) * per - 1 < k ? (j + 1) * per - 1
                                                   : k - 1);
                continue;
            }
            const long lo = t->lo[first], hi = t->hi[last];
            if (lo == hi)
                snprintf(b, 48, "%ld", lo);
            else
                snprintf(b, 48, "%ld-%ld", lo, hi);
        }
        char id[96];
        snprintf(id, sizeof id, "bars-%s-%zu", r->name, row);
        const sb_bars b = {
            .count = m, .observed = obs, .expected = exp, .labels = labels,
            .total = (double)rep->run.done, .z = HTML_Z,
            .x_label = x_label, .y_label = "samples",
            .id = pg->audit ? NULL : id,
        };
        st = sb_svg_bars(f, &b);
        if (st == SB_OK && per > 1)
            fprintf(f, "<p class=\"note\">%zu categories drawn as %zu: "
                    "each bar sums %zu neighbours.</p>\n", k, m, per);
    }
    free(obs);
    free(exp);
    free(names);
    free(labels);
    return st;
}

/* Pearson's distance of a row from its expected counts, to pick the rows
   worth drawing. */
static double row_x2(const sb_table *t, size_t row)
{
    double x2 = 0;
    for (size_t i = 0; i < t->cols; i++) {
        const double e = t->expected[row * t->cols + i];
        const double d = t->observed[row * t->cols + i] - e;
        if (e > 0)
            x2 += d * d / e;
    }
    return x2;
}

/* A one-dimensional table: its rows, or the HTML_BAR_ROWS furthest from
   what was expected when it has more. */
static int charts(FILE *f, const page *pg, const sb_report *rep,
                  const sb_result *r)
{
    const sb_table *t = &r->table;
    const size_t want = t->rows < HTML_BAR_ROWS ? t->rows : HTML_BAR_ROWS;
    size_t pick[HTML_BAR_ROWS];
    size_t got = 0;
    if (t->rows <= HTML_BAR_ROWS) {
        for (size_t i = 0; i < t->rows; i++)
            pick[got++] = i;
    } else {
        /* The 'want' largest distances, kept in row order. */
        double *x2 = malloc(t->rows * sizeof *x2);
        if (!x2)
            return SB_ENOMEM;
        for (size_t i = 0; i < t->rows; i++)
            x2[i] = row_x2(t, i);
        for (size_t i = 0; i < t->rows && got < want; i++) {
            size_t beaten = 0;
            for (size_t j = 0; j < t->rows && beaten < want; j++)
                if (x2[j] > x2[i] || (x2[j] == x2[i] && j < i))
                    beaten++;
            if (beaten < want)
                pick[got++] = i;
        }
        free(x2);
        fprintf(f, "<p class=\"note\">%zu sub-tests; drawn: the %zu "
                "furthest from their expected counts.</p>\n", t->rows, got);
    }
    for (size_t i = 0; i < got; i++) {
        char xl[160];
        if (t->rows > 1 && r->row_names && r->row_names[pick[i]])
            snprintf(xl, sizeof xl, "%s, %s", r->name,
                     r->row_names[pick[i]]);
        else if (t->rows > 1)
            snprintf(xl, sizeof xl, "%s, sub-test %zu", r->name, pick[i]);
        else if (r->col_label && strcmp(r->col_label, "category") != 0)
            snprintf(xl, sizeof xl, "%s", r->col_label);
        else
            snprintf(xl, sizeof xl, "%s", r->name);
        const int st = chart_row(f, pg, rep, r, pick[i], xl);
        if (st != SB_OK)
            return st;
    }
    return ferror(f) ? SB_EIO : SB_OK;
}

/* ---- the parts of a run -------------------------------------------------- */

static void fact(FILE *f, const char *name)
{
    fputs("<dt>", f);
    sb_html_escape(f, name);
    fputs("</dt><dd>", f);
}

/* What the run was, so that a reader can make it again. */
static void facts(FILE *f, const page *pg, const sb_report *rep)
{
    const sb_run_info *run = &rep->run;
    const sb_input_info *in = run->input;
    fputs("<dl class=\"facts\">\n", f);
    if (pg->o && pg->o->command_line) {
        fact(f, "command line");
        fputs("<code class=\"cmd\">", f);
        sb_html_escape(f, pg->o->command_line);
        fputs("</code></dd>\n", f);
    }
    if (in) {
        fact(f, strcmp(in->source, "exec") == 0 ? "program" : "input");
        sb_html_escape(f, strcmp(in->what, "-") == 0 ? "standard input"
                                                     : in->what);
        fprintf(f, " (format %s%s)</dd>\n", in->format,
                in->one_based ? ", one-based" : "");
    } else {
        fact(f, "algorithm");
        sb_html_escape(f, run->algorithm);
        if (run->literature) {
            fputs(" (the literature: ", f);
            sb_html_escape(f, run->literature);
            fputc(')', f);
        }
        fputs("</dd>\n", f);
        fact(f, "params");
        sb_html_escape(f, run->params[0] ? run->params : "(none)");
        fputs("</dd>\n", f);
    }
    if (run->plugin) {
        fact(f, "plug-in");
        sb_html_escape(f, run->plugin);
        fputs("</dd>\n", f);
    }
    fact(f, "kind");
    fprintf(f, "%s</dd>\n", sb_kind_str(run->kind));
    fact(f, "n");
    fprintf(f, "%zu</dd>\n", run->n);
    fact(f, "samples");
    if (run->partial && run->done < run->samples)
        fprintf(f, "%" PRIu64 " of %" PRIu64 "</dd>\n", run->done,
                run->samples);
    else
        fprintf(f, "%" PRIu64 "</dd>\n", run->done);
    if (run->merged_files) {
        fact(f, "merged");
        fprintf(f, "%zu state files, seed%s", run->merged_files,
                run->n_merged_seeds == 1 ? "" : "s");
        for (size_t k = 0; k < run->n_merged_seeds; k++)
            fprintf(f, "%s%" PRIu64, k ? ", " : " ", run->merged_seeds[k]);
        fputs("</dd>\n", f);
        if (pg->o && pg->o->merged_names && pg->o->merged_name_seeds) {
            fact(f, "files");
            fputs("<ul class=\"merged\">", f);
            for (size_t k = 0; k < run->merged_files; k++) {
                fputs("<li><code>", f);
                sb_html_escape(f, pg->o->merged_names[k]);
                fprintf(f, "</code> (seed %" PRIu64 ")</li>",
                        pg->o->merged_name_seeds[k]);
            }
            fputs("</ul></dd>\n", f);
        }
    } else if (!(in && strcmp(in->source, "input") == 0)) {
        fact(f, "seed");
        fprintf(f, "%" PRIu64, run->seed);
        if (rep->n_stages > 1)
            fprintf(f, " (the tables are stage %zu's, seed %" PRIu64 ")",
                    rep->n_stages - 1, rep->stages[rep->n_stages - 1].seed);
        else if (in)
            fputs(" (handed to the program as SHUFFLEBIAS_SEED)", f);
        fputs("</dd>\n", f);
    }
    fact(f, "source");
    if (run->rng) {
        sb_html_escape(f, run->rng);
        if (run->rng_seed_bits < 64)
            fprintf(f, " (seeded with %" PRIu64 ", %u bits)", run->rng_seed,
                    run->rng_seed_bits);
    } else {
        fputs(in ? "outside (the samples were made elsewhere)" : "-", f);
    }
    fputs("</dd>\n", f);
    fact(f, "stream version");
    fprintf(f, "%d</dd>\n", run->stream_version);
    if (run->part_end) {
        fact(f, "part");
        fprintf(f, "chunks %" PRIu64 " to %" PRIu64 " of a run of %" PRIu64
                " samples</dd>\n", run->part_first, run->part_end - 1,
                run->run_samples);
    }
    fact(f, "thresholds");
    fprintf(f, "suspect below %g, fail below %g (Holm-adjusted p)</dd>\n",
            run->suspect_alpha, run->fail_alpha);
    if (run->tally_name && run->tally.samples) {
        fact(f, run->tally_name);
        fprintf(f, "%.4f per sample (sd %.3g, at most %" PRIu64 ")</dd>\n",
                sb_tally_mean(&run->tally), sqrt(sb_tally_var(&run->tally)),
                run->tally.max);
    }
    if (in && in->program[0]) {
        fact(f, "ended");
        sb_html_escape(f, in->program);
        fputs("</dd>\n", f);
    }
    if (in && in->invalid) {
        fact(f, "skipped");
        fprintf(f, "%" PRIu64 " bad samples (--skip-invalid)</dd>\n",
                in->invalid);
    }
    if (!(pg->o && pg->o->no_timing) && !run->merged_files) {
        const double rate = run->seconds > 0
                            ? (double)(run->done - run->resumed)
                              / run->seconds : 0.0;
        fact(f, "time");
        fprintf(f, "%.2f s (%.3g samples/s", run->seconds, rate);
        if (run->threads > 1)
            fprintf(f, " on %u threads", run->threads);
        fputs(")</dd>\n", f);
    }
    fact(f, "version");
    fprintf(f, "shufflebias %s</dd>\n", sb_version());
    fputs("</dl>\n", f);
}

/* The verdict, in colour and in words. */
static void headline(FILE *f, const sb_report *rep)
{
    const char *v = run_verdict(rep);
    char reason[1024];
    sb_report_reason(rep, reason, sizeof reason);
    fputs("<p class=\"big\">verdict ", f);
    verdict_span(f, v, verdict_class(v));
    fputc(' ', f);
    if (reason[0])
        sb_html_escape(f, reason);
    else if (rep->verdict == SB_VERDICT_PASS)
        fputs("no bias found", f);
    else if (rep->verdict == SB_VERDICT_SUSPECT)
        fputs("inconclusive: a statistic is suspect", f);
    else if (rep->verdict == SB_VERDICT_FAIL)
        fputs("bias found", f);
    else
        fputs("nothing to test at this size", f);
    if (rep->run.partial && rep->run.merged_files)
        fputs(" (partial: the files hold fewer samples than their runs "
              "asked)", f);
    fputs("</p>\n", f);
}

/* What a fail resembles and its fix; what a pass could have missed. */
static void diagnosis(FILE *f, const sb_report *rep)
{
    const sb_diagnosis *g = &rep->diagnosis;
    if (g->missed[0]) {
        fputs("<p class=\"missed\"><b>Could have missed:</b> ", f);
        sb_html_escape(f, g->missed);
        fputs("</p>\n", f);
    }
    if (g->state == SB_DIAGNOSIS_NONE)
        return;
    fputs("<div class=\"diagnosis\"><p><b>Diagnosis:</b> ", f);
    if (g->state == SB_DIAGNOSIS_MATCH) {
        fputs("resembles ", f);
        sb_html_escape(f, g->name);
        if (g->params[0]) {
            fputs(" (", f);
            sb_html_escape(f, g->params);
            fputc(')', f);
        }
        fprintf(f, " (score %.2f of 1; a close match from %.2f)", g->score,
                g->threshold);
    } else if (g->name[0] && g->score >= g->threshold) {
        fputs("no flaw named, too little seen to tell flaws apart "
              "(nearest ", f);
        sb_html_escape(f, g->name);
        fprintf(f, ", score %.2f of 1)", g->score);
    } else if (g->name[0]) {
        fputs("no close match in the catalogue (nearest ", f);
        sb_html_escape(f, g->name);
        fprintf(f, ", score %.2f of 1)", g->score);
    } else {
        fputs("no close match in the catalogue", f);
    }
    fputs("</p>\n<dl class=\"lines\">", f);
    const struct { const char *name, *text; } lines[] = {
        {"bias", g->looks},
        {"flaw", g->state == SB_DIAGNOSIS_MATCH ? g->flaw : ""},
        {"estimate", g->state == SB_DIAGNOSIS_MATCH ? g->estimate : ""},
        {"fix", g->state == SB_DIAGNOSIS_MATCH ? g->advice : ""},
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        if (lines[i].text[0]) {
            fact(f, lines[i].name);
            sb_html_escape(f, lines[i].text);
            fputs("</dd>", f);
        }
    fputs("</dl></div>\n", f);
}

/* The table of statistics. */
static void stats_table(FILE *f, const page *pg, const sb_report *rep)
{
    fputs("<table class=\"stats\"><thead><tr><th>statistic</th>"
          "<th>value</th><th>df</th><th>p-value</th><th>p (Holm)</th>"
          "<th>verdict</th></tr></thead><tbody>\n", f);
    for (size_t i = 0; i < rep->n_results; i++) {
        const sb_result *r = &rep->results[i];
        const char *v = sb_verdict_str(r->verdict);
        fputs("<tr><td>", f);
        if (!pg->audit) {
            fputs("<a href=\"#stat-", f);
            id_part(f, r->name);
            fputs("\">", f);
        }
        sb_html_escape(f, r->name);
        fputs(pg->audit ? "</td>" : "</a></td>", f);
        if (!r->applicable) {
            fputs("<td class=\"num\">-</td><td class=\"num\">-</td>"
                  "<td class=\"num\">-</td><td class=\"num\">-</td>", f);
        } else {
            fprintf(f, "<td class=\"num\">%.6g</td><td class=\"num\">%.6g"
                    "</td><td class=\"num\">", r->statistic, r->df);
            pvalue(f, r->p_value, r->p_underflow);
            if (r->subtests > 1)
                fprintf(f, "<span title=\"Bonferroni over %u sub-tests\">*"
                        "</span>", r->subtests);
            fputs("</td><td class=\"num\">", f);
            pvalue(f, r->p_adjusted, r->p_underflow);
            fputs("</td>", f);
        }
        fprintf(f, "<td class=\"v-%s\">", stat_class(r->verdict));
        for (const char *c = v; *c; c++)
            fputc(toupper((unsigned char)*c), f);
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
    int starred = 0;
    for (size_t i = 0; i < rep->n_results; i++)
        starred |= rep->results[i].applicable
                   && rep->results[i].subtests > 1;
    if (starred)
        fputs("<p class=\"note\">* the p-value already combines the "
              "statistic's sub-tests (Bonferroni: the smallest p times their "
              "number).</p>\n", f);
}

/* The escalation: each stage's seed, samples and verdict. */
static void stages(FILE *f, const sb_report *rep)
{
    if (rep->n_stages <= 1)
        return;
    fputs("<h3>Escalation</h3>\n<p class=\"note\">Suspect at first, re-run "
          "on fresh samples; the tables are the last stage's.</p>\n"
          "<table class=\"stages\"><thead><tr><th>stage</th><th>seed</th>"
          "<th>samples</th><th>verdict</th><th>smallest p (Holm)</th>"
          "<th>statistic</th></tr></thead><tbody>\n", f);
    for (size_t k = 0; k < rep->n_stages; k++) {
        const sb_stage *st = &rep->stages[k];
        const char *v = sb_verdict_str(st->verdict);
        fprintf(f, "<tr><td class=\"num\">%zu</td><td class=\"num\">%"
                PRIu64 "</td><td class=\"num\">%" PRIu64 "</td><td "
                "class=\"v-%s\">%s</td><td class=\"num\">", k, st->seed,
                st->done, stat_class(st->verdict), v);
        pvalue(f, st->min_p_adjusted, 0);
        fputs("</td><td>", f);
        sb_html_escape(f, st->worst ? st->worst : "-");
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

/* One statistic's box: its p-value and verdict, what it saw, its
   picture. */
static int stat_box(FILE *f, const page *pg, const sb_report *rep,
                    const sb_result *r, const sb_result *main)
{
    const char *v = sb_verdict_str(r->verdict);
    fputs("<section class=\"stat\"", f);
    if (!pg->audit) {
        fputs(" id=\"stat-", f);
        id_part(f, r->name);
        fputc('"', f);
    }
    fputs(" data-stat=\"", f);
    sb_html_escape(f, r->name);
    fprintf(f, "\" data-verdict=\"%s\">\n<h3>", v);
    sb_html_escape(f, r->name);
    fputs("</h3>\n<p>", f);
    verdict_span(f, v, stat_class(r->verdict));
    if (r->applicable) {
        fputs(r->p_underflow ? " p " : " p = ", f);
        pvalue(f, r->p_value, r->p_underflow);
        fputs(", Holm-adjusted ", f);
        pvalue(f, r->p_adjusted, r->p_underflow);
        fprintf(f, "; statistic %.6g on %.6g df", r->statistic, r->df);
    }
    fputs("</p>\n", f);
    const char *what = !r->applicable ? r->note
                     : r->verdict != SB_VERDICT_PASS ? r->effect_desc
                     : r->detectable_desc;
    if (what[0]) {
        fputs("<p class=\"note\">", f);
        if (r->applicable && r->verdict == SB_VERDICT_PASS)
            fputs("Would have caught: ", f);
        sb_html_escape(f, what);
        fputs("</p>\n", f);
    }
    int st = SB_OK;
    const sb_table *t = &r->table;
    if (!r->applicable || !t->observed || !t->expected || t->rows == 0
        || t->cols == 0) {
        /* nothing to draw */
    } else if (r == main) {
        fputs("<p class=\"note\">Its table is the heatmap above.</p>\n", f);
    } else if (t->rows * t->cols == 1) {
        fprintf(f, "<p>%s %.0f, expected %.3g.</p>\n",
                strcmp(r->name, "collisions") == 0 ? "Repeated samples:"
                                                   : "Observed", t->observed[0],
                t->expected[0]);
    } else if (is_matrix(r)) {
        if (!pg->audit) {
            char id[96];
            snprintf(id, sizeof id, "hm-%s", r->name);
            st = heatmap(f, pg, rep, r, id);
        }
    } else {
        st = charts(f, pg, rep, r);
    }
    fputs("</section>\n", f);
    if (st == SB_OK && ferror(f))
        st = SB_EIO;
    return st;
}

/* A run's section; 'heading' its <h2> (an audit's), or NULL. */
static int run_section(FILE *f, const page *pg, const sb_report *rep,
                       int heading)
{
    fputs("<section class=\"run\" id=\"", f);
    run_id(f, rep);
    fprintf(f, "\" data-verdict=\"%s\">\n", run_verdict(rep));
    if (heading) {
        fputs("<h2>", f);
        sb_html_escape(f, rep->run.algorithm);
        if (rep->run.params[0]) {
            fputs(" <small>", f);
            sb_html_escape(f, rep->run.params);
            fputs("</small>", f);
        }
        fputs("</h2>\n", f);
    }
    headline(f, rep);
    if (!pg->audit)
        facts(f, pg, rep);
    diagnosis(f, rep);
    const sb_result *main = main_matrix(rep);
    int st = SB_OK;
    if (main) {
        const char *row, *col;
        matrix_labels(main, rep, &row, &col);
        fprintf(f, "<h3>Card &#215; %s</h3>\n", col);
        char id[160];
        snprintf(id, sizeof id, "hm-run-");
        for (size_t k = strlen(id), i = 0; rep->run.algorithm
             && rep->run.algorithm[i] && k + 1 < sizeof id; i++, k++) {
            const char c = rep->run.algorithm[i];
            id[k] = isalnum((unsigned char)c) || c == '-' || c == '_'
                    ? c : '-';
            id[k + 1] = '\0';
        }
        st = heatmap(f, pg, rep, main, id);
    }
    if (st == SB_OK) {
        fputs(pg->audit ? "<h3>Statistics</h3>\n" : "<h2>Statistics</h2>\n",
              f);
        stats_table(f, pg, rep);
        stages(f, rep);
        if (!pg->audit)
            fputs("<h2>Each statistic, observed against expected</h2>\n"
                  "<p class=\"note\">Bars: the counts a uniform shuffle "
                  "expects; dots: the counts seen, red when outside the "
                  "whiskers (+-3 standard deviations of a binomial count "
                  "around the expected one).</p>\n", f);
    }
    /* An audit draws one chart, of the statistic that failed worst
       (unless the heatmap is that one): the page of 'test' draws every
       statistic. */
    const sb_result *chart = NULL;
    if (pg->audit)
        for (size_t i = 0; i < rep->n_results; i++) {
            const sb_result *r = &rep->results[i];
            if (r->applicable && r->verdict != SB_VERDICT_PASS
                && r->verdict != SB_VERDICT_NA && r->table.lo
                && (!chart || r->p_adjusted < chart->p_adjusted))
                chart = r;
        }
    if (chart && st == SB_OK)
        st = stat_box(f, pg, rep, chart, main);
    for (size_t i = 0; i < rep->n_results && st == SB_OK && !pg->audit; i++)
        st = stat_box(f, pg, rep, &rep->results[i], main);
    fputs("</section>\n", f);
    if (st == SB_OK && ferror(f))
        st = SB_EIO;
    return st;
}

/* ---- the pages ------------------------------------------------------------ */

int sb_render_html(FILE *f, const sb_report *rep, const sb_render_opts *o)
{
    size_t maps = 0;
    for (size_t i = 0; i < rep->n_results; i++)
        maps += is_matrix(&rep->results[i]);
    size_t share = maps ? HTML_CELLS_ONE / maps : HTML_CELLS_ONE;
    if (share < HTML_CELLS_ONE_MIN)
        share = HTML_CELLS_ONE_MIN;
    const page pg = { o, 0, share, HTML_BARS_ONE };
    char title[512];
    snprintf(title, sizeof title, "shufflebias %s: %s, n = %zu",
             rep->run.merged_files ? "merge" : "test",
             rep->run.algorithm ? rep->run.algorithm : "samples",
             rep->run.n);
    int st = sb_html_begin(f, title);
    if (st == SB_OK)
        st = run_section(f, &pg, rep, 0);
    if (st == SB_OK)
        st = sb_html_end(f);
    return st == SB_OK && ferror(f) ? SB_EIO : st;
}

/* The stream versions of an audit's runs, which may differ (each run
   keeps the version in which its decks last changed): the most common,
   then the others with their shuffles, "2 (3: fisher-yates-mod)". */
static void audit_versions(FILE *f, const sb_report *reps, size_t m)
{
    int common = reps[0].run.stream_version;
    size_t most = 0;
    for (size_t i = 0; i < m; i++) {
        size_t k = 0;
        for (size_t j = 0; j < m; j++)
            k += reps[j].run.stream_version == reps[i].run.stream_version;
        if (k > most) {
            most = k;
            common = reps[i].run.stream_version;
        }
    }
    fprintf(f, "%d", common);
    const char *sep = " (";
    for (size_t i = 0; i < m; i++) {
        const sb_run_info *r = &reps[i].run;
        if (r->stream_version == common)
            continue;
        fprintf(f, "%s%d: ", sep, r->stream_version);
        sb_html_escape(f, r->algorithm ? r->algorithm : "samples");
        sep = ", ";
    }
    fputs(*sep == ',' ? ")</dd>\n" : "</dd>\n", f);
}

int sb_render_audit_html(FILE *f, const sb_report *reps, size_t m,
                         const sb_render_opts *o)
{
    /* The heatmaps share the page's cells: those smaller than an equal
       share keep all theirs, the rest share what they leave. */
    size_t share = HTML_CELLS_AUDIT;
    for (int pass = 0; pass < 4; pass++) {
        size_t left = HTML_CELLS_AUDIT, big = 0;
        for (size_t i = 0; i < m; i++) {
            const sb_result *r = main_matrix(&reps[i]);
            if (!r)
                continue;
            const size_t cells = r->table.rows * r->table.cols;
            if (cells <= share && cells < left)
                left -= cells;
            else
                big++;
        }
        share = big ? left / big : HTML_CELLS_AUDIT;
    }
    if (share < HTML_CELLS_AUDIT_MIN)
        share = HTML_CELLS_AUDIT_MIN;
    const page pg = { o, 1, share, HTML_BARS_AUDIT };
    char title[128];
    snprintf(title, sizeof title, "shufflebias audit: %zu shuffles, n = %zu",
             m, m ? reps[0].run.n : 0);
    int st = sb_html_begin(f, title);
    if (st != SB_OK)
        return st;

    /* What every run shares. */
    if (m > 0) {
        const sb_run_info *run = &reps[0].run;
        fputs("<dl class=\"facts\">\n", f);
        if (o && o->command_line) {
            fact(f, "command line");
            fputs("<code class=\"cmd\">", f);
            sb_html_escape(f, o->command_line);
            fputs("</code></dd>\n", f);
        }
        fact(f, "n");
        fprintf(f, "%zu</dd>\n", run->n);
        fact(f, "samples");
        fprintf(f, "%" PRIu64 " per shuffle</dd>\n", run->samples);
        fact(f, "seed");
        fprintf(f, "%" PRIu64 " (every shuffle; an escalated run's later "
                "stages have their own)</dd>\n", run->seed);
        fact(f, "source");
        sb_html_escape(f, run->rng ? run->rng : "-");
        fputs("</dd>\n", f);
        fact(f, "stream version");
        audit_versions(f, reps, m);
        fact(f, "thresholds");
        fprintf(f, "suspect below %g, fail below %g (Holm-adjusted p)"
                "</dd>\n", run->suspect_alpha, run->fail_alpha);
        if (!(o && o->no_timing)) {
            double seconds = 0;
            for (size_t i = 0; i < m; i++)
                seconds += reps[i].run.seconds;
            fact(f, "time");
            fprintf(f, "%.2f s in all</dd>\n", seconds);
        }
        fact(f, "version");
        fprintf(f, "shufflebias %s</dd>\n</dl>\n", sb_version());
    }

    /* The overview: one row per shuffle, its heatmap in small. */
    fputs("<h2>Overview</h2>\n<table class=\"overview\"><thead><tr>"
          "<th>shuffle</th><th>literature</th><th>verdict</th>"
          "<th>worst statistic</th><th>p (Holm)</th><th>picture</th></tr>"
          "</thead><tbody>\n", f);
    for (size_t i = 0; i < m; i++) {
        const sb_report *rep = &reps[i];
        const char *v = run_verdict(rep);
        const sb_result *w = sb_report_worst(rep);
        fputs("<tr><td><a href=\"#", f);
        run_id(f, rep);
        fputs("\">", f);
        sb_html_escape(f, rep->run.algorithm);
        fputs("</a></td><td>", f);
        sb_html_escape(f, rep->run.literature ? rep->run.literature : "-");
        fprintf(f, "</td><td class=\"v-%s\">", verdict_class(v));
        for (const char *c = v; *c; c++)
            fputc(toupper((unsigned char)*c), f);
        fputs("</td><td>", f);
        sb_html_escape(f, w ? w->name : "-");
        fputs("</td><td class=\"num\">", f);
        if (w)
            pvalue(f, w->p_adjusted, w->p_underflow);
        else
            fputc('-', f);
        fputs("</td><td>", f);
        const sb_result *mm = main_matrix(rep);
        if (mm) {
            /* The cells of the section's heatmap, in small. */
            const size_t b = block_side(mm->table.rows, mm->table.cols,
                                        pg.cells_max);
            sb_heatmap h = { .rows = (mm->table.rows + b - 1) / b,
                             .cols = (mm->table.cols + b - 1) / b };
            h.cell = cell_px(&pg, h.rows);
            double box[4];
            sb_svg_heatmap_box(&h, box);
            const double w = box[2] >= box[3] ? 96 : 96 * box[2] / box[3];
            const double ht = box[2] >= box[3] ? 96 * box[3] / box[2] : 96;
            fputs("<a href=\"#", f);
            run_id(f, rep);
            fprintf(f, "\"><svg class=\"heatmap thumb\" viewBox=\"%g %g %g "
                    "%g\" width=\"%.0f\" height=\"%.0f\"><use href=\"#hm-",
                    box[0], box[1], box[2], box[3], w < 8 ? 8 : w,
                    ht < 8 ? 8 : ht);
            run_id(f, rep);
            fputs("-cells\"/></svg></a>", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n<p class=\"note\">Each section below: the "
          "verdict, the card &#215; position heatmap (card &#215; hand for a "
          "deal), the table of statistics and the chart of the count "
          "statistic that failed worst.  The page of <code>shufflebias "
          "test --html</code> draws every statistic of one shuffle.</p>\n",
          f);
    for (size_t i = 0; i < m && st == SB_OK; i++)
        st = run_section(f, &pg, &reps[i], 1);
    if (st == SB_OK)
        st = sb_html_end(f);
    return st == SB_OK && ferror(f) ? SB_EIO : st;
}
