/*
 * test_mixing_report.c - the reports of 'shufflebias mixing'
 * (reports/mixing.c) on a report built by hand: its JSON (keys, types,
 * null for what is not known, nothing of the machine with no_timing),
 * the text table and its answer line, the Markdown table, the HTML page
 * and its two pictures, and the release of what a report owns.
 *
 * The report has three pass counts: 1, exact and caught; 2, with no
 * distance known, a long exact fraction and no plan of decks; 3, exact
 * but not measured (the run was interrupted before it).
 */
#define _POSIX_C_SOURCE 200809L   /* strdup, strndup */
#include "sb_test.h"

#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "reports/mixing.h"
#include "shufflebias/status.h"

/* ---- helpers ---------------------------------------------------------- */

/* A fraction of 30 digits over 30, too long for a table. */
#define LONG_FRACTION "123456789012345678901234567890/" \
                      "246913578024691357802469135780"

static sb_mixing_report *made(void)
{
    sb_mixing_report *rep = calloc(1, sizeof *rep);
    assert_non_null(rep);
    rep->algorithm = "riffle";
    snprintf(rep->params, sizeof rep->params, "a=1,b=x");
    rep->n = 52;
    rep->exact = "rising-sequences";
    rep->samples = 100000;
    rep->seed = 7;
    rep->threads = 2;
    rep->stream_version = 2;
    rep->fail = 1e-6;
    rep->caught = 1;
    rep->missed = 2;
    rep->partial = 1;
    rep->seconds = 1.5;
    rep->n_rows = 3;
    rep->rows = calloc(3, sizeof *rep->rows);
    assert_non_null(rep->rows);

    sb_mixing_row *r = &rep->rows[0];
    r->passes = 1;
    r->tv = 1;
    r->tv_exact = strdup("1/1");
    r->separation = 1;
    r->separation_exact = strdup("1/1");
    r->solitaire = 0.75;
    r->solitaire_exact = strdup("3/4");
    r->measured = 1;
    r->verdict = SB_VERDICT_FAIL;
    r->decider = "rising";
    r->p = 0;
    r->decks = 40;
    r->decks_by = "rising";
    r->n_stats = 2;
    r->stats = calloc(2, sizeof *r->stats);
    assert_non_null(r->stats);
    r->stats[0] = (sb_mixing_stat){"rising", 3.5, 0, SB_VERDICT_FAIL, 40};
    r->stats[1] = (sb_mixing_stat){"position", 0, 0.5, SB_VERDICT_PASS, 0};
    r->bridge = 1;
    r->bridge_verdict = SB_VERDICT_FAIL;
    r->bridge_decider = "card-hand";
    r->bridge_p = 1e-20;

    r = &rep->rows[1];
    r->passes = 2;
    r->tv = NAN;
    r->separation = 0.5;
    r->separation_exact = strdup(LONG_FRACTION);
    r->solitaire = 0.55;
    r->measured = 1;
    r->verdict = SB_VERDICT_PASS;
    r->decider = "successions";
    r->p = 0.4;
    r->decks = 0;
    r->n_stats = 1;
    r->stats = calloc(1, sizeof *r->stats);
    assert_non_null(r->stats);
    r->stats[0] = (sb_mixing_stat){"successions", NAN, 0.4,
                                   SB_VERDICT_PASS, 0};
    r->bridge = 1;
    r->bridge_verdict = SB_VERDICT_PASS;
    r->bridge_decider = "hcp";
    r->bridge_p = 0.3;

    r = &rep->rows[2];
    r->passes = 3;
    r->tv = 0.25;
    r->tv_exact = strdup("1/4");
    r->separation = 0.875;
    r->separation_exact = strdup("7/8");
    r->solitaire = NAN;
    r->p = NAN;
    r->bridge_p = NAN;
    return rep;
}

static void unmade(sb_mixing_report *rep)
{
    sb_mixing_report_release(rep);
    free(rep);
}

typedef int (*renderer)(FILE *, const sb_mixing_report *,
                        const sb_render_opts *);

/* What was written to 'f', read back from its start as a string (free
   it); 'f' is closed. */
static char *read_back(FILE *f)
{
    assert_int_equal(fflush(f), 0);
    const long len = ftell(f);
    assert_true(len >= 0);
    rewind(f);
    char *buf = malloc((size_t)len + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
    buf[len] = '\0';
    assert_int_equal(fclose(f), 0);
    return buf;
}

/* What 'render' writes, as a string (free it). */
static char *rendered(renderer render, const sb_mixing_report *rep,
                      const sb_render_opts *o)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(render(f, rep, o), SB_OK);
    return read_back(f);
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

/* The line of 'text' that starts with 'start', copied into 'line'; 0
   when there is none. */
static int line_starting(const char *text, const char *start, char *line,
                         size_t len)
{
    for (const char *p = text; p && *p;) {
        const char *end = strchr(p, '\n');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        if (strncmp(p, start, strlen(start)) == 0) {
            snprintf(line, len, "%.*s", (int)n, p);
            return 1;
        }
        p = end ? end + 1 : NULL;
    }
    return 0;
}

/* The JSON a renderer writes, through sb_render_json_value, parsed. */
static json_t *json_written(const sb_mixing_report *rep,
                            const sb_render_opts *o, char **text)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(sb_render_json_value(f, sb_mixing_json(rep, o)), SB_OK);
    char *buf = read_back(f);
    json_error_t e;
    json_t *root = json_loads(buf, 0, &e);
    if (root == NULL) {
        print_error("not JSON: %s\n%s\n", e.text, buf);
        fail();
    }
    *text = buf;
    return root;
}

#define get(obj, key) json_object_get((obj), (key))

/* ---- JSON ------------------------------------------------------------- */

static void test_json(void **state)
{
    (void)state;
    sb_mixing_report *rep = made();
    sb_render_opts o = SB_RENDER_OPTS_DEFAULT;
    o.no_timing = 1;
    char *text;
    json_t *root = json_written(rep, &o, &text);
    /* NAN never written as a number. */
    assert_null(strstr(text, "nan"));
    assert_null(strstr(text, "NaN"));
    assert_null(strstr(text, "inf"));

    assert_string_equal(json_string_value(get(root, "command")), "mixing");
    assert_string_equal(json_string_value(get(root, "algorithm")), "riffle");
    json_t *params = get(root, "params");
    assert_int_equal(json_integer_value(get(params, "a")), 1);
    assert_string_equal(json_string_value(get(params, "b")), "x");
    assert_int_equal(json_integer_value(get(root, "n")), 52);
    assert_int_equal(json_integer_value(get(root, "samples")), 100000);
    assert_int_equal(json_integer_value(get(root, "seed")), 7);
    assert_int_equal(json_integer_value(get(root, "stream_version")), 2);
    assert_close(json_number_value(get(root, "fail_threshold")), 1e-6,
                 1e-12);
    assert_string_equal(json_string_value(get(root, "exact")),
                        "rising-sequences");
    assert_true(json_is_true(get(root, "partial")));
    /* Nothing that differs between machines. */
    assert_null(get(root, "timing"));
    assert_null(get(root, "threads"));

    json_t *rows = get(root, "rows");
    assert_int_equal(json_array_size(rows), 3);
    json_t *r0 = json_array_get(rows, 0), *r1 = json_array_get(rows, 1),
           *r2 = json_array_get(rows, 2);
    /* Pass count 1: exact, measured, caught. */
    assert_int_equal(json_integer_value(get(r0, "passes")), 1);
    assert_true(json_is_number(get(r0, "tv")));
    assert_string_equal(json_string_value(get(r0, "tv_exact")), "1/1");
    assert_string_equal(json_string_value(get(r0, "separation_exact")),
                        "1/1");
    json_t *nas = get(r0, "new_age_solitaire");
    assert_close(json_number_value(get(nas, "alice_wins")), 0.75, 1e-12);
    assert_string_equal(json_string_value(get(nas, "exact")), "3/4");
    assert_true(json_is_true(get(r0, "measured")));
    assert_string_equal(json_string_value(get(r0, "verdict")), "fail");
    assert_string_equal(json_string_value(get(r0, "deciding")), "rising");
    assert_true(json_is_number(get(r0, "p")));
    assert_true(json_number_value(get(r0, "p")) == 0);
    assert_true(json_is_integer(get(r0, "decks_needed")));
    assert_int_equal(json_integer_value(get(r0, "decks_needed")), 40);
    assert_string_equal(json_string_value(get(r0, "decks_needed_by")),
                        "rising");
    json_t *stats = get(r0, "statistics");
    assert_int_equal(json_array_size(stats), 2);
    json_t *s0 = json_array_get(stats, 0), *s1 = json_array_get(stats, 1);
    assert_string_equal(json_string_value(get(s0, "name")), "rising");
    assert_close(json_number_value(get(s0, "effect")), 3.5, 1e-12);
    assert_true(json_is_number(get(s0, "p")));
    assert_string_equal(json_string_value(get(s0, "verdict")), "fail");
    assert_int_equal(json_integer_value(get(s0, "decks_needed")), 40);
    assert_string_equal(json_string_value(get(s1, "verdict")), "pass");
    assert_true(json_is_null(get(s1, "decks_needed")));
    json_t *bridge = get(r0, "bridge");
    assert_true(json_is_object(bridge));
    assert_string_equal(json_string_value(get(bridge, "verdict")), "fail");
    assert_string_equal(json_string_value(get(bridge, "statistic")),
                        "card-hand");
    assert_close(json_number_value(get(bridge, "p")), 1e-20, 1e-9);

    /* Pass count 2: no tv (null, not NaN), a long fraction kept whole,
       Alice measured, no plan of decks (null, not 0). */
    assert_true(json_is_null(get(r1, "tv")));
    assert_true(json_is_null(get(r1, "tv_exact")));
    assert_string_equal(json_string_value(get(r1, "separation_exact")),
                        LONG_FRACTION);
    nas = get(r1, "new_age_solitaire");
    assert_close(json_number_value(get(nas, "alice_wins")), 0.55, 1e-12);
    assert_true(json_is_null(get(nas, "exact")));
    assert_string_equal(json_string_value(get(r1, "verdict")), "pass");
    assert_true(json_is_null(get(r1, "decks_needed")));
    assert_true(json_is_null(get(r1, "decks_needed_by")));
    assert_true(json_is_null(get(json_array_get(get(r1, "statistics"), 0),
                                 "effect")));

    /* Pass count 3: not measured, every battery key null. */
    assert_true(json_is_false(get(r2, "measured")));
    assert_string_equal(json_string_value(get(r2, "tv_exact")), "1/4");
    assert_true(json_is_null(get(get(r2, "new_age_solitaire"),
                                 "alice_wins")));
    assert_true(json_is_null(get(r2, "verdict")));
    assert_true(json_is_null(get(r2, "deciding")));
    assert_true(json_is_null(get(r2, "p")));
    assert_true(json_is_null(get(r2, "decks_needed")));
    assert_true(json_is_null(get(r2, "bridge")));
    assert_int_equal(json_array_size(get(r2, "statistics")), 0);

    json_t *ans = get(root, "answer");
    assert_int_equal(json_integer_value(get(ans, "samples")), 100000);
    assert_int_equal(json_integer_value(get(ans, "caught_up_to")), 1);
    assert_int_equal(json_integer_value(get(ans, "first_missed")), 2);
    json_decref(root);
    free(text);

    /* With timing: the seconds and the threads. */
    root = json_written(rep, NULL, &text);
    assert_close(json_number_value(get(get(root, "timing"), "seconds")), 1.5,
                 1e-12);
    assert_int_equal(json_integer_value(get(root, "threads")), 2);
    json_decref(root);
    free(text);

    /* Nothing caught, nothing missed: both null; no exact source. */
    rep->caught = rep->missed = 0;
    rep->exact = NULL;
    root = json_written(rep, &o, &text);
    assert_true(json_is_null(get(get(root, "answer"), "caught_up_to")));
    assert_true(json_is_null(get(get(root, "answer"), "first_missed")));
    assert_true(json_is_null(get(root, "exact")));
    json_decref(root);
    free(text);
    unmade(rep);
}

/* ---- text ------------------------------------------------------------- */

static void test_text(void **state)
{
    (void)state;
    sb_mixing_report *rep = made();
    sb_render_opts o = SB_RENDER_OPTS_DEFAULT;
    o.no_timing = 1;
    char *s = rendered(sb_render_mixing_text, rep, &o);
    char line[512];
    const char *title = "mixing: riffle, n = 52 (a=1,b=x), 100,000 decks "
                        "per pass count, seed 7\nbattery: 100,000 decks of "
                        "each pass count, fail below 1e-06 (Holm-adjusted "
                        "p)\n\n";
    assert_true(strncmp(s, title, strlen(title)) == 0);
    /* The header, then one line per pass count, right after it. */
    const char *head = strstr(s, "\npasses  tv");
    assert_non_null(head);
    assert_true(line_starting(head + 1, "passes", line, sizeof line));
    assert_contains(line, "separation");
    assert_contains(line, "Alice wins");
    assert_contains(line, "decks needed (by)");
    assert_contains(line, "bridge deal");
    const char *row = strchr(head + 1, '\n') + 1;
    for (unsigned long k = 1; k <= 3; k++) {
        char want[16];
        snprintf(want, sizeof want, "     %lu  ", k);
        assert_true(strncmp(row, want, strlen(want)) == 0);
        row = strchr(row, '\n') + 1;
    }
    assert_true(strncmp(row, "  * exact", 9) == 0);
    assert_true(line_starting(s, "     1  ", line, sizeof line));
    assert_contains(line, "1*");
    assert_contains(line, "0.7500*");
    assert_contains(line, "FAIL");
    assert_contains(line, "rising (< 1e-300)");
    assert_contains(line, "40 (rising)");
    assert_contains(line, "FAIL card-hand");
    assert_null(strstr(line, "1e-20"));
    assert_true(line_starting(s, "     2  ", line, sizeof line));
    assert_contains(line, "0.5000*");       /* the long fraction: marked */
    assert_contains(line, "0.5500 ");       /* Alice measured: unmarked */
    assert_contains(line, "successions (0.4000)");
    assert_true(strcmp(line + strlen(line) - 6, "  PASS") == 0);
    assert_true(line_starting(s, "     3  ", line, sizeof line));
    assert_contains(line, "0.2500*");
    assert_null(strstr(line, "PASS"));
    assert_null(strstr(line, "FAIL"));
    /* Where the exact values come from, the short fractions listed. */
    assert_contains(s, "  * exact: the rising-sequence law of Bayer and "
                       "Diaconis (1992)\n");
    assert_contains(s, "  1 pass      tv 1, separation 1, Alice wins 3/4\n");
    assert_contains(s, "  3 passes    tv 1/4, separation 7/8\n");
    assert_null(strstr(s, "1234567890"));
    /* The answer, the interruption, no time. */
    assert_contains(s, "\nat 100,000 decks the battery tells apart up to 1 "
                       "pass (2 passes pass)\n");
    assert_contains(s, "\ninterrupted: ");
    assert_null(strstr(s, "time:"));
    free(s);

    /* With timing; the exact figures of the walk over states. */
    rep->exact = "states";
    s = rendered(sb_render_mixing_text, rep, NULL);
    assert_contains(s, "\ntime: 1.50 s on 2 threads\n");
    assert_contains(s, "exact: a walk over the decks after each pass");
    free(s);

    /* Every pass count measured caught; none caught. */
    rep->caught = 3;
    rep->missed = 0;
    rep->partial = 0;
    s = rendered(sb_render_mixing_text, rep, &o);
    assert_contains(s, "at 100,000 decks the battery caught every pass "
                       "count measured, up to 3 passes\n");
    assert_null(strstr(s, "interrupted"));
    free(s);
    rep->caught = 0;
    rep->missed = 1;
    s = rendered(sb_render_mixing_text, rep, &o);
    assert_contains(s, "at 100,000 decks the battery caught none of the "
                       "pass counts measured\n");
    free(s);
    unmade(rep);
}

/* No battery and no bridge: their columns are left out. */
static void test_text_distances_only(void **state)
{
    (void)state;
    sb_mixing_report *rep = made();
    rep->samples = 0;
    rep->caught = rep->missed = 0;
    for (size_t i = 0; i < rep->n_rows; i++) {
        rep->rows[i].measured = 0;
        rep->rows[i].solitaire = NAN;
        free(rep->rows[i].solitaire_exact);
        rep->rows[i].solitaire_exact = NULL;
    }
    sb_render_opts o = SB_RENDER_OPTS_DEFAULT;
    o.no_timing = 1;
    char *s = rendered(sb_render_mixing_text, rep, &o);
    char line[512];
    assert_true(line_starting(s, "passes", line, sizeof line));
    assert_string_equal(line, "passes  tv       separation");
    assert_contains(s, "no decks measured");
    assert_contains(s, "the battery did not run");
    assert_null(strstr(s, "Alice"));
    free(s);
    unmade(rep);
}

/* ---- Markdown --------------------------------------------------------- */

static void test_markdown(void **state)
{
    (void)state;
    sb_mixing_report *rep = made();
    char *s = rendered(sb_render_mixing_markdown, rep, NULL);
    char line[1024];
    assert_true(strncmp(s, "## shufflebias mixing: riffle\n\n", 31) == 0);
    assert_contains(s, "riffle, n = 52 (a=1,b=x), 100,000 decks per pass "
                       "count, seed 7; stream version 2");
    assert_true(line_starting(s, "| passes |", line, sizeof line));
    assert_string_equal(line, "| passes | tv | separation | Alice wins | "
                        "verdict at 100,000 decks | decided by (p) | "
                        "decks needed (by) | bridge deal |");
    const char *head = strstr(s, "| passes |");
    const char *sep = strchr(head, '\n') + 1;
    assert_true(strncmp(sep, "|---:|---:|---:|---:|---|---|---|---|\n",
                        37) == 0);
    const char *row = strchr(sep, '\n') + 1;
    for (unsigned long k = 1; k <= 3; k++) {
        char want[16];
        snprintf(want, sizeof want, "| %lu |", k);
        assert_true(strncmp(row, want, strlen(want)) == 0);
        assert_int_equal(occurrences(row, "|") >= 9, 1);
        row = strchr(row, '\n') + 1;
    }
    assert_true(*row == '\n');
    assert_contains(s, "| 1 | 1 | 1 | 0.7500 = 3/4 | **FAIL** | rising "
                       "(&lt; 1e-300) | 40 (rising) | FAIL card-hand "
                       "(1e-20) |\n");
    assert_contains(s, "| 2 | - | 0.5000 (exact) | 0.5500 | PASS |");
    assert_contains(s, "| 3 | 0.2500 = 1/4 | 0.8750 = 7/8 | - | - | - | "
                       "- | - |\n");
    assert_contains(s, "Exact: the rising-sequence law of Bayer and "
                       "Diaconis (1992).");
    assert_contains(s, "**At 100,000 decks the battery tells apart up to 1 "
                       "pass (2 passes pass).**\n");
    assert_contains(s, "Interrupted:");
    assert_null(strstr(s, "time"));
    assert_null(strstr(s, "1.5"));
    free(s);
    unmade(rep);
}

/* ---- HTML ------------------------------------------------------------- */

/* The n-th <svg ...</svg> of a page (from 0), copied (free it). */
static char *svg_at(const char *page, size_t n)
{
    const char *p = page;
    for (size_t k = 0; k <= n; k++) {
        p = strstr(k ? p + 1 : p, "<svg");
        assert_non_null(p);
    }
    const char *end = strstr(p, "</svg>");
    assert_non_null(end);
    return strndup(p, (size_t)(end - p) + 6);
}

static void test_html(void **state)
{
    (void)state;
    sb_mixing_report *rep = made();
    sb_render_opts o = SB_RENDER_OPTS_DEFAULT;
    o.no_timing = 1;
    o.command_line = "shufflebias mixing riffle --html 'a&b.html'";
    char *s = rendered(sb_render_mixing_html, rep, &o);
    assert_true(strncmp(s, "<!DOCTYPE html>\n", 16) == 0);
    assert_contains(s, "</html>\n");
    assert_null(strstr(s, "<script"));
    assert_null(strstr(s, "<link"));
    assert_null(strstr(s, "http:"));
    assert_null(strstr(s, "https:"));
    assert_contains(s, "<title>shufflebias mixing: riffle</title>");
    /* The facts. */
    assert_contains(s, "<code class=\"cmd\">shufflebias mixing riffle "
                       "--html &#39;a&amp;b.html&#39;</code>");
    assert_contains(s, "<dt>seed</dt><dd>7</dd>");
    assert_contains(s, "<dt>decks per pass count</dt><dd>100,000</dd>");
    assert_contains(s, "<dt>stream version</dt><dd>2</dd>");
    assert_contains(s, "fail below 1e-06");
    assert_null(strstr(s, "<dt>time</dt>"));
    assert_contains(s, "At 100,000 decks the battery tells apart up to 1 "
                       "pass (2 passes pass).");
    /* Two pictures: the distances, the decks. */
    assert_int_equal(occurrences(s, "<svg"), 2);
    char *a = svg_at(s, 0), *b = svg_at(s, 1);
    assert_contains(a, "id=\"mixing-distance\"");
    assert_contains(a, "data-curves=\"3\"");
    /* A tooltip per point drawn: tv at 1 and 3, separation at 1, 2, 3,
       Alice at 1 and 2; the NAN ones are gaps. */
    assert_int_equal(occurrences(a, "<title>"), 7);
    assert_int_equal(occurrences(a, "<g class=\"pt"), 7 + 3);
    assert_contains(a, "<title>3 passes: tv 0.2500 (exact 1/4)</title>");
    assert_contains(a, "<title>2 passes: separation 0.5000 (exact)</title>");
    assert_contains(a, "<title>2 passes: Alice wins 0.5500 (an estimate)"
                       "</title>");
    /* tv: a gap at 2, so no line; separation: one line of three. */
    assert_int_equal(occurrences(a, "<path class=\"line\" d="), 2);
    assert_contains(a, "class=\"hline\"");
    /* The decks: log scale, one point (2 has no plan, 3 was not
       measured), the decks measured across, ticks at powers of ten. */
    assert_contains(b, "id=\"mixing-decks\"");
    assert_contains(b, "data-scale=\"log\"");
    assert_int_equal(occurrences(b, "<title>"), 1);
    assert_contains(b, "<title>1 pass: about 40 decks (rising)</title>");
    assert_int_equal(occurrences(b, "<line class=\"hline\""), 1);
    assert_contains(b, ">decks measured: 100,000</text>");
    const char *key = "class=\"tick ytick\"";
    size_t ticks = 0;
    for (const char *t = strstr(b, key); t; t = strstr(t + 1, key)) {
        char digits[32];
        size_t k = 0;
        for (const char *v = strchr(t, '>') + 1; *v != '<'
             && k + 1 < sizeof digits; v++)
            if (*v != ',')
                digits[k++] = *v;
        digits[k] = '\0';
        const double e = log10(strtod(digits, NULL));
        assert_true(fabs(e - round(e)) < 1e-12);
        ticks++;
    }
    assert_int_equal(ticks, 5);      /* 10 .. 100,000 */
    free(a);
    free(b);
    /* The table: a row per pass count, the verdicts in colour. */
    assert_contains(s, "<table class=\"mixing\">");
    assert_int_equal(occurrences(s, "<tr data-passes="), 3);
    assert_contains(s, "<tr data-passes=\"3\" data-verdict=\"none\">");
    assert_contains(s, "<span class=\"verdict v-fail\">FAIL</span>");
    assert_contains(s, "title=\"exact: " LONG_FRACTION "\"");
    free(s);

    /* With timing. */
    o.no_timing = 0;
    s = rendered(sb_render_mixing_html, rep, &o);
    assert_contains(s, "<dt>time</dt><dd>1.50 s on 2 threads</dd>");
    free(s);
    unmade(rep);
}

/* A report with no plan of decks anywhere draws one picture. */
static void test_html_no_decks(void **state)
{
    (void)state;
    sb_mixing_report *rep = made();
    rep->rows[0].decks = 0;
    char *s = rendered(sb_render_mixing_html, rep, NULL);
    assert_int_equal(occurrences(s, "<svg"), 1);
    assert_contains(s, "No statistic could plan");
    assert_null(strstr(s, "<script"));
    free(s);
    unmade(rep);
}

/* ---- release ---------------------------------------------------------- */

static void test_release(void **state)
{
    (void)state;
    sb_mixing_report *rep = made();
    sb_mixing_report_release(rep);
    assert_null(rep->rows);
    assert_int_equal(rep->n_rows, 0);
    assert_null(rep->algorithm);
    assert_int_equal(rep->samples, 0);
    assert_int_equal(rep->params[0], '\0');
    /* Twice, and on NULL, is harmless. */
    sb_mixing_report_release(rep);
    sb_mixing_report_release(NULL);
    free(rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_text_distances_only),
        cmocka_unit_test(test_markdown),
        cmocka_unit_test(test_html),
        cmocka_unit_test(test_html_no_decks),
        cmocka_unit_test(test_release),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
