/*
 * html_exact.c - the page of 'shufflebias exact': one self-contained HTML
 * file for one algorithm or many ('exact --all').
 *
 * What is on it, top to bottom: the facts a reader needs to run it again
 * (<dl class="facts">); for many algorithms at a deck small enough, the
 * summary grid (an algorithm a row, every order a column, the exact
 * fraction in each cell coloured by its ratio to uniform: the table an
 * article about shuffle bias shows); then a section per algorithm with
 * its verdict, its numbers, the exact card x position (or card x hand)
 * matrix as a heatmap, and its distribution over every outcome - a bar
 * per outcome up to 720 of them (6 cards), else the sorted profile of its
 * probability levels.
 *
 * Nothing here computes a probability: every figure is read from the
 * report, as exact fractions "p/q" beside their decimal values.  A
 * heatmap cell's ratio is its probability over a uniform shuffle's: 1/n
 * for a card and a position (or a draw's slot), 1/H for a card and one of
 * H hands of n/H cards.
 */
#include "reports/render.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/exact_grid.h"
#include "reports/svg.h"
#include "shufflebias/status.h"
#include "shufflebias/version.h"

#define BARS_MAX 720          /* outcomes drawn one bar each: 6! */
#define LISTED_MAX 24         /* outcomes in a table, never-reached named */
#define MATRIX_LISTED_MAX 100 /* matrix cells also written as a table */
#define PROFILE_LEVELS 400    /* levels drawn one rectangle each */
#define GRID_SPAN 2.0         /* the grid's darkest: twice (or half) as
                                 often as uniform */
#define RED "#b2182b"

static const char *noun_of(const sb_exact_report *rep)
{
    return rep->kind == SB_KIND_DEAL ? "deals"
         : rep->kind == SB_KIND_DRAW ? "hands" : "orders";
}

static const char *verdict_key(const sb_exact_report *rep)
{
    if (rep->summary_only || rep->verdict == SB_EXACT_INCONCLUSIVE)
        return "inconclusive";
    return rep->verdict == SB_EXACT_UNIFORM ? "uniform" : "biased";
}

/* The id of a report's section: "run-NAME", every character of the
   name other than a letter, digit, '-' or '_' made a '-', as on the pages
   of 'test' and 'audit' (the names of built-in algorithms are unique, so
   their parameters are left out). */
static void section_id(const sb_exact_report *rep, char *buf, size_t len)
{
    size_t k = (size_t)snprintf(buf, len, "run-");
    for (const char *c = rep->algorithm; *c && k + 1 < len; c++)
        buf[k++] = isalnum((unsigned char)*c) || *c == '-' || *c == '_'
                 ? *c : '-';
    buf[k] = '\0';
}

/* 's' escaped, with a chance to break the line after each of 'at' (a
   fraction of thirty digits, a long list of parameters). */
static void breakable(FILE *f, const char *s, char at)
{
    char one[2] = { 0, 0 };
    for (; *s; s++) {
        one[0] = *s;
        sb_html_escape(f, one);
        if (*s == at && s[1])
            fputs("<wbr>", f);
    }
}

static void algorithm_name(FILE *f, const sb_exact_report *rep)
{
    fputs("<code style=\"white-space:nowrap\">", f);
    sb_html_escape(f, rep->algorithm);
    fputs("</code>", f);
    if (rep->params[0]) {
        fputs(" <span class=\"note\">(", f);
        breakable(f, rep->params, ',');
        fputs(")</span>", f);
    }
}

/* Text on a background of colour 'hex': white when the colour is dark. */
static const char *ink_on(const char *hex)
{
    unsigned r = 0, g = 0, b = 0;
    if (sscanf(hex, "#%2x%2x%2x", &r, &g, &b) != 3)
        return "#1b1b1b";
    return 0.299 * r + 0.587 * g + 0.114 * b < 140 ? "#fff" : "#1b1b1b";
}

/* The colour scale of a picture: from the largest ratio (or its inverse)
   that is not 0, at least 2 and at most 8.  A 0 is the darkest blue
   whatever the scale, so that a shuffle that never reaches some outcome
   does not pale the rest of its picture. */
static double span_of(const double *ratio, size_t count)
{
    double span = 2;
    for (size_t i = 0; i < count; i++)
        if (ratio[i] > 0) {
            const double s = sb_svg_span(&ratio[i], 1, 2, 8);
            if (s > span)
                span = s;
        }
    return span;
}

/* ---- The page's facts. ---- */

static void facts(FILE *f, const sb_exact_report *reps, size_t m,
                  const sb_render_opts *o)
{
    fputs("<dl class=\"facts\">\n", f);
    if (o->command_line) {
        fputs("<dt>command</dt><dd><code class=\"cmd\">", f);
        sb_html_escape(f, o->command_line);
        fputs("</code></dd>\n", f);
    }
    fputs("<dt>program</dt><dd>shufflebias ", f);
    sb_html_escape(f, sb_version());
    fputs("</dd>\n", f);
    if (m == 0) {
        fputs("</dl>\n", f);
        return;
    }
    fprintf(f, "<dt>deck</dt><dd>%zu cards</dd>\n<dt>kind</dt><dd>",
            reps[0].n);
    /* The kinds present, in the order of sb_kind. */
    int first = 1;
    for (unsigned k = SB_KIND_PERMUTATION; k <= SB_KIND_DEAL; k <<= 1)
        for (size_t i = 0; i < m; i++)
            if (reps[i].kind == (sb_kind)k) {
                fprintf(f, "%s%s", first ? "" : ", ",
                        sb_kind_str((sb_kind)k));
                first = 0;
                break;
            }
    fputs("</dd>\n", f);
    if (m > 1)
        fprintf(f, "<dt>algorithms</dt><dd>%zu</dd>\n", m);
    uint64_t paths = 0, cut = 0;
    double seconds = 0;
    for (size_t i = 0; i < m; i++) {
        paths = reps[i].paths > UINT64_MAX - paths ? UINT64_MAX
                                                   : paths + reps[i].paths;
        cut += reps[i].cut_paths;
        seconds += reps[i].seconds;
    }
    char count[48];
    sb_render_count(count, sizeof count, paths);
    fprintf(f, "<dt>paths walked</dt><dd>%s%s", count, m > 1 ? " in all" : "");
    if (m == 1 && reps[0].equal_weights && reps[0].path_weight)
        fprintf(f, ", each with probability %s", reps[0].path_weight);
    if (cut)
        fprintf(f, "; %" PRIu64 " cut at the depth limit", cut);
    fputs("</dd>\n", f);
    if (reps[0].max_paths)
        fprintf(f, "<dt>path budget</dt><dd>%" PRIu64 " paths "
                "(<code>--max-paths</code>)</dd>\n", reps[0].max_paths);
    /* The depth limit: the one most walks had, and any algorithm's own. */
    size_t common = 0, most = 0;
    for (size_t i = 0; i < m; i++) {
        size_t same = 0;
        for (size_t j = 0; j < m; j++)
            same += reps[j].max_depth == reps[i].max_depth;
        if (same > most) {
            most = same;
            common = reps[i].max_depth;
        }
    }
    if (common) {
        fprintf(f, "<dt>depth limit</dt><dd>%zu draws a path "
                "(<code>--max-depth</code>)", common);
        first = 1;
        for (size_t i = 0; i < m; i++)
            if (reps[i].max_depth != common && reps[i].max_depth) {
                fputs(first ? "; by their own rule: " : ", ", f);
                sb_html_escape(f, reps[i].algorithm);
                fprintf(f, " %zu", reps[i].max_depth);
                first = 0;
            }
        fputs("</dd>\n", f);
    }
    if (!o->no_timing)
        fprintf(f, "<dt>time</dt><dd>%.2f s</dd>\n", seconds);
    fputs("</dl>\n", f);
}

/* ---- The summary grid. ---- */

static void grid_table(FILE *f, const sb_exact_report *reps,
                       const sb_exact_grid *g)
{
    const sb_exact_report *first = &reps[g->rows[0]];
    const char *noun = first->kind == SB_KIND_DEAL ? "deal"
                     : first->kind == SB_KIND_DRAW ? "hand" : "order";
    char s[512], colour[8];
    /* Wider than the page (fractions of thirty digits): scrolled on
       screen, smaller on paper. */
    fprintf(f, "<div style=\"overflow-x:auto\"><table class=\"grid\" "
            "data-kind=\"%s\" style=\"font-size:.85em\">\n<caption>The exact "
            "probability of every %s (each %s under a uniform shuffle), "
            "coloured by its ratio to %s: white as often as uniform, red "
            "more often, blue less often (darkest: twice as often, half as "
            "often or never); and the total-variation distance from "
            "uniform.</caption>\n<thead><tr><th>algorithm</th>",
            sb_kind_str(first->kind), noun, first->uniform, first->uniform);
    for (size_t c = 0; c < g->n_cols; c++) {
        sb_exact_outcome_str(first, g->cols[c], s, sizeof s);
        fputs("<th><code>", f);
        sb_html_escape(f, s);
        fputs("</code></th>", f);
    }
    fputs("<th>distance</th></tr></thead>\n<tbody>\n", f);
    for (size_t r = 0; r < g->n_rows; r++) {
        const sb_exact_report *rep = &reps[g->rows[r]];
        char id[384];
        section_id(rep, id, sizeof id);
        fprintf(f, "<tr data-verdict=\"%s\"><th><a href=\"#%s\">",
                verdict_key(rep), id);
        algorithm_name(f, rep);
        fputs("</a></th>", f);
        for (size_t c = 0; c < g->n_cols; c++) {
            const sb_exact_outcome *o = sb_exact_find(rep, g->cols[c]);
            const double ratio = o ? o->ratio : 0;
            sb_svg_colour(ratio, GRID_SPAN, colour);
            sb_exact_outcome_str(rep, g->cols[c], s, sizeof s);
            fprintf(f, "<td class=\"num\" data-ratio=\"%.6g\" "
                    "style=\"background:%s;color:%s\" title=\"", ratio,
                    colour, ink_on(colour));
            sb_html_escape(f, s);
            if (o) {
                fprintf(f, ": %s = %.6g, %.4g x uniform\">", o->fraction,
                        o->probability, o->ratio);
                breakable(f, o->fraction, '/');
                fputs("</td>", f);
            } else
                fputs(": never\">0</td>", f);
        }
        if (rep->tv_d == 0)
            fputs("<td class=\"num\">0", f);
        else
            fprintf(f, "<td class=\"num\">%s (%.4g)", rep->tv, rep->tv_d);
        if (rep->unexplored_d > 0)
            fprintf(f, "; %s unexplored", rep->unexplored);
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody>\n</table></div>\n", f);
}

/* ---- A section's pictures. ---- */

typedef struct matrix_ctx {
    const sb_exact_report *rep;
    const double *value;      /* each cell's probability */
    const double *uniform;    /* each column's uniform value */
} matrix_ctx;

static void matrix_tip(const void *ctx, size_t r, size_t c, char *buf,
                       size_t len)
{
    const matrix_ctx *x = ctx;
    const sb_exact_report *rep = x->rep;
    char card[16];
    sb_exact_card_str(rep, r, card, sizeof card);
    const size_t i = r * rep->cols + c;
    snprintf(buf, len, "card %s, %s %zu: %s = %.6g, %.4g x uniform (%.4g)",
             card, rep->kind == SB_KIND_DEAL ? "hand" : "position", c,
             sb_exact_fraction_shown(rep->matrix[i]), x->value[i],
             x->uniform[c] > 0 ? x->value[i] / x->uniform[c] : NAN,
             x->uniform[c]);
}

static int matrix_heatmap(FILE *f, const sb_exact_report *rep)
{
    const size_t rows = rep->rows, cols = rep->cols, cells = rows * cols;
    double *value = malloc(cells * sizeof *value);
    double *ratio = malloc(cells * sizeof *ratio);
    double *uniform = calloc(cols, sizeof *uniform);
    if (!value || !ratio || !uniform) {
        free(value);
        free(ratio);
        free(uniform);
        return SB_ENOMEM;
    }
    /* A uniform shuffle puts a card in each of the n positions (or of a
       draw's slots) 1/n of the time, and in each of H hands of n/H cards
       1/H of the time.  Not the column's total over the cards: a walk
       that left mass unexplored has columns that sum to less. */
    for (size_t c = 0; c < cols; c++)
        uniform[c] = sb_exact_cell_uniform(rep);
    for (size_t i = 0; i < cells; i++) {
        value[i] = sb_exact_fraction_value(rep->matrix[i]);
        ratio[i] = value[i] / uniform[i % cols];
    }
    /* Every cell exactly as uniform, proven: all white.  Equal cells in
       each column say so only when nothing was left unexplored. */
    int flat = !rep->partial && !rep->summary_only
               && !(rep->unexplored_d > 0);
    for (size_t i = 0; i < cells; i++)
        flat &= strcmp(rep->matrix[i], rep->matrix[i % cols]) == 0;
    const matrix_ctx ctx = { rep, value, uniform };
    const size_t big = rows > cols ? rows : cols;
    const sb_heatmap h = {
        .rows = rows, .cols = cols, .ratio = ratio,
        .tip = matrix_tip, .ctx = &ctx,
        .row_label = "card",
        .col_label = rep->kind == SB_KIND_DEAL ? "hand" : "position",
        .span = span_of(ratio, cells),
        .cell = big <= 8 ? 40 : 0,
        .legend = 1,
        .legend_label = "exact probability / a uniform shuffle's (blue: "
                        "rarer, red: more often)",
    };
    fprintf(f, "<figure class=\"matrix\"><figcaption>Where each card ends: "
            "its exact probability in each %s over a uniform "
            "shuffle's%s. Each cell's tooltip gives the "
            "fraction.</figcaption>\n",
            rep->kind == SB_KIND_DEAL ? "hand" : "position",
            flat ? ": all white, every card exactly as likely there as "
                   "under a uniform shuffle" : "");
    int rc = sb_svg_heatmap(f, &h);
    fputs("</figure>\n", f);
    /* The fractions themselves, which a tooltip does not print. */
    if (rc == SB_OK && cells <= MATRIX_LISTED_MAX) {
        const char *col = rep->kind == SB_KIND_DEAL ? "hand" : "position";
        fputs("<table class=\"matrix\">\n<thead><tr><th>card</th>", f);
        for (size_t c = 0; c < cols; c++)
            fprintf(f, "<th>%s %zu</th>", col, c);
        fputs("</tr></thead>\n<tbody>\n", f);
        char card[16];
        for (size_t r = 0; r < rows; r++) {
            sb_exact_card_str(rep, r, card, sizeof card);
            fprintf(f, "<tr><th>%s</th>", card);
            for (size_t c = 0; c < cols; c++) {
                fputs("<td class=\"num\">", f);
                breakable(f, sb_exact_fraction_shown(rep->matrix[r * cols
                                                                 + c]), '/');
                fputs("</td>", f);
            }
            fputs("</tr>\n", f);
        }
        fputs("</tbody>\n</table>\n", f);
        rc = ferror(f) ? SB_EIO : SB_OK;
    }
    free(value);
    free(ratio);
    free(uniform);
    return rc;
}

/* The y axis of a chart of ratios up to 'top': its step and its end. */
static void ratio_axis(double top, double *step, double *ymax)
{
    if (top < 1)
        top = 1;
    *step = top <= 1.5 ? 0.25 : top <= 4 ? 0.5 : top <= 10 ? 1
          : top <= 40 ? 5 : pow(10, ceil(log10(top / 4)));
    *ymax = ceil(top / *step) * *step;
    if (*ymax < top + *step / 4)
        *ymax += *step;
}

/* The gridlines, values and label of a ratio axis, and the dashed line
   of uniform at 1. */
static void ratio_grid(FILE *f, double ml, double mt, double pw, double ph,
                       double step, double ymax)
{
    for (double v = 0; v <= ymax * (1 + 1e-9); v += step) {
        const double y = mt + ph - ph * v / ymax;
        fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"#eee\"/><text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
                "text-anchor=\"end\">%g</text>", ml, ml + pw, y, y, ml - 4,
                y + 3, v);
    }
    const double y1 = mt + ph - ph / ymax;
    fprintf(f, "\n<text class=\"axis\" transform=\"translate(11,%.1f) "
            "rotate(-90)\" text-anchor=\"middle\">ratio to uniform</text>\n"
            "<line class=\"uniform\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
            "y2=\"%.1f\" stroke=\"#333\" stroke-dasharray=\"4 3\"/>\n",
            mt + ph / 2, ml, ml + pw, y1, y1);
}

/* Every outcome, reached or not, in lexicographic order: the reached
   ones and the never-reached ones merged. */
static size_t all_outcomes(const sb_exact_report *rep, const sb_card **out,
                           const sb_exact_outcome **found)
{
    size_t a = 0, b = 0, k = 0;
    while (a < rep->n_outcomes || b < rep->n_never) {
        const sb_card *never = b < rep->n_never ? rep->never + b * rep->len
                                                : NULL;
        int take_reached = a < rep->n_outcomes;
        if (take_reached && never)
            take_reached = memcmp(rep->outcomes[a].sample, never,
                                  rep->len * sizeof *never) < 0;
        if (take_reached) {
            found[k] = &rep->outcomes[a];
            out[k++] = rep->outcomes[a++].sample;
        } else {
            found[k] = NULL;
            out[k++] = never;
            b++;
        }
    }
    return k;
}

/* A bar per outcome, its height its ratio to uniform, coloured on the
   heatmaps' scale; those never reached marked in red under the axis. */
static int outcome_bars(FILE *f, const sb_exact_report *rep)
{
    const size_t k = rep->n_outcomes + rep->n_never;
    const sb_card **sample = malloc(k * sizeof *sample);
    const sb_exact_outcome **found = malloc(k * sizeof *found);
    double *ratio = malloc(k * sizeof *ratio);
    if (!sample || !found || !ratio) {
        free(sample);
        free(found);
        free(ratio);
        return SB_ENOMEM;
    }
    all_outcomes(rep, sample, found);
    for (size_t i = 0; i < k; i++)
        ratio[i] = found[i] ? found[i]->ratio : 0;
    const double span = span_of(ratio, k);
    double bw = floor(700.0 / (double)k);
    if (bw > 30)
        bw = 30;
    if (bw < 1.5)
        bw = 1.5;
    char s[512], colour[8];
    const int labelled = k <= LISTED_MAX;
    size_t longest = 0;
    for (size_t i = 0; labelled && i < k; i++) {
        sb_exact_outcome_str(rep, sample[i], s, sizeof s);
        if (strlen(s) > longest)
            longest = strlen(s);
    }
    /* A label of 10 px capitals takes about 8 px a letter: side by side
       they need that and a gap of 4 px, or they turn (at 60 degrees, 7 px
       of height a letter). */
    const int turned = (double)longest * 8 + 4 > bw;
    const double ml = 44, mt = 8, ph = 160, pw = bw * (double)k;
    const double mb = 26 + (labelled ? (turned ? 7.0 * (double)longest : 12)
                                     : 0);
    const double width = ml + (pw < 300 ? 300 : pw) + 8;
    const double height = mt + ph + mb;
    double step, ymax;
    ratio_axis(rep->max_ratio, &step, &ymax);
    fprintf(f, "<figure class=\"outcomes\"><figcaption>Every one of the %s "
            "%s: its exact probability over the uniform %s (dashed)%s."
            "</figcaption>\n<svg class=\"distribution\" data-count=\"%zu\" "
            "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "role=\"img\">\n", rep->possible, noun_of(rep), rep->uniform,
            rep->n_never ? "; red marks: never reached" : "", k, width,
            height, width, height);
    ratio_grid(f, ml, mt, pw, ph, step, ymax);
    for (size_t i = 0; i < k; i++) {
        const double x = ml + bw * (double)i;
        const double h = ph * ratio[i] / ymax;
        sb_exact_outcome_str(rep, sample[i], s, sizeof s);
        sb_svg_colour(ratio[i], span, colour);
        fprintf(f, "<g%s><title>", found[i] ? "" : " class=\"never\"");
        sb_html_escape(f, s);
        if (found[i])
            fprintf(f, ": %s = %.6g, %.4g x uniform", found[i]->fraction,
                    found[i]->probability, found[i]->ratio);
        else
            fputs(": never reached", f);
        fprintf(f, "</title><rect class=\"bar\" x=\"%.2f\" y=\"%.2f\" "
                "width=\"%.2f\" height=\"%.2f\" fill=\"%s\" stroke=\"#666\" "
                "stroke-width=\"%s\" data-ratio=\"%.6g\"/>", x, mt + ph - h,
                bw > 3 ? bw - 1 : bw, h, colour, bw > 3 ? ".5" : "0",
                ratio[i]);
        if (!found[i])
            fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
                    "height=\"4\" fill=\"" RED "\"/>", x, mt + ph + 1,
                    bw > 3 ? bw - 1 : bw);
        if (labelled) {
            const double xc = x + bw / 2;
            if (turned)
                fprintf(f, "<text class=\"tick\" transform=\"translate("
                        "%.1f,%.1f) rotate(-60)\" text-anchor=\"end\">",
                        xc + 3, mt + ph + 10);
            else
                fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
                        "text-anchor=\"middle\">", xc, mt + ph + 16);
            sb_html_escape(f, s);
            fputs("</text>", f);
        }
        fputs("</g>\n", f);
    }
    fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"#888\"/>\n<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" "
            "text-anchor=\"middle\">%s%s</text>\n</svg>\n</figure>\n", ml,
            ml + pw, mt + ph, mt + ph, ml + pw / 2, height - 6, noun_of(rep),
            rep->kind == SB_KIND_DEAL ? "" : " (lexicographic)");
    free(sample);
    free(found);
    free(ratio);
    return ferror(f) ? SB_EIO : SB_OK;
}

/* Too many outcomes for a bar each: the probability levels, least likely
   first, each as wide as its share of the possible outcomes and as high
   as its ratio to uniform.  A fair shuffle is one flat step at 1. */
static int level_profile(FILE *f, const sb_exact_report *rep)
{
    const double ml = 44, mt = 8, ph = 160, pw = 520;
    const double width = ml + pw + 8, height = mt + ph + 36;
    double step, ymax;
    ratio_axis(rep->max_ratio, &step, &ymax);
    const double total = rep->possible_d > 0 ? rep->possible_d : 1;
    fprintf(f, "<figure class=\"outcomes\"><figcaption>The %s %s sorted "
            "from least to most likely: each probability level as wide as "
            "its share of them and as high as its ratio to uniform (%s, "
            "dashed)%s.</figcaption>\n<svg class=\"profile\" "
            "data-levels=\"%zu\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" shape-rendering=\"crispEdges\" "
            "role=\"img\">\n", rep->possible, noun_of(rep), rep->uniform,
            rep->min_ratio == 0 ? "; red: never reached" : "", rep->n_levels,
            width, height, width, height);
    ratio_grid(f, ml, mt, pw, ph, step, ymax);
    double done = 0;
    if (rep->n_levels <= PROFILE_LEVELS) {
        for (size_t i = 0; i < rep->n_levels; i++) {
            const sb_exact_level *l = &rep->levels[i];
            double x0 = ml + pw * done / total;
            done += (double)l->outcomes;
            double w = ml + pw * done / total - x0;
            /* At least a pixel each, inside the axis: the most likely
               levels are often a sliver of the outcomes, and the last,
               drawn over its neighbours, is the maximum the text
               states. */
            if (w < 1)
                w = 1;
            if (x0 + w > ml + pw)
                x0 = ml + pw - w;
            const double h = ph * l->ratio / ymax;
            fprintf(f, "<rect class=\"level\" x=\"%.2f\" y=\"%.2f\" "
                    "width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                    "data-ratio=\"%.6g\"><title>%" PRIu64 " %s ", x0,
                    l->ratio == 0 ? mt + ph : mt + ph - h,
                    w, l->ratio == 0 ? 4 : h,
                    l->ratio == 0 ? RED : "#6b8fb5", l->ratio, l->outcomes,
                    noun_of(rep));
            if (l->ratio == 0)
                fputs("never reached</title></rect>\n", f);
            else
                fprintf(f, "at %s (%.4g x uniform)</title></rect>\n",
                        l->fraction, l->ratio);
        }
    } else {
        /* Thousands of levels: one outline, a pixel column at a time,
           each as high as the highest level in it (the last to start
           there: the levels rise), so that a level narrower than a pixel
           is never lost under a lower one - the most likely takes the
           last column at least, at the height the text states. */
        fprintf(f, "<path class=\"level\" fill=\"#6b8fb5\" d=\"M%.1f %.1f",
                ml, mt + ph);
        const size_t columns = (size_t)pw;
        size_t i = 0;
        double start = 0, last_y = mt + ph;
        for (size_t c = 0; c < columns && rep->n_levels > 0; c++) {
            /* Past every level that starts in column c or before it. */
            while (i + 1 < rep->n_levels
                   && pw * (start + (double)rep->levels[i].outcomes) / total
                      < (double)c + 1) {
                start += (double)rep->levels[i].outcomes;
                i++;
            }
            const double y = mt + ph - ph * rep->levels[i].ratio / ymax;
            if (y != last_y)
                fprintf(f, "H%.1fV%.1f", ml + (double)c, y);
            last_y = y;
        }
        fprintf(f, "H%.1fV%.1fZ\"><title>%zu probability levels, from %.4g to "
                "%.4g x uniform</title></path>\n", ml + pw, mt + ph,
                rep->n_levels, rep->min_ratio, rep->max_ratio);
        if (rep->n_levels > 0 && rep->levels[0].ratio == 0)
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" "
                    "height=\"4\" fill=\"" RED "\"/>\n", ml, mt + ph,
                    pw * (double)rep->levels[0].outcomes / total);
    }
    fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"#888\"/>\n<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" "
            "text-anchor=\"middle\">share of the %s, least likely first"
            "</text>\n</svg>\n</figure>\n", ml, ml + pw, mt + ph, mt + ph,
            ml + pw / 2, height - 8, noun_of(rep));
    return ferror(f) ? SB_EIO : SB_OK;
}

/* ---- A section per report. ---- */

static void numbers(FILE *f, const sb_exact_report *rep)
{
    const char *noun = noun_of(rep);
    fputs("<table class=\"numbers\">\n", f);
    char count[48];
    sb_render_count(count, sizeof count, rep->paths);
    fprintf(f, "<tr><th>paths</th><td>%s", count);
    if (rep->equal_weights && rep->path_weight)
        fprintf(f, ", each with probability %s", rep->path_weight);
    if (rep->cut_paths)
        fprintf(f, "; %" PRIu64 " cut at the depth limit of %zu draws",
                rep->cut_paths, rep->max_depth);
    fprintf(f, "</td></tr>\n<tr><th>%s possible</th><td>%s, each %s under "
            "a uniform shuffle</td></tr>\n", noun, rep->possible,
            rep->uniform);
    if (rep->tv_d == 0)
        fputs("<tr><th>total-variation distance</th><td>0</td></tr>\n", f);
    else
        fprintf(f, "<tr><th>total-variation distance</th><td>%s = %.6g</td>"
                "</tr>\n", rep->tv, rep->tv_d);
    fputs("<tr><th>max/min ratio</th><td>", f);
    if (rep->min_ratio > 0)
        fprintf(f, "%.6g (most likely %.4g x uniform, least likely %.4g x "
                "uniform)", rep->max_ratio / rep->min_ratio, rep->max_ratio,
                rep->min_ratio);
    else
        fprintf(f, "infinite (most likely %.4g x uniform, some %s never "
                "happen)", rep->max_ratio, noun);
    fprintf(f, "</td></tr>\n<tr><th>never reached</th><td>%s of %s %s",
            rep->unreached, rep->possible, noun);
    if (rep->n_never > 0 && rep->n_never <= LISTED_MAX) {
        char s[512];
        fputc(':', f);
        for (size_t i = 0; i < rep->n_never; i++) {
            sb_exact_outcome_str(rep, rep->never + i * rep->len, s, sizeof s);
            fputs(" <code>", f);
            sb_html_escape(f, s);
            fputs("</code>", f);
        }
    }
    fputs("</td></tr>\n", f);
    if (rep->unexplored_d > 0)
        fprintf(f, "<tr><th>unexplored</th><td>%s = %.6g%s</td></tr>\n",
                rep->unexplored, rep->unexplored_d,
                rep->partial ? " (interrupted)" : "");
    fputs("</table>\n", f);
}

/* Every outcome with its fraction, when they are few. */
static void outcome_table(FILE *f, const sb_exact_report *rep)
{
    const size_t k = rep->n_outcomes + rep->n_never;
    if (k > LISTED_MAX)
        return;
    const sb_card *sample[LISTED_MAX];
    const sb_exact_outcome *found[LISTED_MAX];
    all_outcomes(rep, sample, found);
    fprintf(f, "<table class=\"outcomes\">\n<thead><tr><th>%s</th>"
            "<th>probability</th><th>decimal</th><th>ratio to uniform</th>"
            "<th>paths</th></tr></thead>\n<tbody>\n",
            rep->kind == SB_KIND_DEAL ? "deal"
            : rep->kind == SB_KIND_DRAW ? "hand" : "order");
    char s[512];
    for (size_t i = 0; i < k; i++) {
        sb_exact_outcome_str(rep, sample[i], s, sizeof s);
        fputs("<tr><td><code>", f);
        sb_html_escape(f, s);
        if (found[i])
            fprintf(f, "</code></td><td class=\"num\">%s</td><td class=\"num\">"
                    "%.6g</td><td class=\"num\">%.4f</td><td class=\"num\">"
                    "%" PRIu64 "</td></tr>\n", found[i]->fraction,
                    found[i]->probability, found[i]->ratio, found[i]->paths);
        else
            fputs("</code></td><td class=\"num\">0</td><td class=\"num\">0"
                  "</td><td class=\"num\">0</td><td class=\"num\">0</td>"
                  "</tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
}

static int section(FILE *f, const sb_exact_report *rep, const char *bias)
{
    const char *key = verdict_key(rep);
    char id[384];
    section_id(rep, id, sizeof id);
    fprintf(f, "<section class=\"run\" id=\"%s\" data-verdict=\"%s\">\n<h2>",
            id, key);
    algorithm_name(f, rep);
    fprintf(f, "</h2>\n<p class=\"big\"><span class=\"verdict v-%s\">%s"
            "</span> ", key, rep->summary_only ? "INTERRUPTED"
            : rep->verdict == SB_EXACT_UNIFORM ? "EXACTLY UNIFORM"
            : rep->verdict == SB_EXACT_BIASED ? "NOT UNIFORM"
            : "INCONCLUSIVE");
    const char *noun = noun_of(rep);
    if (rep->summary_only)
        fprintf(f, "after %" PRIu64 " paths: %" PRIu64 " of %s %s reached, "
                "with an exact mass of %s; %s unexplored", rep->paths,
                rep->reached, rep->possible, noun,
                sb_exact_fraction_shown(rep->explored),
                sb_exact_fraction_shown(rep->unexplored));
    else if (rep->verdict == SB_EXACT_UNIFORM)
        fprintf(f, "every one of the %s %s has probability %s",
                rep->possible, noun, rep->uniform);
    else if (rep->verdict == SB_EXACT_BIASED)
        fprintf(f, "total-variation distance %s (%.4g) from uniform",
                rep->tv, rep->tv_d);
    else
        fprintf(f, "no bias in the mass walked, but %s was not explored",
                rep->unexplored);
    fputs("</p>\n", f);
    if (bias && *bias) {
        fputs("<p>", f);
        sb_html_escape(f, bias);
        fputs("</p>\n", f);
    }
    int rc = SB_OK;
    if (!rep->summary_only) {
        numbers(f, rep);
        if (rep->matrix)
            rc = matrix_heatmap(f, rep);
        const size_t k = rep->n_outcomes + rep->n_never;
        if (rc == SB_OK)
            rc = k <= BARS_MAX && (double)k == rep->possible_d
               ? outcome_bars(f, rep) : level_profile(f, rep);
        if (rc == SB_OK)
            outcome_table(f, rep);
    }
    fputs("</section>\n", f);
    return rc != SB_OK ? rc : ferror(f) ? SB_EIO : SB_OK;
}

int sb_render_exact_html(FILE *f, const char *title,
                         const sb_exact_report *reps, size_t m,
                         const char *const *bias, const sb_render_opts *o)
{
    const sb_render_opts defaults = SB_RENDER_OPTS_DEFAULT;
    if (!o)
        o = &defaults;
    sb_exact_grid *grids;
    size_t n_grids;
    if (sb_exact_grids(reps, m, &grids, &n_grids) != SB_OK)
        return SB_ENOMEM;
    int rc = sb_html_begin(f, title);
    fputs("<p>Every path of random draws walked, each with its exact "
          "probability. Cards are letters: A is on top of the starting deck "
          "ABC..., and an order lists the deck from top to bottom (ABC is "
          "the order 123 of the literature); a hand drawn lists its cards "
          "in the order drawn, and a deal lists the cards of each hand, "
          "hands separated by |. A ratio is a probability over that of a "
          "uniform shuffle.</p>\n", f);
    facts(f, reps, m, o);
    if (n_grids > 0)
        fputs("<h2 id=\"grid\">Every algorithm at a glance</h2>\n", f);
    for (size_t g = 0; g < n_grids; g++)
        grid_table(f, reps, &grids[g]);
    sb_exact_grids_free(grids, n_grids);
    for (size_t i = 0; i < m && rc == SB_OK; i++)
        rc = section(f, &reps[i], bias ? bias[i] : NULL);
    if (rc == SB_OK)
        rc = sb_html_end(f);
    return rc != SB_OK ? rc : ferror(f) ? SB_EIO : SB_OK;
}
