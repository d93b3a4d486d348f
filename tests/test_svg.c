/*
 * test_svg.c - the SVG writer of the HTML reports (reports/svg.c): text
 * escaped, the colour scale (white at a ratio of 1, r and 1/r equally
 * strong on opposite sides), the heatmap's cells and tooltips, the bars,
 * the line plots (a logarithmic axis, gaps), and that everything written
 * is well-formed XML (checked here by a small parser, so that the test
 * needs no tool besides the compiler).
 */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include "sb_test.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "reports/svg.h"
#include "shufflebias/status.h"
#include "shufflebias/version.h"

/* ---- a well-formedness check ------------------------------------------ */

/* Whether 's' at '&' starts an entity XML knows without a DTD. */
static int entity_ok(const char *s, size_t *len)
{
    static const char *const named[] = {"&amp;", "&lt;", "&gt;", "&quot;",
                                        "&apos;"};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strncmp(s, named[i], strlen(named[i])) == 0) {
            *len = strlen(named[i]);
            return 1;
        }
    if (s[1] == '#') {
        size_t i = 2;
        while (isdigit((unsigned char)s[i]))
            i++;
        if (i > 2 && s[i] == ';') {
            *len = i + 1;
            return 1;
        }
    }
    return 0;
}

static int is_name(char c)
{
    return isalnum((unsigned char)c) || c == '-' || c == '_' || c == ':'
           || c == '.';
}

/* NULL when 'doc' is well-formed XML (with HTML's <meta> allowed
   unclosed, and a <!DOCTYPE>), else what is wrong. */
static const char *xml_error(const char *doc)
{
    static const char *const voids[] = {"meta"};
    char stack[64][32];
    size_t depth = 0, roots = 0;
    const char *s = doc;
    while (*s) {
        if (*s == '&') {
            size_t len;
            if (!entity_ok(s, &len))
                return "a bare '&' in text";
            s += len;
            continue;
        }
        if (*s == '>')
            return "a bare '>' in text";
        if (*s != '<') {
            s++;
            continue;
        }
        if (strncmp(s, "<!--", 4) == 0) {
            s = strstr(s, "-->");
            if (!s)
                return "an unclosed comment";
            s += 3;
            continue;
        }
        if (strncmp(s, "<!", 2) == 0) {
            s = strchr(s, '>');
            if (!s)
                return "an unclosed declaration";
            s++;
            continue;
        }
        int closing = s[1] == '/';
        s += closing ? 2 : 1;
        char name[32];
        size_t n = 0;
        while (is_name(*s) && n < sizeof name - 1)
            name[n++] = *s++;
        name[n] = '\0';
        if (n == 0)
            return "a '<' without a name";
        if (closing) {
            if (*s != '>')
                return "junk in a closing tag";
            s++;
            if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
                return "a closing tag that does not match";
            depth--;
            continue;
        }
        /* Attributes: name="value", each name once. */
        char seen[32][32];
        size_t n_seen = 0;
        for (;;) {
            while (isspace((unsigned char)*s))
                s++;
            if (*s == '>' || (s[0] == '/' && s[1] == '>'))
                break;
            char attr[32];
            size_t a = 0;
            while (is_name(*s) && a < sizeof attr - 1)
                attr[a++] = *s++;
            attr[a] = '\0';
            if (a == 0 || *s != '=' || s[1] != '"')
                return "an attribute not written name=\"value\"";
            for (size_t i = 0; i < n_seen; i++)
                if (strcmp(seen[i], attr) == 0)
                    return "an attribute twice";
            if (n_seen < 32)
                strcpy(seen[n_seen++], attr);
            s += 2;
            while (*s && *s != '"') {
                size_t len;
                if (*s == '<')
                    return "a '<' in an attribute";
                if (*s == '&') {
                    if (!entity_ok(s, &len))
                        return "a bare '&' in an attribute";
                    s += len;
                } else {
                    s++;
                }
            }
            if (!*s)
                return "an unclosed attribute";
            s++;
        }
        int empty = *s == '/';
        s += empty ? 2 : 1;
        for (size_t i = 0; i < sizeof voids / sizeof voids[0]; i++)
            if (strcmp(name, voids[i]) == 0)
                empty = 1;
        if (depth == 0)
            roots++;
        if (!empty) {
            if (depth == 64)
                return "too deep";
            strcpy(stack[depth++], name);
        }
    }
    if (depth)
        return "an element left open";
    if (roots != 1)
        return "not one root element";
    return NULL;
}

#define assert_well_formed(doc)                                          \
    do {                                                                 \
        const char *sb_e_ = xml_error(doc);                              \
        if (sb_e_) {                                                     \
            print_error("not well-formed: %s\n%s\n", sb_e_, (doc));      \
            fail();                                                      \
        }                                                                \
    } while (0)

/* The checker itself catches what it is there to catch. */
static void test_checker(void **state)
{
    (void)state;
    assert_null(xml_error("<svg a=\"1\"><g><rect/></g></svg>"));
    assert_null(xml_error("<p>a &amp; b &#8594;</p>"));
    assert_non_null(xml_error("<svg><g></svg>"));
    assert_non_null(xml_error("<p>a & b</p>"));
    assert_non_null(xml_error("<p a=1></p>"));
    assert_non_null(xml_error("<p a=\"1\" a=\"2\"></p>"));
    assert_non_null(xml_error("<p a=\"<\"></p>"));
    assert_non_null(xml_error("<p></p><p></p>"));
}

/* ---- helpers ---------------------------------------------------------- */

typedef struct written {
    char *buf;
    size_t len;
    FILE *f;
} written;

static void open_written(written *w)
{
    w->buf = NULL;
    w->len = 0;
    w->f = open_memstream(&w->buf, &w->len);
    assert_non_null(w->f);
}

static char *close_written(written *w)
{
    assert_int_equal(fclose(w->f), 0);
    return w->buf;
}

static size_t occurrences(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

#define assert_contains(haystack, needle)                                \
    do {                                                                 \
        if (strstr((haystack), (needle)) == NULL) {                      \
            print_error("'%s' not found in:\n%s\n", (needle),            \
                        (haystack));                                     \
            fail();                                                      \
        }                                                                \
    } while (0)

/* ---- escaping --------------------------------------------------------- */

static void test_escape(void **state)
{
    (void)state;
    written w;
    open_written(&w);
    sb_html_escape(w.f, "<a href=\"x\">Tom & Jerry's</a>");
    sb_html_escape(w.f, NULL);
    char *s = close_written(&w);
    assert_string_equal(s, "&lt;a href=&quot;x&quot;&gt;Tom &amp; "
                           "Jerry&#39;s&lt;/a&gt;");
    free(s);
}

/* ---- the colour scale ------------------------------------------------- */

static void rgb(const char c[8], int out[3])
{
    assert_int_equal(c[0], '#');
    assert_int_equal(strlen(c), 7);
    for (int k = 0; k < 3; k++) {
        char h[3] = {c[1 + 2 * k], c[2 + 2 * k], '\0'};
        out[k] = (int)strtol(h, NULL, 16);
    }
}

/* Rec. 601 luma: how light a colour reads, in grey. */
static double luma(const char c[8])
{
    int v[3];
    rgb(c, v);
    return 0.299 * v[0] + 0.587 * v[1] + 0.114 * v[2];
}

static void test_colour_centre(void **state)
{
    (void)state;
    char c[8];
    const double spans[] = {1.01, 1.5, 2, 10, 1e6};
    for (size_t i = 0; i < sizeof spans / sizeof spans[0]; i++) {
        sb_svg_colour(1.0, spans[i], c);
        assert_string_equal(c, "#ffffff");
    }
    /* The ends of the scale: RdBu's darkest classes, and beyond them the
       same (saturated); 0, never seen, is the darkest blue; NAN grey. */
    sb_svg_colour(4, 4, c);
    assert_string_equal(c, "#67001f");
    sb_svg_colour(100, 4, c);
    assert_string_equal(c, "#67001f");
    sb_svg_colour(0.25, 4, c);
    assert_string_equal(c, "#053061");
    sb_svg_colour(0, 4, c);
    assert_string_equal(c, "#053061");
    sb_svg_colour(NAN, 4, c);
    assert_string_equal(c, "#bdbdbd");
}

/* r and 1/r: the same class of RdBu on either side (log scale), equally
   light, one red and one blue; lighter towards 1. */
static void test_colour_symmetric(void **state)
{
    (void)state;
    const double span = 3;
    char up[8], down[8];
    /* At 3/5 of the way out: RdBu's third class on each side. */
    sb_svg_colour(pow(span, 0.6), span, up);
    sb_svg_colour(pow(span, -0.6), span, down);
    assert_string_equal(up, "#d6604d");
    assert_string_equal(down, "#4393c3");
    double last = 256;
    for (int i = 1; i <= 50; i++) {
        double r = pow(span, i / 50.0);
        sb_svg_colour(r, span, up);
        sb_svg_colour(1 / r, span, down);
        int u[3], d[3];
        rgb(up, u);
        rgb(down, d);
        assert_true(u[0] > u[2]);    /* red above 1 */
        assert_true(d[2] > d[0]);    /* blue below */
        /* RdBu's pairs are within 21 of each other in luma (the darkest
           pair: 72 and 93). */
        assert_true(fabs(luma(up) - luma(down)) <= 21);
        assert_true(luma(up) <= last);
        last = luma(up);
    }
}

static void test_span(void **state)
{
    (void)state;
    const double r[] = {1.0, 0.5, 1.5, NAN};
    assert_close(sb_svg_span(r, 4, 1.1, 100), 2.0, 1e-12);
    assert_close(sb_svg_span(r, 3, 3, 100), 3.0, 1e-12);
    const double zero[] = {0.0, 1.0};
    assert_close(sb_svg_span(zero, 2, 1.1, 16), 16.0, 1e-12);
    const double far[] = {50.0};
    assert_close(sb_svg_span(far, 1, 1.1, 16), 16.0, 1e-12);
}

/* ---- the heatmap ------------------------------------------------------ */

static void tip(const void *ctx, size_t r, size_t c, char *buf, size_t len)
{
    const double *ratio = ctx;
    snprintf(buf, len, "card %zu <%zu> & %.2f", r, c, ratio[r * 5 + c]);
}

static void test_heatmap_cells(void **state)
{
    (void)state;
    enum { R = 4, C = 5 };
    double ratio[R * C];
    for (size_t i = 0; i < R * C; i++)
        ratio[i] = 0.5 + 0.1 * (double)i;
    ratio[7] = NAN;
    ratio[8] = 0;
    /* The span of the ratios but the 0, which would make it the cap. */
    sb_heatmap h = {R, C, ratio, tip, ratio, "card", "position",
                    sb_svg_span(ratio + 9, R * C - 9, 1.1, 8), 0, 1, "h1",
                    0, NULL};
    written w;
    open_written(&w);
    assert_int_equal(sb_svg_heatmap(w.f, &h), SB_OK);
    char *s = close_written(&w);
    assert_well_formed(s);
    assert_contains(s, "<svg class=\"heatmap\" id=\"h1\" data-rows=\"4\" "
                       "data-cols=\"5\" data-row-label=\"card\" "
                       "data-col-label=\"position\"");
    assert_int_equal(occurrences(s, "<rect class=\"cell "), R * C);
    assert_int_equal(occurrences(s, "<title>"), R * C);
    /* Each cell once, its ratio and tooltip with it. */
    for (size_t r = 0; r < R; r++)
        for (size_t c = 0; c < C; c++) {
            char want[160];
            snprintf(want, sizeof want, "data-r=\"%zu\" data-c=\"%zu\" "
                     "data-ratio=\"", r, c);
            assert_int_equal(occurrences(s, want), 1);
            if (r * C + c == 7)
                snprintf(want, sizeof want, "data-r=\"1\" data-c=\"2\" "
                         "data-ratio=\"nan\"><title>card 1 &lt;2&gt; "
                         "&amp; nan</title>");
            else
                snprintf(want, sizeof want, "data-ratio=\"%.4g\"><title>"
                         "card %zu &lt;%zu&gt; &amp; %.2f</title>",
                         ratio[r * C + c], r, c, ratio[r * C + c]);
            assert_contains(s, want);
        }
    /* The colour classes: white at 1 (cell 5), none grey, 0 darkest
       blue, the largest ratio (2.4, the span) darkest red. */
    assert_contains(s, "class=\"cell k10\" x=\"0\" data-r=\"1\" "
                       "data-c=\"0\" data-ratio=\"1\"");
    assert_contains(s, "class=\"cell kn\" x=\"2\" data-r=\"1\"");
    assert_contains(s, "class=\"cell k0\" x=\"3\" data-r=\"1\"");
    assert_contains(s, "class=\"cell k20\" x=\"4\" data-r=\"3\"");
    /* The legend: its 21 steps and its ends, 1/span and span. */
    assert_contains(s, "class=\"legend\"");
    assert_contains(s, ">0.417<");
    assert_contains(s, ">2.4<");
    assert_int_equal(occurrences(s, "<rect class=\"k"), 21);
    free(s);
}

/* Without a tooltip function, each cell still has one; a bad heatmap is
   refused. */
static void test_heatmap_default_tip(void **state)
{
    (void)state;
    const double ratio[] = {1.0, 2.0};
    sb_heatmap h = {1, 2, ratio, NULL, NULL, "card", "hand", 2, 10, 0,
                    NULL, 0, NULL};
    written w;
    open_written(&w);
    assert_int_equal(sb_svg_heatmap(w.f, &h), SB_OK);
    char *s = close_written(&w);
    assert_well_formed(s);
    assert_contains(s, "<title>card 0, hand 1: ratio 2</title>");
    assert_null(strstr(s, "legend"));
    assert_int_equal(occurrences(s, "class=\"tick\""), 3);
    /* The frame around the cells (2 of 10 pixels by 1), without which
       white cells would not be seen. */
    assert_int_equal(occurrences(s, "class=\"frame\""), 1);
    assert_contains(s, "width=\"20\" height=\"10\"/>");
    free(s);
    /* Cells that stand for blocks of 4: the ticks number the table's
       columns, 0 and 4. */
    h.block = 4;
    open_written(&w);
    assert_int_equal(sb_svg_heatmap(w.f, &h), SB_OK);
    s = close_written(&w);
    assert_contains(s, "text-anchor=\"middle\">4</text>");
    assert_null(strstr(s, "text-anchor=\"middle\">1</text>"));
    free(s);
    h.block = 0;
    h.rows = 0;
    open_written(&w);
    assert_int_equal(sb_svg_heatmap(w.f, &h), SB_EINVAL);
    free(close_written(&w));
}

/* ---- the bars --------------------------------------------------------- */

static void test_bars(void **state)
{
    (void)state;
    /* 1000 samples over 4 categories expected 250 each: the sd of a
       count is sqrt(1000 * 0.25 * 0.75) = 13.69, so at z = 3 the
       interval is 208.9 .. 291.1; 320 is outside it, 240 inside. */
    const double obs[] = {240, 260, 180, 320};
    const double exp_[] = {250, 250, 250, 250};
    const char *const labels[] = {"0", "1", "2-3", "<4>"};
    sb_bars b = {4, obs, exp_, labels, 1000, 3, "value", "samples", "b1"};
    written w;
    open_written(&w);
    assert_int_equal(sb_svg_bars(w.f, &b), SB_OK);
    char *s = close_written(&w);
    assert_well_formed(s);
    assert_contains(s, "<svg class=\"bars\" id=\"b1\"");
    assert_int_equal(occurrences(s, "<rect class=\"exp\""), 4);
    assert_int_equal(occurrences(s, "<circle class=\"obs\""), 4);
    assert_int_equal(occurrences(s, "<line class=\"ci\""), 4);
    assert_int_equal(occurrences(s, "<g class=\"out\">"), 2);
    assert_contains(s, "<title>&lt;4&gt;: observed 320, expected 250 "
                       "(208.9..291.1 at 3 sd)</title>");
    assert_contains(s, "<title>0: observed 240, expected 250");
    assert_contains(s, ">2-3</text>");
    free(s);
    /* Expected alone: no points, no intervals. */
    sb_bars e = {4, NULL, exp_, NULL, 0, 0, NULL, NULL, NULL};
    open_written(&w);
    assert_int_equal(sb_svg_bars(w.f, &e), SB_OK);
    s = close_written(&w);
    assert_well_formed(s);
    assert_null(strstr(s, "<circle"));
    assert_null(strstr(s, "class=\"ci\""));
    free(s);
}

/* ---- the line plots --------------------------------------------------- */

/* The places of the data points of a plot, in order: the translate() of
   each <g class="pt" ...> (the legend's markers are "pt sample"). */
static size_t points(const char *svg, double *x, double *y, size_t most)
{
    const char *key = "<g class=\"pt\" transform=\"translate(";
    size_t n = 0;
    for (const char *p = strstr(svg, key); p && n < most;
         p = strstr(p + 1, key)) {
        assert_int_equal(sscanf(p + strlen(key), "%lf,%lf", &x[n], &y[n]),
                         2);
        n++;
    }
    return n;
}

/* A logarithmic axis: 10, 100 and 1000 equally spaced, so that 10 to
   1000 is twice 10 to 100; ticks at powers of ten only. */
static void test_plot_log(void **state)
{
    (void)state;
    const double x[] = {1, 2, 3};
    const double y[] = {10, 100, 1000};
    sb_curve c = {"decks", y, NULL, 0, NULL};
    sb_plot p = {3, x, &c, 1, 1, 0, 0, "passes", "decks", "p1", NAN, NULL};
    written w;
    open_written(&w);
    assert_int_equal(sb_svg_plot(w.f, &p), SB_OK);
    char *s = close_written(&w);
    assert_well_formed(s);
    assert_contains(s, "<svg class=\"plot\" id=\"p1\" data-curves=\"1\" "
                       "data-points=\"3\" data-scale=\"log\"");
    double px[4], py[4];
    assert_int_equal(points(s, px, py, 4), 3);
    assert_true(px[0] < px[1] && px[1] < px[2]);
    assert_true(py[0] > py[1] && py[1] > py[2]);   /* up the page */
    assert_true(fabs((py[0] - py[2]) - 2 * (py[0] - py[1])) < 0.02);
    /* The ticks: 10, 100 and 1,000, each a power of ten. */
    const char *key = "class=\"tick ytick\"";
    size_t ticks = 0;
    for (const char *t = strstr(s, key); t; t = strstr(t + 1, key)) {
        const char *v = strchr(t, '>') + 1;
        char digits[32];
        size_t k = 0;
        for (; *v != '<' && k + 1 < sizeof digits; v++)
            if (*v != ',')
                digits[k++] = *v;
        digits[k] = '\0';
        const double e = log10(strtod(digits, NULL));
        assert_true(fabs(e - round(e)) < 1e-12);
        ticks++;
    }
    assert_int_equal(ticks, 3);
    assert_contains(s, ">1,000</text>");
    /* One line through the three points, its default tooltips. */
    assert_int_equal(occurrences(s, "<path class=\"line\" d="), 1);
    assert_contains(s, "<title>decks at 2: 100</title>");
    free(s);
}

/* A NAN is a gap: the line stops and starts again, and the point is not
   drawn; on a log axis a 0 is a gap too.  A lone point keeps its marker
   without a line. */
static void test_plot_gaps(void **state)
{
    (void)state;
    const double x[] = {1, 2, 3, 4, 5, 6, 7, 8};
    const double y[] = {0.1, 0.2, NAN, 0.3, 0.4, 0.5, NAN, 0.6};
    const char *const tips[] = {"a", "b", "c", "d & e", "f", "g", "h", "i"};
    const unsigned char open[] = {0, 0, 0, 1, 1, 0, 0, 0};
    sb_curve c[2] = {{"tv <exact>", y, tips, 0, open},
                     {"none at all", NULL, NULL, 1, NULL}};
    sb_plot p = {8, x, c, 2, 0, 0, 1, "passes", "distance", NULL, 0.5,
                 "half & half"};
    written w;
    open_written(&w);
    assert_int_equal(sb_svg_plot(w.f, &p), SB_OK);
    char *s = close_written(&w);
    assert_well_formed(s);
    /* Runs 1-2, 4-6 and 8: two lines, six markers, two of them hollow. */
    assert_int_equal(occurrences(s, "<path class=\"line\" d="), 2);
    assert_int_equal(occurrences(s, "<g class=\"pt\" "), 4);
    assert_int_equal(occurrences(s, "<g class=\"pt open\" "), 2);
    assert_int_equal(occurrences(s, "<title>"), 6);
    assert_contains(s, "<title>d &amp; e</title>");
    assert_null(strstr(s, "<title>c</title>"));
    /* A fixed axis from 0 to 1, the reference line and its label, the
       legend with both names escaped, the second one dashed. */
    assert_contains(s, ">0.2</text>");
    assert_contains(s, ">0.8</text>");
    assert_contains(s, ">1</text>");
    assert_int_equal(occurrences(s, "<line class=\"hline\""), 1);
    assert_contains(s, ">half &amp; half</text>");
    assert_contains(s, ">tv &lt;exact&gt;</text>");
    assert_contains(s, "<g class=\"key c1 dashed\"");
    assert_contains(s, "<g class=\"curve c0\" data-name=\"tv "
                       "&lt;exact&gt;\"");
    /* Its own style: a page needs no rule for it. */
    assert_int_equal(occurrences(s, "<style>"), 1);
    assert_contains(s, ".plot .c1{color:");
    free(s);

    /* On a log axis, 0 and negative values are gaps as well. */
    const double z[] = {5, 0, 50, -1, 500, 5000, 0, 1};
    sb_curve d = {"decks", z, NULL, 0, NULL};
    sb_plot q = {8, x, &d, 1, 1, 0, 0, NULL, NULL, NULL, NAN, NULL};
    open_written(&w);
    assert_int_equal(sb_svg_plot(w.f, &q), SB_OK);
    s = close_written(&w);
    assert_well_formed(s);
    assert_int_equal(occurrences(s, "<g class=\"pt\" "), 5);
    assert_int_equal(occurrences(s, "<path class=\"line\" d="), 1);
    assert_null(strstr(s, "<line class=\"hline\""));
    free(s);

    /* Nothing to draw is refused. */
    q.count = 0;
    open_written(&w);
    assert_int_equal(sb_svg_plot(w.f, &q), SB_EINVAL);
    free(close_written(&w));
}

/* ---- the page --------------------------------------------------------- */

static void test_page(void **state)
{
    (void)state;
    written w;
    open_written(&w);
    assert_int_equal(sb_html_begin(w.f, "fisher-yates & co"), SB_OK);
    const double ratio[] = {1.0, 0.5, 2.0, 1.0};
    sb_heatmap h = {2, 2, ratio, NULL, NULL, "card", "position", 2, 0, 1,
                    NULL, 0, "a <label> of its own"};
    assert_int_equal(sb_svg_heatmap(w.f, &h), SB_OK);
    assert_int_equal(sb_html_end(w.f), SB_OK);
    char *s = close_written(&w);
    assert_true(strncmp(s, "<!DOCTYPE html>\n", 16) == 0);
    assert_well_formed(s);
    char want[96];
    snprintf(want, sizeof want, "<meta name=\"generator\" "
             "content=\"shufflebias %s\">", sb_version());
    assert_contains(s, want);
    assert_contains(s, "<meta charset=\"utf-8\">");
    assert_contains(s, "<title>fisher-yates &amp; co</title>");
    assert_contains(s, "<h1>fisher-yates &amp; co</h1>");
    assert_contains(s, "@media print");
    assert_contains(s, ".k10{fill:#ffffff}");
    assert_contains(s, ">a &lt;label&gt; of its own</text>");
    /* Nothing fetched, nothing run. */
    assert_null(strstr(s, "<script"));
    assert_null(strstr(s, "<link"));
    assert_null(strstr(s, "http:"));
    assert_null(strstr(s, "https:"));
    assert_null(strstr(s, "//"));
    assert_null(strstr(s, "url("));
    assert_null(strstr(s, "@import"));
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checker),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_colour_centre),
        cmocka_unit_test(test_colour_symmetric),
        cmocka_unit_test(test_span),
        cmocka_unit_test(test_heatmap_cells),
        cmocka_unit_test(test_heatmap_default_tip),
        cmocka_unit_test(test_bars),
        cmocka_unit_test(test_plot_log),
        cmocka_unit_test(test_plot_gaps),
        cmocka_unit_test(test_page),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
