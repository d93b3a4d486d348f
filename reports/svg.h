/*
 * svg.h - the pictures of the HTML reports, written as inline SVG, and
 * the page they sit on.
 *
 * Every picture is drawn from numbers a report already holds; nothing
 * here computes a statistic.  Text is escaped for HTML and XML.  The
 * heatmaps' colours come from one diverging scale centred at a ratio of
 * 1 (as often as a uniform shuffle): blue below, red above, white at 1,
 * on a logarithmic scale so that a ratio r and 1/r are equally strong.
 */
#ifndef SB_REPORTS_SVG_H
#define SB_REPORTS_SVG_H

#include <stddef.h>
#include <stdio.h>

/* 's' escaped for HTML text and attribute values (& < > " '). */
void sb_html_escape(FILE *f, const char *s);

/* The colour of 'ratio' on a scale that saturates at 'span' (a ratio
   above 1: span and 1/span are the darkest), as "#rrggbb" into buf
   (8 bytes).  A ratio of 0 (never seen) is the darkest blue; NAN, grey. */
void sb_svg_colour(double ratio, double span, char buf[8]);

/* The page style's colour classes of the heatmaps: k0 (the darkest
   blue, a ratio of 1/span or less) through k10 (white, a ratio of 1) to
   k20 (the darkest red, span or more), and kn (grey, no ratio), as CSS
   rules.  sb_html_begin writes them; a page that draws heatmaps without
   it needs them in its style.  SB_OK or SB_EIO. */
int sb_svg_style(FILE *f);

/* The span a picture of these ratios uses: the largest of r and 1/r over
   them, but at least 'floor' (so that the noise of a fair run stays
   pale) and at most 'cap' (a ratio of 0 would be infinite). */
double sb_svg_span(const double *ratio, size_t count, double floor,
                   double cap);

/* A heatmap: rows x cols cells coloured by their ratio, a <title> in
   each (the tooltip), the axes labelled, and a legend of the scale. */
typedef struct sb_heatmap {
    size_t rows, cols;
    const double *ratio;          /* rows * cols, row-major; NAN: none */
    /* The tooltip of cell (r, c) into buf; NULL: "row r, col c: ratio". */
    void (*tip)(const void *ctx, size_t r, size_t c, char *buf,
                size_t len);
    const void *ctx;
    const char *row_label;        /* "card" */
    const char *col_label;        /* "position" */
    double span;                  /* sb_svg_span of the ratios */
    double cell;                  /* a cell's side in pixels; 0: chosen
                                     from the size */
    int legend;                   /* draw the legend */
    const char *id;               /* the <svg> id, NULL: none */
    size_t block;                 /* each cell stands for block x block
                                     cells of a larger table: the ticks
                                     number the table's rows and
                                     columns (0 or 1: the cells') */
    const char *legend_label;     /* under the legend; NULL: "ratio
                                     observed / expected (blue: too
                                     rare, red: too often)" */
} sb_heatmap;
int sb_svg_heatmap(FILE *f, const sb_heatmap *h);
/* Where sb_svg_heatmap(h) puts its cells, in the picture's coordinates:
   x, y, width, height.  The cells are one group, "ID-cells" when h->id
   is set, so that a thumbnail can show them alone:
   <svg viewBox="x y width height"><use href="#ID-cells"/></svg>. */
void sb_svg_heatmap_box(const sb_heatmap *h, double box[4]);

/* Observed against expected over categories: a bar per category's
   expected count, the observed count as a point with its interval
   (expected +- z standard deviations of a binomial count), a label per
   category. */
typedef struct sb_bars {
    size_t count;
    const double *observed;       /* NULL: expected bars only */
    const double *expected;
    const char *const *labels;    /* count labels, or NULL */
    double total;                 /* samples: the binomial's N */
    double z;                     /* interval half-width in sd, 0: none */
    const char *x_label, *y_label;
    const char *id;
} sb_bars;
int sb_svg_bars(FILE *f, const sb_bars *b);

/* One line of a plot: its points joined, each with a marker and a
   tooltip.  A point whose value is NAN (or, on a logarithmic axis, not
   above 0) is a gap: the line stops before it and starts again after. */
typedef struct sb_curve {
    const char *name;             /* in the legend */
    const double *y;              /* one value per x; NAN: a gap */
    const char *const *tips;      /* each point's tooltip, or NULL (an
                                     entry NULL too): "NAME at X: Y" */
    int dashed;                   /* drawn dashed */
    const unsigned char *open;    /* per point, or NULL: nonzero draws its
                                     marker hollow (an estimate beside
                                     exact values) */
} sb_curve;

/* Curves over the same x values, on linear or logarithmic y, with an
   optional horizontal reference line.  Each curve has its own colour
   (classes c0 .. c5) and marker shape, so that it is told apart in
   greyscale too, and its name in the legend under the picture.  A
   logarithmic axis is ticked at powers of ten.  The picture carries its
   own style (a <style> in the <svg>): it needs no rule of the page's. */
typedef struct sb_plot {
    size_t count;                 /* points per curve */
    const double *x;              /* count values, increasing */
    const sb_curve *curves;
    size_t n_curves;
    int log_y;                    /* logarithmic y axis */
    double y_min, y_max;          /* the y axis; both 0: from the data
                                     (and the reference line) */
    const char *x_label, *y_label;
    const char *id;               /* the <svg> id, NULL: none */
    double hline;                 /* a dashed line across at this y;
                                     NAN: none */
    const char *hline_label;      /* written above its left end */
} sb_plot;
/* SB_OK, SB_EIO, or SB_EINVAL (no points, no x, or no curves). */
int sb_svg_plot(FILE *f, const sb_plot *p);

/* The page: <!DOCTYPE html>, the <head> with its inline style (no
   script, nothing fetched, readable printed), and <body> opened with
   'title' as its heading; sb_html_end closes it.  SB_OK or SB_EIO (the
   stream's error state). */
int sb_html_begin(FILE *f, const char *title);
int sb_html_end(FILE *f);

#endif /* SB_REPORTS_SVG_H */
