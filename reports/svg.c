/*
 * svg.c - the pictures of the HTML reports as inline SVG, and the page
 * around them.
 *
 * The colour scale is ColorBrewer's RdBu (Cynthia Brewer, colorbrewer2.org,
 * "RdBu", 11 classes), a diverging scheme that stays readable to most
 * colour-blind readers and in greyscale, changed in two ways: a) its
 * centre is pure white instead of #f7f7f7, so that "as often as uniform"
 * is the page's own background, b) it is continuous: a ratio r is placed
 * at t = log(r) / log(span) in [-1, 1] and its colour interpolated between
 * the five classes on its side.  So r and 1/r are equally far from white,
 * one blue and one red.
 *
 * The heatmaps are the bulk of a page (an audit of 52-card shuffles holds
 * tens of thousands of cells), so they are written tersely: each cell's
 * colour is one of SB_SVG_STEPS classes defined once in the page's style,
 * its size comes from that style too, the cells are drawn in units of one
 * cell inside a scaled group, and a row is a group moved down once.
 */
#include "reports/svg.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "shufflebias/status.h"
#include "shufflebias/version.h"

/* Colour steps on each side of white in the heatmaps' classes: the
   classes are k0 (darkest blue) .. k{2*SB_SVG_STEPS} (darkest red), with
   white in the middle, and kn for a cell with no ratio. */
#define SB_SVG_STEPS 10

/* RdBu, from the centre outwards: white, then four classes to the
   darkest. */
static const unsigned char sb_blue[6][3] = {
    {0xff, 0xff, 0xff}, {0xd1, 0xe5, 0xf0}, {0x92, 0xc5, 0xde},
    {0x43, 0x93, 0xc3}, {0x21, 0x66, 0xac}, {0x05, 0x30, 0x61}};
static const unsigned char sb_red[6][3] = {
    {0xff, 0xff, 0xff}, {0xfd, 0xdb, 0xc7}, {0xf4, 0xa5, 0x82},
    {0xd6, 0x60, 0x4d}, {0xb2, 0x18, 0x2b}, {0x67, 0x00, 0x1f}};

#define SB_SVG_GREY "#bdbdbd"

void sb_html_escape(FILE *f, const char *s)
{
    if (s == NULL)
        return;
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f); break;
        }
    }
}

/* The colour at t in [-1, 1] (negative: blue). */
static void colour_at(double t, char buf[8])
{
    const unsigned char (*side)[3] = t < 0 ? sb_blue : sb_red;
    double a = fabs(t);
    if (a > 1)
        a = 1;
    double x = a * 5;
    int i = (int)x;
    if (i >= 5)
        i = 4;
    double w = x - i;
    int rgb[3];
    for (int k = 0; k < 3; k++)
        rgb[k] = (int)lround(side[i][k] + w * (side[i + 1][k] - side[i][k]));
    snprintf(buf, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* Where 'ratio' lies on the scale of 'span', in [-1, 1]. */
static double scale_t(double ratio, double span)
{
    if (ratio <= 0)
        return -1;
    if (!(span > 1))
        return ratio > 1 ? 1 : ratio < 1 ? -1 : 0;
    double t = log(ratio) / log(span);
    return t < -1 ? -1 : t > 1 ? 1 : t;
}

void sb_svg_colour(double ratio, double span, char buf[8])
{
    if (isnan(ratio)) {
        snprintf(buf, 8, "%s", SB_SVG_GREY);
        return;
    }
    colour_at(scale_t(ratio, span), buf);
}

/* The class step of 'ratio': 0 .. 2 * SB_SVG_STEPS, or -1 for none. */
static int step_of(double ratio, double span)
{
    if (isnan(ratio))
        return -1;
    return (int)lround(scale_t(ratio, span) * SB_SVG_STEPS) + SB_SVG_STEPS;
}

double sb_svg_span(const double *ratio, size_t count, double floor,
                   double cap)
{
    double span = floor;
    for (size_t i = 0; i < count; i++) {
        double r = ratio[i];
        if (isnan(r) || r < 0)
            continue;
        double s = r == 0 ? cap : r >= 1 ? r : 1 / r;
        if (s > span)
            span = s;
    }
    if (span > cap)
        span = cap;
    return span;
}

int sb_svg_style(FILE *f)
{
    char c[8];
    for (int s = 0; s <= 2 * SB_SVG_STEPS; s++) {
        colour_at((double)(s - SB_SVG_STEPS) / SB_SVG_STEPS, c);
        fprintf(f, ".k%d{fill:%s}", s, c);
    }
    fprintf(f, ".kn{fill:%s}\n", SB_SVG_GREY);
    return ferror(f) ? SB_EIO : SB_OK;
}

/* A number for an SVG attribute: short, never in exponent form for the
   sizes drawn here. */
static void num(FILE *f, double x)
{
    if (fabs(x) < 1e-9)
        x = 0;
    char b[32];
    snprintf(b, sizeof b, "%.2f", x);
    /* Drop the trailing zeros and point: "12.50" -> "12.5", "3.00" -> "3". */
    char *e = b + strlen(b);
    while (e > b && e[-1] == '0')
        *--e = '\0';
    if (e > b && e[-1] == '.')
        *--e = '\0';
    fputs(b, f);
}

/* The end of an <svg> start tag: its size, the same view box, a role. */
static void svg_size(FILE *f, double width, double height)
{
    fputs(" width=\"", f);
    num(f, width);
    fputs("\" height=\"", f);
    num(f, height);
    fputs("\" viewBox=\"0 0 ", f);
    num(f, width);
    fputc(' ', f);
    num(f, height);
    fputs("\" role=\"img\">\n", f);
}

/* A ratio as data-ratio holds it. */
static void ratio_attr(FILE *f, double r)
{
    if (isnan(r))
        fputs("nan", f);
    else if (isinf(r))
        fputs("inf", f);
    else
        fprintf(f, "%.4g", r);
}

/* A tick step for 'n' items: 1, 2, 5, 10, 20, 50 ... with at most about
   'most' ticks. */
static size_t tick_step(size_t n, size_t most)
{
    size_t step = 1;
    for (;;) {
        for (int m = 0; m < 3; m++) {
            static const size_t mult[3] = {1, 2, 5};
            size_t s = step * mult[m];
            if (n / s <= most)
                return s;
        }
        step *= 10;
    }
}

/* A ratio for the legend: "0.5", "1.23", "16". */
static void legend_ratio(FILE *f, double r)
{
    fprintf(f, "%.3g", r);
}

/* The margins of a heatmap: room for the row label and ticks on the
   left, the column label and ticks above. */
#define SB_HEAT_ML 44.0
#define SB_HEAT_MT 36.0

/* A cell's side in pixels. */
static double heat_cell(const sb_heatmap *h)
{
    const size_t big = h->rows > h->cols ? h->rows : h->cols;
    double cs = h->cell;
    if (!(cs > 0)) {
        cs = floor(520.0 / (double)big);
        if (cs > 36)
            cs = 36;
        if (cs < 1)
            cs = 520.0 / (double)big;
    }
    return cs;
}

void sb_svg_heatmap_box(const sb_heatmap *h, double box[4])
{
    const double cs = heat_cell(h);
    box[0] = SB_HEAT_ML;
    box[1] = SB_HEAT_MT;
    box[2] = cs * (double)h->cols;
    box[3] = cs * (double)h->rows;
}

int sb_svg_heatmap(FILE *f, const sb_heatmap *h)
{
    if (h == NULL || h->rows == 0 || h->cols == 0 || h->ratio == NULL)
        return SB_EINVAL;
    const double cs = heat_cell(h);
    const double span = h->span > 1 ? h->span : 1;
    const double ml = SB_HEAT_ML, mt = SB_HEAT_MT;
    const double gw = cs * (double)h->cols, gh = cs * (double)h->rows;
    const double legend_w = 10.0 * (2 * SB_SVG_STEPS + 1);
    double width = ml + gw + 12;
    if (h->legend && width < ml + legend_w + 200)
        width = ml + legend_w + 200;
    const double height = mt + gh + (h->legend ? 56 : 8);

    fputs("<svg class=\"heatmap\"", f);
    if (h->id) {
        fputs(" id=\"", f);
        sb_html_escape(f, h->id);
        fputc('"', f);
    }
    fprintf(f, " data-rows=\"%zu\" data-cols=\"%zu\" data-row-label=\"",
            h->rows, h->cols);
    sb_html_escape(f, h->row_label ? h->row_label : "row");
    fputs("\" data-col-label=\"", f);
    sb_html_escape(f, h->col_label ? h->col_label : "column");
    fputc('"', f);
    svg_size(f, width, height);

    /* The axes: the column label above, the row label turned on the
       left, ticks every few cells (numbered from 0, as data-r and data-c
       are). */
    fputs("<text class=\"axis\" x=\"", f);
    num(f, ml + gw / 2);
    fputs("\" y=\"11\" text-anchor=\"middle\">", f);
    sb_html_escape(f, h->col_label ? h->col_label : "column");
    fputs(" &#8594;</text>\n<text class=\"axis\" transform=\"translate(11,",
          f);
    num(f, mt + gh / 2);
    fputs(") rotate(-90)\" text-anchor=\"middle\">", f);
    sb_html_escape(f, h->row_label ? h->row_label : "row");
    fputs(" &#8594;</text>\n", f);
    const size_t block = h->block > 1 ? h->block : 1;
    size_t cstep = tick_step(h->cols, gw < 200 ? 6 : 13);
    for (size_t c = 0; c < h->cols; c += cstep) {
        fputs("<text class=\"tick\" x=\"", f);
        num(f, ml + ((double)c + 0.5) * cs);
        fprintf(f, "\" y=\"%d\" text-anchor=\"middle\">%zu</text>", (int)mt - 4,
                c * block);
    }
    size_t rstep = tick_step(h->rows, gh < 200 ? 6 : 13);
    for (size_t r = 0; r < h->rows; r += rstep) {
        fputs("<text class=\"tick\" x=\"", f);
        num(f, ml - 4);
        fputs("\" y=\"", f);
        num(f, mt + ((double)r + 0.5) * cs + 3);
        fprintf(f, "\" text-anchor=\"end\">%zu</text>", r * block);
    }
    fputc('\n', f);

    /* The cells, one unit each in a group scaled to the cell size (its
       id "ID-cells": a thumbnail shows it alone). */
    fputs("<g", f);
    if (h->id) {
        fputs(" id=\"", f);
        sb_html_escape(f, h->id);
        fputs("-cells\"", f);
    }
    fputs(" transform=\"translate(", f);
    num(f, ml);
    fputc(',', f);
    num(f, mt);
    fputs(") scale(", f);
    num(f, cs);
    fputs(")\">\n", f);
    char tip[512];
    for (size_t r = 0; r < h->rows; r++) {
        fprintf(f, "<g transform=\"translate(0,%zu)\">", r);
        for (size_t c = 0; c < h->cols; c++) {
            double ratio = h->ratio[r * h->cols + c];
            int s = step_of(ratio, span);
            if (s < 0)
                fputs("<rect class=\"cell kn\"", f);
            else
                fprintf(f, "<rect class=\"cell k%d\"", s);
            fprintf(f, " x=\"%zu\" data-r=\"%zu\" data-c=\"%zu\" data-ratio=\"",
                    c, r, c);
            ratio_attr(f, ratio);
            fputs("\"><title>", f);
            if (h->tip)
                h->tip(h->ctx, r, c, tip, sizeof tip);
            else if (isnan(ratio))
                snprintf(tip, sizeof tip, "%s %zu, %s %zu: no ratio",
                         h->row_label ? h->row_label : "row", r,
                         h->col_label ? h->col_label : "column", c);
            else
                snprintf(tip, sizeof tip, "%s %zu, %s %zu: ratio %.4g",
                         h->row_label ? h->row_label : "row", r,
                         h->col_label ? h->col_label : "column", c, ratio);
            sb_html_escape(f, tip);
            fputs("</title></rect>", f);
        }
        fputs("</g>\n", f);
    }
    fputs("</g>\n", f);
    /* A frame, so that a map of white cells (a fair run) is seen. */
    fputs("<rect class=\"frame\" x=\"", f);
    num(f, ml);
    fputs("\" y=\"", f);
    num(f, mt);
    fputs("\" width=\"", f);
    num(f, gw);
    fputs("\" height=\"", f);
    num(f, gh);
    fputs("\"/>\n", f);

    /* The legend: every colour step, the ratios at its ends, quarter
       and middle. */
    if (h->legend) {
        const double ly = mt + gh + 14;
        fputs("<g class=\"legend\" transform=\"translate(", f);
        num(f, ml);
        fputc(',', f);
        num(f, ly);
        fputs(")\">", f);
        for (int s = 0; s <= 2 * SB_SVG_STEPS; s++)
            fprintf(f, "<rect class=\"k%d\" x=\"%d\" width=\"10\" "
                    "height=\"10\"/>", s, 10 * s);
        fputs("<rect class=\"frame\" width=\"", f);
        num(f, legend_w);
        fputs("\" height=\"10\"/>", f);
        for (int q = 0; q <= 4; q++) {
            int s = q * SB_SVG_STEPS / 2;
            double t = (double)(s - SB_SVG_STEPS) / SB_SVG_STEPS;
            fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"21\" "
                    "text-anchor=\"middle\">", 10 * s + 5);
            legend_ratio(f, pow(span, t));
            fputs("</text>", f);
        }
        fputs("<text class=\"tick\" x=\"0\" y=\"34\">", f);
        sb_html_escape(f, h->legend_label ? h->legend_label
                          : "ratio observed / expected (blue: too rare, "
                            "red: too often)");
        fputs("</text></g>\n", f);
    }
    fputs("</svg>\n", f);
    return ferror(f) ? SB_EIO : SB_OK;
}

/* A round step for an axis up to 'top' with about 4 ticks. */
static double nice_step(double top)
{
    if (!(top > 0))
        return 1;
    double raw = top / 4;
    double p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* An axis value: "0", "2500", "1.5e+06". */
static void axis_value(FILE *f, double v)
{
    fprintf(f, "%.6g", v);
}

int sb_svg_bars(FILE *f, const sb_bars *b)
{
    if (b == NULL || b->count == 0 || b->expected == NULL)
        return SB_EINVAL;
    const size_t k = b->count;
    double bw = floor(460.0 / (double)k);
    if (bw > 36)
        bw = 36;
    if (bw < 2)
        bw = 460.0 / (double)k;
    /* The labels turn when they would not fit side by side. */
    size_t longest = 0;
    if (b->labels)
        for (size_t i = 0; i < k; i++) {
            size_t l = b->labels[i] ? strlen(b->labels[i]) : 0;
            if (l > longest)
                longest = l;
        }
    const int turned = b->labels && (double)longest * 6 > bw;
    const size_t lstep = b->labels && turned && bw < 9
                         ? (size_t)ceil(9 / bw) : 1;
    const double ml = 58, mt = 10, ph = 170;
    const double mb = 30 + (turned ? (double)(longest > 14 ? 14 : longest)
                                     * 5.2 : 12);
    const double pw = bw * (double)k;
    const double width = ml + (pw < 330 ? 330 : pw) + 10;
    const double height = mt + ph + mb + 16;

    /* The top of the axis: the largest expected count, observed count
       or interval end. */
    double top = 0;
    for (size_t i = 0; i < k; i++) {
        double e = b->expected[i];
        double hi = e;
        if (b->z > 0 && b->total > 0) {
            double p = e / b->total;
            hi = e + b->z * sqrt(b->total * p * (1 - p > 0 ? 1 - p : 0));
        }
        if (hi > top)
            top = hi;
        if (b->observed && b->observed[i] > top)
            top = b->observed[i];
    }
    const double step = nice_step(top);
    const double ymax = top > 0 ? ceil(top / step) * step : 1;
#define SB_Y(v) (mt + ph - ph * (v) / ymax)

    fputs("<svg class=\"bars\"", f);
    if (b->id) {
        fputs(" id=\"", f);
        sb_html_escape(f, b->id);
        fputc('"', f);
    }
    fprintf(f, " data-count=\"%zu\"", k);
    svg_size(f, width, height);

    /* The y axis: gridlines and values. */
    for (double v = 0; v <= ymax * (1 + 1e-9); v += step) {
        fputs("<line class=\"grid\" x1=\"", f);
        num(f, ml);
        fputs("\" x2=\"", f);
        num(f, ml + pw);
        fputs("\" y1=\"", f);
        num(f, SB_Y(v));
        fputs("\" y2=\"", f);
        num(f, SB_Y(v));
        fputs("\"/><text class=\"tick\" x=\"", f);
        num(f, ml - 4);
        fputs("\" y=\"", f);
        num(f, SB_Y(v) + 3);
        fputs("\" text-anchor=\"end\">", f);
        axis_value(f, v);
        fputs("</text>", f);
    }
    fputs("\n<text class=\"axis\" transform=\"translate(11,", f);
    num(f, mt + ph / 2);
    fputs(") rotate(-90)\" text-anchor=\"middle\">", f);
    sb_html_escape(f, b->y_label ? b->y_label : "count");
    fputs("</text>\n", f);

    /* A category: its expected bar, its interval, its observed point,
       its label; the tooltip says all of it. */
    for (size_t i = 0; i < k; i++) {
        const double e = b->expected[i];
        const double x0 = ml + bw * (double)i;
        const double xc = x0 + bw / 2;
        double lo = e, hi = e;
        if (b->z > 0 && b->total > 0) {
            double p = e / b->total;
            double sd = sqrt(b->total * p * (1 - p > 0 ? 1 - p : 0));
            lo = e - b->z * sd;
            hi = e + b->z * sd;
            if (lo < 0)
                lo = 0;
        }
        const int out = b->observed && (b->observed[i] < lo
                                        || b->observed[i] > hi);
        fprintf(f, "<g%s><title>", out ? " class=\"out\"" : "");
        if (b->labels && b->labels[i])
            sb_html_escape(f, b->labels[i]);
        else
            fprintf(f, "%zu", i);
        if (b->observed)
            fprintf(f, ": observed %.10g, expected %.6g", b->observed[i], e);
        else
            fprintf(f, ": expected %.6g", e);
        if (b->z > 0 && b->total > 0)
            fprintf(f, " (%.4g..%.4g at %g sd)", lo, hi, b->z);
        fputs("</title><rect class=\"exp\" x=\"", f);
        num(f, x0 + (bw > 4 ? 1 : 0));
        fputs("\" y=\"", f);
        num(f, SB_Y(e));
        fputs("\" width=\"", f);
        num(f, bw > 4 ? bw - 2 : bw);
        fputs("\" height=\"", f);
        num(f, SB_Y(0) - SB_Y(e));
        fputs("\"/>", f);
        if (hi > lo) {
            fputs("<line class=\"ci\" x1=\"", f);
            num(f, xc);
            fputs("\" x2=\"", f);
            num(f, xc);
            fputs("\" y1=\"", f);
            num(f, SB_Y(lo));
            fputs("\" y2=\"", f);
            num(f, SB_Y(hi));
            fputs("\"/>", f);
        }
        if (b->observed) {
            fputs("<circle class=\"obs\" cx=\"", f);
            num(f, xc);
            fputs("\" cy=\"", f);
            num(f, SB_Y(b->observed[i]));
            fputs("\" r=\"", f);
            num(f, bw < 6 ? 1.5 : 2.5);
            fputs("\"/>", f);
        }
        if (b->labels && b->labels[i] && i % lstep == 0) {
            fputs("<text class=\"tick\"", f);
            if (turned) {
                fputs(" transform=\"translate(", f);
                num(f, xc + 3);
                fputc(',', f);
                num(f, mt + ph + 6);
                fputs(") rotate(-60)\" text-anchor=\"end\">", f);
            } else {
                fputs(" x=\"", f);
                num(f, xc);
                fputs("\" y=\"", f);
                num(f, mt + ph + 12);
                fputs("\" text-anchor=\"middle\">", f);
            }
            sb_html_escape(f, b->labels[i]);
            fputs("</text>", f);
        }
        fputs("</g>\n", f);
    }
#undef SB_Y
    fputs("<line class=\"base\" x1=\"", f);
    num(f, ml);
    fputs("\" x2=\"", f);
    num(f, ml + pw);
    fputs("\" y1=\"", f);
    num(f, mt + ph);
    fputs("\" y2=\"", f);
    num(f, mt + ph);
    fputs("\"/>\n<text class=\"axis\" x=\"", f);
    num(f, ml + pw / 2);
    fputs("\" y=\"", f);
    num(f, height - 18);
    fputs("\" text-anchor=\"middle\">", f);
    sb_html_escape(f, b->x_label ? b->x_label : "category");
    fputs("</text>\n<text class=\"tick\" x=\"", f);
    num(f, ml);
    fputs("\" y=\"", f);
    num(f, height - 4);
    fputs("\">bars: expected", f);
    if (b->z > 0 && b->total > 0)
        fprintf(f, "; whiskers: &#177;%g sd", b->z);
    if (b->observed)
        fputs("; dots: observed (red: outside)", f);
    fputs("</text>\n</svg>\n", f);
    return ferror(f) ? SB_EIO : SB_OK;
}

/* The page's style: readable on screen and on paper, the verdict colours
   (green, amber, red: each also spelt out, never colour alone), the
   heatmap's colour classes. */
static const char sb_page_style[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,"
    "'Helvetica Neue',Arial,sans-serif;color:#1b1b1b;background:#fff;"
    "max-width:72rem;margin:1.5rem auto;padding:0 1rem}\n"
    "h1{font-size:1.6rem;margin:.2rem 0 1rem}h2{font-size:1.3rem;"
    "margin-top:2rem;border-bottom:1px solid #ccc}h3{font-size:1.05rem;"
    "margin:.2rem 0}\n"
    "code,.cmd{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,"
    "monospace;font-size:.9em}\n"
    "dl.facts,dl.lines{display:grid;grid-template-columns:max-content "
    "auto;gap:.15rem 1rem;margin:.5rem 0 1rem}dl dt{font-weight:600}"
    "dl dd{margin:0;overflow-wrap:anywhere}\n"
    "table{border-collapse:collapse;margin:.5rem 0 1rem}"
    "th,td{border:1px solid #ccc;padding:.2rem .5rem;text-align:left;"
    "vertical-align:top}th{background:#f2f2f2}td.num{text-align:right;"
    "font-variant-numeric:tabular-nums}"
    "table.grid th,table.grid td{padding:.15rem .3rem}"
    "table.grid tbody th{max-width:16rem;overflow-wrap:anywhere}\n"
    ".verdict{display:inline-block;padding:.1rem .6rem;border-radius:.3rem;"
    "font-weight:700}\n"
    ".v-pass,.v-uniform{background:#d9f0d3;color:#00441b}"
    ".v-suspect,.v-inconclusive{background:#fee8a8;color:#5a3d00}"
    ".v-fail,.v-biased,.v-error{background:#f4c7c3;color:#67000d}"
    ".v-na,.v-incomplete{background:#e6e6e6;color:#333}\n"
    "p.big .verdict{font-size:1.4rem}\n"
    "section.stat{display:inline-block;vertical-align:top;margin:0 1rem 1rem 0;"
    "padding:.5rem;border:1px solid #ddd;border-radius:.3rem}\n"
    "section.run{margin-bottom:2rem}.note{color:#555;font-size:.9em}\n"
    "svg{max-width:100%;height:auto}svg text{font:10px system-ui,Arial,"
    "sans-serif;fill:#222}svg text.axis{font-size:11px;font-weight:600}\n"
    ".cell{width:1px;height:1px}"
    ".heatmap .frame{fill:none;stroke:#888;stroke-width:.5}\n"
    ".bars .exp{fill:#c6dbef}.bars .ci{stroke:#2166ac;stroke-width:1.2}"
    ".bars .obs{fill:#111}.bars .out .obs{fill:#b2182b}"
    ".bars .grid{stroke:#eee}.bars .base{stroke:#888}\n"
    "svg.thumb{vertical-align:middle}\n"
    "@media print{body{max-width:none;margin:0;font-size:11pt}"
    "a{color:inherit;text-decoration:none}section.run,section.stat,svg"
    "{break-inside:avoid}h2{break-after:avoid}"
    "*{print-color-adjust:exact;-webkit-print-color-adjust:exact}}\n";

int sb_html_begin(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
          "<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, "
          "initial-scale=1\">\n", f);
    fprintf(f, "<meta name=\"generator\" content=\"shufflebias %s\">\n",
            sb_version());
    fputs("<title>", f);
    sb_html_escape(f, title);
    fputs("</title>\n<style>\n", f);
    fputs(sb_page_style, f);
    sb_svg_style(f);
    fputs("</style>\n</head>\n<body>\n<h1>", f);
    sb_html_escape(f, title);
    fputs("</h1>\n", f);
    return ferror(f) ? SB_EIO : SB_OK;
}

int sb_html_end(FILE *f)
{
    fprintf(f, "<footer class=\"note\"><p>Written by shufflebias %s. "
            "Every picture is drawn from the counts of this run; nothing "
            "on this page is fetched from elsewhere.</p></footer>\n"
            "</body>\n</html>\n", sb_version());
    return ferror(f) ? SB_EIO : SB_OK;
}
