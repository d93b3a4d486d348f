/*
 * svg.c - the pictures of the HTML reports as inline SVG (heatmaps, bar
 * charts, line plots), and the page around them.
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
 * The line plots (sb_svg_plot) tell their curves apart twice over: by
 * colour, from the palette of Okabe and Ito ("Color Universal Design",
 * 2008), chosen to stay distinct to colour-blind readers, and by marker
 * shape (circle, square, diamond, triangle), which survives printing in
 * grey.  A missing value is a gap in its line, never a point at zero.
 *
 * The heatmaps are the bulk of a page (an audit of 52-card shuffles holds
 * tens of thousands of cells), so they are written tersely: each cell's
 * colour is one of SB_SVG_STEPS classes defined once in the page's style,
 * its size comes from that style too, the cells are drawn in units of one
 * cell inside a scaled group, and a row is a group moved down once.
 */
#include "reports/svg.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
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

/* A horizontal line of class 'cls' at height y across the plotting area
   (x0, width wide), its element left open after its last attribute. */
static void hline(FILE *f, const char *cls, double x0, double width,
                  double y)
{
    fprintf(f, "<line class=\"%s\" x1=\"", cls);
    num(f, x0);
    fputs("\" x2=\"", f);
    num(f, x0 + width);
    fputs("\" y1=\"", f);
    num(f, y);
    fputs("\" y2=\"", f);
    num(f, y);
}

/* The x axis's base line at height y across the plotting area. */
static void x_baseline(FILE *f, double x0, double width, double y)
{
    hline(f, "base", x0, width, y);
    fputs("\"/>", f);
}

/* A horizontal gridline at height y across the plotting area (x0, width
   wide), and the opening of its value's label at the left, of class
   'cls': the caller writes the value and closes the <text>. */
static void y_gridline(FILE *f, double x0, double width, double y,
                       const char *cls)
{
    hline(f, "grid", x0, width, y);
    fprintf(f, "\"/><text class=\"%s\" x=\"", cls);
    num(f, x0 - 4);
    fputs("\" y=\"", f);
    num(f, y + 3);
    fputs("\" text-anchor=\"end\">", f);
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
        y_gridline(f, ml, pw, SB_Y(v), "tick");
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
    x_baseline(f, ml, pw, mt + ph);
    fputs("\n<text class=\"axis\" x=\"", f);
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

/* ---- Line plots ---------------------------------------------------------- */

/* The frame of a plot: margins for the ticks and labels, the plotting
   area, and an inner margin on the x axis so that the markers at either
   end are drawn whole. */
#define SB_PLOT_ML 66.0
#define SB_PLOT_MT 14.0
#define SB_PLOT_MR 18.0
#define SB_PLOT_PW 480.0
#define SB_PLOT_PH 220.0
#define SB_PLOT_PAD 10.0
/* Colour classes of the page style (c0 .. c5) and marker shapes. */
#define SB_PLOT_COLOURS 6
#define SB_PLOT_SHAPES 4
/* The most tick labels on a logarithmic axis: beyond, every k-th power
   of ten is labelled. */
#define SB_PLOT_LOG_TICKS 8

/* The style of a plot, inside its own <svg> so that any page can hold
   one without a rule in its own style: a curve's colour is its class's
   'color', which its line (stroke) and markers (fill) take. */
static const char sb_plot_style[] =
    "<style>.plot .line{fill:none;stroke:currentColor;stroke-width:1.8;"
    "stroke-linejoin:round}.plot .dashed .line{stroke-dasharray:6 3}"
    ".plot .pt{fill:currentColor;stroke:currentColor;stroke-width:1.2}"
    ".plot .pt.open{fill:#fff}.plot .grid{stroke:#e8e8e8}"
    ".plot .base{stroke:#888}.plot .hline{stroke:#555;stroke-width:1.2;"
    "stroke-dasharray:4 3}.plot text.hlabel{fill:#333;paint-order:stroke;"
    "stroke:#fff;stroke-width:3px}"
    ".plot .c0{color:#0072b2}.plot .c1{color:#d55e00}"
    ".plot .c2{color:#009e73}.plot .c3{color:#cc79a7}"
    ".plot .c4{color:#e69f00}.plot .c5{color:#000}</style>\n";

/* The y axis: its ends, as values or (logarithmic) as powers of ten. */
typedef struct plot_axis {
    double lo, hi;
    int log;
} plot_axis;

/* A round step that cuts 'range' into about 'parts': 1, 2 or 5 times a
   power of ten. */
static double plot_step(double range, double parts)
{
    if (!(range > 0))
        return 1;
    const double raw = range / parts;
    const double p10 = pow(10, floor(log10(raw)));
    const double m = raw / p10;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p10;
}

/* Whether a value is drawn: a number, and above 0 on a log axis. */
static int plot_drawn(const sb_plot *p, double v)
{
    return isfinite(v) && (!p->log_y || v > 0);
}

static void plot_y_axis(const sb_plot *p, plot_axis *a)
{
    const int fixed = p->y_min != 0 || p->y_max != 0;
    double lo = INFINITY, hi = -INFINITY;
    a->log = p->log_y;
    if (fixed) {
        lo = p->y_min;
        hi = p->y_max;
    } else {
        for (size_t c = 0; c < p->n_curves; c++)
            for (size_t i = 0; i < p->count; i++) {
                const double v = p->curves[c].y ? p->curves[c].y[i] : NAN;
                if (!plot_drawn(p, v))
                    continue;
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
        if (plot_drawn(p, p->hline)) {
            lo = p->hline < lo ? p->hline : lo;
            hi = p->hline > hi ? p->hline : hi;
        }
        if (!(lo <= hi)) {
            lo = p->log_y ? 1 : 0;
            hi = p->log_y ? 10 : 1;
        }
    }
    if (p->log_y) {
        if (!(lo > 0))
            lo = hi > 0 ? hi / 10 : 1;
        if (!(hi > lo))
            hi = lo * 10;
        /* Whole decades, a little slack so that 1000 is not read as
           just above 10^3. */
        a->lo = floor(log10(lo) + 1e-9);
        a->hi = ceil(log10(hi) - 1e-9);
        if (a->hi <= a->lo)
            a->hi = a->lo + 1;
        return;
    }
    if (!fixed) {
        if (lo > 0)
            lo = 0;
        if (!(hi > lo))
            hi = lo + 1;
        const double step = plot_step(hi - lo, 5);
        lo = floor(lo / step) * step;
        hi = ceil(hi / step) * step;
    }
    a->lo = lo;
    a->hi = hi > lo ? hi : lo + 1;
}

/* Where 'v' sits on the axis, from 0 (bottom) to 1 (top), clamped. */
static double plot_axis_at(const plot_axis *a, double v)
{
    const double t = a->log ? (log10(v) - a->lo) / (a->hi - a->lo)
                            : (v - a->lo) / (a->hi - a->lo);
    return t < 0 ? 0 : t > 1 ? 1 : t;
}

/* A whole number with its thousands separated by commas: "1,000". */
static void grouped(FILE *f, uint64_t v)
{
    char digits[24];
    const int len = snprintf(digits, sizeof digits, "%" PRIu64, v);
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            fputc(',', f);
        fputc(digits[i], f);
    }
}

/* A power of ten as its tick reads: "1", "1,000", "0.01", "1e+09". */
static void power_label(FILE *f, int e)
{
    if (e >= 0 && e <= 7) {
        uint64_t v = 1;
        for (int k = 0; k < e; k++)
            v *= 10;
        grouped(f, v);
    } else if (e < 0 && e >= -4) {
        fprintf(f, "%.*f", -e, pow(10, e));
    } else {
        fprintf(f, "%.0e", pow(10, e));
    }
}

/* The step of the x axis's ticks: about ten of them, whole numbers when
   every x is whole. */
static double plot_x_step(const sb_plot *p, double range)
{
    double step = plot_step(range, 10);
    int whole = 1;
    for (size_t i = 0; i < p->count; i++)
        whole &= p->x[i] == floor(p->x[i]);
    return whole && step < 1 ? 1 : step;
}

/* A curve's marker, centred on the origin: circle, square, diamond or
   triangle by the curve's place. */
static void plot_marker(FILE *f, size_t curve)
{
    switch (curve % SB_PLOT_SHAPES) {
    case 0: fputs("<circle r=\"3.2\"/>", f); break;
    case 1: fputs("<rect x=\"-3\" y=\"-3\" width=\"6\" height=\"6\"/>", f);
            break;
    case 2: fputs("<path d=\"M0,-4.2L4.2,0L0,4.2L-4.2,0Z\"/>", f); break;
    default: fputs("<path d=\"M0,-4.2L3.8,2.8L-3.8,2.8Z\"/>", f); break;
    }
}

/* The legend's place of each curve: its row and its x. */
static size_t plot_legend_rows(const sb_plot *p, double *x, size_t *row,
                               double width)
{
    double at = SB_PLOT_ML;
    size_t r = 0;
    for (size_t c = 0; c < p->n_curves; c++) {
        const char *name = p->curves[c].name ? p->curves[c].name : "";
        const double w = 40 + 6.0 * (double)strlen(name);
        if (at > SB_PLOT_ML && at + w > width) {
            r++;
            at = SB_PLOT_ML;
        }
        x[c] = at;
        row[c] = r;
        at += w;
    }
    return p->n_curves ? r + 1 : 0;
}

int sb_svg_plot(FILE *f, const sb_plot *p)
{
    if (p == NULL || p->count == 0 || p->x == NULL || p->curves == NULL
        || p->n_curves == 0)
        return SB_EINVAL;
    const double ml = SB_PLOT_ML, mt = SB_PLOT_MT, pw = SB_PLOT_PW,
                 ph = SB_PLOT_PH, pad = SB_PLOT_PAD;
    const double width = ml + pw + SB_PLOT_MR;
    double *lx = malloc(p->n_curves * sizeof *lx);
    size_t *lrow = malloc(p->n_curves * sizeof *lrow);
    if (!lx || !lrow) {
        free(lx);
        free(lrow);
        return SB_ENOMEM;
    }
    const size_t rows = plot_legend_rows(p, lx, lrow, width);
    const double legend_y = mt + ph + 44;
    const double height = legend_y + 16.0 * (double)rows + 4;

    /* The x axis over the x values, padded when there is only one. */
    double x0 = p->x[0], x1 = p->x[0];
    for (size_t i = 1; i < p->count; i++) {
        x0 = p->x[i] < x0 ? p->x[i] : x0;
        x1 = p->x[i] > x1 ? p->x[i] : x1;
    }
    if (!(x1 > x0)) {
        x0 -= 1;
        x1 += 1;
    }
    plot_axis ya;
    plot_y_axis(p, &ya);
#define SB_PX(v) (ml + pad + ((v) - x0) / (x1 - x0) * (pw - 2 * pad))
#define SB_PY(v) (mt + ph - ph * plot_axis_at(&ya, (v)))

    fputs("<svg class=\"plot\"", f);
    if (p->id) {
        fputs(" id=\"", f);
        sb_html_escape(f, p->id);
        fputc('"', f);
    }
    fprintf(f, " data-curves=\"%zu\" data-points=\"%zu\" data-scale=\"%s\"",
            p->n_curves, p->count, p->log_y ? "log" : "linear");
    svg_size(f, width, height);
    fputs(sb_plot_style, f);

    /* The y axis: a gridline and a label at each tick. */
    if (p->log_y) {
        const int lo = (int)ya.lo, hi = (int)ya.hi;
        const int every = (hi - lo + SB_PLOT_LOG_TICKS - 1)
                          / SB_PLOT_LOG_TICKS;
        for (int e = lo; e <= hi; e++) {
            const double y = mt + ph - ph * (e - lo) / (double)(hi - lo);
            fputs("<line class=\"grid\" x1=\"", f);
            num(f, ml);
            fputs("\" x2=\"", f);
            num(f, ml + pw);
            fputs("\" y1=\"", f);
            num(f, y);
            fputs("\" y2=\"", f);
            num(f, y);
            fputs("\"/>", f);
            if ((e - lo) % every)
                continue;
            fputs("<text class=\"tick ytick\" x=\"", f);
            num(f, ml - 4);
            fputs("\" y=\"", f);
            num(f, y + 3);
            fputs("\" text-anchor=\"end\">", f);
            power_label(f, e);
            fputs("</text>", f);
        }
    } else {
        const double step = plot_step(ya.hi - ya.lo, 5);
        const long ticks = lround((ya.hi - ya.lo) / step);
        for (long k = 0; k <= ticks && k <= 20; k++) {
            const double v = ya.lo + (double)k * step;
            if (v > ya.hi * (1 + 1e-9) + 1e-12)
                break;
            y_gridline(f, ml, pw, SB_PY(v), "tick ytick");
            axis_value(f, fabs(v) < 1e-12 ? 0 : v);
            fputs("</text>", f);
        }
    }
    fputs("\n<text class=\"axis\" transform=\"translate(13,", f);
    num(f, mt + ph / 2);
    fputs(") rotate(-90)\" text-anchor=\"middle\">", f);
    sb_html_escape(f, p->y_label ? p->y_label : "y");
    fputs("</text>\n", f);

    /* The x axis: its line, its ticks, its label. */
    const double xstep = plot_x_step(p, x1 - x0);
    const double first = ceil(x0 / xstep - 1e-9) * xstep;
    for (long k = 0; k <= 1000; k++) {
        const double v = first + (double)k * xstep;
        if (v > x1 + 1e-9 * (fabs(x1) + 1))
            break;
        fputs("<text class=\"tick xtick\" x=\"", f);
        num(f, SB_PX(v));
        fputs("\" y=\"", f);
        num(f, mt + ph + 14);
        fputs("\" text-anchor=\"middle\">", f);
        axis_value(f, fabs(v) < 1e-12 ? 0 : v);
        fputs("</text>", f);
    }
    fputc('\n', f);
    x_baseline(f, ml, pw, mt + ph);
    fputs("<line class=\"base\" x1=\"", f);
    num(f, ml);
    fputs("\" x2=\"", f);
    num(f, ml);
    fputs("\" y1=\"", f);
    num(f, mt);
    fputs("\" y2=\"", f);
    num(f, mt + ph);
    fputs("\"/>\n<text class=\"axis\" x=\"", f);
    num(f, ml + pw / 2);
    fputs("\" y=\"", f);
    num(f, mt + ph + 30);
    fputs("\" text-anchor=\"middle\">", f);
    sb_html_escape(f, p->x_label ? p->x_label : "x");
    fputs("</text>\n", f);

    /* The reference line, under the curves, with its label above its
       left end (where a curve that falls towards it is furthest). */
    if (plot_drawn(p, p->hline)) {
        const double at = p->log_y ? log10(p->hline) : p->hline;
        if (at >= ya.lo - 1e-9 && at <= ya.hi + 1e-9) {
            const double y = SB_PY(p->hline);
            fputs("<line class=\"hline\" x1=\"", f);
            num(f, ml);
            fputs("\" x2=\"", f);
            num(f, ml + pw);
            fputs("\" y1=\"", f);
            num(f, y);
            fputs("\" y2=\"", f);
            num(f, y);
            fputs("\"/>", f);
            if (p->hline_label) {
                fputs("<text class=\"hlabel\" x=\"", f);
                num(f, ml + 4);
                fputs("\" y=\"", f);
                num(f, y - 4);
                fputs("\">", f);
                sb_html_escape(f, p->hline_label);
                fputs("</text>", f);
            }
            fputc('\n', f);
        }
    }

    /* Each curve: a path per run of points without a gap, then a marker
       with its tooltip at every point drawn. */
    char tip[256];
    for (size_t c = 0; c < p->n_curves; c++) {
        const sb_curve *cv = &p->curves[c];
        const char *name = cv->name ? cv->name : "";
        fprintf(f, "<g class=\"curve c%zu%s\" data-name=\"",
                c % SB_PLOT_COLOURS, cv->dashed ? " dashed" : "");
        sb_html_escape(f, name);
        fputs("\">\n", f);
        for (size_t i = 0; cv->y && i < p->count;) {
            if (!plot_drawn(p, cv->y[i])) {
                i++;
                continue;
            }
            size_t end = i;
            while (end < p->count && plot_drawn(p, cv->y[end]))
                end++;
            if (end - i >= 2) {
                fputs("<path class=\"line\" d=\"", f);
                for (size_t k = i; k < end; k++) {
                    fputc(k == i ? 'M' : 'L', f);
                    num(f, SB_PX(p->x[k]));
                    fputc(',', f);
                    num(f, SB_PY(cv->y[k]));
                }
                fputs("\"/>\n", f);
            }
            i = end;
        }
        for (size_t i = 0; cv->y && i < p->count; i++) {
            if (!plot_drawn(p, cv->y[i]))
                continue;
            fprintf(f, "<g class=\"pt%s\" transform=\"translate(",
                    cv->open && cv->open[i] ? " open" : "");
            num(f, SB_PX(p->x[i]));
            fputc(',', f);
            num(f, SB_PY(cv->y[i]));
            fputs(")\"><title>", f);
            if (cv->tips && cv->tips[i])
                sb_html_escape(f, cv->tips[i]);
            else {
                snprintf(tip, sizeof tip, "%s at %g: %.4g", name, p->x[i],
                         cv->y[i]);
                sb_html_escape(f, tip);
            }
            fputs("</title>", f);
            plot_marker(f, c);
            fputs("</g>", f);
        }
        fputs("\n</g>\n", f);
    }
#undef SB_PX
#undef SB_PY

    /* The legend: each curve's line, marker and name (the line and
       marker of class "sample", so that they are not taken for data). */
    fputs("<g class=\"legend\">", f);
    for (size_t c = 0; c < p->n_curves; c++) {
        const double y = legend_y + 16.0 * (double)lrow[c];
        fprintf(f, "<g class=\"key c%zu%s\" transform=\"translate(",
                c % SB_PLOT_COLOURS, p->curves[c].dashed ? " dashed" : "");
        num(f, lx[c]);
        fputc(',', f);
        num(f, y);
        fputs(")\"><path class=\"line sample\" d=\"M0,0L26,0\"/>"
              "<g class=\"pt sample\" transform=\"translate(13,0)\">", f);
        plot_marker(f, c);
        fputs("</g><text class=\"tick\" x=\"32\" y=\"3.5\">", f);
        sb_html_escape(f, p->curves[c].name ? p->curves[c].name : "");
        fputs("</text></g>", f);
    }
    fputs("</g>\n</svg>\n", f);
    free(lx);
    free(lrow);
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
