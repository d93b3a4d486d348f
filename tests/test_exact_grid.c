/*
 * test_exact_grid.c - the summary grid of exact reports
 * (reports/exact_grid.c) and the Markdown and HTML renderers that show it,
 * on reports made by hand: which reports share a grid, its columns, and
 * what a grid is refused for (one report, a deck too large, an outcome no
 * report names, an interrupted walk).  The same against real walks is
 * tests/test_exact_reports.py.
 */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include "sb_test.h"

#include <stdlib.h>
#include <string.h>
#include "reports/exact_grid.h"
#include "reports/render.h"
#include "shufflebias/status.h"

/* The six orders of 3 cards, lexicographic, as the walk lists them. */
static sb_card orders[6][3] = {
    {0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

/* A 3-card permutation report reaching the orders of 'which' (indices
   into 'orders', increasing) with 'fraction' each; the others listed as
   never reached when 'list_never'. */
typedef struct made {
    sb_exact_report rep;
    sb_exact_outcome out[6];
    sb_card never[6 * 3];
    char *matrix[9];
} made;

static void make(made *m, const char *name, const int *which, size_t k,
                 const char *fraction, double p, int list_never)
{
    memset(m, 0, sizeof *m);
    sb_exact_report *r = &m->rep;
    r->algorithm = name;
    r->kind = SB_KIND_PERMUTATION;
    r->n = r->len = 3;
    r->possible = "6";
    r->possible_d = 6;
    r->uniform = "1/6";
    r->unreached = k == 6 ? "0" : "some";
    r->tv = k == 6 ? "0/1" : "2/3";
    r->tv_d = k == 6 ? 0 : 2.0 / 3;
    r->unexplored = "0/1";
    r->verdict = k == 6 ? SB_EXACT_UNIFORM : SB_EXACT_BIASED;
    r->paths = k;
    r->max_ratio = p * 6;
    r->min_ratio = k == 6 ? p * 6 : 0;
    r->outcomes = m->out;
    r->n_outcomes = k;
    for (size_t i = 0; i < k; i++)
        m->out[i] = (sb_exact_outcome){ orders[which[i]], (char *)fraction,
                                        p, p * 6, 1 };
    r->never = m->never;
    for (int o = 0, j = 0; list_never && o < 6; o++) {
        while (j < (int)k && which[j] < o)
            j++;
        if (j < (int)k && which[j] == o)
            continue;
        memcpy(m->never + r->n_never++ * 3, orders[o], sizeof orders[o]);
    }
    r->rows = r->cols = 3;
    for (size_t i = 0; i < 9; i++)
        m->matrix[i] = "1/3";
    r->matrix = m->matrix;
}

static const int all6[] = {0, 1, 2, 3, 4, 5};
static const int cycles[] = {3, 4};   /* BCA and CAB: sattolo's */

static void test_one_grid_of_shared_outcomes(void **state)
{
    (void)state;
    made m[4];
    make(&m[0], "fair", all6, 6, "1/6", 1.0 / 6, 1);
    make(&m[1], "cycles", cycles, 2, "1/2", 0.5, 1);
    make(&m[2], "deal", all6, 6, "1/6", 1.0 / 6, 1);
    m[2].rep.kind = SB_KIND_DEAL;     /* other outcomes: a grid alone */
    make(&m[3], "cut", all6, 6, "1/6", 1.0 / 6, 1);
    m[3].rep.summary_only = 1;        /* interrupted: in no grid */
    sb_exact_report reps[4];
    for (size_t i = 0; i < 4; i++)
        reps[i] = m[i].rep;
    sb_exact_grid *g;
    size_t count;
    assert_int_equal(sb_exact_grids(reps, 4, &g, &count), SB_OK);
    assert_int_equal(count, 1);
    assert_int_equal(g[0].n_rows, 2);
    assert_int_equal(g[0].rows[0], 0);
    assert_int_equal(g[0].rows[1], 1);
    assert_int_equal(g[0].n_cols, 6);
    for (size_t c = 0; c < 6; c++)
        assert_memory_equal(g[0].cols[c], orders[c], sizeof orders[c]);
    assert_null(sb_exact_find(&reps[1], orders[0]));
    assert_string_equal(sb_exact_find(&reps[1], orders[3])->fraction, "1/2");
    assert_string_equal(sb_exact_find(&reps[0], orders[5])->fraction, "1/6");
    sb_exact_grids_free(g, count);
}

static void test_no_grid(void **state)
{
    (void)state;
    made m[2];
    sb_exact_grid *g;
    size_t count = 9;
    /* One report: its own table says it all. */
    make(&m[0], "fair", all6, 6, "1/6", 1.0 / 6, 1);
    assert_int_equal(sb_exact_grids(&m[0].rep, 1, &g, &count), SB_OK);
    assert_int_equal(count, 0);
    assert_null(g);
    /* Two that name only 4 of the 6 orders between them (never-reached
       ones not listed, as for a deal): a column would be missing. */
    make(&m[0], "a", cycles, 2, "1/2", 0.5, 0);
    static const int others[] = {0, 5};
    make(&m[1], "b", others, 2, "1/2", 0.5, 0);
    sb_exact_report reps[2] = { m[0].rep, m[1].rep };
    assert_int_equal(sb_exact_grids(reps, 2, &g, &count), SB_OK);
    assert_int_equal(count, 0);
    /* More outcomes than a grid has columns: 5 cards, 120 orders. */
    reps[0].possible_d = reps[1].possible_d = 120;
    reps[0].possible = reps[1].possible = "120";
    assert_int_equal(sb_exact_grids(reps, 2, &g, &count), SB_OK);
    assert_int_equal(count, 0);
}

/* What 'render' writes, as a string to free. */
static char *markdown_of(const sb_exact_report *reps, size_t m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(sb_render_exact_markdown(f, "T", reps, m, NULL), SB_OK);
    fclose(f);
    return buf;
}

static char *html_of(const sb_exact_report *reps, size_t m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(sb_render_exact_html(f, "T", reps, m, NULL, NULL),
                     SB_OK);
    fclose(f);
    return buf;
}

static size_t count_of(const char *s, const char *what)
{
    size_t k = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p++)
        k++;
    return k;
}

static void test_rendered_grids(void **state)
{
    (void)state;
    made m[2];
    make(&m[0], "fair", all6, 6, "1/6", 1.0 / 6, 1);
    make(&m[1], "cycles", cycles, 2, "1/2", 0.5, 1);
    sb_exact_report reps[2] = { m[0].rep, m[1].rep };
    char *md = markdown_of(reps, 2);
    assert_non_null(strstr(md, "\n## Every algorithm at a glance\n"));
    assert_non_null(strstr(md, "\n| algorithm | ABC | ACB | BAC | BCA | CAB "
                               "| CBA | distance |\n"));
    assert_non_null(strstr(md, "\n| `fair` | 1/6 | 1/6 | 1/6 | 1/6 | 1/6 | "
                               "1/6 | 0 |\n"));
    assert_non_null(strstr(md, "\n| `cycles` | 0 | 0 | 0 | 1/2 | 1/2 | 0 | "
                               "2/3 (0.6667) |\n"));
    free(md);
    md = markdown_of(reps + 1, 1);
    assert_null(strstr(md, "at a glance"));
    assert_non_null(strstr(md, "\n## `cycles`\n"));
    free(md);

    char *page = html_of(reps, 2);
    assert_int_equal(count_of(page, "<table class=\"grid\""), 1);
    /* A cell per order and report; the fair ones white at a ratio of 1,
       the never-reached the darkest blue, 3 times uniform red. */
    assert_int_equal(count_of(page, "<td class=\"num\" data-ratio="), 12);
    assert_int_equal(count_of(page, "data-ratio=\"1\" style=\"background:"
                                    "#ffffff"), 6);
    assert_int_equal(count_of(page, "data-ratio=\"0\" style=\"background:"
                                    "#053061"), 4);
    assert_int_equal(count_of(page, "data-ratio=\"3\" style=\"background:"
                                    "#67001f"), 2);
    assert_non_null(strstr(page, "<a href=\"#run-cycles\">"));
    assert_non_null(strstr(page, "<section class=\"run\" id=\"run-cycles\" "
                                 "data-verdict=\"biased\">"));
    assert_non_null(strstr(page, "<section class=\"run\" id=\"run-fair\" "
                                 "data-verdict=\"uniform\">"));
    assert_int_equal(count_of(page, "<rect class=\"cell"), 18);
    free(page);
}

/* An interrupted walk has no outcomes, matrix or distance: its section
   says so and draws nothing. */
static void test_interrupted_section(void **state)
{
    (void)state;
    made m;
    make(&m, "cut", all6, 6, "1/6", 1.0 / 6, 1);
    sb_exact_report r = m.rep;
    r.summary_only = 1;
    r.partial = 1;
    r.n_outcomes = r.n_never = 0;
    r.matrix = NULL;
    r.tv = NULL;
    r.explored = "1/2";
    r.unexplored = "1/2";
    r.reached = 4;
    char *page = html_of(&r, 1);
    assert_non_null(strstr(page, "data-verdict=\"inconclusive\""));
    assert_non_null(strstr(page, "INTERRUPTED"));
    assert_null(strstr(page, "<svg"));
    free(page);
    char *md = markdown_of(&r, 1);
    assert_non_null(strstr(md, "Interrupted after 6 paths: 4 of 6 orders "
                               "reached"));
    free(md);
}

/* The sorted profile of many levels: its most likely level is a sliver of
   the outcomes (here 1 in 10^6), narrower than a pixel, yet the picture
   must reach it - as the text states the maximum, so does the page.  A
   few levels are drawn a rectangle each, a thousand as one outline. */
static void profile_top(size_t n_levels, char **drawn)
{
    made m;
    make(&m, "many", all6, 6, "1/6", 1.0 / 6, 1);
    sb_exact_report r = m.rep;
    r.verdict = SB_EXACT_BIASED;
    r.n_outcomes = r.n_never = 0;
    r.matrix = NULL;
    r.possible = "1000000";
    r.possible_d = 1e6;
    r.tv = "1/10";
    r.tv_d = 0.1;
    sb_exact_level *levels = calloc(n_levels, sizeof *levels);
    assert_non_null(levels);
    uint64_t left = 1000000;
    for (size_t i = 0; i < n_levels; i++) {
        levels[i].fraction = "1/1000000";
        /* Rising from 0.5 to 0.9, then the top at 4. */
        levels[i].ratio = i + 1 < n_levels
                        ? 0.5 + 0.4 * (double)i / (double)n_levels : 4.0;
        levels[i].outcomes = i + 1 < n_levels ? left / (n_levels - i) : 1;
        if (i + 1 == n_levels)
            levels[i].outcomes = left;
        left -= levels[i].outcomes;
    }
    levels[n_levels - 2].outcomes += levels[n_levels - 1].outcomes - 1;
    levels[n_levels - 1].outcomes = 1;
    r.levels = levels;
    r.n_levels = n_levels;
    r.min_ratio = 0.5;
    r.max_ratio = 4.0;
    *drawn = html_of(&r, 1);
    free(levels);
}

static void test_profile_shows_its_top(void **state)
{
    (void)state;
    /* The axis of ratios up to 4 ends at 4.5 (ratio_axis): the top level
       160 px high at 4 is at y = 8 + 160 - 160 * 4 / 4.5 = 25.8. */
    char *page;
    profile_top(50, &page);
    const char *top = strstr(page, "data-ratio=\"4\"");
    assert_non_null(top);
    const char *rect = top;
    while (rect > page && strncmp(rect, "<rect", 5) != 0)
        rect--;
    double x, y, w;
    assert_int_equal(sscanf(rect, "<rect class=\"level\" x=\"%lf\" "
                            "y=\"%lf\" width=\"%lf\"", &x, &y, &w), 3);
    assert_true(w >= 1.0);
    assert_true(x + w <= 44 + 520 + 1e-9);
    assert_true(y > 25.7 && y < 25.9);
    free(page);
    profile_top(1000, &page);
    assert_non_null(strstr(page, "<path class=\"level\""));
    /* The last pixel column, 563 to 564, at the top level's height. */
    assert_non_null(strstr(page, "H563.0V25.8H564.0V168.0Z"));
    free(page);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_grid_of_shared_outcomes),
        cmocka_unit_test(test_no_grid),
        cmocka_unit_test(test_rendered_grids),
        cmocka_unit_test(test_interrupted_section),
        cmocka_unit_test(test_profile_shows_its_top),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
